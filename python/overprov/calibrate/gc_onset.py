"""The onset of garbage collection from empty, dated by calibrate's plan.

**What it reads.** After a purge every host write takes free NAND until the collector starts;
its first copy comes when the data written fills the NAND it lets the data use. So the host
writes from the purge to the first garbage-collection copy, ÷ the user capacity, is 1 + the
spare the collector works with at 0% extra OP (``gc_reserve.onset_spare_factor``): above 1
when it uses the native spare, below 1 when it holds back a reserve larger than that spare
(FEMU's black-box SSD, ``gc_thres_pcent``). That is the figure that tells "a GC reserve and a
victim floor" from "one spare and a gentler collector" when both pass through the plan's 0%
and 40% figures (docs/calibrate-validation.md, "The onset of garbage collection from empty").
The graded plan's own onset (``graded_run.py``) is dated *after the sequential fill*, where a
reserve larger than the native spare leaves nothing free and a victim floor delays the first
copy until the fill's blocks are partly invalid: read as a spare it looks like a positive one.

**How.** The FOB segment's uniform random writes over the whole capacity (``measure.fob``)
run on, in rounds of :data:`ONSET_ROUND_DRIVE_WRITES`, until the write counters show the first
NAND writes beyond the host's (``onset_detector.OnsetDetector``: confirmed by a little more excess
soon after, so a stray move is not taken), or until the plan's ``onset_max_drive_writes`` (then only
a lower bound is known). The figure is taken at the middle of the round where the excess
began (:class:`OnsetDating`), as ``bench/foreign/femu_onset.py`` dates FEMU's onsets from the
same kind of counter reports. The rounds are the FOB→write-saturation series a real drive
shows after a purge; only the counters date the onset (an SLC cache moves the IOPS before
garbage collection starts, ``graded_run.py``), so without counters the step is skipped.

**After it** the drive is purged again (``measure.measure``), so the fill and the levels start
as in the plan without the step. Without that purge the fill ran on a drive at its collector's
threshold whose random data the fill turned invalid: a collector that takes its victim from a
sample (d-choices) then copies from partly valid blocks while wholly invalid ones wait, and the
graded plan's onset after the fill came at 0.004 drive writes instead of about 0.2 on generated
drive 72 (``bench/gc_onset_plan_bench.py``).

**What it costs.** About the spare factor in drive writes (0.74–1.2 on FEMU's drives, 1 + the
native OP on overprov's): on top of the plan, whose sequential fill it does not replace (after
the onset a random write has left about e^-s of the span unwritten, which the steady state at
0% extra OP has written). So the plan takes it only where the budget holds it beside the
levels (``plan.with_onset_step``, ``plan.ONSET_MAX_DRIVE_WRITES``): the random plan's way.

**The graded plan's way** costs 0.15 drive writes instead: its fill is graded as it goes
(``graded_run.graded_fill``), and :func:`date_in_rounds` dates the onset from the counters of
every round since the purge, inside the fill or in the first level's sweeps after it.
"""

from __future__ import annotations

from typing import Protocol

from overprov.calibrate.graded_run import ONSET_FROM_EMPTY, BudgetSpent, RoundRunner
from overprov.calibrate.onset_detector import OnsetDetector
from overprov.calibrate.plan import MeasurementPlan
from overprov.measurement_file import Round
from overprov.profile.targets import RoundSpec

#: Each round of the step writes this share of the capacity: the resolution of the figure
#: (half a round either side), small against the 0.03 relative sd it is weighed with
#: (``gc_reserve.ONSET_REL_SD``).
ONSET_ROUND_DRIVE_WRITES = 0.005
ONSET_NO_COUNTERS = "not measured: the target reports no write counters"
ONSET_EARLY = "not measured: NAND writes above the host's from the first round"
ONSET_LOWER_BOUND = "lower bound: no garbage collection within the step"
ONSET_RESUMED = "not measured: the run resumed after the purge"


class OnsetRunner(RoundRunner, Protocol):
    """What the step needs of ``measure.SegmentRunner``: the rounds' and, beside them, the
    write counters read right after the purge (None: not read, or no counters)."""

    purge_counters: dict[str, int] | None


class OnsetDating:
    """``OnsetDetector`` over rounds from an empty drive, read as a spare factor: host writes
    before the round where the excess began plus half of that round (its middle), ÷ the
    capacity. ``spare_factor`` is None until the onset is confirmed; 0-start onsets (excess
    from the first round) are :attr:`early`."""

    def __init__(self, capacity_bytes: int) -> None:
        self.detector = OnsetDetector(capacity_bytes)
        self._starts: dict[float, float] = {}
        """Host writes before each round → that round's host writes (drive writes)."""

    def add(self, before: Round | None, r: Round) -> None:
        start = self.detector.written
        self.detector.add(before, r)
        self._starts[start] = self.detector.written - start

    @property
    def written(self) -> float:
        return self.detector.written

    @property
    def early(self) -> bool:
        return self.detector.onset_drive_writes == 0.0

    @property
    def spare_factor(self) -> float | None:
        at = self.detector.onset_drive_writes
        if at is None or at == 0.0:
            return None
        return at + 0.5 * self._starts[at]


def step_io_seconds_cap(plan: MeasurementPlan, io_seconds: float) -> float | None:
    """Under an I/O-time budget, the device I/O time of the run (``Measurement.io_seconds``)
    past which the step ends with a lower bound; None under a drive-write budget (capped by
    ``plan.onset_max_drive_writes``, ``plan.fit_to_budget``). What is left of the budget
    (``io_seconds`` spent so far) is shared as the plan's minimum drive writes are, between the
    step's expected ones and the fill's and levels' after it: the step writes at about the FOB's
    IOPS (nothing is collected before its onset), the levels at their slower steady rate, so
    they keep at least their drive writes' part of the time. Without the cap the step took all
    of a 9 s budget on a 1 GiB drive and no level was measured."""
    if plan.budget.io_seconds is None:
        return None
    step = plan.onset_step_drive_writes(expected=True)
    rest = plan.minimum_drive_writes(with_fob=False) - step
    left = max(0.0, plan.budget.io_seconds - io_seconds)
    return io_seconds + left * step / max(step + rest, 1e-9)


def onset_from_empty(runner: OnsetRunner, reserve_drive_writes: float) -> None:
    """After the FOB segment (on a purged drive): random writes over the whole capacity until
    the onset (module docstring). Records ``spare_factor`` and ``source`` on the measurement
    (``onset_spare_factor``, ``onset_source``); leaves ``reserve_drive_writes`` of the budget
    for the plan's fill and levels, and under an I/O-time budget their share of its time
    (:func:`step_io_seconds_cap`: past it the step ends with a lower bound). Host writes are
    counted from the purge: the FOB's rounds are the step's first."""
    m, plan = runner.m, runner.plan
    seconds_cap = step_io_seconds_cap(plan, m.io_seconds)
    cap, bs = m.capacity_bytes, plan.bs_bytes
    if not runner.counters_ok:
        m.onset_source = ONSET_NO_COUNTERS
        runner.save()
        runner.progress("onset of garbage collection from empty: not measured (no write counters)")
        return
    # host writes count from the purge: the FOB's rounds are the step's first
    fob = [r for r in m.rounds if r.label.startswith("fob-")]
    dating, before = _from_purge(cap, runner.purge_counters, fob)
    n = 0
    iops = m.fob_iops or 10_000.0
    stalled = False  # the last round wrote nothing
    while dating.detector.onset_drive_writes is None:
        seconds = runner.seconds_for(ONSET_ROUND_DRIVE_WRITES, cap, iops)
        timed_out = seconds_cap is not None and m.io_seconds + seconds > seconds_cap
        if dating.written >= plan.onset_max_drive_writes or stalled or timed_out:
            m.onset_source, m.onset_spare_factor = ONSET_LOWER_BOUND, dating.written
            runner.save()
            why = " (the step's share of the I/O time is spent)" if timed_out else ""
            runner.progress(
                f"onset of garbage collection from empty: none after {dating.written:.3f} drive "
                f"writes (a lower bound){why}"
            )
            return
        if not runner.fits(runner.expected_drive_writes(seconds, iops, bs), seconds,
                           reserve_drive_writes):  # fmt: skip
            raise BudgetSpent("the budget is spent before the onset of garbage collection")
        n += 1
        spec = RoundSpec(f"onset-{n:03d}", "randwrite", bs, plan.qd, 1, cap, seconds=seconds)  # type: ignore[arg-type]
        r = runner.run(spec, 0.0)
        iops, stalled = max(r.iops, 1.0), r.bytes_written == 0
        dating.add(before, r)
        before = r
    if dating.early:
        m.onset_source = ONSET_EARLY
        runner.save()
        runner.progress("onset of garbage collection from empty: NAND writes above the host's "
                        "from the first round, not seen")  # fmt: skip
        return
    m.onset_spare_factor, m.onset_source = dating.spare_factor, ONSET_FROM_EMPTY
    runner.save()
    _say_onset(runner, f"of random writes ({n} rounds past the FOB)")


def _from_purge(
    capacity_bytes: int, purge: dict[str, int] | None, rounds: list[Round]
) -> tuple[OnsetDating, Round | None]:
    """``rounds`` dated from the counters read right after the purge (None: from the first
    round's own), and the last of them."""
    dating = OnsetDating(capacity_bytes)
    before: Round | None = None
    if purge is not None:
        before = Round("purge", 0.0, 0.0, 0, 0.0, None, host_bytes=purge["host_bytes"],
                       nand_bytes=purge["nand_bytes"])  # fmt: skip
    for r in rounds:
        dating.add(before, r)
        before = r
    return dating, before


def _say_onset(runner: OnsetRunner, how: str) -> None:
    """The progress line of a dated onset (and the warning of one before a drive write)."""
    factor = runner.m.onset_spare_factor or 0.0
    runner.progress(
        f"onset of garbage collection from empty: after {factor:.3f} drive writes {how}: the "
        f"collector lets the data fill {100 * factor:.1f}% of the user capacity"
    )
    if factor < 1.0:
        runner.progress(reserve_warning(factor))


def date_in_rounds(runner: OnsetRunner, *, final: bool) -> None:
    """The onset from empty of a plan whose fill is graded (``graded_run.graded_fill``): dated
    from the write counters of every round since the purge (FOB, fill, and the first level's
    sweeps when it came after the fill), read as :func:`onset_from_empty` reads its step's.
    Called after the fill and (``final``) after the first level; records the onset once it is
    confirmed, and after the first level also why there is none (a lower bound, an excess from
    the first round, no counters, a resumed run)."""
    m = runner.m
    if m.onset_source is not None:
        return
    if not runner.counters_ok or runner.purge_counters is None:
        if final:
            m.onset_source = ONSET_RESUMED if runner.counters_ok else ONSET_NO_COUNTERS
            runner.save()
        return
    run = m.runs and len(m.runs) - 1
    this_run = [r for r in m.rounds if r.run == run]
    dating, _ = _from_purge(m.capacity_bytes, runner.purge_counters, this_run)
    if dating.early:
        m.onset_source = ONSET_EARLY
    elif dating.spare_factor is not None:
        m.onset_spare_factor, m.onset_source = dating.spare_factor, ONSET_FROM_EMPTY
    elif final:
        m.onset_source, m.onset_spare_factor = ONSET_LOWER_BOUND, dating.written
    else:
        return
    runner.save()
    if m.onset_source == ONSET_FROM_EMPTY:
        _say_onset(runner, "since the purge")
    else:
        runner.progress(f"onset of garbage collection from empty: {m.onset_source}")


def reserve_warning(spare_factor: float) -> str:
    """What calibrate says when the onset from empty comes before a drive write: the collector
    starts before the data fills the user capacity, so it holds back free NAND beyond the
    native spare, which no twin calibrate runs can express."""
    return (
        f"WARNING: garbage collection began before the data filled the user capacity "
        f"({spare_factor:.3f} of it): the drive holds back free NAND as a garbage-collection "
        "reserve larger than its native spare, which calibrate's twins cannot express; its "
        "predictions between the measured levels may be far off (12-74% on FEMU's drives of "
        'that kind: docs/calibrate-validation.md, "The onset of garbage collection from empty")'
    )
