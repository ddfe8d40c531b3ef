"""The judging of bench/foreign/results/femufix/PLAN.md: every FEMU end-to-end drive, old (the
stored default measurement, overrunning rounds, against the truth it was judged on) and new
(calibrate's default plan through the fixed harness against the settled 30-span-write truth);
each folder judged by bench/foreign/femu_end_to_end.py's ``judge``, the targets femu0's.

    PYTHONPATH=python python bench/foreign/results/femufix/judge.py \
        > bench/foreign/results/femufix/judged.txt
    PYTHONPATH=python python bench/foreign/results/femufix/judge.py --list   # the scripts' list
    PYTHONPATH=python python bench/foreign/results/femufix/judge.py --table \
        > bench/foreign/results/femufix/table.md   # status.md's per-drive table
    PYTHONPATH=python python bench/foreign/results/femufix/judge.py --plain \
        > bench/foreign/results/femufix/plain.txt  # femu0's burst-cycle verdict re-measured
"""

from __future__ import annotations

import contextlib
import io
import json
import statistics
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

S = Path("bench/foreign/results")
R = S / "femufix"
# its drives, gate14's and femu0's judges
femularge = load_script("femularge_judge", S / "femularge" / "judge.py")
e2e, femu0, early = femularge.e2e, femularge.femu0, femularge.early
#: name -> (old folder, old truth, settled truth, measure options): the seen drives' truths run
#: here (truths.sh), K1-K4's femularge's (30 span writes)
DRIVES = {
    n: (d, t, R / f"{n}.json", femularge.measure_options(d).split(" ", 1)[1])  # no carry option
    for n, (d, t) in femularge.SEEN.items()
} | {
    n: (S / "femularge" / f"{n}-off", S / "femularge" / f"{n}.json",
        S / "femularge" / f"{n}.json", o)
    for n, o in femularge.FRESH.items()
}  # fmt: skip
WORSE_POINTS = 2.0  # femu0's condition 3
#: the drives of the adopted defaults' verdicts: onset-tolerant's F1, F2; femu0's G1, G2
VERDICT_DRIVES = {
    "onset-tolerant": ["femu-11lun-290blk-thres69-3200us-on", "femu-5lun-400blk-thres86-2800us-on"],
    "femu0": ["femu-13lun-270blk-thres71-3300us-on", "femu-4lun-410blk-thres63-3800us-on"],
}


def truth_options(truth_file: Path) -> str:
    """A stored truth's drive options (its femu.py command between the run length and --out)."""
    command = json.loads(truth_file.read_text())["command"]
    return command.split("--drive-writes 12 ")[1].split(" --out")[0]


def met(row: dict) -> tuple[bool, str]:
    """The targets on one row, quietly: (met, the figures' text)."""
    if "refused" in row:
        return False, "refused"
    with contextlib.redirect_stdout(io.StringIO()) as said:
        ok = femu0.targets(row)
    return ok, said.getvalue().split("10/20/30%): ")[1].split(" (10/20)")[0]


def held_out_waf(row: dict) -> float:
    return max(abs(femu0.errors(row, "waf")[x]) for x in femu0.HELD_OUT)


def cell(row: dict) -> str:
    if "refused" in row:
        return "refused"
    waf, median, worst = femularge.held_out(row)
    return f"{waf:.1f}%, {median:.1f} / {worst:.1f}%" + ("" if met(row)[0] else " **miss**")


def table() -> None:
    """status.md's per-drive table: held-out WAF worst, IOPS median / worst |error| (%)."""
    print("| drive | old: WAF worst, IOPS median / worst | new | old measurement, settled "
          "truth | new measurement, 4-12 window |")  # fmt: skip
    print("|---|---|---|---|---|")
    for name, (old, old_truth, settled, _) in DRIVES.items():
        t_old, t_new = (json.loads(p.read_text()) for p in (old_truth, settled))
        rows = (e2e.judge(t_old, old), e2e.judge(t_new, R / name), e2e.judge(t_new, old),
                e2e.judge(early(t_new), R / name))  # fmt: skip
        print(f"| {name} | " + " | ".join(cell(r) for r in rows) + " |")


def plain() -> None:
    """femu0's burst-cycle verdict re-measured: each new measurement predicted with the first
    level read through the cycle (the default; femufix/NAME) and plain (``repredict
    --no-through-cycle``; plain/NAME) against the settled truth; femu0's condition 3 (no figure
    0-40% more than WORSE_POINTS worse with the cycle than without)."""
    print("| drive | 0% WAF: cycle / plain | held-out WAF worst: cycle / plain | worse by > 2 "
          "points with the cycle |")  # fmt: skip
    print("|---|---|---|---|")
    held = True
    for name, (*_, settled, _) in DRIVES.items():
        if not (R / "plain" / name / "run.json").exists():
            print(f"| {name} | not run |||")
            continue
        truth = json.loads(settled.read_text())
        cyc, flat = e2e.judge(truth, R / name), e2e.judge(truth, R / "plain" / name)
        if "refused" in cyc or "refused" in flat:
            said = ["refused" if "refused" in r else "answers" for r in (cyc, flat)]
            print(f"| {name} | {said[0]} / {said[1]} |||")
            held &= "refused" in flat or "refused" not in cyc
            continue
        worse = [
            f"{k}@{x:g} {femu0.errors(flat, k)[x]:+.1f}->{femu0.errors(cyc, k)[x]:+.1f}"
            for k in ("waf", "iops")
            for x in femu0.errors(cyc, k)
            if abs(femu0.errors(cyc, k)[x]) > abs(femu0.errors(flat, k)[x]) + WORSE_POINTS
        ]
        held &= not worse
        print(f"| {name} | {femu0.errors(cyc, 'waf')[0.0]:+.1f} / "
              f"{femu0.errors(flat, 'waf')[0.0]:+.1f}% | {held_out_waf(cyc):.1f} / "
              f"{held_out_waf(flat):.1f}% | {', '.join(worse) or 'none'} |")  # fmt: skip
    print(f"# femu0's condition 3 on the re-measured drives: {'holds' if held else 'FAILS'}")


def main() -> None:
    if sys.argv[1:] == ["--table"]:
        return table()
    if sys.argv[1:] == ["--plain"]:
        return plain()
    if sys.argv[1:] == ["--list"]:
        for n, (_, old_truth, new_truth, _opts) in DRIVES.items():
            if new_truth.parent == R:
                print(f"truth {n} {truth_options(old_truth)}")
        for n, (*_, opts) in DRIVES.items():
            print(f"measure {n} {opts}")
        return
    tally = {a: {"met": 0, "refused": 0, "answered_waf": []} for a in ("old", "new")}
    rows_new = {}
    for n, (old, old_truth, new_truth, _) in DRIVES.items():
        if not (R / n / "run.json").exists() or not new_truth.exists():
            print(f"{n}: not re-measured")
            continue
        t_old = json.loads(old_truth.read_text())
        t_new = json.loads(new_truth.read_text())
        unsettled = [f"{lv['extra_op_percent']:g}%" for lv in t_new["levels"]
                     if not lv["steady_window"]["settled"]]  # fmt: skip
        print(f"{n}: settled truth ({t_new['drive_writes']:g} span writes) unsettled at: "
              f"{unsettled or 'none'}")  # fmt: skip
        rows = {
            "old": e2e.judge(t_old, old),
            "new": e2e.judge(t_new, R / n),
            "old, settled truth": e2e.judge(t_new, old),
            "new, 4-12 window": e2e.judge(early(t_new), R / n),
        }
        rows_new[n] = rows["new"]
        for arm, row in rows.items():
            ok, text = met(row)
            print(femu0.row_text(n, arm, row))
            print(f"    targets: {text}: {'met' if ok else 'NOT met'}")
            if arm in tally:
                tally[arm]["met"] += ok
                tally[arm]["refused"] += "refused" in row
                if "refused" not in row:
                    tally[arm]["answered_waf"].append(held_out_waf(row))
        side = S / "femularge" / "stored" / f"{n}-rateoff"
        if side.exists() and "no-carry" in femularge.measure_options(old):
            print(femu0.row_text(n, "beside: femularge rateoff (recorded --no-carry), settled",
                                 e2e.judge(t_new, side)))  # fmt: skip
    for arm, t in tally.items():
        w = t["answered_waf"]
        print(f"# {arm}: {t['met']} of {len(rows_new)} meet the targets, {t['refused']} refused; "
              f"held-out WAF worst |error| over those answering: median "
              f"{statistics.median(w):.1f}%, worst {max(w):.1f}%" if w else "")  # fmt: skip
    for verdict, names in VERDICT_DRIVES.items():
        said = [f"{n}: {'met' if met(rows_new[n])[0] else 'NOT met'}" for n in names
                if n in rows_new]  # fmt: skip
        print(f"# {verdict}'s condition 1 re-measured: {'; '.join(said)}")


if __name__ == "__main__":
    main()
