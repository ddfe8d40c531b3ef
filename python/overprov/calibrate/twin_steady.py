"""The twin under skewed writes run until its own window is steady, not for a fixed warm-up.

Under a skewed workload a twin can hold a plateau for drive writes on end before its garbage
collection wears the fill through (a greedy twin under 95/5 hot/cold writes: about 300 k IOPS
for 3 drive writes, then 75 k); a fixed warm-up of 2 drive writes measures the plateau. Here the
twin is filled sequentially (the core's fill), given no warm-up, and written for D drive writes,
all timed, for D in :data:`DRIVE_WRITES` in turn (the last one the cap); each run is tested as
a drive's run under SSD-iq's campaigns was (bench/corpus_steady_window.py's rule): cut into
:data:`ROUNDS` rounds of equal host writes, its window the last :data:`WINDOW_ROUNDS`, steady when
their IOPS meet SNIA PTS's criterion (Solid State Storage Performance Test Specification, range
≤ 20% and the least-squares line's excursion ≤ 10% of the window's mean). The first steady run
gives the level's figures; a run still not steady at the cap gives its window, not settled.

Not adopted: ``twin_runs.simulate_levels`` runs it only when asked (``until_steady``), and
calibrate does not ask. Its rule, bench/corpus/RULE-skewed-steady-twin.md, was not met (the
outcome: bench/corpus/skewed-steady-twin-results.md): the twins were mostly steady already, and a
plateau longer than a run's window passes the test.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from overprov import engine
from overprov.measurement_file import Level
from overprov.profile.steady import SNIA, SteadyStateCriteria, assess
from overprov.steady_window import timed_intervals, window_waf

#: The runs' lengths after the fill, tried in turn; the last is the cap.
DRIVE_WRITES = (4.0, 8.0, 16.0)
ROUNDS = 20
WINDOW_ROUNDS = 5
MAX_RANGE_SHARE = SNIA.max_range_fraction
MAX_SLOPE_SHARE = SNIA.max_slope_excursion_fraction
#: The timed intervals' length: several to a round (a twin writes a drive in seconds).
INTERVAL_S = 0.05
BLOCK_BYTES = 4096


def run_config(level_config: dict[str, Any], drive_writes: float) -> dict[str, Any]:
    """``level_config`` (``twin_runs.level_config``, timed) run for ``drive_writes`` after the
    fill with no warm-up, in :data:`INTERVAL_S` intervals."""
    return engine.merge(
        level_config,
        {
            "run": {"drive_writes": drive_writes, "warmup_drive_writes": 0.0},
            "timing": {"interval_s": INTERVAL_S},
        },
    )


def snia_shares(values: Sequence[float]) -> tuple[bool, float, float]:
    """SNIA PTS's steady-state test on a window's round values: (steady, range share, slope
    share), the range and the least-squares line's excursion over the window as shares of the
    mean (a window whose mean is not positive is not steady, its shares infinite). The test is
    the profile's (``profile.steady.assess`` with SNIA's limits) over the whole of ``values``."""
    criteria = SteadyStateCriteria(
        window_rounds=len(values),
        max_range_fraction=MAX_RANGE_SHARE,
        max_slope_excursion_fraction=MAX_SLOPE_SHARE,
        max_rounds=max(len(values), SNIA.max_rounds),
    )
    verdict = assess(values, criteria)
    if verdict.range_fraction is None or verdict.slope_excursion_fraction is None:
        return False, float("inf"), float("inf")
    return verdict.steady, verdict.range_fraction, verdict.slope_excursion_fraction


def snia_steady(values: Sequence[float]) -> bool:
    """SNIA PTS's steady-state criterion on a window's round values."""
    return snia_shares(values)[0]


def round_edges(host: Sequence[float], rounds: int = ROUNDS) -> list[int]:
    """Indexes into ``host`` (a run's cumulative host writes, one a sample, its start first) of
    the first sample at or past each multiple of 1/``rounds`` of the run's host writes, the
    start's index (0) first."""
    total = host[-1] - host[0]
    edges = [0]
    for k in range(1, rounds + 1):
        goal = host[0] + total * k / rounds
        edges.append(next(i for i, h in enumerate(host) if h >= goal - 1e-9 * total))
    return edges


def window_level(extra_op_percent: float, report: Mapping[str, Any]) -> Level:
    """The level's figures over the run's window (the last :data:`WINDOW_ROUNDS` rounds),
    ``settled`` when that window is steady."""
    intervals = timed_intervals(report.get("timed") or {})
    if not intervals:
        raise ValueError(f"twin at {extra_op_percent:g}%: the timed run has no intervals")
    host = [0.0] + [float(iv["host_bytes_total"]) for iv in intervals]
    time_s = [0.0] + [float(iv["time_s"]) for iv in intervals]
    dw = [0.0] + [float(iv["drive_writes_total"]) for iv in intervals]
    edges = round_edges(host)[-WINDOW_ROUNDS - 1 :]
    if len(set(edges)) < len(edges):
        raise ValueError(f"twin at {extra_op_percent:g}%: a round holds no interval")

    def iops(a: int, b: int) -> float:
        return (host[b] - host[a]) / BLOCK_BYTES / (time_s[b] - time_s[a])

    rounds = [iops(a, b) for a, b in zip(edges, edges[1:], strict=False)]
    first, last = edges[0], edges[-1] - 1  # interval indexes of the window
    p99 = sorted(
        float(v)
        for iv in intervals[first : last + 1]
        if (v := (iv.get("latency_us") or {}).get("p99")) is not None
    )
    return Level(
        extra_op_percent=extra_op_percent,
        steady_iops=iops(edges[0], edges[-1]),
        iops_rel_sd=0.0,
        waf=window_waf(intervals, first, last),
        p99_latency_us=p99[len(p99) // 2] if p99 else None,
        settled=snia_steady(rounds),
        window_rounds=WINDOW_ROUNDS,
        drive_writes_before_window=dw[edges[0]],
        drive_writes=dw[edges[-1]],
    )
