"""The refill of a level grown back from a higher one (``plan.middle_segment``, the third level
of ``middle_level.py``): the span's tail the higher level's discard freed is written once
sequentially before the level's random rounds, so those rounds start on a full span as every
other level does after the fill, and settle as any level does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from overprov.calibrate.graded_run import BudgetSpent
from overprov.profile.targets import RoundSpec

if TYPE_CHECKING:
    from overprov.calibrate.graded_run import RoundRunner
    from overprov.calibrate.plan import Segment

#: The refill round's label: "refill-op20", not "op20-r…" (the level's random rounds, which
#: ``waf_drift`` and ``burst_cycle`` read by that prefix).
LABEL = "refill"


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
