"""A graded plan's first level read through its collector's burst cycle at the victim floor.

**Why.** Where the collector holds a reserve (an onset of garbage collection from empty dated
below 1, ``gc_onset.py``) and collects at a victim floor, a graded plan's first level (0%) reads
its WAF over every random round past the segment's minimum (``level_window.over_bursts``): 0.16-0.19
drive writes. FEMU's WAF there is already at its steady mean (over the next 0.5 drive writes
7.90-8.15 against its steady 7.98 on all seven seen drives) but swings round it, 4.9 to 13.4 per
0.025 drive writes, with a period of about one pass of the data through the collector, ``1 /
WAF`` drive writes (0.13-0.14; autocorrelation peaks 5-6 steps of 0.025 apart). The plan's
stretch holds 1.2-1.5 periods, so its plain mean reads the phase it ends on: -6.0 to +7.1% on the
seen drives (bench/foreign/results/femu0/zero_level.txt, runon/).

**What.** With :data:`READ_THROUGH_CYCLE` on, the first level's WAF and IOPS are the mean of a
host-weighted least-squares fit of a constant and one sinusoid of period ``1 / WAF`` drive
writes (the WAF iterated from the stretch's own) to the stretch's rounds (each round's figure
against the sinusoid's mean over that round's host writes): the WAF over the per-round WAF, the
IOPS as the inverse of the fitted seconds per I/O. The stretch is ``level_window.over_bursts``'s, so
the flag reads only where that reads over bursts (a graded plan, an onset from empty below 1, the
first level's random rounds); a stretch shorter than one period or of fewer than
:data:`MIN_ROUNDS` rounds is left as read, and so, with
``cycle_evidence.READ_PLAIN_WITHOUT_CYCLE`` on (off by default), is one whose rounds show no
cycle (``cycle_evidence.py``). It is applied to a measurement when its points are taken
(``predict.points_from``, in place, so every later reader of its levels sees the same figures),
from its stored rounds, so a stored measurement and a fresh one are read alike; the measurement
file keeps the plain figures. On by default since its rule
(bench/foreign/results/femu0/RULE.md) was met (bench/foreign/results/femu0/verdict.md: two fresh
reserve-bound FEMU drives' held-out WAF within 1.9%, no stored case worse by more than 1.5
points).
"""

from __future__ import annotations

import math

from overprov.calibrate import cycle_evidence
from overprov.calibrate.counter_waf import stretch_wafs
from overprov.calibrate.graded_run import is_graded_round
from overprov.calibrate.level_window import over_bursts
from overprov.calibrate.plan import MeasurementPlan
from overprov.measurement_file import Level, Measurement, Round

#: Read a graded plan's first level through the collector's burst cycle (off: the plain mean;
#: on by default since bench/foreign/results/femu0/verdict.md).
READ_THROUGH_CYCLE = True
#: The fewest rounds a cycle is fitted to (three unknowns and two degrees of freedom).
MIN_ROUNDS = 5
#: Iterations of the period from the fitted WAF (the stretch's plain WAF first).
PERIOD_ITERATIONS = 3


def sinusoid_terms(spans: list[tuple[float, float]], period: float) -> list[tuple[float, float]]:
    """Each span's ``(x0, x1)`` means of ``sin(2πx/P)`` and ``cos(2πx/P)``."""
    k = 2 * math.pi / period
    out = []
    for x0, x1 in spans:
        d = k * (x1 - x0)
        out.append(
            ((math.cos(k * x0) - math.cos(k * x1)) / d, (math.sin(k * x1) - math.sin(k * x0)) / d)
        )
    return out


def sinusoid_fit(
    spans: list[tuple[float, float]], values: list[float], period: float
) -> tuple[float, float, float]:
    """``(c, a, b)`` of ``value ≈ c + a sin(2πx/P) + b cos(2πx/P)`` fitted by least squares,
    each value the mean over its span ``(x0, x1)`` and weighted by the span's length."""
    rows = [
        ([1.0, s, c], v, x1 - x0)
        for (s, c), v, (x0, x1) in zip(sinusoid_terms(spans, period), values, spans, strict=True)
    ]
    # the normal equations, 3 × 3, solved by elimination with partial pivoting
    a = [[sum(w * r[i] * r[j] for r, _, w in rows) for j in range(3)] for i in range(3)]
    b = [sum(w * r[i] * v for r, v, w in rows) for i in range(3)]
    for col in range(3):
        piv = max(range(col, 3), key=lambda i: abs(a[i][col]))
        if abs(a[piv][col]) < 1e-12:
            raise ValueError("the rounds cannot tell the cycle from the mean")
        a[col], a[piv], b[col], b[piv] = a[piv], a[col], b[piv], b[col]
        for i in range(col + 1, 3):
            f = a[i][col] / a[col][col]
            a[i] = [x - f * y for x, y in zip(a[i], a[col], strict=True)]
            b[i] -= f * b[col]
    x = [0.0, 0.0, 0.0]
    for i in (2, 1, 0):
        x[i] = (b[i] - sum(a[i][j] * x[j] for j in range(i + 1, 3))) / a[i][i]
    return x[0], x[1], x[2]


def sinusoid_mean(spans: list[tuple[float, float]], values: list[float], period: float) -> float:
    """The constant of :func:`sinusoid_fit`."""
    return sinusoid_fit(spans, values, period)[0]


def sinusoid_variance_ratio(
    spans: list[tuple[float, float]], values: list[float], period: float
) -> float:
    """F of :func:`sinusoid_fit` against the plain mean, span-weighted
    (``cycle_evidence.variance_ratio``)."""
    c, a, b = sinusoid_fit(spans, values, period)
    fitted = [c + a * s + b * k for s, k in sinusoid_terms(spans, period)]
    return cycle_evidence.variance_ratio(values, fitted, [x1 - x0 for x0, x1 in spans])


def stretch_of(m: Measurement) -> tuple[list[Round], Round] | None:
    """The first level's stretch as ``level_window.over_bursts`` reads it from ``m``'s rounds, and
    the round before it (its counters' start), or None where that reads no random stretch."""
    if not m.levels or m.plan is None or m.levels[0].queue_depth is not None:
        return None
    plan = MeasurementPlan.from_dict(m.plan)
    seg = plan.segments[0]
    prefix = f"op{seg.extra_op_percent:g}-"
    at = [i for i, r in enumerate(m.rounds) if r.label.startswith(prefix)]
    if not at or at[0] == 0:
        return None
    level_rounds = m.rounds[at[0] : at[-1] + 1]
    stretch = over_bursts(plan, m, level_rounds, seg, m.capacity_bytes)
    if not stretch or is_graded_round(stretch[0].label):  # a later level's graded rounds
        return None
    first = m.rounds.index(stretch[0])
    return stretch, m.rounds[first - 1]


def read_first_level(m: Measurement) -> bool:
    """With :data:`READ_THROUGH_CYCLE` on, ``m``'s first level's WAF and IOPS set to their
    means through the burst cycle (module docstring), in place; whether they were."""
    if not READ_THROUGH_CYCLE:
        return False
    got = stretch_of(m)
    if got is None:
        return False
    stretch, before = got
    cap = m.capacity_bytes
    got = stretch_wafs(before, stretch)
    if got is None or any(r.iops <= 0 for r in stretch):
        return False
    spans = [(w.host_before_bytes / cap, w.host_after_bytes / cap) for w in got]
    wafs = [w.waf for w in got]
    secs_per_io = [1.0 / r.iops for r in stretch]
    written = spans[-1][1] - spans[0][0]
    waf = sum(w * (x1 - x0) for w, (x0, x1) in zip(wafs, spans, strict=True)) / written
    if len(stretch) < MIN_ROUNDS or waf <= 0 or written < 1.0 / waf:
        return False
    try:
        for _ in range(PERIOD_ITERATIONS):
            waf = sinusoid_mean(spans, wafs, 1.0 / waf)
            if waf <= 0:
                return False
        if cycle_evidence.READ_PLAIN_WITHOUT_CYCLE and (
            sinusoid_variance_ratio(spans, wafs, 1.0 / waf) < cycle_evidence.MIN_VARIANCE_RATIO
        ):
            return False  # no burst cycle in the rounds to read through: the plain figures
        spi = sinusoid_mean(spans, secs_per_io, 1.0 / waf)
    except ValueError:  # rounds each a whole period long: the cycle is averaged out already
        return False
    if spi <= 0:
        return False
    level = m.levels[0]
    level.waf, level.steady_iops = waf, 1.0 / spi
    return True


def levels_read(m: Measurement) -> list[Level]:
    """``m``'s levels, its first read through the burst cycle first (:func:`read_first_level`):
    where ``predict.points_from`` takes a measurement's points (a later level read over bursts
    started past its first round with ``burst_start.LATE_START`` on; its IOPS read in the
    transient after its discard carried there with ``discard_iops.CARRY`` on)."""
    from overprov.calibrate.burst_start import read_later_levels
    from overprov.calibrate.discard_iops import levels_carried

    read_first_level(m)
    read_later_levels(m)
    return levels_carried(m, m.levels)
