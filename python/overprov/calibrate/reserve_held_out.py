"""A reserve reading's leave-one-out counted only where the held-out fit is still a reserve
reading (:data:`SAME_FORM_ONLY`: on with femucarry's flags and ``mixture_centre.ON`` since
bench/foreign/results/femumedian/verdict.md; alone not met, below).

**Why** (bench/foreign/results/femuweight/DIAGNOSIS.md). ``evidence.assess`` weighs a reading by
its residuals and by each steady level predicted from the fit to the others. On typed figures at
two levels (``reserve_hull.floor_in_waf``) the reserve reading (``gc_reserve.ReserveForm``, no
onset) reads its victim floor from the lowest level, so holding that level out leaves a fit
without a floor (and holding the other out leaves one steady level, from which no floor is
tested either): each held-out fit is the plain, uncapped curve of the design, one parameter
fewer than the reading. Its prediction of the 0% level from the 40% one lies where the uncapped
curve runs towards an empty spare (WAF 250-380 for a figure of 8 on FEMU's drives), and the
designs' order there (greedy's curve rises slowest, then d-choices-8, -4, -2) sets their χ² apart
by about 100 on every such drive, whatever the drive: the weight goes to greedy's reserve reading
by a term that tests a reading other than the one weighed.

**What** (:func:`like_for_like`). With :data:`SAME_FORM_ONLY`, for a reserve reading offered to
typed figures without an onset (``reserve_hull.UndatedReserveForm``) whose fit to every figure
keeps a floor, the held-out terms of each steady level whose held-out fit keeps none are taken
out of its χ² (listed under ``held_out_without_floor``); its residuals and any held-out term
whose fit kept a floor stay. Where no such term is left the readings are weighed by their
residuals (and ``evidence.reproduces``): the figures do not tell the designs apart, and the
weights say so. Only readings ``reserve_hull.forms`` offers change, so with its flags off
(``reserve_hull.OFFERED``, ``steep_pair.HULL_WHERE_AMBIGUOUS``) only figures
``steep_pair.READ_AS_FLOOR`` reads. Judged under bench/foreign/results/femuweight/RULE.md:
**not met**, so off (bench/foreign/results/femuweight/verdict.md). The weights come out alike,
but every non-greedy reserve twin misses the measured 0% WAF (d-choices-8 by −20%, -4 by −34%,
-2 by −50%) and is set aside (``reserve_hull.twin_miss``), so greedy's answers as before: 0 of
4 fresh FEMU drives met both targets (WAF at 20% +6 to +13%); two that ``READ_AS_FLOOR`` alone
refused are answered. Judged with ``evidence.WAF_WEIGHTS`` off (its branch's base); with it on
(the default since bench/foreign/results/wisctiming/RULE.md) the designs are regrouped on the
WAF figures' own terms (``waf_chi2``), whose held-out part this flag does not drop.

**The WAF figures' share too** (:data:`WAF_TERMS_TOO`, on since femumedian's verdict). With
``evidence.WAF_WEIGHTS`` on the readings of one timing form share their class by ``waf_chi2``
(``evidence.waf_weights``), which still holds the held-out WAF errors :func:`like_for_like` took
out of ``chi2``: on FEMU's typed figures greedy's reserve reading keeps weight 1 (d-choices-8
1.5e-11, d-choices-4 1.6e-23) by the same uncapped held-out fit, through its WAF term alone
(waf_chi2 424 against 474 and 529; bench/foreign/results/femucarry/DIAGNOSIS.md). With it,
``waf_chi2`` is recomputed from the residuals and the held-out terms kept
(``evidence.waf_terms``), so both weighings compare like with like. Judged under
bench/foreign/results/femucarry/RULE.md with ``steep_pair.READ_AS_FLOOR``,
:data:`SAME_FORM_ONLY`, ``reserve_plateau.ON``, ``reserve_hull.FLOOR_NEEDS_SELECTIVE`` and
``reserve_hull.NONE_LINKS``: **not met** (bench/foreign/results/femucarry/verdict.md); all six on
with ``mixture_centre.ON`` since bench/foreign/results/femumedian/verdict.md.
The reserve readings then weigh 1/3 each and every fresh FEMU drive meets the IOPS target (WAF
worst 4.0-14.2% against 50-61% today), but 1 of 4 meets both: the equal mix carries
d-choices-4's reading, −24 to −32% where the floor gives way, into the answer. With the
readings' centre their mixture's median (``mixture_centre.ON``) the six met femumedian's rule
together: on by default (bench/foreign/results/femumedian/verdict.md; what that changed on the
tests' generated truths: bench/foreign/results/flipsix/CHANGED.md).
"""

from __future__ import annotations

import math
from typing import Any

from overprov.calibrate import evidence
from overprov.calibrate import fit as fitmod
from overprov.calibrate.reserve_hull import UndatedReserveForm
from overprov.errors import ConfigError

#: Count a reserve reading's held-out term only where the held-out fit keeps a floor (module
#: doc). On with femucarry's flags and ``mixture_centre.ON`` since
#: bench/foreign/results/femumedian/verdict.md (alone not met). Off: every held-out term
#: counts, as ``evidence.assess`` adds it.
SAME_FORM_ONLY = True
#: With :data:`SAME_FORM_ONLY`, take the same held-out terms out of ``waf_chi2`` (the share
#: ``evidence.WAF_WEIGHTS`` weighs by) as well (module doc). On since
#: bench/foreign/results/femumedian/verdict.md (with the other five and ``mixture_centre.ON``). Off:
#: ``waf_chi2`` as assessed.
WAF_TERMS_TOO = True


def levels_without_floor(form: Any, points: list[fitmod.Point]) -> list[float]:
    """The steady levels whose held-out fit (the reading fitted to the other figures) keeps no
    floor, where the fit to every figure keeps one; [] where it keeps none."""
    if getattr(form.fit(points), "waf_floor", None) is None:
        return []
    out = []
    for i, p in enumerate(points):
        if p.fresh:
            continue
        try:
            held = form.fit([q for j, q in enumerate(points) if j != i])
        except ConfigError:
            continue  # assess counts no term for a level it cannot hold out
        if getattr(held, "waf_floor", None) is None:
            out.append(p.extra_op_percent)
    return out


def like_for_like(
    ev: dict[str, Any], form: Any, points: list[fitmod.Point], cv_sd: float
) -> dict[str, Any]:
    """``ev`` (``evidence.assess``'s record of ``form`` on ``points``, ``cv_sd`` the model-form
    error it widened the held-out figures by) with the held-out terms of
    :func:`levels_without_floor` taken out of its χ²."""
    levels = set(levels_without_floor(form, points))
    if not levels:
        return ev
    central = form.fit(points)
    sd_at = {
        (p.extra_op_percent, what): math.hypot(evidence._sd(p, what), cv_sd)
        for p in points
        if not p.fresh
        for what, _ in evidence.log_errors(central, p)
    }
    dropped = [
        h for h in ev["held_out"] if h["extra_op_percent"] in levels and "queue_depth" not in h
    ]
    chi2 = sum((h["log_error"] / sd_at[h["extra_op_percent"], h["figure"]]) ** 2 for h in dropped)
    kept = [h for h in ev["held_out"] if h not in dropped]
    out = {**ev, "chi2": ev["chi2"] - chi2, "held_out": kept, "held_out_without_floor": dropped}
    if WAF_TERMS_TOO and "waf_chi2" in ev:
        out.update(evidence.waf_terms(ev["residuals"], kept, points, cv_sd))
    return out


def reweighed(
    forms: dict[Any, Any], evidences: dict[Any, dict[str, Any]], points: list[fitmod.Point],
    cv_sd: float,
) -> dict[Any, dict[str, Any]]:  # fmt: skip
    """With :data:`SAME_FORM_ONLY`, :func:`like_for_like` of each undated reserve reading's
    evidence (``reserve_hull.UndatedReserveForm``); {} when off (``spare_readings.weigh``)."""
    if not SAME_FORM_ONLY:
        return {}
    return {r: like_for_like(evidences[r], f, points, cv_sd) for r, f in forms.items()
            if isinstance(f, UndatedReserveForm) and r in evidences}  # fmt: skip
