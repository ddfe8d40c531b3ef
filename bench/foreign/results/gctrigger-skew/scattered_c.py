"""A diagnosis after the outcome (not the rule's): set C's drives h and i with the twin's zones
scattered as SSDsim's are, with and without the per-write reading.

    PYTHONPATH=python python bench/foreign/results/gctrigger-skew/scattered_c.py \
        [--memo FILE] [--out .../scattered-c.jsonl]

The rule's guard (b) runs set C as stored, its zones laid in LBA order; SSDsim's zones are
scattered (bench/foreign/results/zonescatter/). Here the same fit ("iops+waf"), weighing figure
and held-out figures, every zones workload ``zones_scattered``; then the guard's table for them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BENCH = HERE.parents[2]
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH / "foreign"))

import corpus_workload_victim as cwv  # noqa: E402
import gctrigger_skew_rule as rule  # noqa: E402
from twin_runs_memo import keep_runs  # noqa: E402


def scattered_truths(drive: str, folder: Path = cwv.SKEWFTL) -> dict[str, dict[str, Any]]:
    """``skewftl_truths`` with every zones workload scattered."""
    truths = _stored_truths(drive, folder)
    for t in truths.values():
        if "zones" in t["workload"]:
            t["workload"] = {**t["workload"], "zones_scattered": True}
    return truths


_stored_truths = cwv.skewftl_truths


def table(cases: list[dict[str, Any]]) -> str:
    lines = ["| drive | cases | with: median / worst | without: median / worst | worse "
             "(> 2 points) | largest weight |", "|---|---|---|---|---|---|"]  # fmt: skip
    for d in dict.fromkeys(c["drive"] for c in cases):
        mine = [c for c in cases if c["drive"] == d]
        lines.append(
            f"| {d} | {len(mine)} | {rule.pct(rule.med_worst([c['rel_error'] for c in mine]))} | "
            f"{rule.pct(rule.med_worst([rule.without(c) for c in mine]))} | "
            f"{len(rule.worse(mine))} | {rule.top_reading(mine[0])} |"
        )
    lines += ["", "| case | measured | with | without | alone |", "|---|---|---|---|---|"]
    for c in cases:
        alone = c.get("per_write_alone_rel_error")
        lines.append(f"| {c['drive']} {c['workload']} {c['extra_op_percent']:g}% {c['kind']} | "
                     f"{c['measured']:.4g} | {100 * c['rel_error']:+.1f}% | "
                     f"{100 * rule.without(c):+.1f}% | "
                     f"{'–' if alone is None else f'{100 * alone:+.1f}%'} |")  # fmt: skip
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memo", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=HERE / "scattered-c.jsonl")
    ap.add_argument("--judge", action="store_true", help="only the table of --out")
    args = ap.parse_args()
    if not args.judge:
        cwv.include_per_write()
        if args.memo is not None:
            keep_runs(args.memo)
        cwv.skewftl_truths = scattered_truths
        cases = []
        for d in cwv.SKEWFTL_DRIVES:  # set name "E": each case with the reading's own figure
            cases += [
                {**c, "set": "C, zones scattered"}
                for c in cwv.set_c(d, "iops+waf", 1, cwv.SKEWFTL, "E")
            ]
        args.out.write_text("".join(json.dumps(c, default=str) + "\n" for c in cases))
    cases = [json.loads(x) for x in args.out.read_text().splitlines() if x.strip()]
    print(table(cases))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
