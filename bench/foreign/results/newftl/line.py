"""Each VSSIM truth's line through its 0% and 40% figures, 1/IOPS = t_cmd + WAF · t_page (the
line calibrate's fit bounds: docs/calibrate-validation.md, "A GC move that costs up to ten host
writes"), with the host writes a GC move costs, 1 / (1 + t_cmd / t_page), and the FOB's host
write time beside it. Computed from the stored truths only; no calibrate run.

    python bench/foreign/results/newftl/line.py > bench/foreign/results/newftl/line.txt
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def line(doc: dict) -> dict:
    lv = {int(r["extra_op_percent"]): r for r in doc["levels"] if r["queue_depth"] == 32}
    t0, t40 = 1e6 / lv[0]["steady_iops"], 1e6 / lv[40]["steady_iops"]
    w0, w40 = lv[0]["steady_waf"], lv[40]["steady_waf"]
    t_page = (t0 - t40) / (w0 - w40)
    t_cmd = t40 - w40 * t_page
    return {"t_page_us": t_page, "t_cmd_us": t_cmd, "share": -t_cmd / t_page,
            "move_in_host_writes": 1 / (1 + t_cmd / t_page),
            "fob_write_us": 1e6 / lv[0]["fob_iops"]}  # fmt: skip


def main() -> None:
    print("truth | t_page µs | t_cmd µs | −t_cmd / t_page | a move in host writes | "
          "FOB host write µs")  # fmt: skip
    for path in sorted(HERE.glob("vssim-*.json")):
        r = line(json.loads(path.read_text()))
        print(f"{path.name} | {r['t_page_us']:.1f} | {r['t_cmd_us']:.1f} | {r['share']:.3f} | "
              f"{r['move_in_host_writes']:.1f} | {r['fob_write_us']:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
