"""The victim threshold that gives a reserve twin its reading's WAF plateau (on by default since
bench/foreign/results/femumedian/verdict.md, with femucarry's other five flags).

A reserve reading (``gc_reserve.ReserveForm``) reads the victim floor as the WAF plateau the
figures show where the reserve gives way: ``WAF = min(curve(ρ), W_floor)``. The twin carries it
as the core's per-victim threshold (``[ftl] gc_victim_min_invalid_fraction`` = 1/W_floor): a
victim with fewer invalid pages is put back and the round stops while the pool is above the
forced count. Under greedy the two are one number: the least-valid block sits at the threshold
where it binds, every victim is at 1/W_floor, and the twin plateaus at W_floor. Under
d-choices the threshold is applied to the best of d sampled blocks, the victims taken spread
above it, and the plateau is lower: 0.80 W_floor for d = 8, 0.66 W_floor for d = 4 on a FEMU
drive's figures (bench/foreign/results/femutwin/DIAGNOSIS.md). With :data:`ON` the twin's
refinement (``twin.refine``) also corrects the threshold, from the lowest level whose figure
sits on the floor, until the twin's WAF there is the figure's within :data:`TOLERANCE`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: Correct the twin's victim threshold to the reading's plateau (``twin.refine``). Off: the
#: threshold is 1/W_floor, as before. On with femucarry's flags and ``mixture_centre.ON`` since
#: bench/foreign/results/femumedian/verdict.md (alone not met:
#: bench/foreign/results/femutwin/verdict.md).
ON = True

#: A figure at or above this share of W_floor sits on the floor (``twin._corrected_reserve``
#: takes the figures below it as off the floor).
ON_FLOOR_SHARE = 0.95

#: The plateau miss left alone (the IOPS tolerance ``twin.refine`` refines to).
TOLERANCE = 0.02

#: At most this factor either way in one correction step.
MAX_STEP = 1.5


def floor_point(points: Iterable[Any], waf_floor: float, by_level: dict[float, Any]) -> Any:
    """The lowest level whose WAF figure sits on the floor and that the twin ran, or None."""
    on = [
        pt for pt in points
        if pt.waf and pt.waf >= ON_FLOOR_SHARE * waf_floor and pt.extra_op_percent in by_level
        and (by_level[pt.extra_op_percent].waf or 0.0) > 1.0
    ]  # fmt: skip
    return min(on, key=lambda q: q.extra_op_percent) if on else None


def plateau_miss(points: Iterable[Any], waf_floor: float, by_level: dict[float, Any]) -> float:
    """The twin's relative WAF miss at :func:`floor_point` (0 without one)."""
    pt = floor_point(points, waf_floor, by_level)
    return 0.0 if pt is None else by_level[pt.extra_op_percent].waf / pt.waf - 1.0


def corrected_threshold(
    threshold_waf: float, points: Iterable[Any], waf_floor: float, by_level: dict[float, Any]
) -> float:
    """The victim threshold (as a WAF, 1/its invalid fraction) scaled by the figure's WAF over
    the twin's at :func:`floor_point` (the plateau grows about as the threshold does), at most
    :data:`MAX_STEP` either way; unchanged within :data:`TOLERANCE` or without such a point."""
    miss = plateau_miss(points, waf_floor, by_level)
    if abs(miss) <= TOLERANCE:
        return threshold_waf
    return threshold_waf * min(max(1.0 / (1.0 + miss), 1.0 / MAX_STEP), MAX_STEP)
