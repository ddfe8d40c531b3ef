"""The GC-reserve reading's spare fitted near the onset of garbage collection from empty where the
onset itself does not reproduce the figures (a candidate, off by default).

**Why.** With ``discard_transient.SPARE_FROM_ONSET`` the reserve reading's spare is the onset
from empty. On deep-onset FEMU drives the onset reads FEMU's spare within about 1%, but a plan
level just past the floor's edge turns 1% of spare into ~9% of WAF: read with
``burst_start.LATE_START`` the 40% figure lies near FEMU's truth and ~9.5% below the onset's
reading, the reproduction test (``gc_reserve.ReserveForm.called_for``) counts a figure below the
reading in full, no reserve reading is offered and calibrate refuses
(bench/results/reserveflat/DIAGNOSIS.md, counterfactual A).

**What.** With :data:`SPARE_NEAR_ONSET` on, where a design's reserve reading with the spare pinned
to the onset is not offered although its floor is called for, the same reading is tried with its
spare fitted (:class:`NearOnsetForm`): the onset weighed as one figure, sd
``gc_reserve.ONSET_REL_SD`` (3%), and every WAF figure read after a discard still counted
one-sidedly against the reading at the spare being tried (``discard_transient.tolerated_waf``:
a figure above it within the transient allowance is reproduced). Where the pinned reading is
offered, or no floor is called for, the form is the pinned one and nothing changes. Judged by
bench/results/reservespare/RULE.md (its verdict: bench/results/reservespare/verdict.md).

**Narrowed.** Tried per design, a d-choices design's near-onset reading was offered beside
greedy's pinned one and took the weight (bench/results/reservespare/after_verdict.txt). With
:data:`ONLY_WHERE_NONE_PINNED` on as well, the near-onset form is tried only where no uniform
design's pinned reading is offered (:func:`near_allowed`), so only drives whose reserve readings
are all refused change. Judged by bench/results/reservenarrow/RULE.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from overprov.calibrate import discard_transient, gc_reserve
from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError

#: Try the reserve reading with its spare fitted near the onset where the onset-pinned one is not
#: offered (off: the onset-pinned reading only). Off: bench/results/reservespare/RULE.md.
SPARE_NEAR_ONSET = False

#: With :data:`SPARE_NEAR_ONSET`: the near-onset form only where no design's onset-pinned reading
#: is offered (off: tried per design). Off: bench/results/reservenarrow/RULE.md.
ONLY_WHERE_NONE_PINNED = False


def fit_near_onset(
    points: list[fitmod.Point], curve: fitmod.WafCurve, onset: float
) -> gc_reserve.ReserveSurrogate:
    """Least squares over the spare factor s with ``fit.py``'s objective, the onset one residual
    more, (ln(s ÷ onset) ÷ ONSET_REL_SD)², each WAF figure read after a discard counted as
    ``discard_transient.tolerated_points`` counts it against ``curve`` at s."""
    pinned = gc_reserve._fit_spare(points, curve, onset)  # its checks, and whether t_cmd is fitted
    fit_cmd = not pinned.fixed

    def objective(f: float) -> fitmod._Objective:
        probe = gc_reserve.ReserveSurrogate(f - 1.0, 1.0, 0.0, curve=curve)
        return fitmod._Objective(discard_transient.tolerated_points(points, probe.waf), fit_cmd,
                                 curve)  # fmt: skip

    def total(f: float) -> float:
        return objective(f)(f - 1.0)[0] + (math.log(f / onset) / gc_reserve.ONSET_REL_SD) ** 2

    s = fitmod._minimise(total, gc_reserve.SPARE_FACTOR_MIN, 1.0 + fitmod.RHO_MAX)
    _, t_cmd, t_page = objective(s)(s - 1.0)
    return gc_reserve.ReserveSurrogate(
        s - 1.0, t_page, t_cmd, None, list(pinned.fixed), total(s), curve
    )


@dataclass(frozen=True)
class NearOnsetForm(gc_reserve.ReserveForm):
    """The reserve reading with its spare fitted near the onset (:func:`fit_near_onset`), its
    floor read as the pinned reading reads it (``ReserveForm.floor_test``), its figures checked
    one-sidedly (``ReserveForm.checked_points``)."""

    def fit(self, points: list[fitmod.Point]) -> gc_reserve.ReserveSurrogate:
        test = self.floor_test(points)
        floor = test["called_for"]
        curve = gc_reserve.CappedCurve(self.curve, test["waf"]) if floor else self.curve
        s = fit_near_onset(points, curve, self.onset)  # type: ignore[arg-type]
        s.waf_floor = test["waf"] if floor else None
        s.floor_test = test
        return s


def near_allowed(
    forms: list[tuple[str, gc_reserve.ReserveForm]], points: list[fitmod.Point]
) -> bool:
    """Whether :func:`offered_form` may try the near-onset form: always, unless
    :data:`SPARE_NEAR_ONSET` and :data:`ONLY_WHERE_NONE_PINNED` are on and some design's pinned
    form of ``forms`` (``gc_reserve.design_forms``) is called for (one that cannot be fitted,
    ``ConfigError``, is not)."""
    if not (SPARE_NEAR_ONSET and ONLY_WHERE_NONE_PINNED):
        return True
    for _, form in forms:
        try:
            if form.called_for(points):
                return False
        except ConfigError:
            continue
    return True


def offered_form(
    form: gc_reserve.ReserveForm, points: list[fitmod.Point], near: bool = True
) -> gc_reserve.ReserveForm | None:
    """``form`` where it is called for (``ReserveForm.called_for``); with :data:`SPARE_NEAR_ONSET`
    on, the spare taken from the onset and ``near`` (:func:`near_allowed`), else its
    :class:`NearOnsetForm` where that is called for; else None."""
    if form.called_for(points):
        return form
    if not (near and SPARE_NEAR_ONSET and discard_transient.applies(form.onset)):
        return None
    near = NearOnsetForm(form.curve, form.model_rel_sd, onset=form.onset)
    return near if near.called_for(points) else None


def offered_forms(
    onset: float, cv_sd: float, points: list[fitmod.Point], skip_unfittable: bool = False
) -> Iterator[tuple[str, gc_reserve.ReserveForm]]:
    """(design, form) of each uniform design's reserve reading fitted to ``onset``
    (``gc_reserve.design_forms``) that :func:`offered_form` offers, in the designs' order,
    :func:`near_allowed` read once over them all. A design whose form cannot be fitted
    (``ConfigError`` from :func:`offered_form`) raises, or with ``skip_unfittable`` is passed
    over (the plausibility gate's reading)."""
    forms = gc_reserve.design_forms(onset, cv_sd)
    near = near_allowed(forms, points)
    for design, pinned in forms:
        try:
            form = offered_form(pinned, points, near)
        except ConfigError:
            if not skip_unfittable:
                raise
            continue
        if form is not None:
            yield design, form
