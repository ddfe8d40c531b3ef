"""The measurement plan calibrate designs for itself, and the budget that bounds it.

The plan measures what the fit (``fit.py``) needs and nothing more, on one drive, in order:

1. purge (TRIM everything) and a short fresh-out-of-box (FOB) segment of random writes: an upper
   bound on any steady figure and the drive's controller/NAND speed without garbage collection;
   in the random plan when asked (``onset_from_empty=True``) and the budget holds it, its
   random writes run on until the write counters show the first garbage-collection copy: the onset
   from empty, 1 + the spare the collector works with (``gc_onset.py``; about a drive write
   more), then a purge;
2. one sequential fill of the whole tested capacity, so every later random write overwrites data;
   in the graded plan with :data:`ONSET_FROM_EMPTY` it is interleaved with random writes over
   the part already filled (:data:`FILL_HAZARD`, 0.15 drive writes more), and the onset from
   empty is dated inside it (or in the first level's sweeps) instead of by a step;
3. write-saturation segments of random writes at a few extra-OP levels, lowest first (each level
   made by discarding the tail, as ``overprov profile`` does), each until IOPS and WAF settle:
   the low level pins the native spare space (WAF is most sensitive to it there), the high level
   the controller's per-command cost; a middle level is added when the drive reports no NAND
   write counters (then WAF is not measured and a third IOPS figure is needed).

``precondition = "random"`` (the default, about 3.4 drive writes): each level runs plain random
writes until the swing after a fill or discard has passed. ``precondition = "graded"`` (chosen
by :func:`design` when a drive-write budget cannot hold the random plan, e.g. ``2dw``): each
level starts with prefix rounds that write the free physical space once with the steady
state's spread of block ages (``precondition.py``; at the first level until the write counters
show garbage collection start, ``graded_run.py``) and needs only a short settling stretch
before its window: at least 1.75 drive writes, the rest of the budget spent settling; its
accuracy is in docs/calibrate-graded-plan.md.

Segments are sized in *drive writes* of the tested capacity, so the plan holds at any scale.
A budget caps either drive writes (``2dw``) or device I/O time (``2h``, the time the target
reports for its rounds: simulated seconds for a simulated drive).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from overprov.calibrate.budget import (
    DEFAULT_BUDGET_DRIVE_WRITES as DEFAULT_BUDGET_DRIVE_WRITES,
)
from overprov.calibrate.budget import (
    GRADED_BUFFER_SHARE_MAX as GRADED_BUFFER_SHARE_MAX,
)
from overprov.calibrate.budget import (
    RANDOM_PLAN_BUDGET_DRIVE_WRITES as RANDOM_PLAN_BUDGET_DRIVE_WRITES,
)
from overprov.calibrate.budget import Budget as Budget
from overprov.calibrate.budget import default_budget as default_budget
from overprov.calibrate.budget import default_budget_note as default_budget_note
from overprov.calibrate.budget import parse_budget as parse_budget
from overprov.calibrate.precondition import (
    ASSUMED_NATIVE_OP_PERCENT,
    GRADED_ROUNDS,
    SWEEP_DRIVE_WRITES,
    free_share,
    graded_fill_drive_writes,
)
from overprov.errors import ConfigError
from overprov.measurement_file import PRECONDITIONS, Measurement

#: Span writes of plain random writes before a graded level's window may count: chosen so two
#: levels fit in 2 drive writes; what that costs is measured in bench/README.md ("Two drive
#: writes").
GRADED_SETTLE_SPAN_WRITES = 0.02
#: The graded plan's round share: its windows (8 rounds, 0.1 drive writes) leave room within
#: 2 drive writes for a first level whose measured free space is up to about 0.3 of the
#: capacity (``graded_run.py``).
GRADED_ROUND_DRIVE_WRITES = 0.0125
#: The second queue depth measured (at the highest level, after its segment): below the
#: drive's parallel units it leaves some idle, so the IOPS' change from the plan's QD32
#: identifies how many there are (``gc_blocking.py``); 4 is the lowest queue depth the foreign
#: truths hold (bench/foreign/) and above a latency-bound QD1.
PROBE_QUEUE_DEPTH = 4
#: Whether the probe is measured at the lowest level too (after its segment, so it costs its
#: window alone): under a closed loop over N units ``1/IOPS(QD4) − 1/IOPS(QD32)`` is the same
#: at every level, under GC that blocks the host queue it is not, so probes at two levels let
#: the evidence weigh the two (``closed_loop.WEIGH_FROM_LEVELS``; docs/calibrate-validation.md,
#: "A second probe level": evaluated under a pre-registered rule, failed, not adopted — the
#: blocking-GC twin fitted to a 0% QD4 figure misses MQSim's QD32 curve by more).
PROBE_AT_LOWEST = False
#: Its window: this many rounds of half the plan's round share (0.08 drive writes in the random
#: plan, 0.05 in the graded one).
PROBE_WINDOW_ROUNDS = 4
PROBE_ROUND_SHARE = 0.5
#: The probe's window the plan's (full rounds): more collector cycles (off; its rule and why:
#: bench/results/probe40/RULE.md and
#: bench/results/probe40/DIAGNOSIS.md).
PROBE_WHOLE_CYCLES = False
#: Whether the graded plan dates the onset of garbage collection from empty in its graded fill
#: (:func:`with_graded_fill`, 0.15 drive writes more) where the target reports write counters
#: and the budget holds it; calibrate reads it (``reserve_reading.py``). On, with the reading's
#: spare from the onset (``discard_transient.SPARE_FROM_ONSET``), by the rule of
#: bench/foreign/results/onset-tolerant/RULE.md (earlier rules failed: onset-default*/). The
#: random plan's step (:func:`with_onset_step`, about a drive write more) only when ``design``
#: is asked for it (``onset_from_empty=True``).
ONSET_FROM_EMPTY = True
#: The onset step ends here without an onset (host writes since the purge, drive writes of the
#: capacity): past the largest collector spare of the foreign drives (1.198, FEMU with a 10%
#: reserve) and of overprov's generated drives (about 1.3).
ONSET_MAX_DRIVE_WRITES = 1.6
#: What the plan counts the onset step to cost when it designs for a budget: the spare factor
#: of a drive with the native OP most client drives ship with (:data:`ASSUMED_NATIVE_OP_PERCENT`).
ONSET_EXPECTED_DRIVE_WRITES = 1.0 + ASSUMED_NATIVE_OP_PERCENT / 100.0
#: The third level (extra OP %; ``middle_level.with_middle``): the middle of the
#: plan's 0% and 40%, the level the answer's warnings ask for.
MIDDLE_LEVEL_PERCENT = 20.0
#: The graded fill's hazard (``precondition.graded_fill_steps``): data at fill position y is
#: overwritten at hazard ``FILL_HAZARD · (1 − y)`` when the fill ends, for ``FILL_HAZARD / 2`` drive
#: writes more, so a collector that starts within 1.17 drive writes starts inside the fill. 0.3:
#: a victim floor of 1/8 invalid (FEMU's) is met at onsets from about 0.47 drive writes (the
#: oldest data ``1 − e^(−0.3·y)`` invalid); a later onset falls in the first level's sweeps.
FILL_HAZARD = 0.3


@dataclass(frozen=True)
class Segment:
    """Random writes at one extra-OP level until settled.

    The window that counts starts only after ``min_drive_writes`` (of the tested capacity):
    the space freed by this level's discard has to be used up and WAF has to climb to its new
    level first, or the segment would stop on the post-discard plateau.
    """

    extra_op_percent: float
    min_drive_writes: float
    max_drive_writes: float
    precondition_drive_writes: float = 0.0
    """Written by the level's graded rounds before its random rounds (0: none)."""
    queue_depth: int | None = None
    """The queue depth of its rounds (None: the plan's). A segment at another queue depth is
    the second-queue-depth probe (:func:`with_probe`): the level before it left the drive in
    its steady state at this level, so it needs no settling, only its window."""
    window_rounds: int | None = None
    """Rounds in its window (None: the plan's)."""
    round_drive_writes: float | None = None
    """Each round's share of the capacity (None: the plan's)."""
    refill_from_percent: float | None = None
    """The level it grows back from (the third level, ``middle_level.py``): the span's tail
    that level's discard freed is written once sequentially before its random rounds; None:
    none (every level of the plan's order, lowest first)."""


@dataclass(frozen=True)
class MeasurementPlan:
    budget: Budget
    bs_bytes: int = 4096
    qd: int = 32
    fob_drive_writes: float = 0.02
    round_drive_writes: float = 0.04
    """Each settling round writes about this share of the capacity."""
    window_rounds: int = 8
    """A level is settled when its last ``window_rounds`` rounds agree (``settle_percent``)."""
    settle_percent: float = 3.0
    segments: list[Segment] = field(default_factory=list)
    precondition: str = "random"
    """"random" (plain random writes only) or "graded" (``precondition.py``)."""
    assumed_native_op_percent: float = ASSUMED_NATIVE_OP_PERCENT
    """Native OP assumed when sizing the first level's graded rounds."""
    graded_rounds: int = GRADED_ROUNDS
    spare_from: str = "assumed"
    """How the first level's graded rounds are sized: "onset" (sweeps of
    ``sweep_drive_writes`` until the write counters show garbage collection, ``graded_run.py``)
    or "assumed" (one pass for ``assumed_native_op_percent``; a stored plan without the field,
    and the fallback on a target without write counters)."""
    sweep_drive_writes: float = SWEEP_DRIVE_WRITES
    probe: Segment | None = None
    """After the segments, the second-queue-depth probe (:func:`with_probe`), or None."""
    low_probe: Segment | None = None
    """After the lowest level's segment, the probe there too (:data:`PROBE_AT_LOWEST`), or
    None."""
    onset_from_empty: bool = False
    """After the FOB, its random writes run on until the onset of garbage collection from
    empty (``gc_onset.py``, :func:`with_onset_step`), at most to ``onset_max_drive_writes``
    host writes since the purge."""
    onset_max_drive_writes: float = ONSET_MAX_DRIVE_WRITES
    middle: Segment | None = None
    """After every other segment, the third level (``middle_level.py``), measured only where
    ``middle_level.decide`` gives it; None: none planned (not written to the plan's record)."""
    fill_hazard: float = 0.0
    """The sequential fill's graded random writes (:data:`FILL_HAZARD`):
    the hazard they leave at the span's start; 0: a plain sequential fill. With write counters
    the onset of garbage collection from empty is dated in the fill (or, later, in the first
    level's sweeps) from the counters since the purge."""

    def all_segments(self) -> list[Segment]:
        """The segments in the order they are measured: the levels, each probe right after
        its level's segment (the lowest level's, then the highest's)."""
        low = [self.low_probe] if self.low_probe is not None else []
        high = [self.probe] if self.probe is not None else []
        return [*self.segments[:1], *low, *self.segments[1:], *high]

    def to_dict(self) -> dict[str, Any]:
        """As recorded (without the third level's fields where it has none, as before them)."""
        d = asdict(self)
        if d["middle"] is None:
            del d["middle"]
        for s in [*d["segments"], d.get("middle"), d["probe"], d["low_probe"]]:
            if s is not None and s["refill_from_percent"] is None:
                del s["refill_from_percent"]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MeasurementPlan:
        """The plan a stored measurement recorded (``to_dict``; checked by the reader)."""
        d = dict(d)
        d["budget"] = Budget(**d["budget"])
        d["segments"] = [Segment(**s) for s in d["segments"]]
        d["probe"] = Segment(**d["probe"]) if d.get("probe") else None
        d["low_probe"] = Segment(**d["low_probe"]) if d.get("low_probe") else None
        d["middle"] = Segment(**d["middle"]) if d.get("middle") else None
        d.setdefault("precondition", "random")  # recorded before graded preconditioning
        return cls(**d)

    def text(self) -> str:
        """What it measures, in one phrase for the line printed before the first write."""
        measured = ", ".join(f"{s.extra_op_percent:g}%" for s in self.segments)
        graded = "graded preconditioning then " if self.precondition == "graded" else ""
        onset = ", random writes until garbage collection starts" if self.onset_from_empty else ""
        fill = "one sequential fill"
        if self.fill_hazard:
            fill = (
                f"one sequential fill with {self.fill_random_drive_writes():.2f} drive writes of "
                "random writes over its filled part (dating the onset of garbage collection from "
                "empty)"
            )
        probes = "".join(
            f", then QD{s.queue_depth} at {s.extra_op_percent:g}% for "
            f"{self.window_drive_writes(s):.2f} drive writes"
            for s in (self.low_probe, self.probe)
            if s is not None
        )
        middle = ""
        if self.middle is not None:
            m = self.middle
            least, most = f"{self.least_drive_writes(m):.2f}", f"{m.max_drive_writes:.2f}"
            cost = least if least == most else f"{least} to {most}"
            middle = (
                f", then {m.extra_op_percent:g}% where those levels cannot tell the curve "
                f"between them ({cost} drive writes more)"
            )
        return (
            f"FOB{onset}, {fill}, {graded}random writes at {measured} extra OP until "
            f"settled{probes}{middle}"
        )

    def window_drive_writes(self, s: Segment, round_drive_writes: float | None = None) -> float:
        """What segment ``s``'s window of rounds writes (``round_drive_writes``: the plan's
        round share instead of its own, e.g. a real round's floor of a second)."""
        rounds = s.window_rounds or self.window_rounds
        share = (s.round_drive_writes or self.round_drive_writes) / self.round_drive_writes
        return rounds * share * (round_drive_writes or self.round_drive_writes)

    def least_drive_writes(self, s: Segment) -> float:
        """What segment ``s`` writes at least: its minimum and a window of rounds."""
        return s.min_drive_writes + self.window_drive_writes(s)

    def minimum_drive_writes(
        self, *, round_drive_writes: float | None = None, with_fob: bool = True
    ) -> float:
        """FOB, the fill and every segment to its minimum plus a window of rounds of
        ``round_drive_writes`` (default: the plan's); not the third level (:attr:`middle`),
        measured only where asked for."""
        fob = self.fob_drive_writes if with_fob else 0.0
        return (
            fob
            + self.onset_step_drive_writes(expected=True)
            + 1.0
            + self.fill_random_drive_writes()
            + sum(
                s.precondition_drive_writes
                + s.min_drive_writes
                + self.window_drive_writes(s, round_drive_writes)
                for s in self.all_segments()
            )
        )

    def planned_drive_writes(self) -> float:
        """Worst case: FOB, the fill and every segment to its maximum, the third level
        (:attr:`middle`) too."""
        return (
            self.fob_drive_writes
            + self.onset_step_drive_writes(expected=False)
            + 1.0
            + self.fill_random_drive_writes()
            + sum(s.precondition_drive_writes + s.max_drive_writes for s in self.all_segments())
            + (self.middle.max_drive_writes if self.middle is not None else 0.0)
        )

    def onset_step_drive_writes(self, *, expected: bool) -> float:
        """What the onset step writes past the FOB: as a drive with the assumed native OP
        would need (``expected``) or at most; 0 without the step."""
        if not self.onset_from_empty:
            return 0.0
        total = ONSET_EXPECTED_DRIVE_WRITES if expected else self.onset_max_drive_writes
        return max(0.0, total - self.fob_drive_writes)

    def fill_random_drive_writes(self) -> float:
        """What the graded fill's random writes add to the fill
        (``precondition.graded_fill_steps``)."""
        return graded_fill_drive_writes(self.fill_hazard)


def freed_drive_writes(prev_extra_op_percent: float, extra_op_percent: float) -> float:
    """Share of the capacity a discard from one level to the next hands back as free space."""
    return max(0.0, extra_op_percent - prev_extra_op_percent) / 100.0


def segments_for(
    levels: list[float],
    *,
    after_fill: bool = True,
    settle_span_writes: float | None = None,
    precondition: str = "random",
    assumed_native_op_percent: float = ASSUMED_NATIVE_OP_PERCENT,
) -> list[Segment]:
    """Segments for ``levels`` visited lowest first on one drive.

    ``precondition="random"``: minimum per segment (drive writes of the capacity) the space
    its discard freed, plus ``settle_span_writes`` (default 0.8) writes of the span. After a
    fill or a discard, WAF and IOPS reach their steady level through a damped swing that lasts
    about one write of the span (the blocks' ages re-mix); a window taken earlier can sit on
    the swing's crest (measured on the presets: at 40% extra OP, 5% above the settled figure
    after 0.3 span writes).

    ``precondition="graded"``: each level's graded rounds (``precondition.py``) write the free
    space once with the steady state's spread of ages; then ``settle_span_writes`` (default
    :data:`GRADED_SETTLE_SPAN_WRITES`) of the span before a window may count.
    """
    if precondition not in PRECONDITIONS:
        raise ConfigError(f"plan.precondition: {precondition!r} is not one of {PRECONDITIONS}")
    graded = precondition == "graded"
    if settle_span_writes is None:
        settle_span_writes = GRADED_SETTLE_SPAN_WRITES if graded else 0.8
    segs: list[Segment] = []
    prev = 0.0
    for i, x in enumerate(sorted(levels)):
        settle = settle_span_writes * (1 - x / 100.0)
        if graded:
            pre = free_share(x, prev if i else None, assumed_native_op_percent)
            segs.append(Segment(x, round(settle, 3), round(settle + 1.0, 3), round(pre, 4)))
        else:
            freed = freed_drive_writes(prev, x) if (i or after_fill) else 0.0
            min_dw = freed + settle
            segs.append(Segment(x, round(min_dw, 3), round(min_dw + 1.0, 3)))
        prev = x
    return segs


def design(
    extra_op_percent: list[float],
    budget: Budget,
    *,
    levels: list[float] | None = None,
    write_counters: bool = True,
    precondition: str | None = None,
    second_queue_depth: int | None = PROBE_QUEUE_DEPTH,
    onset_from_empty: bool | None = None,
) -> MeasurementPlan:
    """The plan for predicting ``extra_op_percent`` within ``budget``.

    ``second_queue_depth``: after the highest level, a short window there at this queue
    depth (:func:`with_probe`; None: none), when the budget holds it beside the levels.

    Measured levels: 0% (or the lowest asked) and the highest asked up to 40%. Their WAF
    (``write_counters``: the target reports NAND and host writes) and IOPS give four figures
    for the fit's three unknowns; without counters their middle is measured too, so three IOPS
    figures remain for three unknowns. ``levels`` overrides the choice.

    ``precondition``: "random" or "graded" (the module's docstring); None: "random" where a
    drive-write budget holds its minimum, else "graded" (e.g. ``2dw``).

    The third level (``--middle-level``) is ``middle_level.design``'s, on this plan.
    """
    if not extra_op_percent:
        raise ConfigError("--extra-op: no levels given")
    lo = min(extra_op_percent)
    hi = min(max(extra_op_percent), 40.0)
    if levels is None:
        if hi - lo < 5:
            levels = [lo]
        elif write_counters:
            levels = [lo, hi]
        else:
            levels = [lo, round((lo + hi) / 2), hi]
    levels = sorted(set(levels))
    for x in levels:
        if not 0 <= x < 100:
            raise ConfigError(f"measured level {x}: extra OP must be in [0, 100)")
    if precondition is None:  # the random plan where the budget holds it, else the graded
        random_min = MeasurementPlan(
            budget=budget, segments=segments_for(levels)
        ).minimum_drive_writes()
        cap = budget.drive_writes
        precondition = "graded" if cap is not None and random_min > cap else "random"

    graded = precondition == "graded"

    def make(levels: list[float]) -> MeasurementPlan:
        segs = segments_for(levels, precondition=precondition)
        return MeasurementPlan(
            budget=budget, segments=segs, precondition=precondition,
            round_drive_writes=GRADED_ROUND_DRIVE_WRITES if graded else 0.04,
            spare_from="onset" if graded and write_counters else "assumed",
        )  # fmt: skip

    plan = make(levels)
    if budget.drive_writes is not None:
        while len(levels) > 1 and plan.minimum_drive_writes() > budget.drive_writes:
            levels.pop(len(levels) // 2 if len(levels) > 2 else -1)
            plan = make(levels)
        if plan.minimum_drive_writes() > budget.drive_writes:
            raise ConfigError(
                f"--budget: {budget.text()} is too little; one settled level needs about "
                f"{plan.minimum_drive_writes():.1f} drive writes (FOB, one fill, settling)"
            )
    if second_queue_depth is not None and second_queue_depth != plan.qd:
        probed = with_probe(plan, second_queue_depth)
        if budget.drive_writes is None or probed.minimum_drive_writes() <= budget.drive_writes:
            plan = probed
    asked = onset_from_empty or (onset_from_empty is None and ONSET_FROM_EMPTY and graded)
    if asked and write_counters:  # by default the graded fill; the random step when asked
        timed = with_graded_fill(plan) if graded else with_onset_step(plan)
        if budget.drive_writes is None or timed.minimum_drive_writes() <= budget.drive_writes:
            plan = timed
    if budget.drive_writes is not None:
        plan = fit_to_budget(plan, budget.drive_writes)
    return plan


def with_onset_step(plan: MeasurementPlan) -> MeasurementPlan:
    """``plan`` with the onset of garbage collection from empty dated after its FOB
    (``gc_onset.py``): the FOB's random writes run on until the write counters show the first
    garbage-collection copy. The fill and the levels after it are as before; the step costs
    about the collector's spare factor in drive writes (:meth:`MeasurementPlan.
    onset_step_drive_writes`)."""
    return replace(plan, onset_from_empty=True)


def with_graded_fill(plan: MeasurementPlan, hazard: float = FILL_HAZARD) -> MeasurementPlan:
    """The graded ``plan`` dating the onset of garbage collection from empty in its fill
    (:data:`FILL_HAZARD`): the fill is graded as it goes (``precondition.graded_fill_steps``), so
    the first level's graded rounds are left only the share its discard hands back (none at 0%);
    where the onset comes after the fill, that level's sweeps run on to it as without the
    fill's grading. Costs the fill's random writes, ``hazard / 2`` drive writes, less the
    assumed free space the first level's rounds no longer count on."""
    if plan.precondition != "graded" or not plan.segments:
        raise ConfigError("the graded fill is the graded plan's: precondition must be 'graded'")
    first = plan.segments[0]
    first = replace(
        first, precondition_drive_writes=round(free_share(first.extra_op_percent, 0.0), 4)
    )
    return replace(plan, fill_hazard=hazard, segments=[first, *plan.segments[1:]])


def with_probe(
    plan: MeasurementPlan, queue_depth: int, at_lowest: bool | None = None
) -> MeasurementPlan:
    """``plan`` with the second-queue-depth probe: after its highest level, a window of
    :data:`PROBE_WINDOW_ROUNDS` rounds (:data:`PROBE_WHOLE_CYCLES`) at ``queue_depth`` on the
    same span. The level's segment leaves the drive in its steady state there (a queue depth
    does not change where the data is), so the probe costs its window alone; the highest level
    is where queue depth matters most (GC keeps fewer units busy there, so more of them wait
    for host writes).
    ``at_lowest`` (None: :data:`PROBE_AT_LOWEST`): with two levels or more, the same window
    after the lowest level's segment too (before the next level's discard)."""
    levels = sorted(s.extra_op_percent for s in plan.segments)
    share = 1.0 if PROBE_WHOLE_CYCLES else PROBE_ROUND_SHARE
    rounds = plan.window_rounds if PROBE_WHOLE_CYCLES else PROBE_WINDOW_ROUNDS
    round_dw = round(plan.round_drive_writes * share, 6)
    window = rounds * round_dw

    def at(x: float) -> Segment:
        return Segment(
            x, 0.0, round(window, 6), queue_depth=queue_depth,
            window_rounds=rounds, round_drive_writes=round_dw,
        )  # fmt: skip

    lowest = PROBE_AT_LOWEST if at_lowest is None else at_lowest
    low = at(levels[0]) if lowest and len(levels) > 1 else None
    return replace(plan, probe=at(levels[-1]), low_probe=low)


def fit_to_budget(plan: MeasurementPlan, drive_writes: float) -> MeasurementPlan:
    """The plan with each segment's maximum lowered (evenly, never below its minimum and a
    window) so that the worst case, :meth:`MeasurementPlan.planned_drive_writes`, fits in
    ``drive_writes``: the plan printed before measuring is what the budget allows. The onset
    step (:func:`with_onset_step`) takes a share of what is left beside them, above its
    expected cost (past it the step ends with a lower bound; under an I/O-time budget
    ``gc_onset.step_io_seconds_cap`` caps it in time)."""
    if plan.planned_drive_writes() <= drive_writes or not plan.segments:
        return plan
    steps = len(plan.segments) + (1 if plan.onset_from_empty else 0)
    share = max(0.0, drive_writes - plan.minimum_drive_writes()) / steps
    if plan.onset_from_empty:
        cap = ONSET_EXPECTED_DRIVE_WRITES + share
        plan = replace(plan, onset_max_drive_writes=min(plan.onset_max_drive_writes, cap))
    segs = [  # the probe keeps its window
        replace(
            s,
            max_drive_writes=min(s.max_drive_writes, plan.least_drive_writes(s) + share),
        )
        for s in plan.segments
    ]
    return replace(plan, segments=segs)


def plan_of(m: Measurement) -> MeasurementPlan | None:
    """The plan a (checked) measurement recorded, or None for one that recorded none."""
    return MeasurementPlan.from_dict(m.plan) if m.plan is not None else None
