"""The GC-reserve reading without an onset past the plausibility gate and with its curve-side edge
term (``reserve_hull.AT_THE_GATE``, ``UNDATED_EDGE``, under ``OFFERED``), judged by
bench/intervals/RULE-hullres2.md: ``hullres_judge.py``'s commands and criteria on the rule's
fresh drives, into ``bench/intervals/hullres2/``.

    PYTHONPATH=python python bench/intervals/hullres2_judge.py gen NAME...
    PYTHONPATH=python python bench/intervals/hullres2_judge.py run --arm on TRUTH[::CASE]...
    PYTHONPATH=python python bench/intervals/hullres2_judge.py judge
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import hullres_judge as hj  # noqa: E402  (bench/intervals/)

#: the rule's fresh drives (bench/intervals/RULE-hullres2.md), as ``hullres_judge.FRESH``
FRESH: dict[str, tuple[dict[str, float], float, float]] = {
    "gen-R9-reserve-sf078-floor6.5": ({"spare_factor": 0.78, "floor_waf": 6.5}, 5.0, 1.5),
    "gen-R10-reserve-sf087-floor11": ({"spare_factor": 0.87, "floor_waf": 11.0}, 4.0, 2.5),
    "gen-R11-reserve-sf083-floor4": ({"spare_factor": 0.83, "floor_waf": 4.0}, 6.0, 2.0),
    "gen-R12-reserve-sf091-floor7.5": ({"spare_factor": 0.91, "floor_waf": 7.5}, 5.0, 1.0),
    "gen-N7-greedy-op016": ({"native_op": 0.16}, 5.0, 2.0),
    "gen-N8-greedy-op032": ({"native_op": 0.32}, 4.0, 1.0),
}


def each_guard_met(guards: dict[str, dict[str, Any]]) -> bool:
    """RULE-hullres2.md's B: each guard unchanged by the flag, or on its targets with the flag on
    and at most 90% of its figures inside."""
    return all(
        g["unchanged"] or (g["on"]["targets"] and g["on"]["inside"] <= 0.90 * hj.HELD_OUT)
        for g in guards.values()
    )


def configure() -> None:
    """``hullres_judge``'s module settings pointed at this rule's drives and folder."""
    hj.FRESH = FRESH
    hj.OUT = HERE / "hullres2"
    hj.RUNS = hj.OUT / "runs"
    hj.GEN = hj.OUT / "generated"
    hj.RESERVES = [n for n in FRESH if "-R" in n]
    hj.GUARDS = [n for n in FRESH if "-N" in n]
    hj.RULE = "RULE-hullres2.md"
    hj.JUDGE = "hullres2_judge.py"
    hj.GUARDS_MET = each_guard_met
    hj.TESTS_D = hj.OUT / "tests_d.txt"


if __name__ == "__main__":
    configure()
    sys.exit(hj.main())
