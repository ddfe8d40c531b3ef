"""Diagnosis (a): the plan's 40% level against FEMU's run-on after it and FEMU's steady truth.

    python bench/foreign/results/femu40/runon_table.py \
        > bench/foreign/results/femu40/runon_table.txt

For each seen drive of runon.sh: FEMU's truth at 40% (its steady window), the plan's 40% level as
measured (measurement.json of the run-on measurement: IOPS, WAF), the run-on's IOPS and WAF
(host-weighted over its 0.025-drive-write rows) over stretches after the level, and the
product IOPS × WAF (NAND pages written per second ÷ pages per host write: the NAND's write rate).
"""

import json
from pathlib import Path

HERE = Path(__file__).parent
S = HERE.parent
TRUTH = {
    "F1-11x290": "onset-tolerant/femu-11lun-290blk-thres69-3200us.json",
    "10x260": "onset-default5/femu/femu-10lun-260blk-thres66-3500us.json",
    "8x300": "onset-default3/femu/femu-8lun-300blk-thres70-4ms.json",
    "6x372": "femu-end-to-end/femu-6lun-372blk-thres68-3ms.json",
    "14x224": "femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json",
    "7x320": "settle40/femu-7lun-320blk-thres67-3ms.json",
    "9x250": "settle40/femu-9lun-250blk-thres64-4ms.json",
}
STRETCHES = [(0.0, 0.25), (0.25, 0.5), (0.5, 1.0), (1.0, 3.0)]


def over(rows, lo, hi):
    """IOPS (time-weighted: equal host writes per row, so the harmonic mean) and WAF (mean)."""
    sel = [r for r in rows if lo < r["drive_writes_after_level"] <= hi + 1e-9]
    waf = sum(r["waf"] for r in sel) / len(sel)
    iops = len(sel) / sum(1 / r["iops"] for r in sel)
    return iops, waf


def main() -> None:
    print(
        "drive | truth 40%: IOPS, WAF, IOPS×WAF | plan's 40% level: IOPS, WAF (err) | "
        "run-on after it, IOPS (err) / WAF over " + ", ".join(f"{a:g}-{b:g}" for a, b in STRETCHES)
    )
    for name, tpath in TRUTH.items():
        t = next(
            lv
            for lv in json.loads((S / tpath).read_text())["levels"]
            if lv["extra_op_percent"] == 40
        )
        ti, tw = t["steady_iops"], t["steady_waf"]
        m = json.loads((HERE / "runon" / f"{name}.measurement.json").read_text())
        lv = next(
            x for x in m["levels"] if x["extra_op_percent"] == 40 and x["queue_depth"] is None
        )
        rows = json.loads((HERE / "runon" / f"{name}.json").read_text())["rows"]
        parts = []
        for a, b in STRETCHES:
            i, w = over(rows, a, b)
            parts.append(f"{i:.0f} ({i / ti - 1:+.1%}) / {w:.3f} ({w / tw - 1:+.1%})")
        print(
            f"{name} | {ti:.0f}, {tw:.3f}, {ti * tw:.0f} | {lv['steady_iops']:.0f} "
            f"({lv['steady_iops'] / ti - 1:+.1%}), {lv['waf']:.3f} ({lv['waf'] / tw - 1:+.1%}), "
            f"{lv['steady_iops'] * lv['waf']:.0f} | " + " | ".join(parts)
        )


if __name__ == "__main__":
    main()
