"""A reading of the spare for a controller that holds free NAND as a garbage-collection
reserve, with a victim floor that caps WAF.

Some controllers run background garbage collection to keep a share of their blocks free
whatever the data: FEMU's black-box SSD keeps 65 of its 256 lines free while a victim qualifies
(``gc_thres_pcent``), MQSim up to ``GC_Exec_Threshold`` of each plane's blocks. NAND held free
holds no data, so it is no spare to the collector: what is left of the native spare after the
reserve may be nothing, or less than nothing (a reserve larger than the NAND beyond the user
space), and the extra OP is then the collector's only spare. When the data no longer fits
beside the reserve the reserve gives way, and what sets WAF is the victim the background
collector accepts: FEMU takes a victim only with at least 1/8 of its pages invalid, so WAF
stays at 1 ÷ (1/8) = 8 at every level where the greedy victim has fewer (docs/
calibrate-validation.md, "A fourth FTL, held out: FEMU's black-box SSD").

The reading (:class:`ReserveForm`)::

    ρ(x)   = s / (1 − x) − 1            s = 1 + ρ₀ − reserve, fitted down to SPARE_FACTOR_MIN
    WAF(x) = min(curve(ρ(x)), W_floor)   W_floor: the victim floor, fitted or none
    1/IOPS = t_cmd + WAF(x) · t_page     as ``fit.py``

The reserve and the native spare are one parameter (their difference is all the figures see);
the effective-spare reading is this one with ρ₀ ≥ ``fit.RHO_MIN`` and no floor. The floor is
a structural choice, fitted only when the figures call for it: the WAF the lowest level's
figures read lies below what the curve fitted to the other levels predicts there by more than
:data:`FLOOR_SIGMAS` standard errors of such a prediction (the reading's spread and the
model-form error, ``model_rel_sd``). The lowest level's figures read a WAF two ways
(:func:`floor_reading`): its WAF figure (write counters), and its IOPS figure read through the
t_cmd and t_page fitted to the other levels (1/IOPS = t_cmd + WAF·t_page), weighed by their
spreads; so a leave-one-out fit that holds out the lowest level's WAF figure still reads the
floor from its IOPS figure. Then W_floor is that reading and ρ₀ is refitted with the curve
capped. Otherwise there is no floor and nothing distinguishes this reading from the effective
one but the lower bound on ρ₀. A floor above the fitted levels' WAF cannot be fitted, and is
not: without a figure at or below the level where the cap binds, the figures do not show it.

Its evidence is weighed as every reading's (``evidence.assess``): it counts one parameter more
than the effective reading when the floor is fitted (:attr:`ReserveSurrogate.waf_floor`). It
is offered (:meth:`ReserveForm.called_for`) only where the floor is called for and the capped
fit reproduces its own figures within their noise (``evidence.reproduces``): the floor is read
through the IOPS form, and where that form misses the figures (MQSim's IOPS fall ten-fold
while its WAF falls four-fold) a floor is not identified.

Not part of typed figures' readings: ``spare_readings.read_all`` does not offer it, and
calibrate holds out whole levels (a level's IOPS and WAF are one point), where no figure at the
lowest level is left to read the floor from. Checked at the surrogate level
(``bench/gc_reserve_bench.py``, each figure a point of its own): the first form (the floor from
the WAF figure alone) under ``bench/foreign/results/gc-reserve/RULE.md``, not adopted; this
form under ``bench/foreign/results/gc-reserve2/RULE.md``, not adopted either: within 0.1% where
no one-spare curve passes through the plan's figures, but 10.9% off in median (the rule's
bound: 10%) on a drive where the d-choices d = 2 effective reading does and keeps a quarter of
the weight (docs/calibrate-validation.md, "A controller-held GC reserve and a victim floor").
Weighed on the onset of garbage collection from empty as well (:func:`with_onset`), under
``bench/foreign/results/gc-onset/RULE.md``: within 1.6% in median on every FEMU drive's plan
cases, unseen ones included, but one level held out of a seen drive whose other levels all sit
on the floor is 34% off (the spare runs to its bound, onset or not): not adopted either. With
the spare fitted to the onset as well (:attr:`ReserveForm.onset`), under
``bench/foreign/results/gc-onset-fit/RULE.md``: that level 11% off on an unseen drive of the
same pattern (baseline 39%), every held-out WAF at 10–30% of the unseen drives within 3.1%, but
one fitted figure 1.01 points worse than the baseline's (+1.16% against −0.15%): not adopted
(docs/calibrate-validation.md, "The onset of garbage collection from empty"). The same form fed
the onset calibrate's plan dates (``gc_onset.py``), under
``bench/foreign/results/gc-onset-plan/RULE.md`` (fitted figures judged against their noise,
2%): passed, on three more unseen FEMU drives within 3.6% at 10–30% where the reserve binds
(docs/calibrate-validation.md, "The onset calibrate's plan dates").

**In calibrate** (that rule's form): a measured target whose measurement dated the onset from
empty is offered this reading fitted to it, per uniform GC design, weighed with the target's own
reading (``reserve_reading.py``); its twin carries the reserve and the floor (``twin.GcReserve``,
the core's ``[ftl] gc_victim_min_invalid_fraction`` and ``gc_forced_free_blocks``) and
reproduces this surrogate's WAF at 0–40% (tests/calibrate/test_twin_reserve.py). The plan dates
that onset with ``plan.ONSET_FROM_EMPTY`` (docs/calibrate-validation.md, "The reserve reading
in calibrate"), and the spare is the onset itself with ``discard_transient.SPARE_FROM_ONSET``,
both on by default (bench/foreign/results/onset-tolerant/verdict.md). Typed figures have no
onset and are read as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from overprov.calibrate import discard_transient, evidence, gc_designs
from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError

#: A floor is fitted when the WAF the lowest level's figures read lies this many standard
#: errors of a held-out prediction below the curve fitted to the other levels.
FLOOR_SIGMAS = 3.0
#: The smallest spare factor 1 + ρ₀ − reserve searched: a reserve of up to half the user
#: capacity beyond the native spare.
SPARE_FACTOR_MIN = 0.5
#: The relative sd of the onset figure (:func:`with_onset`) as a reading of the spare factor:
#: fixed before any onset was measured, above the figure's resolution (under 0.2%) to leave
#: room for a collector that starts a few blocks before or after the free NAND runs out.
ONSET_REL_SD = 0.03
#: With the onset of garbage collection from empty given (:attr:`ReserveForm.onset`), a floor is
#: called for only where that onset lies below this spare factor: the collector copied before
#: the host had written the user capacity once, so it held free NAND beyond the native spare (a
#: reserve that binds). A collector without a reserve starts when its native spare runs out, at
#: 1 + ρ₀ less its trigger's few blocks, above 1. On every stored FEMU plan case the reserve
#: reading kept weight exactly where the onset lay below 1 (0.42-0.99; none at 1.08-1.30), and
#: the five simulated drives without a reserve it was called for on lay at 1.05-1.15
#: (docs/calibrate-validation.md, "A floor test that does not fire on a gentle collector").
ONSET_RESERVE_BELOW = 1.0


@dataclass(frozen=True)
class CappedCurve:
    """``curve`` capped at ``floor`` (the victim floor's WAF)."""

    curve: fitmod.WafCurve
    floor: float

    def __call__(self, rho: float) -> float:
        return min(self.curve(rho), self.floor)

    @property
    def description(self) -> str:
        base = getattr(self.curve, "description", "greedy mean-field model, uniform random")
        return f"{base}, capped at WAF {self.floor:.3g} (a victim floor)"


@dataclass
class ReserveSurrogate(fitmod.Surrogate):
    """The fit's surrogate with the reserve reading's two extras: ``native_op`` may be negative
    (the spare beyond the reserve), and ``waf_floor`` (None: no floor fitted)."""

    waf_floor: float | None = None
    floor_test: dict = field(default_factory=dict)
    """Why a floor was fitted or not: the lowest level, its figure, the curve's prediction
    there from the other levels and the threshold (log ratio)."""


def _fit_spare(
    points: list[fitmod.Point], curve: fitmod.WafCurve, onset: float | None = None
) -> ReserveSurrogate:
    """Least squares over the spare factor s in [SPARE_FACTOR_MIN, 1 + RHO_MAX] (ρ₀ = s − 1,
    negative allowed) with ``fit.py``'s objective; t_cmd held at 0 as ``fit.fit`` holds it.
    ``onset`` (:attr:`ReserveForm.onset`): the measured onset from empty, one more residual,
    (ln(s ÷ onset) ÷ ONSET_REL_SD)²; with ``discard_transient.SPARE_FROM_ONSET`` s is the onset
    itself (in that range), and only the times are fitted."""
    n_iops = sum(1 for p in points if p.iops)
    n_waf = sum(1 for p in points if p.waf is not None)
    if n_waf == 0 and n_iops < 2:
        raise ConfigError("the reserve reading needs a WAF figure or two IOPS figures")
    fit_cmd = n_iops + n_waf >= 3 and n_iops >= 2
    fixed = [] if fit_cmd else ["t_cmd_us = 0: too few points to fit a controller time"]
    cost_at = fitmod._Objective(points, fit_cmd, curve)

    def total(f: float) -> float:
        extra = (math.log(f / onset) / ONSET_REL_SD) ** 2 if onset else 0.0
        return cost_at(f - 1.0)[0] + extra

    if discard_transient.applies(onset):
        s = min(max(onset, SPARE_FACTOR_MIN), 1.0 + fitmod.RHO_MAX)  # type: ignore[type-var]
    else:
        s = fitmod._minimise(total, SPARE_FACTOR_MIN, 1.0 + fitmod.RHO_MAX)
    _, t_cmd, t_page = cost_at(s - 1.0)
    return ReserveSurrogate(s - 1.0, t_page, t_cmd, None, fixed, total(s), curve)


def floor_reading(
    low: list[fitmod.Point], others: fitmod.Surrogate, model_rel_sd: float
) -> dict | None:
    """The WAF the lowest level's figures read, and its relative sd: the WAF figure (the
    write counters) and the WAF its IOPS figure implies through the controller and page times
    fitted to the other levels, 1/IOPS = t_cmd + WAF·t_page (``fit.py``), each weighed by the
    inverse of its variance in log. The IOPS figure's reading carries the model-form error
    (``model_rel_sd``: the form may not hold on the drive) beside its own spread, carried
    through the subtraction of t_cmd. None when the level has neither figure (or its IOPS
    figure implies no WAF of at least 1)."""
    parts: list[tuple[str, float, float]] = []  # (source, ln WAF, sd)
    for p in low:
        if p.waf is not None:
            parts.append(("waf", math.log(p.waf), max(p.waf_rel_sd, fitmod.MIN_REL_SD)))
        if p.iops and others.t_page_us > 0:
            y = 1e6 / p.iops
            implied = (y - others.t_cmd_us) / others.t_page_us
            if implied >= 1.0:
                spread = max(p.iops_rel_sd, fitmod.MIN_REL_SD) * y / (y - others.t_cmd_us)
                parts.append(("iops", math.log(implied), math.hypot(spread, model_rel_sd)))
    if not parts:
        return None
    inv = [1.0 / sd**2 for _, _, sd in parts]
    log_waf = sum(v * w for (_, v, _), w in zip(parts, inv, strict=True)) / sum(inv)
    return {
        "waf": math.exp(log_waf),
        "sd": 1.0 / math.sqrt(sum(inv)),
        "read_from": {src: math.exp(v) for src, v, _ in parts},
    }


@dataclass(frozen=True)
class ReserveForm:
    """How the reserve reading fits figures (``evidence.assess`` calls :meth:`fit`): ``curve``
    the GC design's WAF curve, ``model_rel_sd`` the model-form error of a held-out prediction
    (the floor test's scale), ``onset`` the measured onset of garbage collection from empty
    (:func:`with_onset`) when the spare is fitted to it as well (None: weighed on it only, as
    the rule of ``bench/foreign/results/gc-onset/RULE.md`` evaluated it; given: a candidate
    after that rule, where every fitted level sits on the floor and no WAF figure fixes the
    spare — not run under a rule)."""

    curve: fitmod.WafCurve = fitmod.waf_at
    model_rel_sd: float = 0.0
    native_op: None = None  # ρ₀ is fitted (evidence.n_parameters)
    fit_efficiency: bool = False
    onset: float | None = None

    def floor_test(self, points: list[fitmod.Point]) -> dict:
        """Whether the lowest level's figures call for a floor, and the floor they read
        (module docstring, :func:`floor_reading`); with the onset from empty given, never where
        it lies at or above :data:`ONSET_RESERVE_BELOW`."""
        if self.onset is not None and self.onset >= ONSET_RESERVE_BELOW:
            return {
                "called_for": False,
                "why": f"the onset from empty ({self.onset:.4g}) lies at or above "
                f"{ONSET_RESERVE_BELOW:g}: no reserve beyond the native spare",
            }
        steady = [p for p in points if not p.fresh]
        levels = sorted({p.extra_op_percent for p in steady})
        if len(levels) < 2:
            return {"called_for": False, "why": "no figure below another level"}
        low = [p for p in steady if p.extra_op_percent == levels[0]]
        rest = [p for p in points if p.fresh or p.extra_op_percent != levels[0]]
        try:
            s = _fit_spare(rest, self.curve, self.onset)
        except ConfigError:
            return {"called_for": False, "why": "the other levels cannot be fitted alone"}
        reading = floor_reading(low, s, self.model_rel_sd)
        if reading is None:
            return {"called_for": False, "why": "no WAF or IOPS figure at the lowest level"}
        predicted = s.waf(levels[0])
        sd = math.hypot(reading["sd"], self.model_rel_sd)
        log_ratio = math.log(predicted / reading["waf"])
        return {
            "called_for": log_ratio > FLOOR_SIGMAS * sd,
            "extra_op_percent": levels[0],
            **reading,
            "predicted_from_others": predicted,
            "log_ratio": log_ratio,
            "threshold": FLOOR_SIGMAS * sd,
        }

    def fit(self, points: list[fitmod.Point]) -> ReserveSurrogate:
        test = self.floor_test(points)
        curve = CappedCurve(self.curve, test["waf"]) if test["called_for"] else self.curve
        s = _fit_spare(points, curve, self.onset)
        s.waf_floor = test["waf"] if test["called_for"] else None
        s.floor_test = test
        return s

    def called_for(self, points: list[fitmod.Point]) -> bool:
        """Whether the figures call for a floor (the reading then differs from the effective
        one) and the capped fit reproduces the figures it was fitted to within their noise
        (``evidence.reproduces``): the floor is read through 1/IOPS = t_cmd + WAF·t_page, so
        where that form misses its own figures the floor is not identified."""
        if not self.floor_test(points)["called_for"]:
            return False
        ev = evidence.assess(self, self.checked_points(points), self.model_rel_sd)  # type: ignore[arg-type]
        return evidence.reproduced(ev, untested=False)

    def checked_points(self, points: list[fitmod.Point]) -> list[fitmod.Point]:
        """The figures the reading is checked against (``evidence.assess``): ``points``, or with
        the spare taken from the onset (``discard_transient.applies``) each WAF figure read after
        a discard as it counts against this reading's WAF (``discard_transient.tolerated_points``:
        one-sided, within the transient allowance). The fit does not move with them: with the
        spare pinned, WAF figures set no parameter."""
        if not discard_transient.applies(self.onset):
            return points
        return discard_transient.tolerated_points(points, self.fit(points).waf)


def design_forms(onset: float, cv_sd: float) -> list[tuple[str, ReserveForm]]:
    """The reserve reading of each uniform GC design (``gc_designs.UNIFORM_DESIGNS``: its WAF
    curve, greedy's the fit's own) fitted to the onset of garbage collection from empty
    ``onset``; whether the figures call for it is :meth:`ReserveForm.called_for`."""
    return [
        (design, ReserveForm(gc_designs.waf_curve(design), cv_sd, onset=onset))
        for design in gc_designs.UNIFORM_DESIGNS
    ]


def onset_spare_factor(s: fitmod.Surrogate) -> float:
    """The onset of garbage collection from an empty drive a reading predicts: host writes,
    ÷ the user capacity, before the collector's first copy. Until then every write takes free
    NAND, so the onset is the NAND the collector lets the data fill, 1 + the spare it works
    with at 0% extra OP: 1 + ρ₀ for the effective spare, 1 + ρ₀ − reserve for this reading
    (ρ₀ below zero), 1 + k·ρ₀ for the raw spare used k times."""
    return 1.0 + s.spare_efficiency * s.native_op


def with_onset(ev: dict, s: fitmod.Surrogate, onset: float, rel_sd: float = ONSET_REL_SD) -> dict:
    """``evidence.assess``'s result ``ev`` for surrogate ``s`` with one figure more: the
    measured onset of garbage collection from empty (host writes to the first GC copy ÷ the
    user capacity, at the plan's lowest level), which the reading predicts without being
    fitted to it (:func:`onset_spare_factor`). Its squared log error over ``rel_sd`` is added
    to the residual χ² (a figure the reading must reproduce: ``evidence.reproduces``) and to
    χ².

    Why this figure: on the plan's figures (IOPS and WAF at 0% and 40%, FOB) a reserve with a
    victim floor and one effective spare with a gentler (d-choices) curve both pass through
    the 0% and 40% figures and the IOPS form is the same for both, so only the leave-one-out
    terms tell them apart; their spares do not agree (FEMU's 32-LUN drive with a 30% reserve:
    1 − 0.082 against 1 + 0.096), and the onset reads the spare directly
    (docs/calibrate-validation.md, "The onset of garbage collection")."""
    predicted = onset_spare_factor(s)
    e = math.log(predicted / onset) if predicted > 0 else math.inf
    term = (e / rel_sd) ** 2
    return {
        **ev,
        "chi2": ev["chi2"] + term,
        "residual_chi2": ev["residual_chi2"] + term,
        "n_figures": ev["n_figures"] + 1,
        "onset": {"measured": onset, "predicted": predicted, "log_error": e, "rel_sd": rel_sd},
    }


def no_bootstrap(levels: list[float]) -> dict[str, object]:
    """The reserve reading's spread over redrawn figures, as ``uncertainty.bootstrap`` gives
    one: none, since that bootstrap refits ``fit.fit`` only; its interval is the model-form
    error's alone (``predict.py``, ``reserve_reading.py`` say so)."""
    ones = {x: [1.0, 1.0] for x in levels}
    return {"iops": ones, "waf": dict(ones), "parameters": {}}
