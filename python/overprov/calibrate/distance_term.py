"""A model-form term that grows with the distance from the fitted levels where one reading
carries a prediction (off by default: :data:`ON`).

calibrate's 80% interval at a level is its fit's bootstrap widened by a model-form error
(``uncertainty.model_form_for``): for figures that leave the fit something to miss, the fit's
own residual, the same at every level. Where several readings carry a prediction the interval
also spans their figures (``spare_readings.combine``), and that span opens away from the fitted
levels, where the readings part. Where one reading carries it (no second reading has weight
:data:`CARRY_WEIGHT` or more), nothing opens it there, and that is where the foreign truths'
IOPS misses sit: at the unfitted levels of the scoreboard's cases, IOPS 42 of 66 inside where
one reading carries, 141 of 147 where several do (bench/foreign/results/scorecover/REPORT.md).

With :data:`ON`, such a prediction's IOPS interval at a level off the fitted ones is widened in
quadrature (``uncertainty.band``, as every model-form error is) by the relative sd
``slope · d``: d the level's log spare distance from the nearest fitted level
(``uncertainty.spare_distance``, by the prediction's fitted spare), the slope the
maximum-likelihood one over foreign truths' held-out IOPS beyond the interval they were given
(:func:`max_likelihood_slope`; ``model_form_error.json``'s ``one_reading_distance``, measured
and judged by bench/foreign/results/scorecover/judge.py under
bench/foreign/results/scorecover/RULE.md). WAF intervals are left as they are: where one
reading carries, they held 53 of 66 WAF truths (80%) already.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable

from overprov.calibrate import bend_between, prediction, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate.prediction import Prediction

#: Off: the interval as ``uncertainty`` composes it. The rule that judges it:
#: bench/foreign/results/scorecover/RULE.md.
ON = False

#: A reading carries a prediction at this weight or more (the scoreboard's ``carry``,
#: bench/foreign/results/scoreboard/run.py).
CARRY_WEIGHT = 0.1

#: The slopes searched, per unit of log spare distance.
_SLOPES = [i * 0.001 for i in range(3001)]


def one_reading_carries(weights: Iterable[float]) -> bool:
    """Whether no more than one of the readings' ``weights`` reaches :data:`CARRY_WEIGHT` (a
    prediction of one reading: its weight, 1)."""
    return sum(w >= CARRY_WEIGHT for w in weights) <= 1


def reading_weights(pred: Prediction) -> list[float]:
    """The weights of the readings a prediction combines; ``[1.0]`` for one reading."""
    if not pred.readings:
        return [1.0]
    return [1.0 if r.weight is None else r.weight for r in pred.readings]


def max_likelihood_slope(errors: Iterable[tuple[float, float, float]]) -> float:
    """The slope s maximising the likelihood of held-out log errors e ~ N(0, σ² + (s·d)²), each
    given as (e, σ, d): σ the sd its interval already gives on the side the truth lies (the
    log half-width ÷ ``uncertainty.Z80``), d its log spare distance from the fitted levels.
    Searched on a grid of 0.001 from 0 to 3."""
    rows = list(errors)

    def nll(s: float) -> float:
        total = 0.0
        for e, sd, d in rows:
            var = max(sd * sd + (s * d) ** 2, 1e-12)
            total += 0.5 * math.log(var) + e * e / (2 * var)
        return total

    return min(_SLOPES, key=nll) if rows else 0.0


def widen(value: float, low: float, high: float, rel_sd: float) -> tuple[float, float]:
    """[low, high] around ``value`` widened in quadrature (in log) by ``rel_sd`` at the 80%
    level (``uncertainty.band``); unchanged when ``rel_sd`` is 0."""
    if not rel_sd:
        return low, high
    lo, hi = uncertainty.band(value, [low / value, high / value], rel_sd)
    return lo, hi


def recorded_slope() -> float | None:
    """The slope recorded in ``model_form_error.json`` (``one_reading_distance``), if any."""
    doc = uncertainty.recorded() or {}
    rec = doc.get("one_reading_distance")
    return float(rec["per_log_spare"]) if rec else None


def fitted_levels(points: Iterable[fitmod.Point]) -> list[float]:
    """The levels a prediction was fitted at (``predict._Fitted.fitted_levels``: its figures at
    the workload's queue depth, fresh-out-of-box aside)."""
    return sorted({p.extra_op_percent for p in points if bend_between.at_workload_qd(p)})


def iops_bounds(
    levels: Iterable[tuple[float, float, float, float]],
    fitted: list[float],
    native_op: float,
    spare_efficiency: float,
    slope: float,
) -> list[tuple[float, float]]:
    """Each level's IOPS interval widened by the term, the levels given as (extra OP %, IOPS,
    low, high); a fitted level (d = 0) keeps its own."""
    out = []
    for x, value, low, high in levels:
        d = uncertainty.spare_distance(x, fitted, native_op, spare_efficiency) or 0.0
        out.append(widen(value, low, high, slope * d))
    return out


def apply(pred: Prediction, points: list[fitmod.Point], slope: float | None = None) -> Prediction:
    """``pred`` with the term when :data:`ON`, one reading carries it and a slope is recorded
    (or given); ``pred`` itself otherwise."""
    if not ON:
        return pred
    slope = recorded_slope() if slope is None else slope
    if not slope or not one_reading_carries(reading_weights(pred)):
        return pred
    native_op = pred.fit.get("native_op")
    if native_op is None:
        return pred
    eff = pred.fit.get("spare_efficiency") or 1.0
    fitted = fitted_levels(points)
    rows = []
    for lv in pred.levels:
        if lv.steady_iops and lv.steady_iops_low and lv.steady_iops_high:
            row = (lv.extra_op_percent, lv.steady_iops, lv.steady_iops_low, lv.steady_iops_high)
            ((lo, hi),) = iops_bounds([row], fitted, native_op, eff, slope)
            lv = dataclasses.replace(lv, steady_iops_low=lo, steady_iops_high=hi)
        rows.append(lv)
    target = pred.recommendation.target_iops if pred.recommendation is not None else None
    return dataclasses.replace(
        pred,
        levels=rows,
        recommendation=prediction.recommendation(rows, target) if pred.recommendation else None,
        interval=pred.interval
        + f"; one reading carries it, so its IOPS interval is widened in quadrature by a "
        f"relative sd of {slope:.3f} per unit of log spare distance from the nearest fitted "
        "level (what foreign FTLs' held-out IOPS missed, distance_term.py)",
    )
