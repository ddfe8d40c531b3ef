"""Split the twin's IOPS gap on SSDsim's skewed truths into a WAF part and a time-per-write part.

    python bench/foreign/results/hotcold/split_gap.py
        [--cases bench/foreign/results/zonescatter/cases.jsonl]

Reads the stored cases (no simulation). For each drive, workload and extra OP (scattered zones)
it takes the twin's five readings' predicted (WAF, IOPS) pairs, fits the twin's own cost line
1/IOPS = a + b * WAF over them (least squares), and reads that line at SSDsim's measured WAF:
the IOPS the twin gives at SSDsim's WAF. Then the greedy-gc-mixed reading's IOPS error splits
into  WAF part = IOPS(line at twin's WAF) / IOPS(line at SSDsim's WAF)  and
time part = IOPS(line at SSDsim's WAF) / measured IOPS  (time per host write at the same WAF).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

READINGS = ("greedy-gc-mixed", "greedy", "fifo", "cost-benefit", "greedy-zones")


def cases_by_point(path: Path) -> dict:
    points: dict = defaultdict(dict)
    for line in path.read_text().splitlines():
        r = json.loads(line)
        if r["layout"] != "scattered" or r["part"] not in ("judged", "others"):
            continue
        reading = "greedy-gc-mixed" if r["prediction"] == "P1" else r["prediction"]
        if reading not in READINGS:
            continue
        key = (r["drive"], r["workload"], r["extra_op_percent"])
        points[key].setdefault(reading, {})[r["kind"]] = r["predicted"]
        points[key].setdefault("measured", {})[r["kind"]] = r["measured"]
    return points


def cost_line(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """Least-squares a, b of 1/IOPS = a + b * WAF over (WAF, IOPS) pairs."""
    xs = [w for w, _ in pairs]
    ys = [1.0 / i for _, i in pairs]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    return my - b * mx, b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=Path,
                    default=Path("bench/foreign/results/zonescatter/cases.jsonl"))  # fmt: skip
    args = ap.parse_args()
    print("| drive | workload | extra OP | SSDsim WAF | twin WAF (gc-mixed) | IOPS error | "
          "WAF part | time part | fifo WAF / IOPS error | line's worst misfit |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (drive, workload, op), p in sorted(cases_by_point(args.cases).items()):
        if any(r not in p or len(p[r]) < 2 for r in READINGS):
            continue
        pairs = [(p[r]["waf"], p[r]["iops"]) for r in READINGS]
        a, b = cost_line(pairs)
        misfit = max(abs((a + b * w) * i - 1) for w, i in pairs)
        m, t = p["measured"], p["greedy-gc-mixed"]
        at_truth_waf = 1.0 / (a + b * m["waf"])
        at_twin_waf = 1.0 / (a + b * t["waf"])
        f = p["fifo"]
        print(
            f"| {drive} | {workload} | {op:.0f}% | {m['waf']:.3f} | {t['waf']:.3f} | "
            f"{t['iops'] / m['iops'] - 1:+.1%} | {at_twin_waf / at_truth_waf - 1:+.1%} | "
            f"{at_truth_waf / m['iops'] - 1:+.1%} | {f['waf'] / m['waf'] - 1:+.1%} / "
            f"{f['iops'] / m['iops'] - 1:+.1%} | {misfit:.1%} |"
        )


if __name__ == "__main__":
    main()
