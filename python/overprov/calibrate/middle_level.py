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

**How it is measured** (``plan.middle_segment``, ``level_refill.py``): after the highest level
(and its QD4 probe), the span grows back to the 20% level's: the tail the highest level's
discard freed is written once sequentially (``level_refill.refill``,
``Segment.refill_from_percent``), then random writes over the span settle as any level does
(``plan.segments_for``'s settling, 0.8 span writes, then a window that agrees). Its drive
writes: the refill (0.2 of the capacity from 40%) + 0.64 + the window (0.32 in the random
plan): about 1.16 at least, 1.84 at most (the level's minimum and a drive write more, as every
level); the plan's text and ``--dry-run`` say so. ``measure.measure`` runs it where
:func:`decide` (passed by ``target_measurement``) gives it.

**When** (:func:`reasons`): uniform random writes (the plan's), two steady levels with IOPS and
WAF, and ``steep_pair.fires`` / ``steep_pair.warns`` or ``bend_between.fires`` on the figures as
calibrate would read them (``predict.points_from``, the recorded model-form error). Where the
budget cannot hold the level, the measurement records why and what it would cost
(:func:`cost_note`), and calibrate prints it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from overprov.calibrate import fit as fitmod
    from overprov.calibrate.plan import MeasurementPlan, Segment
    from overprov.measurement_file import Measurement

#: Measure the third level where :func:`reasons` finds the two levels ambiguous or bent and the
#: budget holds it. Off: bench/foreign/results/midlevel/RULE.md decides.
ON = False
#: Whether :func:`reasons` counts ``bend_between.fires`` (a curve that may bend between the
#: levels) as well as the steep-pair test. Off: the steep-pair test alone (arm S of
#: bench/foreign/results/midlevel/RULE.md).
WHERE_BENT = True
#: What calibrate says where a test fired and the budget could not hold the level.
COST_NOTE = (
    "the figures at {levels} cannot tell the curve between them ({why}); a settled level at "
    "{level:g}% extra OP would, for about {dw:.2f} drive writes more (at most {most:.2f}), which "
    "the budget ({budget}) does not hold: --budget {need:g}dw or more holds it "
    "(middle_level.py)"
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
    if undated and (
        steep_pair.fires(main, cv_sd, two)
        or steep_pair.warns(main, cv_sd, two, lambda: _reserve_called_for(main, cv_sd))
    ):
        out.append(AMBIGUOUS)
    if WHERE_BENT and bend_between.fires(main, fob_iops):
        out.append(BENT)
    return out


def _reserve_called_for(points: list[fitmod.Point], cv_sd: float) -> bool:
    """A reserve reading of some uniform design called for by ``points`` (as
    ``reserve_hull.ambiguity_warning`` asks ``steep_pair.warns``); a form that cannot fit them
    is not."""
    from overprov.calibrate import gc_designs, reserve_hull
    from overprov.errors import ConfigError

    for design in gc_designs.UNIFORM_DESIGNS:
        try:
            if reserve_hull.form_of(design, cv_sd).called_for(points):
                return True
        except ConfigError:
            continue
    return False


def between(plan: MeasurementPlan) -> bool:
    """Whether ``plan`` measures two levels either side of ``plan.MIDDLE_LEVEL_PERCENT`` (a plan
    without write counters measures its middle already)."""
    from overprov.calibrate.plan import MIDDLE_LEVEL_PERCENT

    levels = sorted(s.extra_op_percent for s in plan.segments)
    return len(levels) == 2 and levels[0] < MIDDLE_LEVEL_PERCENT < levels[1]


def cost_drive_writes(plan: MeasurementPlan, seg: Segment) -> float:
    """What the third level ``seg`` writes at least under ``plan``: its minimum and a window."""
    return seg.min_drive_writes + plan.window_drive_writes(seg)


def decide(plan: MeasurementPlan, m: Measurement, on: bool | None = None) -> Decision:
    """After ``plan``'s segments were measured into ``m``: its third level (``plan.middle``,
    planned where :data:`ON` and the budget held it) where a test fires on the measured figures
    (:func:`reasons`) and the budget still holds its minimum beside what ``m`` wrote. With
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
    seg = planned or planmod.middle_segment(plan)
    cap = plan.budget.drive_writes
    cost = cost_drive_writes(plan, seg)
    if planned is None or cap is not None and m.drive_writes + cost > cap:
        return Decision(why, None, cost_note(plan, seg, why))
    return Decision(why, seg)


def cost_note(plan: MeasurementPlan, seg: Segment, why: tuple[str, ...]) -> str:
    """:data:`COST_NOTE` filled in: what the third level costs in the random plan (``seg`` where
    that plan cannot take one), and the drive-write budget whose plan holds it (the random
    plan's minimum with it, ``plan.design``)."""
    from overprov.calibrate import plan as planmod

    levels = sorted(s.extra_op_percent for s in plan.segments)
    whole = planmod.design(levels, planmod.Budget(), middle=True)  # the random plan's, with it
    seg = whole.middle or seg
    dw = cost_drive_writes(whole, seg)
    need = math.ceil(10 * (whole.minimum_drive_writes() + dw)) / 10
    return COST_NOTE.format(
        levels=" and ".join(f"{x:g}%" for x in levels), why="; ".join(why),
        level=seg.extra_op_percent, dw=dw, most=seg.max_drive_writes,
        budget=plan.budget.text(), need=need,
    )  # fmt: skip


def source(m: Measurement) -> str:
    """The clause the prediction's source carries from ``m``'s last run's third-level record
    (``measure.measure`` keeps it): the level measured and why, or what it would cost; ""
    for none."""
    rec = m.runs[-1].get("middle_level") if m.runs else None
    if not rec:
        return ""
    if rec.get("measured"):
        return (f"; a third level measured because the first two could not tell the curve "
                f"between them ({'; '.join(rec['reasons'])}) (middle_level.py)")  # fmt: skip
    return f"; {rec['note']}" if rec.get("note") else ""
