"""Two arms of scoreboard cases side by side, and bench/foreign/results/wiscbatch/RULE.md's
clauses on them.

    python bench/foreign/results/wiscbatch/compare.py OFF_DIR ON_DIR [--fresh]

Per truth: IOPS median / IOPS worst / WAF worst (|error| in %, QD32 levels 0-40%: run.py's
summary), each arm's targets met (I: IOPS median <= 10% and worst <= 20%; W: WAF worst <= 5%),
the largest rise of the three figures (points), and the carrying readings of the on arm.
--fresh: the fresh clause (none worse by > 1 point; one gains a target or both meet both);
else the 72's clause (no met target lost, no figure up by > 1 point).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

FIGS = ("iops_median", "iops_worst", "waf_worst")


def targets(s: dict) -> set[str]:
    if s.get("refused") or s.get("skipped") or s.get("iops_median") is None:
        return set()
    got = set()
    if s["iops_median"] <= 0.10 and s["iops_worst"] <= 0.20:
        got.add("I")
    if s.get("waf_worst") is not None and s["waf_worst"] <= 0.05:
        got.add("W")
    return got


def figs(s: dict) -> list[float]:
    if s.get("refused") or s.get("skipped") or s.get("iops_median") is None:
        return [math.inf] * 3
    return [100 * s[k] if s.get(k) is not None else math.inf for k in FIGS]


def text(f: list[float]) -> str:
    return " / ".join("refused" if math.isinf(x) else f"{x:.2f}" for x in f)


def main(off_dir: str, on_dir: str, fresh: bool) -> int:
    off = {p.name: json.loads(p.read_text()) for p in sorted(Path(off_dir).glob("*.json"))}
    on = {p.name: json.loads(p.read_text()) for p in sorted(Path(on_dir).glob("*.json"))}
    print("| truth | off | on | targets off → on | largest rise (points) | on: readings ≥ 0.1 |")
    print("|---|---|---|---|---|---|")
    lost, up, gained, both_met, missing = [], [], [], [], []
    for name, a in off.items():
        if name not in on:
            missing.append(name)
            continue
        b = on[name]
        sa, sb = a["summary"], b["summary"]
        fa, fb = figs(sa), figs(sb)
        rise = max((y - x) if math.isfinite(y) or math.isfinite(x) else 0.0
                   for x, y in zip(fa, fb, strict=True))  # fmt: skip
        ta, tb = targets(sa), targets(sb)
        if ta - tb:
            lost.append(name)
        if tb - ta:
            gained.append(name)
        if ta == {"I", "W"}:
            both_met.append(name)
        if rise > 1.0:
            up.append(name)
        carry = "; ".join(sb.get("carry", [])) if not sb.get("refused") else "refused"
        t = f"{''.join(sorted(ta)) or '-'} → {''.join(sorted(tb)) or '-'}"
        print(f"| {b.get('truth', name)} | {text(fa)} | {text(fb)} | {t} | {rise:+.2f} | {carry} |")
    print()
    n = len(off) - len(missing)
    print(f"truths compared: {n}; not in the on arm: {len(missing)} {missing or ''}")
    print(f"targets lost: {len(lost)} {lost or ''}")
    print(f"a figure up by > 1 point: {len(up)} {up or ''}")
    print(f"targets gained: {len(gained)} {gained or ''}")
    if fresh:
        ok = not up and not missing and (gained or len(both_met) == n)
        print(f"fresh clause: {'met' if ok else 'not met'}")
    else:
        ok = not lost and not up and not missing
        print(f"72 clause: {'met' if ok else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], "--fresh" in sys.argv[3:]))
