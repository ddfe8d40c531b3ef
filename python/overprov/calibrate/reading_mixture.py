"""The interval of a prediction several readings carry as their evidence-weighted mixture (on by
default: :data:`ON`, adopted under bench/foreign/results/scorenarrow/RULE.md).

``spare_readings.combine`` gave a prediction of several readings (spare readings, GC designs)
the interval from the lowest to the highest of the figures and intervals of every reading with
at least ``SPAN_MIN_WEIGHT`` (1%) of the largest weight: a reading the figures leave 2% of the
weight moves the interval's end as far as one that takes half (still so with :data:`ON` off).
On the scoreboard's stored cases those intervals held 162 of 171 unfitted IOPS truths and 170
of 171 WAF truths where two readings or more are spanned, the truths using a median 0.10
(IOPS) and 0.18 (WAF) of the log half-width on their side, and the span adds a median 10%
(IOPS) and 19% (WAF) of the width beyond one reading's own band
(bench/foreign/results/scorenarrow/widths.md).

With :data:`ON`, the interval is instead the 10th to 90th percentile of the mixture of the
readings' own predictive distributions, weighted by their evidence weights (the weights the
figure itself is averaged with): each reading's figure at a level is a log-normal centred on its
figure with its own 80% interval as 10th and 90th percentile (a different sd on each side when
the interval is not symmetric in log). The readings mixed are those today's span holds; a
reading held in the span whatever its weight (``reserve_hull.hull``) still widens it as today.
One reading gives its own interval; the mixture's percentiles lie within the hull of the
readings' intervals, so the interval can only narrow. The prediction (the weighted geometric
mean) is kept inside. Calibrate computes it from its readings and their weights: no family label.
The rule that judged it: bench/foreign/results/scorenarrow/RULE.md, met
(bench/foreign/results/scorenarrow/verdict.md: post-hoc on the scoreboard's cases, 37 of the 57
with several readings spanned recomposed, the pooled unfitted coverage 383 → 380 of 426, its
median width 21.5% → 20.9%, the recomposed rows' 16.9% → 14.2%).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from overprov.calibrate import evidence, uncertainty

#: On (adopted: bench/foreign/results/scorenarrow/verdict.md). Off: the hull of the spanned
#: readings' figures and intervals (``spare_readings.combine``), as before.
ON = True

_BISECT_STEPS = 100


#: The mixture's percentiles: those a reading's own 80% interval stands at (±``uncertainty.Z80``
#: sd, 1.2816 for 1.28155: 0.09999 and 0.90001), so that one reading, or several equal ones,
#: give their own interval.
LOW_P, HIGH_P = uncertainty.normal_cdf(-uncertainty.Z80), uncertainty.normal_cdf(uncertainty.Z80)


def _cdf(y: float, centre: float, sd_low: float, sd_high: float) -> float:
    """P(ln figure ≤ y) for one reading: a normal of sd ``sd_low`` below its median ``centre``
    and ``sd_high`` above (a step where the sd is 0)."""
    d = y - centre
    sd = sd_low if d < 0 else sd_high
    if sd <= 0:
        return 0.0 if d < 0 else 1.0
    return uncertainty.normal_cdf(d / sd)


def quantile(
    readings: Sequence[tuple[float, float, float]], weights: Sequence[float], p: float
) -> float:
    """The p quantile of the weighted mixture of ``readings``, each (figure, low, high) with its
    80% interval [low, high] as its 10th and 90th percentile (in log)."""
    parts = []
    for (value, low, high), w in zip(readings, weights, strict=True):
        c = math.log(value)
        parts.append((w, c, max(c - math.log(low), 0.0) / uncertainty.Z80,
                      max(math.log(high) - c, 0.0) / uncertainty.Z80))  # fmt: skip
    total = sum(w for w, *_ in parts)
    lo = min(math.log(min(v, lo_)) for v, lo_, _ in readings)
    hi = max(math.log(max(v, hi_)) for v, _, hi_ in readings)
    if hi - lo <= 0:
        return math.exp(lo)
    for _ in range(_BISECT_STEPS):
        mid = 0.5 * (lo + hi)
        if sum(w * _cdf(mid, c, a, b) for w, c, a, b in parts) / total < p:
            lo = mid
        else:
            hi = mid
    return math.exp(0.5 * (lo + hi))


def with_figure(
    readings: Sequence[tuple[float | None, float | None, float | None]],
    weights: Sequence[float],
) -> list[tuple[tuple[float, float, float], float]]:
    """The readings (figure, low, high) with a figure and weight, each with its weight, an end
    that is missing or not positive taken as its figure: what the mixture is made of."""
    return [
        ((v, lo if lo is not None and lo > 0 else v, hi if hi is not None and hi > 0 else v), w)
        for (v, lo, hi), w in zip(readings, weights, strict=True)
        if v and v > 0 and w > 0
    ]


def mixed(level_rows: Sequence[Any], ws: Sequence[float], top: float) -> list[tuple[Any, float]]:
    """One level's rows with their weights, of the readings that keep
    ``evidence.SPAN_MIN_WEIGHT`` of the largest weight ``top``: those the mixture holds."""
    least = evidence.SPAN_MIN_WEIGHT * top
    return [(r, w) for r, w in zip(level_rows, ws, strict=True) if w >= least]


def interval(
    readings: Sequence[tuple[float | None, float | None, float | None]],
    weights: Sequence[float],
    value: float | None,
) -> tuple[float | None, float | None]:
    """[low, high] of a combined figure ``value`` from its readings' (figure, low, high) and
    weights: the mixture's 10th and 90th percentile (:func:`quantile`), widened to hold
    ``value``. A reading without a figure or with no weight is left out, an end that is missing
    or not positive taken as its figure; where no reading has weight, the span of every figure
    and end given (the interval without the mixture); (None, None) when there is none."""
    kept = with_figure(readings, weights)
    if not kept:  # no weight anywhere: the hull of what the readings give, as without the mixture
        low, high = span([x for r in readings for x in r if x is not None and x > 0])
        if value and low is not None and high is not None:
            low, high = min(low, value), max(high, value)
        return low, high
    if len(kept) == 1:
        (((v, lo, hi), _),) = kept
        low, high = min(v, lo), max(v, hi)
    else:
        rows = [r for r, _ in kept]
        ws = [w for _, w in kept]
        low, high = quantile(rows, ws, LOW_P), quantile(rows, ws, HIGH_P)
    if value:
        low, high = min(low, value), max(high, value)
    return low, high


def describe(n_mixed: int, n_readings: int, share: float) -> str:
    """The interval in words, for ``Prediction.interval``: ``n_mixed`` of ``n_readings`` mixed,
    those with at least ``share`` of the largest weight."""
    return (
        f"the 10th to 90th percentile of the evidence-weighted mixture of {n_mixed} of the "
        f"{n_readings} readings (those the figures leave at least {share:g} of the largest "
        "weight), "
        "each reading log-normal with its own 80% interval as its 10th and 90th percentile "
        "(reading_mixture.py)"
    )


def span(values: list[float | None]) -> tuple[float | None, float | None]:
    """The lowest and highest of the values that are set; (None, None) when none is."""
    got = [v for v in values if v is not None]
    return (min(got), max(got)) if got else (None, None)


def level_spans(
    level_rows: tuple[Any, ...],
    ws: list[float],
    top: float,
    hull: set[Any],
    keys: list[Any],
    iops: float | None,
    waf: float | None,
) -> tuple[tuple[float | None, float | None], tuple[float | None, float | None]]:
    """One level's IOPS and WAF intervals with ``reading_mixture.ON``: the evidence-weighted
    mixture of the readings that keep ``evidence.SPAN_MIN_WEIGHT`` of the largest weight
    (``reading_mixture.interval``), widened to the figures and intervals of readings ``hull``
    holds whatever their weight (as the span does)."""
    held = mixed(level_rows, ws, top)
    forced = [
        r
        for r, w, k in zip(level_rows, ws, keys, strict=True)
        if k in hull and w < evidence.SPAN_MIN_WEIGHT * top
    ]
    mw = [w for _, w in held]
    iops_span = interval(
        [(r.steady_iops, r.steady_iops_low, r.steady_iops_high) for r, _ in held], mw, iops
    )
    waf_span = interval([(r.waf, r.waf_low, r.waf_high) for r, _ in held], mw, waf)
    if forced:
        iops_span = span([*iops_span, *(v for r in forced for v in (
            r.steady_iops, r.steady_iops_low, r.steady_iops_high))])  # fmt: skip
        waf_span = span([*waf_span, *(v for r in forced for v in (r.waf, r.waf_low, r.waf_high))])
    return iops_span, waf_span
