"""bench/foreign/results/statusnew/REPORT.md's tables: every stored VSSIM and Dhara truth under
main's final defaults (cases/ and today/ here, written by runs.sh), with the scoreboard's row
(bench/foreign/results/scoreboard/table.py) for VSSIM, fifogc's cell
(bench/foreign/results/fifogc/case.py) for Dhara, tally.py's 80% coverage of the unfitted
levels per family, and beside each drive whether it met its targets in its own folder's record
under the defaults of its time (for reference; nothing is judged). CPU s from runs.log.

    PYTHONPATH=python python bench/foreign/results/statusnew/table.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path.insert(0, str(RESULTS / "scoreboard"))
from table import row  # noqa: E402  (the scoreboard's per-truth row)

sys.path.insert(0, str(RESULTS.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

statusnew_case = load_script("statusnew_case", HERE / "case.py")
fifogc, tally = statusnew_case.fifogc, statusnew_case.fifogc.tally

# each drive's own record under the defaults of its time
VSSIM_THEN = {s: RESULTS / f for s, f in (
    *((s, f"newftl/cases/VSSIM--newftl--vssim-{s}.json") for s in "abcd"),
    *((s, f"readshare/defaults/cases/VSSIM--readshare--vssim-{s}.json") for s in "efg"),
)}  # fmt: skip
DHARA_THEN = {"newftl2": "cases", "fifogc": "today", "metafactor": "today",
              "dharafloor": "today", "wafrefine": "today"}  # fmt: skip


def cpu_logged() -> dict[str, float]:
    got = {}
    log = HERE / "runs.log"
    for line in log.read_text().splitlines() if log.exists() else []:
        m = re.match(r"\S+ case \S+ (?:\S+/)?(\S+): rc -?\d+, ([\d.]+) CPU s", line)
        if m:
            got[m.group(1)] = float(m.group(2))
    return got


def dhara_then(truth: str) -> str:
    folder = Path(truth).parent.name
    path = RESULTS / folder / DHARA_THEN[folder] / Path(truth).name
    if not path.exists():
        return "–"
    d = json.loads(path.read_text())
    s = d["cases"]["WAF 0+40"]["summary"] if "cases" in d else d["result"]["summary"]
    return "met" if s["met"] else "not met"


def main() -> None:
    cpu = cpu_logged()
    vs = [json.loads(p.read_text()) for p in sorted((HERE / "cases").glob("*.json"))]
    print("| truth | case | IOPS median / worst (worst level) | WAF worst (level) | "
          "targets met | readings carrying ≥ 0.1 | erase twin | CPU s | then |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for c in vs:
        stem = Path(c["truth"]).stem
        then = VSSIM_THEN[stem.removeprefix("vssim-")]
        was = json.loads(then.read_text())["summary"]["met"] if then.exists() else None
        print(row(c, cpu.get(stem)) + f" {'–' if was is None else ('met' if was else 'not met')} |")
    ds = [json.loads(p.read_text()) for p in sorted((HERE / "today").glob("*.json"))]
    print("\n| truth | WAF 0+40: worst (level), met; carrying | CPU s | then |")
    print("|---|---|---|---|")
    for d in ds:
        stem = Path(d["truth"]).stem
        truth = d["truth"].removeprefix("bench/foreign/results/")
        print(f"| {truth} | {fifogc.cell(d['result']['summary'])} | "
              f"{cpu.get(stem, float('nan')):.0f} | {dhara_then(d['truth'])} |")  # fmt: skip
    print("\n| family | case | truths | met the targets | refused | unfitted levels in the 80% "
          "interval, median width |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for fam, name, cs in (("VSSIM", "IOPS+WAF 0+40, FOB", vs),
                          ("Dhara", "WAF 0+40", [d["result"] for d in ds])):  # fmt: skip
        met = sum(c["summary"]["met"] for c in cs)
        refused = sum(bool(c["summary"].get("refused")) for c in cs)
        print(f"| {fam} | {name} | {len(cs)} | {met} of {len(cs)} | {refused} | "
              f"{tally.cover_text(tally.unfitted(cs))} |")  # fmt: skip
    print(f"\nCPU s of the cases (runs.log): {sum(cpu.values()):.1f}")


if __name__ == "__main__":
    main()
