"""A level's window of rounds and its figures (``measure.py``'s ``SegmentRunner.segment``): the
settling test over the window (:func:`agree`, on IOPS and on each round's WAF from the write
counters, :func:`round_wafs`), the level's figures over it (:func:`window_level`), and the
rounds a graded level reads over instead where its collector holds a reserve
(:func:`over_bursts`)."""

from __future__ import annotations

import statistics

from overprov.calibrate import gc_onset
from overprov.calibrate.counter_waf import Counters, HasCounters, stretch_wafs
from overprov.calibrate.graded_run import is_graded_round
from overprov.calibrate.plan import MeasurementPlan, Segment
from overprov.measurement_file import Level, Measurement, Round

#: Whether a graded level on a drive whose collector holds a reserve with a victim floor reads
#: its figures over whole bursts (:func:`over_bursts`).
READ_OVER_BURSTS = True


def over_bursts(
    plan: MeasurementPlan, m: Measurement, level_rounds: list[Round], seg: Segment, cap: int
) -> list[Round]:
    """The rounds a graded level's figures are read over where its collector holds a reserve
    (an onset from empty dated below 1, ``gc_onset.py``: the collector starts before the data
    fills the user capacity), else [] (the level's window, as designed).

    Such a collector waits for a victim above its floor (a share invalid) and then collects in
    bursts, so its rounds' WAF swings: 4.5 to 12.3 over about 0.1 drive writes at 0% on a
    drive of spare factor 0.88 and floor 1/8 (``twin.reserve_collector(0.88, 8.0)``), whose
    8-round window, 0.097 drive writes, read 7.12 against 7.98. A graded level has no budget to
    wait the swing out, so it reads over all it wrote: at the first level every random round
    that starts past its minimum (7.60 there); at a later level its graded rounds with its
    random rounds (the graded rounds write its freed space at the steady state's spread of ages,
    ``precondition.py``), where the window alone read the rising side of the swing after the
    discard (40%: 1.97 against 1.79; over the rounds and the graded ones, 1.82)."""
    if not (
        READ_OVER_BURSTS
        and plan.precondition == "graded"
        and m.onset_source == gc_onset.ONSET_FROM_EMPTY
        and (m.onset_spare_factor or 1.0) < 1.0
        and seg.queue_depth is None
    ):
        return []
    graded = [r for r in level_rounds if is_graded_round(r.label)]
    random = [r for r in level_rounds if not is_graded_round(r.label)]
    if graded:
        return graded + random
    out, written = [], 0.0
    for r in random:
        if written >= seg.min_drive_writes:
            out.append(r)
        written += r.bytes_written / cap
    return out


def agree(values: list[float], tol: float) -> bool:
    """Range within ±tol of the mean and no trend larger than tol across the window."""
    if len(values) < 2:
        return False
    mean = statistics.fmean(values)
    if mean <= 0:
        return False
    if (max(values) - min(values)) > 2 * tol * mean:
        return False
    half = len(values) // 2
    trend = statistics.fmean(values[-half:]) - statistics.fmean(values[:half])
    return abs(trend) <= tol * mean


def round_wafs(rounds: list[Round], k: int, start: dict[str, int] | None) -> list[float]:
    """Per-round WAF of the last ``k`` rounds from the counters' deltas
    (``counter_waf.stretch_wafs``); empty where they cannot be read."""
    got = stretch_wafs(window_start(rounds, k, start), rounds[-k:])
    return [] if got is None else [w.waf for w in got]


def window_start(rounds: list[Round], k: int, start: dict[str, int] | None) -> HasCounters:
    """The counters where the last ``k`` rounds start: after the round before them, or, where
    they are every round of the segment, the segment's ``start`` (None: none read)."""
    if len(rounds) > k:
        return rounds[-k - 1]
    return Counters(start["host_bytes"], start["nand_bytes"]) if start else Counters(None, None)


def window_level(
    extra_op_percent: float,
    window: list[Round],
    rounds: list[Round],
    settled: bool,
    written: float,
    cap: int,
    start: dict[str, int] | None = None,
) -> Level:
    """The level's figures over ``window`` (the last rounds of ``rounds``, the segment's):
    its IOPS (time-weighted) and their relative standard error, its WAF from the write counters
    (``start``: the segment's, where the window is all of it), its median p99 latency."""
    ios = sum(r.iops * r.duration_s for r in window)
    secs = sum(r.duration_s for r in window)
    steady = ios / secs
    sd = statistics.stdev([r.iops for r in window]) if len(window) > 1 else 0.0
    rel_se = sd / steady / max(1.0, len(window) ** 0.5)
    waf = None
    before = window_start(rounds, len(window), start)
    last = window[-1]
    if before.host_bytes is not None and last.host_bytes is not None:
        dh = last.host_bytes - before.host_bytes
        dn = (last.nand_bytes or 0) - (before.nand_bytes or 0)
        waf = dn / dh if dh > 0 else None
    p99s = [r.p99_latency_us for r in window if r.p99_latency_us is not None]
    return Level(
        extra_op_percent=extra_op_percent,
        steady_iops=steady,
        iops_rel_sd=rel_se,
        waf=waf,
        p99_latency_us=statistics.median(p99s) if p99s else None,
        settled=settled,
        window_rounds=len(window),
        drive_writes_before_window=written - sum(r.bytes_written for r in window) / cap,
        drive_writes=written,
    )
