"""Typed figures whose lowest level is deep in garbage collection and faster than the line the
FOB and the highest level draw: a curve that may bend between the levels, which the figures
cannot show (a warning, :data:`WARN_WHERE_BENT`, on by its rule).

**Why.** On MQSim's retried drives (bench/foreign/results/mqsim-retry/unseen/) calibrate puts
IOPS at 10% extra OP 37–55% too high from IOPS and WAF at 0% and 40% and the FOB
(bench/foreign/results/scoreboard/cases-mix.md): MQSim's 0% level runs its collections paired
(docs/calibrate-validation.md, "Two collections in flight a plane") and the middle levels lose
the pairing, so the time per write bends between the levels. On these drives the time per
write (1 / IOPS) at 10–30% lies close to the straight line through the FOB (WAF 1) and the 40%
figure against WAF, and the 0% figure lies far above that line (its IOPS 1.6–2.0 times the
line's). The same excess shows on NVMeVirt drives whose curve does not bend and which calibrate
predicts within its targets (bench/foreign/results/mqbend/DIAGNOSIS.md): the shape of the
figures cannot tell the two apart. What separated them on the seen cases is the depth of the
lowest level: a WAF of 10 and more on the drives that bend, at most 8.3 on every other stored
truth whose 0% IOPS lies that far above the line. Chosen on seen cases.

**The test** (:func:`fires`): uniform writes, typed figures (no measured onset), a FOB figure,
steady IOPS and WAF at two levels at least (the workload's queue depth); at the lowest such
level a WAF of at least :data:`DEEP_WAF` and an IOPS at least :data:`ABOVE_LINE` times
:func:`line_iops` there. Where it fires and :data:`WARN_WHERE_BENT` is on, the prediction's
source carries :data:`WARNING` (calibrate prints it); the figures and the interval are left as
they are. What a figure at a third level gave, on four seen MQSim drives
(bench/foreign/results/mqbend/DIAGNOSIS.md): IOPS+WAF at 0%, 20% and 40% with the FOB, a
refusal on all four (no twin reproduces the three levels); at 20% and 40% with the FOB, IOPS at
10% within −0.4% to −15.4%. With ``three_levels.ON`` (on since
bench/foreign/results/level3/verdict.md) a middle IOPS figure on the FOB's line is left to it
and the three levels are answered.
Judged under bench/foreign/results/mqbend/RULE.md: **met, so on**
(bench/foreign/results/mqbend/verdict.md). On the 72 scoreboard truths it speaks on the six
MQSim drives above and no other; on three fresh MQSim drives it spoke on the two whose IOPS at
10% came out +55.3% and +42.4% (IOPS+WAF at 20% and 40% then put it at +4.7% and −8.2%) and not
on the third (+8.1%); the figures, weights and intervals are the same with it on or off.

**The span to the line** (:func:`span_to_line`, :data:`SPAN_TO_LINE`, off): where :func:`fires`,
the IOPS interval at every level strictly between the lowest and the highest typed level is
widened to include :func:`line_iops` at that level's predicted WAF (the centre unchanged). On
the six seen MQSim drives that line lies within −20..+4% of the true IOPS at 10% and ±6% at
20–30% (bench/foreign/results/mqbend/DIAGNOSIS.md, with the true WAF). Judged jointly with
``own_erase_residual.ON`` and ``steep_pair.HULL_WHERE_AMBIGUOUS`` under
bench/foreign/results/jointband/RULE.md: **not met, off**
(bench/foreign/results/jointband/verdict.md). On the 72 scoreboard truths the three together
put 386 of 426 unfitted figures inside (90.6%, above the rule's 90%), the span alone bringing
in 14 of the 17 MQSim IOPS figures it could touch; calibrate's output with the three flags
equalled the composition on the four cases run.

**The line between** (:func:`line_between`, :data:`LINE_BETWEEN`, on with the gate below): where
:func:`fires`, the IOPS *centre* at every level strictly between the lowest and the highest typed
level is :func:`line_iops` at that level's predicted WAF, not the twin's, and the interval moves
with it keeping the twin's relative width (low and high the same fractions of the centre). The
prediction's source names the levels so set; the twin file is unchanged (it still reproduces
the typed figures), so the twin's own IOPS differ from the prediction's there. The width was
chosen on the seen cases (the six stored MQSim drives and the four fresh ones of mqbend and
jointband it fires on, composed from their case files: the relative width put 30 of 30 such
figures inside at 29-49% wide, the span from twin to line 25 of 30 at 36-127%, the twin alone
8 of 30). Judged alone under bench/foreign/results/mqline/RULE.md: **not met**
(bench/foreign/results/mqline/verdict.md). It fired on all four fresh MQSim drives; on three
the line took the IOPS median from 15-17% to about 1%, but on u288x32, whose twin was already
within 10% (the curve did not bend there), it took it from 5.3% to 12.5% (F2).

**The gate** (:func:`gate_passes`, :data:`LINE_GATE`, on): with it on, :func:`line_between`
moves the levels only where the twin's IOPS are at least :data:`GATE_ABOVE_LINE` times
:func:`line_iops` at the level's predicted WAF (else it leaves every level): with
:data:`GATE_AT_ONE_LEVEL` off, at some level asked strictly between the typed ones (as mqgate
judged it, below); with it on (the default), at the one level :func:`gate_level_percent`
(the next paragraph). Chosen on seen drives, all of them seen when it was set: with today's
defaults (bench/foreign/results/daytally/cases/, bench/foreign/results/wisctiming/on/) the
twin's IOPS at 10% are 1.35 times the line's on u288x32, whose curve did not bend, and
1.48-1.79 times on the thirteen whose curve bent (u256x64, where the warning is silent,
1.05); 1.41 lies about halfway
(bench/foreign/results/mqgate/seen-ratios.txt). Judged under
bench/foreign/results/mqgate/RULE.md with LINE_BETWEEN: **met, both on**
(bench/foreign/results/mqgate/verdict.md). On four fresh MQSim drives it fired on all four; the
gate left u256x32 (twin 1.34 times the line at 10%, IOPS at 10% +23.4%, its median 9.9%
unchanged) and moved the other three (IOPS median 13.6-16.3% to 3.4-5.7%, every level within
17%); on the six seen drives the IOPS target 0 of 6 to 6 of 6, no target lost.

**The gate at one level** (:func:`gate_level_percent`, :func:`gate_passes_at`,
:data:`GATE_AT_ONE_LEVEL`, on): the gate reads the twin against the line at one level the typed
figures fix, a quarter of the way from the lowest to the highest typed level (10% between 0% and
40%, the level :data:`GATE_ABOVE_LINE` was set at), taken from the levels asked where it is one
of them (:func:`same_level`, within float rounding) and otherwise predicted alone
(``answer._level_alone``: the same figures as among the plan's levels where the core runs the
same readings there; where no reading can be simulated at that level alone, the gate stays
closed and the source says why, :data:`GATE_UNREAD_SOURCE`), not at the levels asked; so
asked 0, 20 and 40% alone the answer is that of the plan's levels there (mqgate's gate read 20%
then, and left u320x32's twin at 1.31 times the line). The threshold and the quarter were
judged only on MQSim figures typed at 0% and 40%. The prediction's source
says where it read and what it found (:data:`GATE_SOURCE`); with no level asked between the
typed ones it is not read. Judged under bench/foreign/results/mqfixed/RULE.md: **met, on**
(bench/foreign/results/mqfixed/verdict.md): at the plan's levels no answer changed on four fresh
MQSim drives and the 14 seen ones where the warning fires; asked 0, 20 and 40%, mqgate's gate
left three of the four fresh drives (IOPS at 20% +36.5 to +43.7%) and this one moved them (+0.5
to +4.6%). Why MQSim's WAF at 10% still comes out 1.5–8.9% low on the seen drives where the
warning fires (its 0% level runs on a reserve drawn down while the others hold it; no reading
with one spare follows that):
bench/foreign/results/mqfixed/DIAGNOSIS.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from overprov.calibrate import fit as fitmod
from overprov.calibrate import workload_curve

if TYPE_CHECKING:
    from collections.abc import Callable

    from overprov.calibrate.predict import PredictionInput
    from overprov.prediction_file import PredictedLevel

#: Say where :func:`fires` (a message; figures unchanged). On: its rule,
#: bench/foreign/results/mqbend/RULE.md, met (bench/foreign/results/mqbend/verdict.md).
WARN_WHERE_BENT = True
#: Widen the IOPS interval between the typed levels to the line's IOPS where :func:`fires`
#: (:func:`span_to_line`). Off: bench/foreign/results/jointband/RULE.md not met
#: (bench/foreign/results/jointband/verdict.md).
SPAN_TO_LINE = False
#: Put the IOPS between the typed levels on the line where :func:`fires` (:func:`line_between`).
#: Alone not met (bench/foreign/results/mqline/verdict.md); on with :data:`LINE_GATE` by
#: bench/foreign/results/mqgate/RULE.md, met (bench/foreign/results/mqgate/verdict.md).
LINE_BETWEEN = True
#: With :data:`LINE_BETWEEN`, move the levels only where the gate passes: at the levels asked
#: (:func:`gate_passes`) with :data:`GATE_AT_ONE_LEVEL` off, at :func:`gate_level_percent`
#: (:func:`gate_passes_at`) with it on. On: bench/foreign/results/mqgate/RULE.md, met
#: (bench/foreign/results/mqgate/verdict.md).
LINE_GATE = True
#: The twin's IOPS over :func:`line_iops` at a middle level from which the gate lets the line in.
GATE_ABOVE_LINE = 1.41
#: With :data:`LINE_GATE`, read the gate at one level the typed figures fix
#: (:func:`gate_level_percent`), predicted apart where it is not asked, not at the levels asked
#: (:func:`gate_passes_at`). On: bench/foreign/results/mqfixed/RULE.md, met
#: (bench/foreign/results/mqfixed/verdict.md).
GATE_AT_ONE_LEVEL = True
#: Where :func:`gate_level_percent` lies between the lowest and the highest typed level, as a
#: share of the span in extra OP: a quarter (10% between 0% and 40%, the level
#: :data:`GATE_ABOVE_LINE` was set at, bench/foreign/results/mqgate/seen-ratios.txt).
GATE_LEVEL_SHARE = 0.25
#: What the prediction's source says of the gate with :data:`GATE_AT_ONE_LEVEL`.
GATE_SOURCE = (
    "; the line's gate read at {level:g}% extra OP alone{apart}: the twin's IOPS over the line's "
    "{ratio} there, so {verdict} (bend_between.GATE_AT_ONE_LEVEL)"
)
#: What it says where no reading of the figures can be simulated at that level alone (the
#: level not asked): the gate stays closed.
GATE_UNREAD_SOURCE = (
    "; the line's gate read at {level:g}% extra OP alone, predicted there apart: no reading of "
    "the figures can be simulated there ({why}), so closed (bend_between.GATE_AT_ONE_LEVEL)"
)
#: What the prediction's source says where :func:`line_between` moves IOPS.
LINE_SOURCE = (
    "; IOPS at {levels} extra OP from the line through the FOB and the {high:g}% figure (1/IOPS "
    "against WAF) at each level's predicted WAF, not from the twin, whose own IOPS differ there; "
    "the interval keeps the twin's relative width (bend_between.LINE_BETWEEN)"
)
#: :data:`WARNING`'s clause on :func:`line_between` with :data:`LINE_GATE`, by
#: :data:`GATE_AT_ONE_LEVEL`, where :data:`LINE_BETWEEN` is on (none where it is off).
WARNING_LINE = {
    True: "; where the twin lies {gate:g} times or more above the line a quarter of the "
    "way between the levels, the IOPS at the levels asked between them are read from the line "
    "instead, which put every level of 9 such MQSim drives within 20%",
    False: "; where the twin lies {gate:g} times or more above the line at a level asked "
    "between the levels, the IOPS at the levels asked between them are read from the line instead",
}
#: :data:`WARNING`'s clause on :func:`line_between` with :data:`LINE_GATE` off.
WARNING_LINE_UNGATED = "; the IOPS at the levels asked between them are read from the line instead"
#: The lowest level's WAF from which it counts as deep (victims about 90% valid).
DEEP_WAF = 9.0
#: The lowest level's IOPS over :func:`line_iops` at its WAF from which it counts as fast.
ABOVE_LINE = 1.4
#: What the answer says where the warning speaks.
WARNING = (
    "warning: the lowest level's figures are deep in garbage collection (WAF {waf:.1f}) and "
    "{ratio:.1f} times faster than the line the FOB and the {high:g}% figure draw, so the "
    "curve may bend between the levels and the figures cannot show it (on 13 of the 14 MQSim "
    "drives where it spoke the twin put IOPS at 10% extra OP 37-65% too high, on one 9%{line}); "
    "IOPS and WAF figures at {mid:g}% extra OP would "
    "show it (on 8 MQSim drives, typed at 20% beside 0% and 40%, calibrate reads the 20% IOPS "
    "from that line where it lies within 10% of it, three_levels.py: IOPS within 14% and WAF "
    "within 6.4% at every level) (bend_between.py)"
)


def at_workload_qd(p: fitmod.Point) -> bool:
    """A steady figure (not FOB) at the workload's queue depth (the one test of it:
    ``three_levels``, ``distance_term``, ``metadata_factor`` read it too)."""
    return not p.fresh and p.queue_depth is None


def steady_both(points: list[fitmod.Point]) -> list[fitmod.Point]:
    """The steady figures with both IOPS and WAF at the workload's queue depth, by level."""
    got = [p for p in points if at_workload_qd(p) and p.iops and p.has_steady_waf]
    return sorted(got, key=lambda p: p.extra_op_percent)


_steady = steady_both  # its earlier name (bench/foreign/results/jointband/judge.py reads it)


def _ends(points: list[fitmod.Point]) -> tuple[fitmod.Point, fitmod.Point] | None:
    """The lowest and the highest of :func:`_steady`'s levels, or None with fewer than two."""
    steady = steady_both(points)
    return (steady[0], steady[-1]) if len(steady) >= 2 else None


def line_iops(fob_iops: float, high: fitmod.Point, waf: float) -> float:
    """The IOPS at ``waf`` on the straight line, in time per write (1 / IOPS) against WAF,
    through the FOB (WAF 1) and the figure ``high``; raises ValueError where an IOPS is not
    positive or that line gives no positive time there. Drawn here rather than by
    ``fit.linear_fit``: that fit bounds t_cmd from below, which would clip a line such as
    MQSim's, whose slope is the point of the test."""
    assert high.iops is not None and high.waf is not None
    if not (fob_iops > 0 and high.iops > 0):
        raise ValueError(f"the FOB ({fob_iops}) and the {high.extra_op_percent:g}% figure's IOPS "
                         f"({high.iops}) must be positive")  # fmt: skip
    if high.waf <= 1.0:
        raise ValueError(f"the {high.extra_op_percent:g}% figure's WAF {high.waf} is not above 1")
    per_waf_s = (1.0 / high.iops - 1.0 / fob_iops) / (high.waf - 1.0)
    time_s = 1.0 / fob_iops + per_waf_s * (waf - 1.0)
    if time_s <= 0:
        raise ValueError("the line gives no positive time per write there")
    return 1.0 / time_s


def above_line(points: list[fitmod.Point], fob_iops: float | None) -> tuple[float, float] | None:
    """(the lowest level's WAF, its IOPS ÷ :func:`line_iops` at that WAF through the highest
    level), or None without a positive FOB or two levels with steady IOPS and WAF."""
    ends = _ends(points)
    if fob_iops is None or fob_iops <= 0 or ends is None:
        return None
    low, high = ends
    assert low.iops is not None and low.waf is not None
    try:
        return low.waf, low.iops / line_iops(fob_iops, high, low.waf)
    except ValueError:
        return None


def fires(points: list[fitmod.Point], fob_iops: float | None) -> bool:
    """The lowest level deep (WAF at least :data:`DEEP_WAF`) and fast (its IOPS at least
    :data:`ABOVE_LINE` times the line's), and no steady level between the lowest and the
    highest (a figure there shows the curve between them); the flag not asked."""
    got = above_line(points, fob_iops)
    if got is None:
        return False
    low, high = _ends(points)  # type: ignore[misc]
    between = any(
        low.extra_op_percent < p.extra_op_percent < high.extra_op_percent
        for p in points
        if at_workload_qd(p) and (p.iops or p.has_steady_waf)
    )  # an IOPS or a WAF figure there, either alone, shows the curve between them
    return not between and got[0] >= DEEP_WAF and got[1] >= ABOVE_LINE


def warning(fig: PredictionInput) -> str:
    """ "; " + :data:`WARNING` filled in, as a clause of the prediction's source, where
    :data:`WARN_WHERE_BENT` is on, the figures are typed under uniform writes and
    :func:`fires`; else ""."""
    points, fob_iops = fig.points, fig.fob_iops
    if not (WARN_WHERE_BENT and _fires_on(fig)) or fig.left_to_line:
        return ""  # figures left to the line say so themselves (three_levels.LEFT_SOURCE)
    waf, ratio = above_line(points, fob_iops)  # type: ignore[misc]
    low, high = (p.extra_op_percent for p in _ends(points))  # type: ignore[union-attr]
    mid = round((low + high) / 2)
    line = WARNING_LINE[GATE_AT_ONE_LEVEL] if LINE_GATE else WARNING_LINE_UNGATED
    line = line.format(gate=GATE_ABOVE_LINE) if LINE_BETWEEN else ""
    return "; " + WARNING.format(waf=waf, ratio=ratio, high=high, mid=mid, line=line)


def _fires_on(fig: PredictionInput) -> bool:
    """:func:`fires` on typed figures under uniform writes (the flags not asked), or middle
    IOPS figures left to the line (``fig.left_to_line``: ``three_levels.leave_to_line``, on)."""
    uniform = workload_curve.is_uniform(fig.workload)
    return fig.typed and uniform and (fires(fig.points, fig.fob_iops) or bool(fig.left_to_line))


def span_to_line(levels: list[PredictedLevel], fig: PredictionInput) -> int:
    """With :data:`SPAN_TO_LINE` on and where :func:`fires` on typed figures under uniform
    writes, widen ``levels``' IOPS interval (in place) at each level strictly between the
    lowest and the highest typed level to include :func:`line_iops` at the level's predicted
    WAF; the centre is left. Returns how many levels' intervals it widened."""
    if not (SPAN_TO_LINE and _fires_on(fig)):
        return 0
    widened = 0
    for lv, line in _middle_lines(levels, fig):
        if lv.steady_iops_low is None or lv.steady_iops_high is None:
            continue
        lo, hi = min(lv.steady_iops_low, line), max(lv.steady_iops_high, line)
        widened += (lo, hi) != (lv.steady_iops_low, lv.steady_iops_high)
        lv.steady_iops_low, lv.steady_iops_high = lo, hi
    return widened


def line_between(
    levels: list[PredictedLevel],
    fig: PredictionInput,
    predict_at: Callable[[float], PredictedLevel | NotPredicted] | None = None,
) -> list[float]:
    """With :data:`LINE_BETWEEN` on and where :func:`fires` on typed figures under uniform
    writes, set ``levels``' IOPS (in place) at each level strictly between the lowest and the
    highest typed level to :func:`line_iops` at the level's predicted WAF, the interval scaled
    with it; with :data:`LINE_GATE`, only where the gate passes (at the levels asked, or with
    :data:`GATE_AT_ONE_LEVEL` at :func:`gate_level_percent`, ``predict_at`` giving the
    prediction there where it is not asked). Returns the levels (extra OP %) so set, in order."""
    if not (LINE_BETWEEN and _fires_on(fig)):
        return []
    on_line = _middle_lines(levels, fig)
    if not on_line:  # no level asked between the typed ones: nothing to move, no gate read
        return []
    if fig.left_to_line:  # typed IOPS figures between the ends lie on the line: no gate
        passes = True
    elif LINE_GATE and GATE_AT_ONE_LEVEL:
        passes = gate_passes_at(levels, fig, predict_at)
    else:
        passes = not LINE_GATE or gate_passes(on_line)
    if not passes:
        return []
    moved = []
    for lv, line in on_line:
        scale = line / lv.steady_iops
        lv.steady_iops = line
        if lv.steady_iops_low is not None:
            lv.steady_iops_low *= scale
        if lv.steady_iops_high is not None:
            lv.steady_iops_high *= scale
        moved.append(lv.extra_op_percent)
    return moved


def _middle_lines(
    levels: list[PredictedLevel], fig: PredictionInput
) -> list[tuple[PredictedLevel, float]]:
    """Each level strictly between the lowest and the highest typed level with a predicted WAF
    and IOPS, and :func:`line_iops` at its WAF (levels where the line gives none left out)."""
    low, high = _ends(fig.points)  # type: ignore[misc]
    assert fig.fob_iops is not None
    got = []
    for lv in levels:
        if not low.extra_op_percent < lv.extra_op_percent < high.extra_op_percent:
            continue
        if lv.waf is None or not lv.steady_iops:
            continue
        try:
            got.append((lv, line_iops(fig.fob_iops, high, lv.waf)))
        except ValueError:
            continue
    return got


def gate_passes(on_line: list[tuple[PredictedLevel, float]]) -> bool:
    """The twin's IOPS at some middle level at least :data:`GATE_ABOVE_LINE` times the line's
    there (``on_line``: each level with :func:`line_iops` at its WAF); False without one."""
    return any(lv.steady_iops >= GATE_ABOVE_LINE * line for lv, line in on_line)


def gate_level_percent(points: list[fitmod.Point]) -> float:
    """The one level the gate reads with :data:`GATE_AT_ONE_LEVEL`: :data:`GATE_LEVEL_SHARE` of
    the way from the lowest to the highest typed level (:func:`_ends`) in extra OP, so the typed
    figures alone fix it; raises ValueError with fewer than two such levels."""
    ends = _ends(points)
    if ends is None:
        raise ValueError("the gate's level needs steady IOPS and WAF at two levels at least")
    low, high = (p.extra_op_percent for p in ends)
    return low + GATE_LEVEL_SHARE * (high - low)


@dataclass(frozen=True)
class NotPredicted:
    """What ``predict_at`` gives for a level no reading of the figures can be simulated at
    (``answer._level_alone``): the gate stays closed, and the source says why."""

    reason: str


def same_level(a: float, b: float) -> bool:
    """Two extra-OP levels (%) equal within float rounding: typed 0.1% and 0.9% put
    :func:`gate_level_percent` at 0.30000000000000004, which an asked 0.3% is."""
    return math.isclose(a, b, abs_tol=1e-9)


def _asked(levels: list[PredictedLevel], x: float) -> PredictedLevel | None:
    return next((lv for lv in levels if same_level(lv.extra_op_percent, x)), None)


def gate_ratio(
    levels: list[PredictedLevel],
    fig: PredictionInput,
    predict_at: Callable[[float], PredictedLevel | NotPredicted] | None,
) -> float | NotPredicted | None:
    """The twin's IOPS over :func:`line_iops` at :func:`gate_level_percent`: the level among
    ``levels`` where asked (:func:`same_level`), else ``predict_at`` of it (raises ValueError
    where it is not asked and none is given); ``predict_at``'s :class:`NotPredicted` where no
    reading can be simulated there; None where that level has no WAF or IOPS or the line gives
    none there."""
    x = gate_level_percent(fig.points)
    got = _asked(levels, x)
    if got is None:
        if predict_at is None:
            raise ValueError(f"the gate's level {x:g}% is not asked and nothing predicts it")
        alone = predict_at(x)
        if isinstance(alone, NotPredicted):
            return alone
        got = alone
    on_line = _middle_lines([got], fig)
    return on_line[0][0].steady_iops / on_line[0][1] if on_line else None


def gate_passes_at(
    levels: list[PredictedLevel],
    fig: PredictionInput,
    predict_at: Callable[[float], PredictedLevel | NotPredicted] | None,
) -> bool:
    """:func:`gate_ratio` at least :data:`GATE_ABOVE_LINE`: the same decision whichever levels
    are asked."""
    ratio = gate_ratio(levels, fig, predict_at)
    return isinstance(ratio, (int, float)) and ratio >= GATE_ABOVE_LINE


def gate_source(
    levels: list[PredictedLevel],
    fig: PredictionInput,
    predict_at: Callable[[float], PredictedLevel | NotPredicted] | None,
) -> str:
    """With :data:`GATE_AT_ONE_LEVEL` (and :data:`LINE_BETWEEN`, :data:`LINE_GATE`) on, where
    :func:`fires` on typed figures under uniform writes, the clause :data:`GATE_SOURCE` adds to
    the prediction's source (read before :func:`line_between` moves any level); else ""."""
    if not (GATE_AT_ONE_LEVEL and LINE_GATE and LINE_BETWEEN and _fires_on(fig)):
        return ""
    if fig.left_to_line:  # not read: the typed figures between the ends show the bend
        return ""
    if not _middle_lines(levels, fig):  # nothing the gate could move: not read
        return ""
    x = gate_level_percent(fig.points)
    apart = "" if _asked(levels, x) is not None else ", predicted there apart"
    ratio = gate_ratio(levels, fig, predict_at)
    if isinstance(ratio, NotPredicted):
        return GATE_UNREAD_SOURCE.format(level=x, why=ratio.reason)
    if ratio is None:
        return GATE_SOURCE.format(level=x, apart=apart, ratio="no line", verdict="closed")
    verdict = "open" if ratio >= GATE_ABOVE_LINE else "closed"
    return GATE_SOURCE.format(level=x, apart=apart, ratio=f"{ratio:.3f}", verdict=verdict)


def line_source(moved: list[float], fig: PredictionInput) -> str:
    """The clause :data:`LINE_SOURCE` adds to the prediction's source for the levels
    :func:`line_between` moved ("" for none)."""
    if not moved:
        return ""
    high = _ends(fig.points)[1].extra_op_percent  # type: ignore[index]
    return LINE_SOURCE.format(levels=", ".join(f"{x:g}%" for x in moved), high=high)
