"""Typed figures at three levels or more where a GC reserve holds or the curve bends between
the levels: read, not refused (:data:`ON`, on by its rule).

**Why** (bench/foreign/results/level3/DIAGNOSIS.md). Typed IOPS and WAF at 0%, 20% and 40%
extra OP (+ FOB) were refused on 9 of 10 seen MQSim and FEMU drives where the same figures at
0% and 40% were answered (bench/foreign/results/midlevel/verdict.md): more true information
gave no answer. Two causes:

- every path that offers the GC-reserve reading to typed figures is gated to two steady levels
  (``reserve_hull.floor_in_waf``), so on FEMU drives whose floor holds past the lowest level
  only the plain fit is tried, and it misses the 20% IOPS point by +63% to +227%: the gate
  (``plausibility.fit_misses_its_points``) refuses. The reserve reading of greedy, d-choices-8
  and -4 reproduces the three levels within 1% there;
- on MQSim drives whose lowest level is deep and faster than the line the FOB and the highest
  level draw (``bend_between.fires`` on the two ends), one time-per-write form cannot follow
  0%, 20% and 40% together: the twin misses its IOPS at 0% or 20% by 10–28% and is refused
  (``plausibility.twin_misses_its_points``). The line through the FOB and the 40% figure, at
  the 20% figure's WAF, reproduces the 20% IOPS within 6%.

**What**, with :data:`ON`:

- :func:`reads_reserve`: typed figures with three steady levels or more, each with a WAF
  figure, are offered the reserve reading of each uniform GC design whose floor they call for
  (``reserve_hull.applies``: beside the effective-spare readings, weighed with them as one
  class by ``evidence.weights``, its held-out terms like for like,
  ``reserve_held_out.SAME_FORM_ONLY``), and the plausibility gate passes figures one of them
  explains (``reserve_hull.explains``). With three levels a level the floor is not read from is
  held out, so the leave-one-out weighs the readings; the answer is refused only where no
  reading reproduces the figures.
- :func:`leave_to_line`: where the two ends of such figures are bent (the lowest level deep and
  above the line, ``bend_between.DEEP_WAF``, ``bend_between.ABOVE_LINE``) and every middle
  level's IOPS figure lies within ``plausibility.TWIN_TOLERANCE`` of the line at its own WAF
  figure, those IOPS figures are left to the line: the fit and the twin are made from the rest
  (the middle WAF figures kept), and the answer's IOPS between the ends are the line's
  (``bend_between.line_between``, its gate not read: the typed figures show the bend). Where a
  middle IOPS figure lies off the line nothing is left out, and the twin's check refuses as
  before.

Two-level figures are read as before with the flag on or off (tests/calibrate/
test_three_levels.py).

Judged under bench/foreign/results/level3/RULE.md: **met, on**
(bench/foreign/results/level3/verdict.md). On four fresh drives typed at 0, 20 and 40% (MQSim
u928x32 and u1856x16, FEMU 72 × 40 and 78 × 36 with ``gc_thres_pcent`` 75), all four refused
without it, all four answered with it, WAF within 0.9–3.1% at every level (IOPS worst
1.1–6.2%), no worse than the same drives typed at 0% and 40% (FEMU 11.4% → 1.2%, 8.9% → 2.4%),
the two-level answers unchanged. On the 14 seen truths of bench/foreign/results/level3/seen.md,
12 meet both scoreboard targets (none refused; 9 refused without it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from overprov.calibrate import bend_between
from overprov.calibrate import fit as fitmod

if TYPE_CHECKING:
    from overprov.calibrate.predict import PredictionInput

#: Read typed figures at three levels or more as the module doc says. On: its rule,
#: bench/foreign/results/level3/RULE.md, met (bench/foreign/results/level3/verdict.md). Off: as
#: before (the reserve reading offered to two levels only, the middle IOPS fitted by the twin).
ON = True
#: The least relative miss of the line at a middle level's typed IOPS that leaves it out
#: (the twin's own tolerance, ``plausibility.TWIN_TOLERANCE``: 10%).
LINE_TOLERANCE = 0.10
#: What the prediction's source says where :func:`leave_to_line` left figures to the line.
LEFT_SOURCE = (
    "; the IOPS figures at {levels} extra OP lie on the line the FOB and the {high:g}% figure "
    "draw (1/IOPS against WAF; within {tol:.0f}% at their own WAF: {misses}), below a lowest "
    "level deep in garbage collection (WAF {waf:.1f}) and {ratio:.1f} times faster than that "
    "line: the curve bends between the levels, so the twin is made from the other figures and "
    "the IOPS between the lowest and the highest level are read from the line (three_levels.py)"
)


def reads_reserve(points: list[fitmod.Point]) -> bool:
    """:data:`ON`, three steady levels or more at the workload's queue depth, and a WAF figure
    at each of them: the GC-reserve reading is offered (``reserve_hull.applies``,
    ``reserve_hull.explains``)."""
    if not ON:
        return False
    steady = [p for p in points if bend_between.at_workload_qd(p)]
    levels = {p.extra_op_percent for p in steady}
    with_waf = {p.extra_op_percent for p in steady if p.has_steady_waf}
    return len(levels) >= 3 and with_waf == levels


def reads_typed(fig: PredictionInput) -> bool:
    """:func:`reads_reserve` on typed figures (``reserve_hull.applies``)."""
    return fig.typed and reads_reserve(fig.points)


def on_line(
    points: list[fitmod.Point], fob_iops: float | None
) -> dict[float, float] | None:  # fmt: skip
    """The relative miss of the line (``bend_between.line_iops`` through the FOB and the highest
    level) at each middle level's IOPS figure, at its own WAF figure, where :data:`ON`, three
    levels or more with IOPS and WAF, and the two ends bent (``bend_between.DEEP_WAF``,
    ``bend_between.ABOVE_LINE``: the test ``bend_between.fires`` runs on two levels); None
    elsewhere or where a middle level has no WAF figure or the line gives none there."""
    if not ON or fob_iops is None or fob_iops <= 0:
        return None
    both = bend_between.steady_both(points)
    if len({p.extra_op_percent for p in both}) < 3:
        return None
    low, high = both[0], both[-1]
    ends = bend_between.above_line([low, high], fob_iops)
    if ends is None or ends[0] < bend_between.DEEP_WAF or ends[1] < bend_between.ABOVE_LINE:
        return None
    middle = [p for p in points if bend_between.at_workload_qd(p)
              and low.extra_op_percent < p.extra_op_percent < high.extra_op_percent]  # fmt: skip
    misses = {}
    for p in middle:
        if p.iops is None:
            continue
        if p.waf is None:
            return None
        try:
            misses[p.extra_op_percent] = bend_between.line_iops(fob_iops, high, p.waf) / p.iops - 1
        except ValueError:
            return None
    return misses or None


def leave_to_line(
    points: list[fitmod.Point], fob_iops: float | None
) -> tuple[list[fitmod.Point], tuple[float, ...]]:
    """(``points`` with the middle levels' IOPS figures left out, those levels) where
    :func:`on_line` puts every one within :data:`LINE_TOLERANCE`; (``points``, ()) elsewhere."""
    misses = on_line(points, fob_iops)
    if not misses or any(abs(m) > LINE_TOLERANCE for m in misses.values()):
        return points, ()
    left = tuple(sorted(misses))
    kept = [
        replace(p, iops=None) if p.extra_op_percent in misses and p.queue_depth is None
        and not p.fresh else p
        for p in points
    ]  # fmt: skip
    return kept, left


def left_source(
    points: list[fitmod.Point], fob_iops: float | None, left: tuple[float, ...]
) -> str:  # fmt: skip
    """:data:`LEFT_SOURCE` filled in for the levels :func:`leave_to_line` left (``points`` the
    figures as typed); "" for none."""
    if not left:
        return ""
    misses = on_line(points, fob_iops) or {}
    both = bend_between.steady_both(points)
    waf, ratio = bend_between.above_line([both[0], both[-1]], fob_iops)  # type: ignore[misc]
    return LEFT_SOURCE.format(
        levels=", ".join(f"{x:g}%" for x in left), high=both[-1].extra_op_percent,
        tol=100 * LINE_TOLERANCE, waf=waf, ratio=ratio,
        misses=", ".join(f"{100 * misses[x]:+.1f}% at {x:g}%" for x in left if x in misses),
    )  # fmt: skip
