"""A third level where two cannot tell: after the plan's two levels, a settled level between
them (``plan.MIDDLE_LEVEL_PERCENT``) where the answer's own tests say the two levels leave the curve
between them open (:data:`ON`, off; bench/foreign/results/midlevel/RULE.md).

**Why.** With write counters the plan measures the lowest level and the highest (``plan.design``).
Two figures at two levels cannot show what lies between them, and the answer says so where it
can tell: ``steep_pair`` (only the gentlest victim choice links the two WAF figures, and a GC
reserve with a victim floor reproduces them too: "a WAF figure at 10% or 20% extra OP would
tell them apart") and ``bend_between`` (the lowest level deep in garbage collection and faster
than the line the FOB and the highest level draw: "IOPS and WAF figures at 20% extra OP would
show it"). Where either test fires on the measured figures, the level the warnings ask for is
measured, so the answer is fitted with it instead of only saying it is missing.

**Which level.** 20%, the middle of 0% and 40%: a WAF figure there is a level the fit holds out
and weighs (with three steady levels the leave-one-out has a level the floor is not read from,
``reserve_hull.floor_in_waf``), and both warnings name it. 10% would sit nearer the 0% level
whose figures the diagnoses distrust (MQSim's 0% level runs on a reserve drawn down while the
others hold it, bench/foreign/results/mqfixed/DIAGNOSIS.md), so a spare read through 0% and 10%
carries the 0% level's odd state with it; 20% is also where a plan without write counters
already puts its middle level, so the segment is the kind the plan already settles.

**How it is planned** (:func:`design`, :func:`with_middle`): in the random plan of two levels
either side of 20%, where a drive-write budget holds the level's minimum and a window beside the
plan's minimum; the other segments' maxima are then trimmed (``plan.fit_to_budget``) to leave it
that much, and the plan's worst case (the "at most" calibrate prints) stays within the budget.
The levels before it leave it that much as they run (``measure.measure``'s reserve).

**How it is measured** (:func:`middle_segment`, ``level_refill.py``): after the highest level
(and its QD4 probe), the span grows back to the 20% level's: the tail the highest level's
discard freed is written once sequentially (``level_refill.refill``,
``Segment.refill_from_percent``), then random writes over the span settle as any level does
(``plan.segments_for``'s settling, 0.8 span writes, then a window that agrees). Its drive
writes: the refill (0.2 of the capacity from 40%) + 0.64 + the window (0.32 in the random
plan): about 1.16 at least, 1.84 at most unbounded (the level's minimum and a drive write more,
as every level; a budget trims it to what it leaves); the plan's text and ``--dry-run`` say so.
``measure.measure`` runs it where :func:`decide` (passed by ``target_measurement``) gives it.

**When** (:func:`reasons`): uniform random writes (the plan's), two steady levels with IOPS and
WAF, and ``steep_pair.fires`` / ``steep_pair.warns`` or ``bend_between.fires`` on the figures as
calibrate would read them (``predict.points_from``, the recorded model-form error). Where the
budget cannot hold the level, the measurement records why and what it would cost
(:func:`cost_note`, with the least budget whose plan holds it within its "at most",
:func:`holding_budget`), and calibrate prints it (``--dry-run`` too, :func:`unheld_text`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from overprov.calibrate import fit as fitmod
    from overprov.calibrate.plan import Budget, MeasurementPlan, Segment
    from overprov.measurement_file import Measurement

#: Measure the third level where :func:`reasons` finds the two levels ambiguous or bent and the
#: budget holds it. Off: bench/foreign/results/midlevel/RULE.md decides.
ON = False
#: Whether :func:`reasons` counts ``bend_between.fires`` (a curve that may bend between the
#: levels) as well as the steep-pair test. Off: the steep-pair test alone (arm S of
#: bench/foreign/results/midlevel/RULE.md).
WHERE_BENT = True
#: What calibrate says where a test fired and the budget could not hold the level.
UNHELD_BY = (
    "which the budget ({budget}) does not hold: --budget {need:g}dw or more holds it, the other "
    "levels' maxima trimmed to leave it room ({whole:.2f} drive writes at most untrimmed) "
    "(middle_level.py)"
)
COST_NOTE = (
    "the figures at {levels} cannot tell the curve between them ({why}); a settled level at "
    "{level:g}% extra OP would, for about {dw:.2f} drive writes more (at most {most:.2f}), "
    + UNHELD_BY
)
#: What calibrate says where the plan held the level and the levels before it left too little.
SPENT_NOTE = (
    "the figures at {levels} cannot tell the curve between them ({why}); the settled level at "
    "{level:g}% extra OP the plan held was not measured: the levels before it left "
    "{left:.2f} drive writes of the budget ({budget}), under its minimum and a window "
    "({least:.2f}) (middle_level.py)"
)
#: What ``--dry-run --middle-level on`` says where the budget cannot hold the level.
UNHELD = (
    "--middle-level on: a settled level at {level:g}% extra OP, measured where the two levels "
    "cannot tell the curve between them, costs {dw:.2f} to {most:.2f} drive writes more, "
    + UNHELD_BY
)
#: What the steep-pair test is called in the notes.
AMBIGUOUS = "steep_pair: only the gentlest victim choice or a reserve's floor links them"
#: What the bend test is called in the notes.
BENT = "bend_between: the lowest level deep and faster than the FOB's line, the curve may bend"


@dataclass(frozen=True)
class Decision:
    """What :func:`decide` found: the reasons the tests gave (empty: nothing fired), the
    segment to measure (None: none, for no reason or no budget) and, where the budget could not
    hold it, :func:`cost_note`."""

    reasons: tuple[str, ...]
    segment: Segment | None
    note: str = ""

    def text(self) -> str:
        """The progress line: the level measured and why, or :attr:`note`."""
        if self.segment is None:
            return self.note
        return (
            f"the levels measured cannot tell the curve between them ({'; '.join(self.reasons)})"
            f": measuring {self.segment.extra_op_percent:g}% extra OP too (middle_level.py)"
        )


def reasons(points: list[fitmod.Point], fob_iops: float | None, m: Measurement | None) -> list[str]:
    """The tests that fire on ``points`` (at the workload's queue depth and others, as measured
    or typed) and the FOB: :data:`AMBIGUOUS` where ``steep_pair.fires`` (or, with its
    ``READ_AS_FLOOR`` off, ``steep_pair.warns``) on the figures as calibrate weighs them, with no
    onset of garbage collection from empty in ``m`` (there the reserve reading reads it);
    :data:`BENT` where ``bend_between.fires``."""
    from overprov.calibrate import (
        bend_between,
        floor_or_choices,
        gc_designs,
        reserve_hull,
        reserve_reading,
        steep_pair,
        uncertainty,
    )
    from overprov.calibrate import fit as fitmod

    qd = m.qd if m is not None else fitmod.WORKLOAD_QD
    main, _ = fitmod.split_queue_depths(points, qd)
    simulated = m is not None and m.kind == "sim"
    cv_sd = uncertainty.weighing_rel_sd(uncertainty.model_form_for(points, simulated))  # as cli
    two = reserve_hull.floor_in_waf(main)
    out = []
    undated = reserve_reading.onset_from_empty(m) is None  # a dated reserve reads itself
    designs = gc_designs.UNIFORM_DESIGNS  # as reserve_hull.ambiguity_warning asks warns
    if undated and (
        steep_pair.fires(main, cv_sd, two)
        or steep_pair.warns(
            main, cv_sd, two, lambda: floor_or_choices.reserve_called_for(main, cv_sd, designs)
        )
    ):
        out.append(AMBIGUOUS)
    if WHERE_BENT and bend_between.fires(main, fob_iops):
        out.append(BENT)
    return out


def between(plan: MeasurementPlan) -> bool:
    """Whether ``plan`` measures two levels either side of ``plan.MIDDLE_LEVEL_PERCENT`` (a plan
    without write counters measures its middle already)."""
    from overprov.calibrate.plan import MIDDLE_LEVEL_PERCENT

    levels = sorted(s.extra_op_percent for s in plan.segments)
    return len(levels) == 2 and levels[0] < MIDDLE_LEVEL_PERCENT < levels[1]


def middle_segment(plan: MeasurementPlan) -> Segment:
    """The third level's segment after ``plan``'s highest level: the span's tail the highest
    level freed written once (``Segment.refill_from_percent``), then settling as
    ``plan.segments_for`` settles a level: its minimum the refill plus 0.8 writes of the span,
    its maximum a drive write more."""
    from overprov.calibrate.plan import MIDDLE_LEVEL_PERCENT, Segment, segments_for

    high = max(s.extra_op_percent for s in plan.segments)
    refill = max(0.0, high - MIDDLE_LEVEL_PERCENT) / 100.0
    settle = segments_for([MIDDLE_LEVEL_PERCENT], after_fill=False)[0]
    low = round(refill + settle.min_drive_writes, 3)
    return Segment(MIDDLE_LEVEL_PERCENT, low, round(low + 1.0, 3), refill_from_percent=high)


def with_middle(plan: MeasurementPlan) -> MeasurementPlan | None:
    """``plan`` with its third level (:func:`middle_segment`) where it is the random plan of two
    levels either side of it (:func:`between`) and a drive-write budget holds the level's
    minimum and a window beside the plan's minimum; else None. Under such a budget the other
    segments' maxima are trimmed to leave the level that much (``plan.fit_to_budget``) and its
    maximum is what the budget leaves beside theirs, so the plan's worst case
    (``planned_drive_writes``, the "at most" printed) stays within the budget."""
    from overprov.calibrate.plan import fit_to_budget

    if plan.precondition != "random" or not between(plan):
        return None
    seg = middle_segment(plan)
    cap = plan.budget.drive_writes
    if cap is None:
        return replace(plan, middle=seg)
    least = plan.least_drive_writes(seg)
    if cap - plan.minimum_drive_writes() < least:
        return None
    rest = fit_to_budget(plan, cap - least)
    room = cap - rest.planned_drive_writes()
    return replace(rest, middle=replace(seg, max_drive_writes=min(seg.max_drive_writes, room)))


def design(
    levels: list[float], budget: Budget, *, middle: bool = False, **options: Any
) -> MeasurementPlan:
    """``plan.design(levels, budget, **options)`` with its third level where ``middle``
    (``--middle-level``), the target reports write counters (``options["write_counters"]``,
    default on) and :func:`with_middle` plans it."""
    from overprov.calibrate import plan as planmod

    plan = planmod.design(levels, budget, **options)
    if not (middle and options.get("write_counters", True)):
        return plan
    return with_middle(plan) or plan


def holding_budget(plan: MeasurementPlan) -> tuple[MeasurementPlan, float]:
    """The random plan of ``plan``'s levels with its third level and no budget, and the least
    drive-write budget (in tenths) whose plan (:func:`design`) holds the third level with its
    worst case (``planned_drive_writes``, the "at most" printed) within it: from that plan's
    minimum and the level's minimum and a window, up to its worst case untrimmed."""
    from overprov.calibrate import plan as planmod

    levels = sorted(s.extra_op_percent for s in plan.segments)
    whole = design(levels, planmod.Budget(), middle=True)
    assert whole.middle is not None  # two levels either side of it, unbounded: planned
    least = whole.minimum_drive_writes() + whole.least_drive_writes(whole.middle)
    tenth = math.ceil(10 * least - 1e-9)
    while tenth < 10 * whole.planned_drive_writes():
        got = design(levels, planmod.Budget(drive_writes=tenth / 10), middle=True)
        if got.middle is not None and got.planned_drive_writes() <= tenth / 10 + 1e-9:
            break
        tenth += 1
    return whole, tenth / 10


def unheld_text(plan: MeasurementPlan) -> str:
    """:data:`UNHELD` filled in where ``plan`` (asked for the level) has two levels either side
    of it and no third level (its budget could not hold it); else ""."""
    if plan.middle is not None or not between(plan):
        return ""
    return UNHELD.format(**_cost(plan))


def decide(plan: MeasurementPlan, m: Measurement, on: bool | None = None) -> Decision:
    """After ``plan``'s segments were measured into ``m``: its third level (``plan.middle``,
    planned where :data:`ON` and the budget held it) where a test fires on the measured figures
    (:func:`reasons`) and the budget still holds its minimum and a window beside what ``m``
    wrote (else :data:`SPENT_NOTE`, what the levels before it left, and no segment). With
    :data:`ON` and no third level planned (the budget could not hold it), the tests are run
    all the same and a firing one gives :func:`cost_note` and no segment (``on``: the option
    asked, None: :data:`ON`; False: no third level, no note)."""
    from overprov.calibrate import plan as planmod
    from overprov.calibrate import predict as predmod

    asked = ON if on is None else on
    planned = plan.middle if asked is not False else None
    if planned is None and not (asked and between(plan) and m.counters):
        return Decision((), None)
    x = planned.extra_op_percent if planned is not None else planmod.MIDDLE_LEVEL_PERCENT
    if any(lv.extra_op_percent == x and lv.queue_depth is None for lv in m.levels):
        return Decision((), None)  # measured already (a resumed run)
    why = tuple(reasons(predmod.points_from(m), m.fob_iops, m))
    if not why:
        return Decision((), None)
    if planned is None:
        return Decision(why, None, cost_note(plan, why))
    seg, cap = planned, plan.budget.drive_writes
    if cap is not None and m.drive_writes + plan.least_drive_writes(seg) > cap:
        return Decision(why, None, SPENT_NOTE.format(
            levels=" and ".join(f"{s.extra_op_percent:g}%" for s in plan.segments),
            why="; ".join(why), level=seg.extra_op_percent, left=cap - m.drive_writes,
            budget=plan.budget.text(), least=plan.least_drive_writes(seg),
        ))  # fmt: skip
    return Decision(why, seg)


def cost_note(plan: MeasurementPlan, why: tuple[str, ...]) -> str:
    """:data:`COST_NOTE` filled in: what the third level costs in the random plan of ``plan``'s
    levels (unbounded) and the least budget whose plan holds it (:func:`holding_budget`)."""
    return COST_NOTE.format(why="; ".join(why), **_cost(plan))


def _cost(plan: MeasurementPlan) -> dict[str, Any]:
    """What :data:`COST_NOTE` and :data:`UNHELD` say of the third level ``plan`` could not hold
    (``str.format`` leaves a key a text does not name unused): the levels and the level's cost
    in the random plan of ``plan``'s levels (unbounded), its level and ``plan``'s budget, the
    least budget that holds it (:func:`holding_budget`)."""
    whole, need = holding_budget(plan)
    seg = whole.middle
    assert seg is not None
    return {
        "levels": " and ".join(f"{s.extra_op_percent:g}%" for s in whole.segments),
        "level": seg.extra_op_percent, "dw": whole.least_drive_writes(seg),
        "most": seg.max_drive_writes, "budget": plan.budget.text(), "need": need,
        "whole": whole.planned_drive_writes(),
    }  # fmt: skip


def source(m: Measurement) -> str:
    """The clause the prediction's source carries from ``m``'s third-level record (the last run
    that kept one, ``measure.measure``; a resumed run after it may keep none): the level
    measured and why, or what it would cost; "" for none."""
    rec = next((r["middle_level"] for r in reversed(m.runs) if r.get("middle_level")), None)
    if not rec:
        return ""
    if rec.get("measured"):
        return (f"; a third level measured because the first two could not tell the curve "
                f"between them ({'; '.join(rec['reasons'])}) (middle_level.py)")  # fmt: skip
    return f"; {rec['note']}" if rec.get("note") else ""
