"""Diagnosis only (PLAN.md): the spread of the 0% level's burst-cycle reading, old (the stored
default measurements, overrunning rounds) and new (the fixed harness), both against the settled
truth's 0% WAF: femularge's zero_cycle.py part 1 (its stretch, sinusoid and F) on each folder.

    PYTHONPATH=python python bench/foreign/results/femufix/zero_spread.py \
        > bench/foreign/results/femufix/zero_spread.txt
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

R = Path("bench/foreign/results/femufix")


zero_cycle = load_script("zero_cycle", "bench/foreign/results/femularge/zero_cycle.py")
judge = load_script("femufix_judge", str(R / "judge.py"))


def reading(folder: Path, truth: float) -> dict | None:
    """The stretch's rounds, periods, largest round's share, F, and the 0% WAF errors: plain,
    through the cycle, and through it with each round left out (min, max)."""
    got = zero_cycle.stretch_rounds(folder)
    if got is None:
        return None
    spans, wafs = got
    length = spans[-1][1] - spans[0][0]
    plain = sum(w * (b - a) for w, (a, b) in zip(wafs, spans, strict=True)) / length
    waf = zero_cycle.cycle_waf(spans, wafs)
    left = [zero_cycle.cycle_waf(spans[:i] + spans[i + 1 :], wafs[:i] + wafs[i + 1 :])
            for i in range(len(spans))]  # fmt: skip
    return {"rounds": len(spans), "periods": length * waf,
            "share": max(b - a for a, b in spans) / length,
            "f": zero_cycle.variance_ratio(spans, wafs, waf), "plain": plain / truth - 1,
            "cycle": waf / truth - 1, "lo": min(left) / truth - 1,
            "hi": max(left) / truth - 1}  # fmt: skip


def main() -> None:
    print("| drive | arm | rounds | periods | largest round | F | plain | cycle | one left out |")
    print("|---|---|---|---|---|---|---|---|---|")
    summary: dict[str, dict[str, list[float]]] = {}
    for name, (old, _, settled, _) in judge.DRIVES.items():
        if not (R / name / "run.json").exists() or not settled.exists():
            continue
        truth = json.loads(settled.read_text())["levels"][0]["steady_waf"]
        for arm, folder in (("old", old), ("new", R / name)):
            r = reading(folder, truth)
            if r is None:
                print(f"| {name} | {arm} | no stretch (onset at or above 1) ||||||")
                continue
            s = summary.setdefault(arm, {"cycle": [], "plain": [], "width": [], "share": []})
            s["cycle"].append(abs(r["cycle"]))
            s["plain"].append(abs(r["plain"]))
            s["width"].append(r["hi"] - r["lo"])
            s["share"].append(r["share"])
            print(f"| {name} | {arm} | {r['rounds']} | {r['periods']:.2f} | {r['share']:.2f} | "
                  f"{r['f']:.1f} | {r['plain']:+.1%} | {r['cycle']:+.1%} | "
                  f"{r['lo']:+.1%} .. {r['hi']:+.1%} |")  # fmt: skip
    for arm, s in summary.items():
        print(f"# {arm} ({len(s['cycle'])} stretches): |0% WAF error| through the cycle median "
              f"{statistics.median(s['cycle']):.1%}, worst {max(s['cycle']):.1%}; plain median "
              f"{statistics.median(s['plain']):.1%}, worst {max(s['plain']):.1%}; leave-one-out "
              f"range median {statistics.median(s['width']):.1%}, widest {max(s['width']):.1%}; "
              f"largest round's share median {statistics.median(s['share']):.2f}, "
              f"most {max(s['share']):.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
