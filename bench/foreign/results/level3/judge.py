"""The clauses of bench/foreign/results/level3/RULE.md from the case files (two-off/, two-on/,
three-off/, three-on/); prints verdict.md's text.

    python bench/foreign/results/level3/judge.py > bench/foreign/results/level3/verdict.md
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRIVES = (("MQSim", "u928x32"), ("MQSim", "u1856x16"), ("FEMU", "femu-72lun-40blk-thres75"),
          ("FEMU", "femu-78lun-36blk-thres75"))  # fmt: skip
FOLDERS = ("two-off", "two-on", "three-off", "three-on")
WAF_TARGET = 0.05
#: what R4 compares: each level's figures and bounds, and the readings' weights
SAME = ("steady_iops", "steady_iops_low", "steady_iops_high", "waf", "waf_low", "waf_high")


def load(folder: str, family: str, stem: str) -> dict | None:
    p = HERE / folder / f"{family}--level3_fresh--{stem}.json"
    return json.loads(p.read_text()) if p.exists() else None


def refused(c: dict | None) -> bool:
    return c is None or bool((c.get("summary") or {}).get("refused"))


def waf_worst(c: dict | None) -> float | None:
    """The worst |WAF error| over 0-40% rounded to 0.1% (None: refused or not run)."""
    if refused(c):
        return None
    return round(100 * c["summary"]["waf_worst"], 1)  # type: ignore[index]


def describe(c: dict | None) -> str:
    """A case in a line: refused and why, or its targets, errors, readings and warnings."""
    if c is None or refused(c):
        return "not run" if c is None else "refused: " + (c.get("error") or ["?"])[-1][:160]
    s, levels = c["summary"], sorted(c["levels"], key=lambda r: r["extra_op_percent"])
    err = {k: ", ".join(f"{r['extra_op_percent']}% {100 * r[f'{k}_err']:+.1f}%" for r in levels)
           for k in ("iops", "waf")}  # fmt: skip
    met = "both targets met" if s["met"] else "targets not both met"
    return (f"{met}; IOPS median {100 * s['iops_median']:.1f}%, worst "
            f"{100 * s['iops_worst']:.1f}% ({err['iops']}); WAF worst "
            f"{100 * s['waf_worst']:.1f}% ({err['waf']}); carried by {', '.join(s['carry'])}; "
            f"warnings: {', '.join(c.get('warnings', [])) or 'none'}")  # fmt: skip


def unchanged(a: dict | None, b: dict | None) -> bool:
    """R4: the same figures, bounds and weights (two refusals with the same reason alike)."""
    if a is None or b is None:
        return False
    if refused(a) or refused(b):
        return refused(a) and refused(b) and a.get("error") == b.get("error")
    rows = [[r.get(k) for k in SAME] for r in a["levels"]]
    return rows == [[r.get(k) for k in SAME] for r in b["levels"]] and a.get("readings") == b.get(
        "readings"
    )


def main() -> None:
    print("# Verdict of bench/foreign/results/level3/RULE.md (judge.py's output)\n")
    r1 = r2 = r3 = r4 = 0
    for fam, stem in DRIVES:
        c = {f: load(f, fam, stem) for f in FOLDERS}
        print(f"## {fam} {stem}\n")
        for f in FOLDERS:
            print(f"- {f}: {describe(c[f])}")
        on, two = c["three-on"], c["two-off"]
        answered = not refused(on)
        within = answered and all(abs(r["waf_err"]) <= WAF_TARGET for r in on["levels"])
        w3, w2 = waf_worst(on), waf_worst(two)
        ran = on is not None and two is not None  # a truth not run counts against every clause
        both_refused = w3 is None and w2 is None
        no_worse = ran and ((w3 is not None and (w2 is None or w3 <= w2)) or both_refused)
        same = unchanged(c["two-off"], c["two-on"])
        r1 += not answered
        r2 += within
        r3 += no_worse
        r4 += same
        print(f"- T3 on answered: {answered}; WAF within 5% at every level: {within}; worst "
              f"WAF T3 on {w3}% vs T2 {w2}%: no worse {no_worse}; T2 unchanged by the flag: "
              f"{same}\n")  # fmt: skip
    n = len(DRIVES)
    holds = {
        "R1 (T3 on refused on <= 1 of 4)": r1 <= 1,
        "R2 (WAF within 5% at every level on >= 2 of 4)": r2 >= 2,
        "R3 (T3 on no worse than T2 in worst WAF on >= 3 of 4)": r3 >= 3,
        "R4 (T2 unchanged on all 4)": r4 == n,
    }
    print("## Clauses\n")
    print(f"- refused with the flag on: {r1} of {n}; WAF within 5% everywhere: {r2} of {n}; "
          f"no worse than two levels: {r3} of {n}; two levels unchanged: {r4} of {n}")  # fmt: skip
    for name, ok in holds.items():
        print(f"- {name}: {'holds' if ok else 'fails'}")
    print("\n## Verdict\n")
    if all(holds.values()):
        print("All four hold: three_levels.ON is adopted (on).")
    else:
        print("Not every clause holds: three_levels.ON stays off.")


if __name__ == "__main__":
    main()
