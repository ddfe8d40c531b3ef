"""The seen report beside bench/foreign/results/level3/RULE.md (judging nothing): midlevel's ten
seen truths where its plan test fired and femud4's four older FEMU drives, typed at 0, 20 and
40%: the flag off (midlevel's ``seen-typed/``), the flag on (``seen-on/``, ``cases.py seen``),
and today's plan case at 0% and 40% (``bench/foreign/results/status72/cases/``).

    python bench/foreign/results/level3/seen.py > bench/foreign/results/level3/seen.md
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
OFF = HERE.parent / "midlevel" / "seen-typed"
TWO = HERE.parent / "status72" / "cases"


def cell(c: dict) -> str:
    s = c["summary"]
    if s.get("refused"):
        why = (c.get("error") or ["?"])[-1].split("no twin is written: ")[-1]
        return "refused: " + why.split(" (at most")[0]
    waf = {r["extra_op_percent"]: r["waf_err"] for r in c["levels"]}
    return (f"{'**met**' if s['met'] else 'not met'}; IOPS {100 * s['iops_median']:.1f}% / "
            f"{100 * s['iops_worst']:.1f}%; WAF worst {100 * s['waf_worst']:.1f}%, at 10% "
            f"{100 * waf[10]:+.1f}%")  # fmt: skip


def main() -> None:
    print("| truth | 0/40% today (status72) | 0/20/40% flag off (midlevel) | 0/20/40% flag on | "
          "CPU s on |")  # fmt: skip
    print("|---|---|---|---|---|")
    tally = {"two": 0, "off": 0, "on": 0, "off_refused": 0, "on_refused": 0, "n": 0}
    for p in sorted((HERE / "seen-on").glob("*.json")):
        on = json.loads(p.read_text())
        off = json.loads((OFF / p.name).read_text())
        two = json.loads((TWO / p.name).read_text())
        print(f"| {p.stem} | {cell(two)} | {cell(off)} | {cell(on)} | {on['cpu_s']:.0f} |")
        tally["n"] += 1
        for k, c in (("two", two), ("off", off), ("on", on)):
            tally[k] += c["summary"]["met"]
        tally["off_refused"] += bool(off["summary"].get("refused"))
        tally["on_refused"] += bool(on["summary"].get("refused"))
    t = tally
    print(f"\nBoth targets met: 0/40% today {t['two']} of {t['n']}; 0/20/40% flag off "
          f"{t['off']} ({t['off_refused']} refused); flag on {t['on']} "
          f"({t['on_refused']} refused).")  # fmt: skip


if __name__ == "__main__":
    main()
