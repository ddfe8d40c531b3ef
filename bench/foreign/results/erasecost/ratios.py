"""DIAGNOSIS.md's table: FOB against the steady line's WAF-1 value, beside each simulator's
erase time per page over its program time per page (from the truth's configuration).

    python bench/foreign/results/erasecost/ratios.py

The line 1/IOPS = t_cmd + WAF·t_page through a truth's 0% and 40% QD32 levels (its measured
IOPS and WAF); the ratio FOB ÷ 1/(t_cmd + t_page). If FOB differed from the line only by the
erase (a fresh drive erases nothing), the ratio would be about 1 + erase/program (t_cmd ≈ 0).
"""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parent.parent

#: truth → (erase µs per 4 KiB page, program µs per 4 KiB page on its die/LUN, from where)
PER_PAGE = {
    "ssdsim/ssdsim-a.json": (1500 / 64, 200.0, "erase 1.5 ms / 64 pages; program 200 us"),
    "ssdsim/ssdsim-b.json": (1500 / 64, 500.0, "erase 1.5 ms / 64 pages; program 500 us"),
    "femu.json": (2000 / 256, 200.0, "blk_er_lat 2 ms / 256 pages; pg_wr_lat 200 us"),
    "femu-units/femu-32luns-400us.json": (2000 / 256, 400.0, "2 ms / 256; 400 us"),
    "femu0/femu-4lun-410blk-thres63-3800us.json": (2000 / 256, 3800.0, "2 ms / 256; 3.8 ms"),
    "mqsim.json": (3800 / 32, 750.0, "erase 3.8 ms / 32 pages; program 750 us"),
    "mqsim-retry/unseen/u512x32.json": (3800 / 32, 750.0, "3.8 ms / 32; 750 us"),
    "simplessd.json": (3500 / 64, 900.0, "erase 3.5 ms / 64; program 500/1300 us LSB/MSB"),
    "wiscsee/wiscsee-a.json": (1500 / 32, 200.0, "erase 1.5 ms / 32 pages; program 200 us"),
    "wiscsee/wiscsee-b.json": (1500 / 32, 500.0, "erase 1.5 ms / 32 pages; program 500 us"),
    "wiscsee3/wiscsee-e.json": (1500 / 32, 300.0, "erase 1.5 ms / 32 pages; program 300 us"),
    "eagletree.json": (60 / 128, 30.0, "erase 60 us / 128; write 20 us + bus 10 us"),
    "disksim-ssd.json": (1500 / 64, 302.4, "erase 1.5 ms / 64; program 200 + transfer 102.4"),
    "nvmevirt/nvmevirt-a.json": (0.0, 185 / 8 + 41 / 8, "erase 0; 185 us / 8 + channel"),
    "nvmevirt/nvmevirt-b.json": (62.5, 54.9, "erase 3 ms / 48; (600 + 58 us) / 12"),
    "nvmevirt/diagnosis/nvmevirt-b-erase0.json": (0.0, 54.9, "B with erase 0"),
}


def line_ratio(doc: dict, qd: int = 32) -> tuple[float, float, float] | None:
    """(t_page µs, t_cmd µs, FOB ÷ the line's WAF-1 IOPS) from the 0% and 40% levels."""
    lv = {r["extra_op_percent"]: r for r in doc["levels"] if r.get("queue_depth", qd) == qd}
    if 0 not in lv or 40 not in lv or not lv[0].get("fob_iops"):
        return None
    y0, y4 = 1e6 / lv[0]["steady_iops"], 1e6 / lv[40]["steady_iops"]
    w0, w4 = lv[0]["steady_waf"], lv[40]["steady_waf"]
    t_page = (y0 - y4) / (w0 - w4)
    t_cmd = y0 - w0 * t_page
    return t_page, t_cmd, lv[0]["fob_iops"] * (t_cmd + t_page) / 1e6


def main() -> int:
    print("| truth | simulator | erase ÷ program a page | 1 + that | FOB ÷ line at WAF 1 |")
    print("|---|---|---|---|---|")
    for name, (erase, prog, how) in PER_PAGE.items():
        doc = json.loads((RESULTS / name).read_text())
        got = line_ratio(doc)
        if got is None:
            continue
        _, _, ratio = got
        r = erase / prog
        print(f"| {name} | {doc['simulator']} | {r:.3f} ({how}) | {1 + r:.3f} | {ratio:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
