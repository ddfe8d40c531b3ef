"""The report of bench/foreign/results/femudeadline/PLAN.md: FEMU end-to-end drives measured
with rounds that stop at their simulated deadline (``--chunk-sizing deadline``) against the
stored grown-chunk measurements, both predicted with the reserve gate on, against the settled
truths (femufix's judge: rows, targets, cells).

    PYTHONPATH=python python bench/foreign/results/femudeadline/judge.py \
        > bench/foreign/results/femudeadline/judged.txt
    PYTHONPATH=python python bench/foreign/results/femudeadline/judge.py --list   # runs.sh's
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

S = Path("bench/foreign/results")
R = S / "femudeadline"


# its drives; femufix's rows and targets
gatefix = load_script("gatefix_judge", S / "gatefix" / "judge.py")
femufix, e2e, femu0 = gatefix.femufix, gatefix.e2e, gatefix.femu0
FIRST = ["femu-31lun-86blk-thres57-3600us-ns80", "femu-23lun-118blk-thres58-4300us-ns85"]
G = S / "gatefix"
#: name -> (measure options, truth, before: measurement folder, its gate-on prediction)
DRIVES = {n: (femufix.DRIVES[n][3], femufix.DRIVES[n][2], S / "femufix" / n, G / "seen" / n)
          for n in FIRST} | {
    n: (o, G / f"{n}.json", G / f"{n}-on", G / f"{n}-on") for n, o in gatefix.FRESH.items()
} | {n: (o, t, S / "femufix" / n, G / "seen" / n)
     for n, (_, _, t, o) in femufix.DRIVES.items() if n not in FIRST}  # fmt: skip
LIMIT = 1.25  # PLAN.md: the deadline sizing is the default if no round runs longer than this


def ratios(folder: Path) -> list[float]:
    rounds = json.loads((folder / "run.json").read_text()).get("timed_rounds") or []
    return [ran / asked for _, asked, ran in rounds]


def issued(folder: Path) -> list[tuple[str, float, float]]:
    """Each deadline round's (label, issued ÷ asked, run ÷ asked) where run.json logs it."""
    doc = json.loads((folder / "run.json").read_text())
    if "timed_rounds_issued_s" not in doc:
        return []
    return [(label, i / asked, ran / asked) for (label, asked, ran), i in
            zip(doc["timed_rounds"], doc["timed_rounds_issued_s"], strict=True)]  # fmt: skip


def overrun_text(x: list[float]) -> str:
    if not x:
        return "0 | | | | |"
    return (f"{len(x)} | {statistics.median(x):.3f} | {max(x):.2f} | "
            f"{sum(r > 1.05 for r in x) / len(x):.0%} | {sum(r > 1.25 for r in x) / len(x):.0%} | "
            f"{sum(r > 2 for r in x) / len(x):.0%}")  # fmt: skip


def zero_waf(row: dict) -> str:
    return "refused" if "refused" in row else f"{femu0.errors(row, 'waf')[0.0]:+.1f}%"


def main() -> None:
    if sys.argv[1:] == ["--list"]:
        for n, (opts, *_) in DRIVES.items():
            print(f"measure {n} {opts}")
        return
    every = {"grown": [], "deadline": []}
    print("| drive | rounds (grown) | median | worst | >1.05 | >1.25 | >2 | rounds (deadline) "
          "| median | worst | >1.05 | >1.25 | >2 |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    ran = [n for n in DRIVES if (R / n / "run.json").exists()]
    for n in ran:
        before, after = ratios(DRIVES[n][2]), ratios(R / n)
        every["grown"] += before
        every["deadline"] += after
        print(f"| {n} | {overrun_text(before)} | {overrun_text(after)} |")
    print(f"| all re-measured | {overrun_text(every['grown'])} | "
          f"{overrun_text(every['deadline'])} |")  # fmt: skip
    print()
    split = [x for n in ran for x in issued(R / n)]
    logged = [n for n in ran if issued(R / n)]
    if split:
        past = sorted(((ran - 1, label) for label, _, ran in split), reverse=True)
        print(f"# deadline rounds with their issue logged ({len(logged)} drives, {len(split)} "
              f"rounds): last write submitted at <= {max(x[1] for x in split):.4f}x the "
              f"seconds asked, so every second past them is the writes outstanding finishing "
              f"(FEMU's latency): past the seconds asked by a median "
              f"{statistics.median(p for p, _ in past):.3f}x, worst {past[0][0]:.2f}x "
              f"({past[0][1]})")  # fmt: skip
    print()
    print("| drive | before: held-out WAF worst, IOPS median / worst | 0% WAF | after | 0% WAF |")
    print("|---|---|---|---|---|")
    tally = {"before": [0, 0, []], "after": [0, 0, []]}  # met, refused, held-out WAF worst
    for n in ran:
        truth = json.loads(DRIVES[n][1].read_text())
        rows = {"before": e2e.judge(truth, DRIVES[n][3]), "after": e2e.judge(truth, R / n)}
        for arm, row in rows.items():
            t = tally[arm]
            t[0] += femufix.met(row)[0]
            t[1] += "refused" in row
            if "refused" not in row:
                t[2].append(femufix.held_out_waf(row))
        print(f"| {n} | {femufix.cell(rows['before'])} | {zero_waf(rows['before'])} | "
              f"{femufix.cell(rows['after'])} | {zero_waf(rows['after'])} |")  # fmt: skip
    for arm, (met, refused, w) in tally.items():
        print(f"# {arm}: {met} of {len(ran)} meet the targets, {refused} refused; held-out WAF "
              f"worst over those answering: median {statistics.median(w):.1f}%, worst "
              f"{max(w):.1f}%" if w else f"# {arm}: none answers")  # fmt: skip
    missing = [n for n in DRIVES if n not in ran]
    print(f"# not run: {', '.join(missing) or 'none'}")
    worst = max(every["deadline"], default=float("nan"))
    print(f"# PLAN's default condition (no deadline round over {LIMIT}x): "
          f"{'holds' if worst <= LIMIT else 'FAILS'} (worst {worst:.3f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
