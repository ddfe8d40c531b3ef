"""The centre of a prediction several readings carry as the median of their evidence-weighted
mixture (on by default: :data:`ON`, adopted under bench/foreign/results/femumedian/RULE.md,
bench/foreign/results/femumedian/verdict.md).

``spare_readings.combine`` states the weighted geometric mean of the readings' figures, each
reading weighted by its evidence; its interval is the 10th to 90th percentile of the
evidence-weighted mixture of the readings that keep ``evidence.SPAN_MIN_WEIGHT`` of the largest
weight (``reading_mixture.py``), each reading a log-normal with its own 80% interval as its 10th
and 90th percentile. Where equally weighed readings disagree the mean lies between them all,
and one reading far off carries its error into the answer: FEMU's typed figures, read with
greedy, d-choices 8 and 4 reserve readings at 1/3 each, missed where d-4's floor gave way early
while d-8's, between the other two, read every level within 2.2%
(bench/foreign/results/femucarry/after_verdict.txt).

With :data:`ON`, the centre at a level is instead the 50th percentile of that same mixture
(``reading_mixture.quantile``): where the readings agree within their intervals it lies with
the mean inside their spread; where equally weighed readings disagree it follows the middle one;
a heavier reading draws it further than the mean does. It always lies within the mixture's
10th to 90th percentile, the interval stated. One reading mixed (or none with a figure): the
weighted mean as before. Calibrate computes it from its readings and their weights: no family
label.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from overprov.calibrate import reading_mixture

#: On (adopted: bench/foreign/results/femumedian/verdict.md: with femucarry's six flags 3 of 4
#: fresh FEMU typed drives meet both targets, 2 without it; no figure of the 72's 49 cases several
#: readings carry worse by a point). Off: the weighted geometric mean of the readings' figures.
ON = True

#: The mixture's percentile the centre stands at.
MEDIAN_P = 0.5


def median(
    readings: Sequence[tuple[float | None, float | None, float | None]],
    weights: Sequence[float],
) -> float | None:
    """The median of the evidence-weighted mixture of ``readings`` (figure, low, high), each
    log-normal with [low, high] as its 10th and 90th percentile (``reading_mixture.quantile``),
    over the readings with a figure and weight, an end missing or not positive taken as the
    figure (``reading_mixture.with_figure``, as ``reading_mixture.interval``); None when fewer
    than two such readings."""
    kept = reading_mixture.with_figure(readings, weights)
    if len(kept) < 2:
        return None
    return reading_mixture.quantile([r for r, _ in kept], [w for _, w in kept], MEDIAN_P)


def level_centres(
    level_rows: tuple[Any, ...],
    ws: list[float],
    top: float,
    mean: Callable[[list[float | None], list[float]], float | None],
) -> tuple[float | None, float | None]:
    """One level's IOPS and WAF centres from its readings' rows and weights ``ws``: ``mean``
    (``spare_readings.weighted_geomean``) of each figure; with :data:`ON`, where two readings
    or more keep ``evidence.SPAN_MIN_WEIGHT`` of the largest weight ``top`` (those
    ``reading_mixture.level_spans`` mixes), the median of their mixture instead."""
    iops = mean([r.steady_iops for r in level_rows], ws)
    waf = mean([r.waf for r in level_rows], ws)
    if not ON:
        return iops, waf
    mixed = reading_mixture.mixed(level_rows, ws, top)
    mw = [w for _, w in mixed]
    iops_mid = median(
        [(r.steady_iops, r.steady_iops_low, r.steady_iops_high) for r, _ in mixed], mw
    )
    waf_mid = median([(r.waf, r.waf_low, r.waf_high) for r, _ in mixed], mw)
    return (iops if iops_mid is None else iops_mid), (waf if waf_mid is None else waf_mid)
