"""The default path's speed before and after `timing.gc.relocations_at_trigger` existed: CPU
seconds of the same runs with two builds of the core, alternating (the option off in both).

    python bench/foreign/results/mqsched/speed.py BEFORE_PYTHONPATH AFTER_PYTHONPATH [N]

Each PYTHONPATH is a copy of ``python/`` holding one build's ``overprov/_core.abi3.so``. Two
runs, each in a fresh child process timed by its own CPU clock (bench/cpu_clock.py): MQSim's
two-plane twin with per-plane pools at 0%, QD32 (``mqsim_pairing.twin_config``, 512 × 32, 20
measured drive writes: the blocking-GC path the option sits on), and the default drive timed
(no blocking GC, 10 drive writes).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3]
CHILD = f"""
import sys
sys.path[:0] = [{str(BENCH)!r}, {str(BENCH / "foreign")!r}]
from cpu_clock import cpu_s
from overprov import engine
import mqsim_pairing
case = sys.argv[1]
if case == "mqsim-twin":
    cfg = mqsim_pairing.twin_config(512, 32, 0, 32, 2, -1, "victim", False, True)
    cfg = engine.merge(cfg, {{"run": {{"drive_writes": 20.0}}}})
else:
    cfg = engine.merge(engine.default_config(), {{"timing": {{"enabled": True}},
                       "run": {{"warmup_drive_writes": 1.0, "drive_writes": 10.0}}}})
c0 = cpu_s()
r = engine.run(cfg)
print(cpu_s() - c0, r["measured"]["waf"])
"""


def one(pythonpath: str, case: str) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, case], capture_output=True, text=True,
                         env={"PYTHONPATH": pythonpath}, check=True).stdout.split()  # fmt: skip
    return float(out[0]), float(out[1])


def main() -> int:
    before, after = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    doc = {}
    for case in ("mqsim-twin", "default-timed"):
        runs = {"before": [], "after": []}
        wafs = set()
        for _ in range(n):
            for k, p in (("before", before), ("after", after)):
                cpu, waf = one(p, case)
                runs[k].append(round(cpu, 3))
                wafs.add(waf)
        doc[case] = {**runs, "median_before": statistics.median(runs["before"]),
                     "median_after": statistics.median(runs["after"]),
                     "same_waf": len(wafs) == 1}  # fmt: skip
    print(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
