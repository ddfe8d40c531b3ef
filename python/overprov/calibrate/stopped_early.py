"""What a fit says of levels that did not settle: a measurement the budget stopped early, or a
random-plan level that ended at its share of the budget before its rounds agreed within ±3%.

Such a level's figures are its last window's, not a steady state's, and the fit's 80% interval
is not widened for it. A newcomer's review of calibrate (2026-11-29) found a ``--resume``d
simulated drive stopped by its budget fit from one such level with a normal table and a narrow
band that missed the truth, exit 0, "measuring stopped early" on stderr only. Now:

* :func:`warning` is the line calibrate prints under its table and writes as
  ``measurement.warning`` in prediction.json (with ``measurement.stop_reason``);
* :func:`refusal`: where the only level at the plan's queue depth did not settle, no twin is
  written (exit 3, as a fit that cannot explain its inputs): one unsettled figure fixes the curve
  alone, and nothing else in the measurement can show it wrong.

A graded-plan level reads "NOT settled" by design (its window ends at the first that holds within
10%, docs/calibrate.md): it counts here only where the budget cut its segment short
(``Measurement.cut_levels``, which ``measure.py`` records as it cuts; a file written before
that field: :data:`CUT_SHORT`, the stop reason's words); "the budget is spent before the X%
segment" cut no level, and a graded level before the one cut ended as designed.
"""

from __future__ import annotations

import re

from overprov.measurement_file import Level, Measurement

#: The stop reason of a segment the budget cut short (``measure.py``'s words): its level.
CUT_SHORT = re.compile(r"the budget cut the (\d+(?:\.\d+)?)% segment short")


def _graded(m: Measurement) -> bool:
    return (m.plan or {}).get("precondition", "random") == "graded"


def _cut_short(m: Measurement) -> list[Level]:
    """The levels whose segments the budget cut short (each the last measured at that extra OP
    and queue depth): ``m.cut_levels`` as ``measure.py`` recorded them; a file written before
    that field, the one ``m.stop_reason`` names."""
    if m.cut_levels is not None:
        found = []
        for cut in m.cut_levels:
            at = [
                lv
                for lv in m.levels
                if lv.extra_op_percent == float(cut["extra_op_percent"])
                and lv.queue_depth == cut.get("queue_depth")
            ]
            found += [lv for lv in at[-1:] if lv not in found]
        return found
    said = CUT_SHORT.search(m.stop_reason or "")
    at = [lv for lv in m.levels if said and lv.extra_op_percent == float(said.group(1))]
    return at[-1:]


def unsettled(m: Measurement) -> list[Level]:
    """``m``'s levels that did not settle, as this module reads them (above)."""
    if _graded(m):
        return [lv for lv in _cut_short(m) if not lv.settled]
    return [lv for lv in m.levels if not lv.settled]


def level_text(lv: Level) -> str:
    """ "40%", or "40% at QD4" for the second-queue-depth probe's level."""
    return f"{lv.extra_op_percent:g}%" + (f" at QD{lv.queue_depth}" if lv.queue_depth else "")


def warning(m: Measurement | None) -> str | None:
    """The warning a fit from ``m`` carries, or None when every level it reads settled."""
    levels = unsettled(m) if m is not None else []
    if m is None or not (levels or m.stop_reason):
        return None
    said = "WARNING: "
    if m.stop_reason:
        said += f"measuring stopped early ({m.stop_reason}); "
    if levels:
        said += (
            "fitted from levels that did not settle: "
            + ", ".join(level_text(lv) for lv in levels)
            + " (their last window's figures; the 80% interval is not widened for it"
            + ("; a graded-plan level reads so by design" if _graded(m) else "")
            + ")"
        )
    else:
        said += (
            "no level it measured was cut short"
            if _graded(m)
            else "every level it measured settled"
        )
    return said + "; for settled figures, measure again with a larger --budget"


def refusal(m: Measurement | None) -> str | None:
    """Why no twin is fitted to ``m`` (its only level at the plan's queue depth did not
    settle), or None."""
    if m is None:
        return None
    at_plan_qd = [lv for lv in m.levels if lv.queue_depth is None]
    if len(at_plan_qd) != 1 or at_plan_qd[0] not in unsettled(m):
        return None
    why = m.stop_reason or "its rounds did not agree within ±3% in its share of the budget"
    return (
        f"no twin is fitted: the one level measured at the plan's queue depth, "
        f"{level_text(at_plan_qd[0])}, did not settle ({why}), and one unsettled figure cannot be "
        "checked by any other; measure again with a larger --budget"
    )
