"""The verdict of bench/results/reservenarrow/RULE.md from its runs (runs.sh): narrow
(``burst_start.LATE_START``, ``spare_near_onset.SPARE_NEAR_ONSET`` and
``spare_near_onset.ONLY_WHERE_NONE_PINNED`` on) against all off on 7 fresh FEMU drives
(burstplain's 3, reservespare's 2, this rule's 2), burststart's stored half B and femuwin's 23
guards (each folder judged by bench/foreign/femu_end_to_end.py's ``judge``), and on 2 generated
drives. The clauses' reading is burstplain's (bench/results/burstplain/judge.py's ``compare``),
the cases' folders reservespare's (bench/results/reservespare/judge.py).

    PYTHONPATH=python python bench/results/reservenarrow/judge.py \
        > bench/results/reservenarrow/judged.txt
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

R = Path("bench/results/reservenarrow")
rs = load_script("reservespare_judge", "bench/results/reservespare/judge.py")
bp, flag_rule, judged, e2e = rs.bp, rs.flag_rule, rs.judged, rs.e2e

NEW = ("femu-68lun-40blk-thres54-3900us-ns84", "femu-70lun-39blk-thres55-3700us-ns82")


def judge_case(name: str, truth: dict, arms: dict[str, Path]) -> list[str]:
    """Each arm's row printed; the clauses 1-3 failures of narrow against off (late reported)."""
    rows = {a: judged(f, truth) for a, f in arms.items()}
    for a, r in rows.items():
        print(bp.line(name, a, r))
    if "late" in rows:
        got = bp.compare(name, rows["off"], rows["late"], [])
        print("  reported, late alone against off: " + ("; ".join(got) or "clauses 1-3 hold"))
    return bp.compare(name, rows["off"], rows["narrow"], [])


def main() -> int:
    fails: list[str] = []
    print("## fresh FEMU drives (off: the stored measure; narrow, late: this folder)")
    for n in (*bp.FRESH, *rs.NEW, *NEW):
        src = R / "femu" if n in NEW else rs.R / "femu" if n in rs.NEW else bp.R / "femu"
        tp = src / f"{n}.json"
        if not tp.exists():
            fails.append(f"{n}: clause 1, no truth (not run)")
            continue
        truth = json.loads(tp.read_text())
        t = e2e.truth_curve(truth)
        print(f"{n}: truth " + " ".join(f"{x:g}% WAF {t[x]['steady_waf']:.3f}" for x in sorted(t)))
        run = json.loads((src / f"{n}-off" / "run.json").read_text())
        print(f"  onset {run['onset_spare_factor']}")
        arms = {"off": src / f"{n}-off", "narrow": R / "femu" / f"{n}-narrow"}
        if n in NEW:
            arms["late"] = R / "femu" / f"{n}-late"
        fails += judge_case(n, truth, arms)
    fails += bp.off_arm_checks(R / "check")
    heads = {"half B": "burststart's stored half B (off: stored; narrow: this folder)",
             "guard": "femuwin's guards (off: stored; narrow: this folder)"}  # fmt: skip
    for label, name, truth, arms in bp.stored_cases():
        if label in heads:
            print(f"\n## {heads.pop(label)}")
        sub = "stored" if label == "half B" else "guard"
        folders = {"off": arms["off"], "narrow": R / sub / f"{name}-narrow"}
        fails += judge_case(f"{label} {name}", truth, folders)
    flag_rule.femu_and_sim_verdict(fails, R / "sim.jsonl", "narrow", bp.SAME)
    return 0


if __name__ == "__main__":
    sys.exit(main())
