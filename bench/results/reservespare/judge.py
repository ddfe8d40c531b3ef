"""The verdict of bench/results/reservespare/RULE.md from its runs (runs.sh): both flags
(``burst_start.LATE_START`` and ``spare_near_onset.SPARE_NEAR_ONSET``) on against both off on 5
fresh FEMU drives (burstplain's 3, this rule's 2), burststart's stored half B and femuwin's 23
guards (each folder judged by bench/foreign/femu_end_to_end.py's ``judge``), and on 2 generated
drives. The clauses' reading is burstplain's (bench/results/burstplain/judge.py's ``compare``).

    PYTHONPATH=python python bench/results/reservespare/judge.py \
        > bench/results/reservespare/judged.txt
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

R = Path("bench/results/reservespare")
BP = Path("bench/results/burstplain")
bp = load_script("burstplain_judge", BP / "judge.py")
flag_rule, judged, e2e = bp.flag_rule, bp.judged, bp.e2e

NEW = ("femu-64lun-44blk-thres53-3600us-ns83", "femu-66lun-42blk-thres56-4000us-ns81")


def fresh_cases() -> list[tuple[str, dict | None, dict[str, Path]]]:
    """Each fresh drive as (name, truth or None, {arm: folder}): off and late from where they
    were measured (burstplain's femu/ or this folder's), near and both from this folder."""
    out = []
    for n in (*bp.FRESH, *NEW):
        src = R / "femu" if n in NEW else BP / "femu"
        tp = src / f"{n}.json"
        truth = json.loads(tp.read_text()) if tp.exists() else None
        arms = {"off": src / f"{n}-off", "late": src / f"{n}-late",
                "near": R / "femu" / f"{n}-near", "both": R / "femu" / f"{n}-both"}  # fmt: skip
        out.append((n, truth, arms))
    return out


def stored_cases() -> list[tuple[str, str, dict, dict[str, Path]]]:
    """burstplain's stored cases with this folder's both arm (half B: off and late stored;
    guards: off stored; femuwin's plain arm is no arm of this rule)."""
    out = []
    for label, name, truth, arms in bp.stored_cases():
        sub = "stored" if label == "half B" else "guard"
        keep = {a: f for a, f in arms.items() if a in ("off", "late")}
        out.append((label, name, truth, keep | {"both": R / sub / f"{name}-both"}))
    return out


def judge_case(label: str, name: str, truth: dict, arms: dict[str, Path]):  # noqa: ANN201
    """Each arm's row printed; (the clauses 1-3 failures of both against off, the rows)."""
    rows = {a: judged(f, truth) for a, f in arms.items()}
    for a, r in rows.items():
        print(bp.line(name, a, r))
    others = [r for a, r in rows.items() if a not in ("off", "both")]
    return bp.compare(label, rows["off"], rows["both"], others), rows


def main() -> int:
    fails: list[str] = []
    print("## fresh FEMU drives (off, late: the stored measure and its late repredict)")
    for n, truth, arms in fresh_cases():
        if truth is None:
            fails.append(f"{n}: clause 1, no truth (not run)")
            continue
        t = e2e.truth_curve(truth)
        print(f"{n}: truth " + " ".join(f"{x:g}% WAF {t[x]['steady_waf']:.3f}" for x in sorted(t)))
        run = arms["off"] / "run.json"
        if run.exists():
            print(f"  onset {json.loads(run.read_text())['onset_spare_factor']}")
        got, rows = judge_case(n, n, truth, arms)
        fails += got
        for a in ("late", "near"):
            got = bp.compare(n, rows["off"], rows[a], [])
            print(f"  reported, {a} alone against off: " + ("; ".join(got) or "clauses 1-3 hold"))
    fails += bp.off_arm_checks(R / "check")
    heads = {"half B": "burststart's stored half B (off, late: stored; both: this folder)",
             "guard": "femuwin's guards (off: stored; both: this folder)"}  # fmt: skip
    for label, name, truth, folders in stored_cases():
        if label in heads:
            print(f"\n## {heads.pop(label)}")
        fails += judge_case(f"{label} {name}", name, truth, folders)[0]
    flag_rule.femu_and_sim_verdict(fails, R / "sim.jsonl", "both", bp.SAME)
    return 0


if __name__ == "__main__":
    sys.exit(main())
