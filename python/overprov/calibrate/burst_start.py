"""A graded plan's later level, read over its rounds from the discard on, started one round later:
past the collection the level before it left unfinished.

**Why.** Where the collector holds a reserve (an onset of garbage collection from empty dated below
1, ``gc_onset.py``), a graded plan's later level (40%) is read over its graded and random rounds
from the discard on (``level_window.over_bursts``), its WAF from the write counters after the level
before it (0%) to its last round. On FEMU that figure reads 8.0% above FEMU's steady WAF on average,
worst 13.7% (bench/results/probe40/DIAGNOSIS.md). Most of it is the level's first round. FEMU's
collector runs one collection after each request while its free lines are at or below its threshold
(``ftl_thread``, FEMU's hw/femu/bbssd/ftl.c); the 0% level leaves it short where its data leaves no
room for it (the counters show this NAND written with almost no host writes), and once the discard
makes room the collector restores it in the next level's first requests, so the 40% level's first
round writes 0.044-0.285 drive writes of NAND for 0.0001-0.025 of host writes (the stored half A,
bench/results/burststart/tabulate-A.txt). That NAND is the transition's: a reserve the steady 40%
state holds, not a cost it pays per write. Over the stored drives the form was picked on (half A, 37
measurements read over bursts, bench/results/burststart/RULE.md), the 40% WAF read +7.0% on average
(median |error| 6.4%, worst 13.7%), read from the end of its first round +2.8% (2.8%, worst 4.7%),
and its IOPS −6.6% and −2.8%; reading only the random rounds (after the freed space) or the last 8
rounds read +9%, the transient's second crest.

**What.** With :data:`LATE_START` on, such a level's WAF and IOPS are read over the same
stretch less its first round (:func:`later_stretch`): the WAF from the counters after that round
to the last, the IOPS completions ÷ time over the rest. A stretch of fewer than
:data:`MIN_ROUNDS` rounds is left as read. Applied where a measurement's points are taken
(``burst_cycle.levels_read``, in place, so every later reader of its levels sees the same
figures), from its stored rounds: a stored measurement and a fresh one are read alike; the
measurement file keeps the figures as read. The first level (no discard before it: the plan
reaches it by filling), other queue depths, plans not graded and drives whose onset lies at or
above 1 are untouched. Off by default and not adopted: its rule (bench/results/burststart/RULE.md)
was not met (bench/results/burststart/verdict.md: on three fresh FEMU drives the 40% WAF figure's
median error went 8.0 → 2.7% and every target held, but a stored deep-onset drive, 37 × 74, was
refused: its 40% figure, now near the truth, lay 6.4% below its 0% figure read through a burst cycle
its rounds do not show, +5.8%). Judged again together with
``cycle_evidence.READ_PLAIN_WITHOUT_CYCLE`` (bench/results/burstplain/RULE.md), not met either
(bench/results/burstplain/verdict.md): the pair answers 37 × 74 (WAF worst 7.2 → 0.6%), but a
fresh deep-onset drive, 52 × 56, is refused where both flags off answer.
"""

from __future__ import annotations

from overprov.calibrate.counter_waf import stretch_wafs
from overprov.calibrate.level_window import over_bursts
from overprov.calibrate.plan import MeasurementPlan
from overprov.measurement_file import Level, Measurement, Round

#: Read a later graded level over its rounds from the discard on less its first round (off: the
#: rounds as ``level_window.over_bursts`` gives them; not adopted,
#: bench/results/burststart/verdict.md).
LATE_START = False
#: The fewest rounds a stretch must keep after its first is left out.
MIN_ROUNDS = 4


def over_bursts_stretch(m: Measurement, lv: Level) -> list[Round]:
    """The rounds ``level_window.over_bursts`` reads ``lv`` over where it is a later level of
    ``m``'s graded plan read from its discard on; else [] (the first level, a probe, a plan not
    graded, a drive whose onset lies at or above 1)."""
    if m.plan is None or not m.levels or lv is m.levels[0] or lv.queue_depth is not None:
        return []
    plan = MeasurementPlan.from_dict(m.plan)
    segs = [s for s in plan.segments if s.queue_depth is None]
    seg = next((s for s in segs if s.extra_op_percent == lv.extra_op_percent), None)
    if seg is None or seg is segs[0]:
        return []
    prefix = f"op{seg.extra_op_percent:g}-"
    rounds = [r for r in m.rounds if r.label.startswith(prefix) and "-qd" not in r.label]
    return over_bursts(plan, m, rounds, seg, m.capacity_bytes) if rounds else []


def later_stretch(m: Measurement, lv: Level) -> tuple[Round, list[Round]] | None:
    """``lv``'s stretch (:func:`over_bursts_stretch`) split into its first round and the rest;
    None where it has none or would keep fewer than :data:`MIN_ROUNDS` rounds."""
    stretch = over_bursts_stretch(m, lv)
    if len(stretch) < MIN_ROUNDS + 1:
        return None
    return stretch[0], stretch[1:]


def read_later_levels(m: Measurement, on: bool | None = None) -> int:
    """With :data:`LATE_START` on (or ``on``, where a bench reads one measurement both ways),
    each later level of ``m`` read over bursts set to its figures over its stretch less the
    first round (module docstring), in place; how many were."""
    if not (LATE_START if on is None else on):
        return 0
    done = 0
    for lv in m.levels:
        got = later_stretch(m, lv)
        if got is None:
            continue
        first, rest = got
        wafs = stretch_wafs(first, rest)
        secs = sum(r.duration_s for r in rest)
        if wafs is None or secs <= 0:
            continue
        host = sum(w.host_written_bytes for w in wafs)
        lv.waf = sum(w.nand_written_bytes for w in wafs) / host
        lv.steady_iops = sum(r.iops * r.duration_s for r in rest) / secs
        done += 1
    return done
