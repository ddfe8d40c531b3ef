"""Where the graded plan reads a FEMU drive's 0% WAF, and how FEMU's WAF moves there (seen data).

    PYTHONPATH=python python bench/foreign/results/femu0/zero_level.py > .../zero_level.txt

For F1 (bench/foreign/results/onset-tolerant/) and the six stored FEMU cases with a binding
reserve (bench/foreign/results/onset-tolerant/RULE.md, condition 3): the onset of garbage
collection from empty, the 0% level's random rounds and the stretch ``measure.over_bursts``
reads its WAF over (every random round past the segment's minimum), in drive writes since the
purge and since the onset; the WAF of that stretch, of its halves and of the level's last 0.1
drive writes, from the write counters; FEMU's steady 0% WAF (femu.py, from empty, window 4-12
drive writes) and its WAF per drive write from empty. Nothing is run or predicted.
"""

from __future__ import annotations

import json
from pathlib import Path

R = Path("bench/foreign/results")
#: (name, measured case, its femu.py truth)
CASES = [
    ("F1 11x290", "onset-tolerant/femu-11lun-290blk-thres69-3200us-on",
     "onset-tolerant/femu-11lun-290blk-thres69-3200us.json"),
    ("10x260", "onset-default5/femu/femu-10lun-260blk-thres66-3500us-flag-s1",
     "onset-default5/femu/femu-10lun-260blk-thres66-3500us.json"),
    ("8x300", "onset-default3/femu/femu-8lun-300blk-thres70-4ms-on",
     "onset-default3/femu/femu-8lun-300blk-thres70-4ms.json"),
    ("6x372", "femu-end-to-end/femu-6lun-372blk-thres68-3ms-on",
     "femu-end-to-end/femu-6lun-372blk-thres68-3ms.json"),
    ("14x224", "femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80-on",
     "femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json"),
    ("7x320", "settle40/femu-7lun-320blk-thres67-3ms-on",
     "settle40/femu-7lun-320blk-thres67-3ms.json"),
    ("9x250", "settle40/femu-9lun-250blk-thres64-4ms-on",
     "settle40/femu-9lun-250blk-thres64-4ms.json"),
]  # fmt: skip


def waf_over(rounds: list[dict], i: int, j: int) -> float:
    """NAND ÷ host bytes of rounds[i:j] from the cumulative counters (rounds[i - 1] before)."""
    a, b = rounds[i - 1], rounds[j - 1]
    return (b["nand_bytes"] - a["nand_bytes"]) / (b["host_bytes"] - a["host_bytes"])


def row(name: str, case: str, truth: str) -> tuple[dict, list]:
    m = json.loads((R / case / "measurement.json").read_text())
    t = json.loads((R / truth).read_text())
    cap, rounds = m["capacity_bytes"], m["rounds"]
    lv0 = next(lv for lv in m["levels"] if lv["extra_op_percent"] == 0)
    seg0 = m["plan"]["segments"][0]
    idx = [i for i, r in enumerate(rounds) if r["label"].startswith("op0-r")]
    dw = [r["host_bytes"] / cap for r in rounds]  # host writes since the purge
    start, written = None, 0.0
    for i in idx:  # over_bursts: the random rounds that start past the segment's minimum
        if written >= seg0["min_drive_writes"] and start is None:
            start = i
        written += rounds[i]["bytes_written"] / cap
    end = idx[-1] + 1
    half = (dw[end - 1] - dw[start - 1]) / 2
    mid = next(i for i in range(start, end) if dw[i] - dw[start - 1] >= half)
    last = next(i for i in range(start, end) if dw[end - 1] - dw[i - 1] <= 0.1 + 1e-9)
    onset = m["onset_spare_factor"]
    t0 = next(lv for lv in t["levels"] if lv["extra_op_percent"] == 0 and lv["queue_depth"] == 32)
    truth_waf = t0["steady_waf"]
    out = {
        "case": name, "onset": onset,
        "read_from_dw": dw[start - 1], "read_to_dw": dw[end - 1],
        "since_onset_from": dw[start - 1] - onset, "since_onset_to": dw[end - 1] - onset,
        "rounds": end - start, "waf_read": lv0["waf"],
        "waf_first_half": waf_over(rounds, start, mid + 1),
        "waf_second_half": waf_over(rounds, mid + 1, end),
        "waf_last_0.1": waf_over(rounds, last, end), "waf_level": waf_over(rounds, idx[0], end),
        "truth_waf": truth_waf, "error": lv0["waf"] / truth_waf - 1,
    }  # fmt: skip
    return out, [(s["span_writes"], s["waf"]) for s in t0["series"]]


def main() -> None:
    print("# PYTHONPATH=python python bench/foreign/results/femu0/zero_level.py")
    print("# dw: host drive writes since the purge; read: the stretch measure.over_bursts reads "
          "the 0% WAF over; FEMU: femu.py's steady 0% WAF (from empty, window 4-12)")  # fmt: skip
    print("| case | onset | read (dw) | since onset | rounds | WAF read | 1st / 2nd half "
          "| last 0.1 | whole level | FEMU | error |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    series = {}
    for name, case, truth in CASES:
        r, s = row(name, case, truth)
        series[name] = s
        print(f"| {r['case']} | {r['onset']:.3f} | {r['read_from_dw']:.3f}-{r['read_to_dw']:.3f} "
              f"| {r['since_onset_from']:.3f}-{r['since_onset_to']:.3f} | {r['rounds']} "
              f"| {r['waf_read']:.2f} | {r['waf_first_half']:.2f} / {r['waf_second_half']:.2f} "
              f"| {r['waf_last_0.1']:.2f} | {r['waf_level']:.2f} | {r['truth_waf']:.2f} "
              f"| {100 * r['error']:+.1f}% |")  # fmt: skip
    print("\n# FEMU's 0% WAF per drive write from empty (femu.py's series: each drive write's WAF)")
    print("| case | " + " | ".join(f"{k}" for k in range(1, 9)) + " |")
    print("|---|" + "---|" * 8)
    for name, s in series.items():
        print(f"| {name} | " + " | ".join(f"{w:.2f}" for _, w in s[:8]) + " |")


if __name__ == "__main__":
    main()
