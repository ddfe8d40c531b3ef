"""The third level's run (``middle_level.py``) after the plan's others (:func:`third_level`),
and the refill of a level grown back from a higher one (``middle_level.middle_segment``): the
span's tail the higher level's discard freed is written once sequentially before the level's
random rounds, so those rounds start on a full span as every other level does after the fill,
and settle as any level does."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from overprov.calibrate.graded_run import BudgetSpent
from overprov.errors import OverprovError
from overprov.profile.targets import RoundSpec

if TYPE_CHECKING:
    from overprov.calibrate.graded_run import RoundRunner
    from overprov.calibrate.plan import MeasurementPlan, Segment
    from overprov.measurement_file import Measurement

#: The refill round's label: "refill-op20", not "op20-r…" (the level's random rounds, which
#: ``waf_drift`` and ``burst_cycle`` read by that prefix).
LABEL = "refill"


class LevelRunner(Protocol):
    """What :func:`third_level` needs of ``measure.SegmentRunner``."""

    plan: MeasurementPlan
    m: Measurement

    def save(self) -> None: ...
    def progress(self, text: str) -> None: ...
    def segment(self, seg: Segment) -> Any: ...
    def forget_reading(self) -> None: ...


def refill(runner: RoundRunner, seg: Segment, span_bytes: int) -> float:
    """Write [the span of ``seg.refill_from_percent``, ``span_bytes``) once sequentially on
    ``runner``'s target (a round of its own, kept with the measurement); the drive writes it
    wrote (0 where the span does not grow). Raises BudgetSpent where it does not fit."""
    assert seg.refill_from_percent is not None
    cap, bs = runner.m.capacity_bytes, runner.plan.bs_bytes
    start = int(cap * (1 - seg.refill_from_percent / 100.0)) // bs * bs
    if span_bytes <= start:
        return 0.0
    if not runner.fits((span_bytes - start) / cap, 0.0):
        raise BudgetSpent(f"the budget leaves no room for the {seg.extra_op_percent:g}% refill")
    spec = RoundSpec(f"{LABEL}-op{seg.extra_op_percent:g}", "write", 131072, runner.plan.qd, 1,
                     span_bytes - start, offset_bytes=start)  # fmt: skip
    r = runner.run(spec, seg.extra_op_percent)
    runner.progress(
        f"{seg.extra_op_percent:g}% extra OP: the tail the {seg.refill_from_percent:g}% level "
        f"freed written again, {r.bytes_written / cap:.2f} drive writes"
    )
    return r.bytes_written / cap


def third_level(
    runner: LevelRunner,
    decide: Callable[[MeasurementPlan, Measurement], Any],
    after_level: Callable[[Any, Segment], None] | None = None,
) -> None:
    """After the plan's segments: ``decide(plan, m)`` (``middle_level.decide``); where it gives
    reasons they are kept in the run's record (``middle_level.source`` reads it) and its text
    said, and the segment it gives is measured (then ``after_level``, as for every level). An
    error other than overprov's in the decision measures no third level: the levels already
    measured are kept, and the run's record and the prediction's source say why (hours of
    measurement are not lost to an optional step)."""
    plan, m = runner.plan, runner.m
    try:
        third = decide(plan, m)
    except (OverprovError, KeyboardInterrupt):
        raise
    except Exception as exc:
        why = (
            f"no third level was measured: its decision (middle_level.py) failed ({exc!r}); "
            "the levels measured before it are kept"
        )
        m.runs[-1]["middle_level"] = {"reasons": [], "measured": False, "note": why}
        runner.save()
        runner.progress(why)
        return
    if third is None:
        return
    if third.reasons:
        m.runs[-1]["middle_level"] = {
            "reasons": list(third.reasons), "measured": third.segment is not None,
            "note": third.note,
        }  # fmt: skip
        runner.save()
        runner.progress(third.text())
    if third.segment is not None:
        runner.segment(third.segment)
        if after_level is not None:
            after_level(runner, third.segment)
            runner.forget_reading()
