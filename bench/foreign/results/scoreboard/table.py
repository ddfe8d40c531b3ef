"""The scoreboard's tables from its case files (cases/*.json, written by run.py) and runs.log:
cases.md (one row a truth) and the per-family counts in table.md's first table.

    python bench/foreign/results/scoreboard/table.py > bench/foreign/results/scoreboard/cases.md
    SCOREBOARD_CASES=cases-now python bench/foreign/results/scoreboard/table.py \
        > bench/foreign/results/scoreboard/cases-now.md   # the run after erasecheck
    SCOREBOARD_CASES=cases-final python bench/foreign/results/scoreboard/table.py \
        > bench/foreign/results/scoreboard/cases-final.md   # the run after erasefloor
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from run import CASES_DIR, order  # noqa: E402


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def cpu_by_truth() -> dict[str, float]:
    got = {}
    log = HERE / ("runs.log" if CASES_DIR == "cases" else f"runs-{CASES_DIR}.log")
    for line in log.read_text().splitlines():
        m = re.match(r"\S+ \S+ (\S+): rc -?\d+, ([\d.]+) CPU s", line)
        if m:
            got[m.group(1)] = float(m.group(2))
    return got


def worst_level(c: dict, key: str) -> str:
    rows = [r for r in c.get("levels", []) if key in r]
    if not rows:
        return ""
    r = max(rows, key=lambda r: abs(r[key]))
    return f" ({r['extra_op_percent']}%, {100 * r[key]:+.1f}%)"


def row(c: dict, cpu: float | None) -> str:
    s = c["summary"]
    truth = c["truth"].removeprefix("bench/foreign/results/")
    case = "QD4" if "QD4" in c.get("case", "") else "no QD4"
    cpu_s = "–" if cpu is None else f"{cpu:.0f}"
    if "skipped" in s:
        return f"| {truth} | – | stopped ({s['skipped']}: over 120 CPU s) | | no | | | {cpu_s} |"
    if s.get("refused"):
        why = (c.get("error") or ["(no message: stopped by the CPU cap)"])[-1][:160]
        return f"| {truth} | {case} | refused: {why} | | no | | | {cpu_s} |"
    met = "**yes**" if s["met"] else "no"
    erase = "**erase twin**" if s["erase_twin_carries"] else ""
    bw = s.get("blocking_gc_weight")
    carry = "; ".join(s["carry"]) + (f"; blocking GC {bw:.2f}" if bw else "")
    return (
        f"| {truth} | {case} | {pct(s['iops_median'])} / {pct(s['iops_worst'])}"
        f"{worst_level(c, 'iops_err')} | {pct(s['waf_worst'])}{worst_level(c, 'waf_err')} | "
        f"{met} | {carry} | {erase} | {cpu_s} |"
    )


def main() -> None:
    cpu = cpu_by_truth()
    cases = {}
    for p in (HERE / CASES_DIR).glob("*.json"):
        c = json.loads(p.read_text())
        cases[c["truth"]] = c
    print("| truth | case | IOPS median / worst (worst level) | WAF worst (level) | "
          "targets met | readings carrying ≥ 0.1 | erase twin | CPU s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    counts: dict[str, list[int]] = {}
    for family, folder, stem in order():
        truth = f"{folder}/{stem}.json"
        n = counts.setdefault(family, [0, 0, 0, 0, 0])  # run, met, refused/stopped, erase, left
        c = cases.get(truth)
        if c is None:
            n[4] += 1
            continue
        n[0] += 1
        n[1] += c["summary"]["met"]
        n[2] += "skipped" in c["summary"] or bool(c["summary"].get("refused"))
        n[3] += bool(c["summary"].get("erase_twin_carries"))
        print(row(c, cpu.get(truth.removesuffix(".json"))))
    print()
    print("| family | run | met both targets | refused or stopped | erase twin carries | "
          "not reached |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for family, (run_n, met, ref, erase, left) in counts.items():
        print(f"| {family} | {run_n} | {met} of {run_n} | {ref} | {erase} | {left} |")
    tot = [sum(n[i] for n in counts.values()) for i in range(5)]
    print(f"| all | {tot[0]} | {tot[1]} of {tot[0]} | {tot[2]} | {tot[3]} | {tot[4]} |")
    print(f"\nCPU s of the cases run: {sum(cpu.values()):.0f}")


if __name__ == "__main__":
    main()
