"""The judging of bench/foreign/results/gatefix/RULE.md: the reserve-reading gate on fresh FEMU
drives with 80-85% namespaces and on femufix's 19 re-measured drives (each folder judged by
bench/foreign/femu_end_to_end.py's ``judge``; targets, rows and the drives' list femufix's
judge.py, the figures' comparison gate14's judge.py at this rule's 0.1 point).

    PYTHONPATH=python python bench/foreign/results/gatefix/judge.py \
        > bench/foreign/results/gatefix/judged.txt
    PYTHONPATH=python python bench/foreign/results/gatefix/judge.py --list   # runs.sh's list
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

S = Path("bench/foreign/results")
R = S / "gatefix"


femufix = load_script("femufix_judge", S / "femufix" / "judge.py")
gate14 = load_script("gate14_judge", S / "gate14" / "judge.py")
gate14.NO_CHANGE_POINTS = 0.1  # this rule's bound on a figure's move (gate14's was 1 point)
e2e, femu0 = femufix.e2e, femufix.femu0
#: the fresh drives, in run order: name -> measure options
FRESH = {
    "femu-33lun-82blk-thres56-3750us-ns81": "--nchs 3 --luns-per-ch 11 --blks-per-pl 82 "
    "--namespace-mb 2192 --gc-thres-pcent 56 --program-ns 3750000",
    "femu-37lun-74blk-thres53-3450us-ns84": "--nchs 1 --luns-per-ch 37 --blks-per-pl 74 "
    "--namespace-mb 2300 --gc-thres-pcent 53 --program-ns 3450000",
    "femu-35lun-78blk-thres79-4250us-ns83": "--nchs 5 --luns-per-ch 7 --blks-per-pl 78 "
    "--namespace-mb 2266 --gc-thres-pcent 79 --program-ns 4250000",
    "femu-34lun-79blk-thres55-4650us-ns80": "--nchs 2 --luns-per-ch 17 --blks-per-pl 79 "
    "--namespace-mb 2148 --gc-thres-pcent 55 --program-ns 4650000",
}
REFUSED_NEED = 4  # condition 3: of the 5 drives femufix's default refused, at least this many met


def met(row: dict) -> bool:
    return femufix.met(row)[0]


def show(name: str, arm: str, row: dict) -> None:
    print(femu0.row_text(name, arm, row))
    print(f"    targets: {femufix.met(row)[1]}: {'met' if met(row) else 'NOT met'}")


def fresh() -> bool | None:
    """Condition 1 on the fresh drives run (None when none is run)."""
    ok, ran = True, 0
    for name in FRESH:
        if not (R / f"{name}-off").exists():
            print(f"{name}: not run")
            continue
        ran += 1
        truth = json.loads((R / f"{name}.json").read_text())
        unsettled = [f"{lv['extra_op_percent']:g}%" for lv in truth["levels"]
                     if not lv["steady_window"]["settled"]]  # fmt: skip
        print(f"{name}: truth ({truth['drive_writes']:g} span writes) unsettled at: "
              f"{unsettled or 'none'}")  # fmt: skip
        rows = {arm: e2e.judge(truth, R / f"{name}-{arm}") for arm in ("off", "on")}
        for arm, row in rows.items():
            show(name, arm, row)
        show(name, "on, 4-12 window", e2e.judge(femufix.early(truth), R / f"{name}-on"))
        same = "refused" in rows["off"] or (
            "refused" not in rows["on"] and not gate14.moved(rows["off"], rows["on"])
        )
        if "refused" not in rows["off"]:
            on_refused = "refused" in rows["on"]
            moved = "REFUSED" if on_refused else gate14.moved(rows["off"], rows["on"])
            print(f"  1. off and on: moved by > 0.1 point: {moved or 'none'}")
        print(f"  1. {name}: {'holds' if met(rows['on']) and same else 'FAILS'}")
        ok = ok and met(rows["on"]) and same
    return ok if ran else None


def seen() -> tuple[bool, bool]:
    """Conditions 2 (the answered drives unchanged) and 3 (the refused ones answered and met)."""
    unchanged, answered, refused_met, refused = True, True, 0, 0
    for name, (*_, settled, _) in femufix.DRIVES.items():
        if not (R / "seen" / name).exists():
            print(f"{name}: not run")
            unchanged = answered = False
            continue
        truth = json.loads(settled.read_text())
        off, on = e2e.judge(truth, S / "femufix" / name), e2e.judge(truth, R / "seen" / name)
        show(name, "default (femufix)", off)
        show(name, "gate on", on)
        if "refused" in off:
            refused += 1
            refused_met += met(on)
            answered &= "refused" not in on
            print(
                f"  3. {name}: refused by default; gate on: "
                f"{'refused' if 'refused' in on else 'met' if met(on) else 'answers, NOT met'}"
            )
            continue
        moved = gate14.moved(off, on) if "refused" not in on else ["REFUSED with the gate"]
        print(f"  2. {name}: moved by > 0.1 point: {', '.join(moved) or 'none'}")
        unchanged &= not moved
    print(f"# refused by default: {refused}; with the gate answered: "
          f"{'all' if answered else 'NOT all'}, met: {refused_met}")  # fmt: skip
    return unchanged, answered and refused_met >= REFUSED_NEED


def main() -> None:
    if sys.argv[1:] == ["--list"]:
        for n, opts in FRESH.items():
            print(f"fresh {n} {opts}")
        for n, (*_, settled, _) in femufix.DRIVES.items():
            print(f"seen {n} {S / 'femufix' / n} {settled}")
        return
    first = fresh()
    second, third = seen()
    said = {None: "not run", True: "holds", False: "FAILS"}
    print(f"# condition 1: {said[first]}; condition 2: {said[second]}; condition 3: "
          f"{said[third]} (condition 4, the tests: verdict.md)")  # fmt: skip


if __name__ == "__main__":
    main()
