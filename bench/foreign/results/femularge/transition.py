"""Diagnosis (b): the transition levels on the seen FEMU drives (nothing predicted here).

    PYTHONPATH=python python bench/foreign/results/femularge/transition.py \
        > bench/foreign/results/femularge/transition.txt

Part 1: every FEMU truth under bench/foreign/results/ whose level femu.py's own rule flags
unsettled (its last 8 span writes, 4-12, not within ±3% in range and trend): the window's WAF
(the figure judged), its last span write's, and the free lines then. Part 2: four seen transition
levels run on to 30 span writes (transition.sh): the window 4-12 against 22-30 (settled or not by
the same rule), and the twin's WAF (the stored default prediction) against each.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, "bench/foreign")
import common  # noqa: E402  (the steady-window rule femu.py applies)

S = Path("bench/foreign/results")
R = S / "femularge" / "transition"
#: run-on file -> the seen case whose default prediction missed or nearly missed there
TWINS = {
    "femu-21lun-130blk-thres74-3700us-ns85-op20": "gate14/femu-21lun-130blk-thres74-3700us-ns85",
    "femu-3lun-430blk-thres73-4200us-op10": "femu40/femu-3lun-430blk-thres73-4200us",
    "femu-19lun-150blk-thres62-4600us-ns80-op30": "gate14/femu-19lun-150blk-thres62-4600us-ns80",
    "femu-14lun-224blk-thres60-5ms-ns80-op30": "gate14/stored/femu-14lun-224blk-thres60-5ms-ns80",
}  # run-on -> its case's folder (+ ARM), the arm that answered: the default or the gate
ARM = {  # the 14 x 224 stored case's folders are named NAME-on-off / NAME-on-on
    "femu-19lun-150blk-thres62-4600us-ns80-op30": "-on",
    "femu-14lun-224blk-thres60-5ms-ns80-op30": "-on-on",
}


def femu_truths() -> list[tuple[Path, dict]]:
    out = []
    for f in sorted(S.glob("**/femu-*.json")):
        if R in f.parents:
            continue
        doc = json.loads(f.read_text())
        if isinstance(doc, dict) and doc.get("simulator") == "FEMU" and "levels" in doc:
            out.append((f, doc))
    return out


def part1() -> None:
    print("| truth file | level | WAF judged (4-12) | last span write | its free lines | trend |")
    print("|---|---|---|---|---|---|")
    for f, doc in femu_truths():
        for lv in doc["levels"]:
            rule = lv.get("steady_window", {}).get("rule", {})
            if rule.get("settled", True):
                continue
            last = lv["series"][-1]
            rise = last["waf"] / lv["steady_waf"] - 1
            print(f"| {f.relative_to(S)} | {lv['extra_op_percent']:g}% QD{lv['queue_depth']} | "
                  f"{lv['steady_waf']:.3f} | {last['waf']:.3f} ({rise:+.1%}) | "
                  f"{last.get('free_lines', '-')} | {rule['waf_trend']:.3f} |")  # fmt: skip


def part2() -> None:
    print(
        "\n| level run to 30 | WAF 4-12 | 22-30 (settled) | twin | twin ÷ 4-12 − 1 "
        "| twin ÷ 22-30 − 1 |"
    )
    print("|---|---|---|---|---|---|")
    for name, case in TWINS.items():
        lv = json.loads((R / f"{name}.json").read_text())["levels"][0]
        series = lv["series"]
        early = common.settle(series[:12])
        late = common.settle(series)
        x = lv["extra_op_percent"]
        pred = json.loads((S / (case + ARM.get(name, "-off")) / "prediction.json").read_text())
        twin = next(p["waf"] for p in pred["levels"] if p["extra_op_percent"] == x)
        print(
            f"| {name} | {early['waf_mean']:.3f} | {late['waf_mean']:.3f} ({late['settled']}) | "
            f"{twin:.3f} | {twin / early['waf_mean'] - 1:+.1%} | "
            f"{twin / late['waf_mean'] - 1:+.1%} |"
        )


if __name__ == "__main__":
    print("# PYTHONPATH=python python bench/foreign/results/femularge/transition.py")
    part1()
    part2()
