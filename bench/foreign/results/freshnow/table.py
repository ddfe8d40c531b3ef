"""bench/foreign/results/freshnow/REPORT.md's tables: freshtally's `tally.py table` on this
folder's cases (TALLY_DIR; its family list extended by VSSIM, the one family of this folder's
plan cases it does not name), then the Dhara drives' "WAF 0+40" cases (today/, written by
dhara_case.py) in bench/foreign/results/fifogc/case.py's cell, with tally.py's 80% coverage of
the unfitted levels. CPU s from runs.log.

    PYTHONPATH=python python bench/foreign/results/freshnow/table.py

tally.py groups its last rows by whether a truth lies under freshtally/truths/: here none does,
so its row "today's rules' fresh truths" is every plan case of this folder.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

os.environ["TALLY_DIR"] = str(HERE)
tally = load_script("freshnow_tally", HERE.parent / "freshtally" / "tally.py")
fifogc = load_script("freshnow_fifogc_case", HERE.parent / "fifogc" / "case.py")
tally.FAMILIES = (*tally.FAMILIES, "VSSIM")


def dhara_table() -> None:
    log = HERE / "runs.log"
    cpu = dict(re.findall(r"case Dhara (\S+): rc -?\d+, ([\d.]+) CPU s",
                          log.read_text() if log.exists() else ""))  # fmt: skip
    ds = [json.loads(p.read_text()) for p in sorted((HERE / "today").glob("*.json"))]
    print("\n| truth | WAF 0+40: worst (level), met; carrying | CPU s |")
    print("|---|---|---|")
    for d in ds:
        stem = Path(d["truth"]).stem
        print(f"| {d['truth'].removeprefix('bench/foreign/results/')} | "
              f"{fifogc.cell(d['result']['summary'])} | {cpu.get(stem, '–')} |")  # fmt: skip
    cs = [d["result"] for d in ds]
    met = sum(c["summary"]["met"] for c in cs)
    print("\n| family | case | truths | met the target | unfitted levels in the 80% interval, "
          "median width |")  # fmt: skip
    print("|---|---|---|---|---|")
    print(f"| Dhara | WAF 0+40 | {len(cs)} | {met} of {len(cs)} | "
          f"{tally.cover_text(tally.unfitted(cs))} |")  # fmt: skip


if __name__ == "__main__":
    tally.table()
    dhara_table()
