"""The core's per-write GC trigger against the independent reference greedy (RULE.md here).

    PYTHONPATH=python python bench/foreign/results/gctrigger/per_write_check.py [--out DIR]

Runs overprov's core on SSDsim drive j's geometry as bench/foreign/results/hotcold/twin.log runs
the twin (greedy, GC into the host's frontier, `gc_free_blocks` 64), with `ftl.gc_trigger`
per-write (judged) and batched (seen), over six cases; reads the reference's per-write figures
from bench/foreign/results/hotcold/reference.log (reference_greedy.py, not re-run) and SSDsim's
from bench/foreign/results/hotcold/diagnosis.md's table. Writes its table and verdict (as
bench/foreign/results/gctrigger/check.md and .json by default).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from overprov import engine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
HOTCOLD = HERE.parent / "hotcold"
DIAGNOSIS = ROOT / "bench/foreign/results/hotcold/diagnosis.md"
sys.path.insert(0, str(HERE.parents[2]))
from cpu_clock import cpu_s  # noqa: E402  (bench/)

TOLERANCE = 0.02
ZONES = {"pattern": "zoned", "zones_scattered": True,
         "zones": [{"access_percent": 10.0, "space_percent": 90.0},
                   {"access_percent": 90.0, "space_percent": 10.0}]}  # fmt: skip
WORKLOADS = {"zones": ZONES, "zipf": {"pattern": "zipf", "zipf_theta": 0.8},
             "uniform": {"pattern": "uniform"}}  # fmt: skip
#: (workload, extra OP %, the row of the diagnosis' table that holds SSDsim's figure)
CASES = (("zones", 0, "zones 0.9/0.1"), ("zones", 20, "zones 0.9/0.1"),
         ("zones", 40, "zones 0.9/0.1"), ("zipf", 20, "Zipf 0.8"), ("uniform", 0, "uniform"),
         ("uniform", 40, "uniform"))  # fmt: skip


def reference_waf(pattern: str, extra_op: int) -> float:
    """reference_greedy.py's per-write figure (one plane, lowest-index ties) in reference.log."""
    line = re.compile(rf"^{extra_op}% planes 1 {pattern} ties index trigger write: WAF ([\d.]+)")
    for text in (HOTCOLD / "reference.log").read_text().splitlines():
        if m := line.match(text):
            return float(m[1])
    raise LookupError(f"no reference figure for {pattern} at {extra_op}%")


def ssdsim_waf(row: str, extra_op: int) -> float:
    """SSDsim's WAF in the diagnosis' table (its 'SSDsim' column)."""
    for text in DIAGNOSIS.read_text().splitlines():
        cells = [c.strip() for c in text.strip("|").split("|")]
        if len(cells) > 3 and cells[0].startswith(row) and cells[1] == f"{extra_op}%":
            return float(cells[2])
    raise LookupError(f"no SSDsim figure for {row} at {extra_op}%")


def core_waf(pattern: str, extra_op: int, trigger: str) -> dict:
    config = engine.merge(engine.default_config(), {
        "geometry": {"pages_per_block": 64, "physical_blocks": 1280,
                     "advertised_bytes": 285_212_672, "extra_op_percent": float(extra_op)},
        "ftl": {"policy": "greedy", "gc_frontier": "shared", "host_streams": "single",
                "gc_free_blocks": 64, "gc_trigger": trigger},
        "workload": WORKLOADS[pattern],
        "precondition": {"kind": "sequential"},
        "run": {"warmup_drive_writes": 8.0, "drive_writes": 8.0, "seed": 3303},
    })  # fmt: skip
    start = cpu_s()
    report = engine.run(config)
    m = report["measured"]
    return {"waf": m["waf"], "user_pages": report["geometry"]["user_pages"],
            "cpu_s": round(cpu_s() - start, 2)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args()
    rows = []
    for pattern, extra_op, row in CASES:
        ref = reference_waf(pattern, extra_op)
        per_write = core_waf(pattern, extra_op, "per-write")
        batched = core_waf(pattern, extra_op, "batched")
        diff = per_write["waf"] / ref - 1
        rows.append({"workload": pattern, "extra_op_percent": extra_op, "reference_waf": ref,
                     "ssdsim_waf": ssdsim_waf(row, extra_op), "per_write": per_write,
                     "batched": batched, "diff": diff, "pass": abs(diff) <= TOLERANCE})  # fmt: skip
        print(f"{pattern} {extra_op}%: reference {ref:.3f}, per-write {per_write['waf']:.3f} "
              f"({diff:+.2%}), batched {batched['waf']:.3f}", flush=True)  # fmt: skip
    verdict = all(r["pass"] for r in rows)
    doc = {"rule": "RULE.md", "tolerance": TOLERANCE, "adopted": verdict, "cases": rows}
    (args.out / "check.json").write_text(json.dumps(doc, indent=1) + "\n")
    lines = ["| workload | extra OP | reference (per-write) | core per-write | diff | within 2% "
             "| SSDsim (seen) | per-write vs SSDsim | core batched (seen) | batched vs SSDsim |",
             "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        pw, bt, s = r["per_write"]["waf"], r["batched"]["waf"], r["ssdsim_waf"]
        lines.append(f"| {r['workload']} | {r['extra_op_percent']}% | {r['reference_waf']:.3f} "
                     f"| {pw:.3f} | {r['diff']:+.1%} | {'yes' if r['pass'] else 'no'} "
                     f"| {s:.3f} | {pw / s - 1:+.1%} | {bt:.3f} | {bt / s - 1:+.1%} |")  # fmt: skip
    lines.append(f"\nRule (RULE.md): {'met' if verdict else 'not met'}.")
    (args.out / "check.md").write_text("\n".join(lines) + "\n")
    print(f"rule {'met' if verdict else 'not met'}")


if __name__ == "__main__":
    main()
