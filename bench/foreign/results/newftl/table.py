"""REPORT.md's tables for bench/foreign/results/newftl/ (VSSIM's drives): the per-truth rows
and the pooled counts of bench/foreign/results/freshtally/tally.py `table`, for a family its
FAMILIES list does not hold. Reuses tally.py's `unfitted` and `cover_text` and the scoreboard's
`row` (bench/foreign/results/scoreboard/table.py); reads cases/*.json and runs.log here.

    PYTHONPATH=python python bench/foreign/results/newftl/table.py
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parent.parent
sys.path.insert(0, str(FOREIGN))
from common import load_script  # noqa: E402

os.environ["TALLY_DIR"] = str(HERE)
tally = load_script("newftl_tally", FOREIGN / "results" / "freshtally" / "tally.py")
sys.path.insert(0, str(FOREIGN / "results" / "scoreboard"))
from table import row  # noqa: E402  (the scoreboard's)


def cpu_by_truth(log: Path) -> dict[str, float]:
    got = {}
    for line in log.read_text().splitlines() if log.exists() else []:
        m = re.match(r"\S+ case \S+ (\S+): rc -?\d+, ([\d.]+) CPU s", line)
        if m:
            got[m.group(1)] = float(m.group(2))
    return got


def main() -> None:
    cases = [json.loads(p.read_text()) for p in sorted((HERE / "cases").glob("*.json"))]
    cpu = cpu_by_truth(HERE / "runs.log")
    print("| truth | case | IOPS median / worst (worst level) | WAF worst (level) | "
          "targets met | readings carrying ≥ 0.1 | erase twin | CPU s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for c in cases:
        print(row(c, cpu.get(c["truth"].removesuffix(".json"))))
    met = sum(c["summary"]["met"] for c in cases)
    refused = sum(bool(c["summary"].get("refused")) for c in cases)
    print("\n| family | truths | met both targets | refused | unfitted levels in the 80% "
          "interval, median width |")  # fmt: skip
    print("|---|---|---|---|---|")
    print(f"| VSSIM | {len(cases)} | {met} of {len(cases)} | {refused} | "
          f"{tally.cover_text(tally.unfitted(cases))} |")  # fmt: skip


if __name__ == "__main__":
    main()
