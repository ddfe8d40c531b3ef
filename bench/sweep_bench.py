"""Parallel sweep benchmark (issue 18): a 7-point OP sweep with ``--jobs 2`` against
``--jobs 1``, wall-clock seconds of the whole sweep as a user sees it, through
``overprov.sweep.run_points`` (the function ``overprov simulate`` calls).

The sweep: the demo drive's extra OP 0, 10, …, 60 % (16 GB sold on 16 GiB of NAND, greedy GC,
256 pages per block, uniform random 4 KiB writes after a sequential fill, warm-up 2 and 2
measured drive writes, seed 1). The machine is shared, so the two settings are run in turns,
in ABBA order (round 1: jobs 1 then jobs 2; round 2: jobs 2 then jobs 1; …) ``--rounds``
times, and the median of the per-round ratios is reported with their spread; every round also
checks that both settings gave the same reports (wall-clock fields aside). From the serial
runs' per-point wall seconds it also prints the best a 2-worker schedule of these 7 unequal
points could do (longest first: the sum over the makespan), the bound on the speed-up.

Usage: python bench/sweep_bench.py [--rounds 5] [--out target/bench/sweep_bench.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from overprov import sweep
from overprov.simulate import demo_configs


def timed_sweep(configs: list[dict], jobs: int) -> tuple[float, list[dict]]:
    started = time.perf_counter()
    reports = sweep.run_points(configs, jobs=jobs)
    return time.perf_counter() - started, reports


def lpt_bound(point_seconds: list[float], workers: int = 2) -> float:
    """Serial time over the makespan of the points on ``workers``, costliest first."""
    loads = [0.0] * workers
    for t in sorted(point_seconds, reverse=True):
        loads[loads.index(min(loads))] += t
    return sum(point_seconds) / max(loads)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default="target/bench/sweep_bench.json")
    args = ap.parse_args()
    configs = demo_configs()
    seconds: dict[int, list[float]] = {1: [], 2: []}
    loads = []
    bounds = []
    for r in range(args.rounds):
        figures = {}
        for jobs in (1, 2) if r % 2 == 0 else (2, 1):
            loads.append(os.getloadavg()[0])
            wall, reports = timed_sweep(configs, jobs)
            seconds[jobs].append(wall)
            figures[jobs] = [sweep.without_wall_clock(x) for x in reports]
            if jobs == 1:
                bounds.append(lpt_bound([x["wall_seconds"] for x in reports]))
            print(f"round {r + 1}: --jobs {jobs}: {wall:.2f} s", flush=True)
        if figures[1] != figures[2]:
            raise SystemExit("--jobs 1 and --jobs 2 gave different reports")
    med = {j: statistics.median(v) for j, v in seconds.items()}
    per_round = [a / b for a, b in zip(seconds[1], seconds[2], strict=True)]
    speedup = statistics.median(per_round)
    print(
        f"median --jobs 1: {med[1]:.2f} s, --jobs 2: {med[2]:.2f} s; speed-up: median of the "
        f"rounds {speedup:.2f}x, spread {min(per_round):.2f}-{max(per_round):.2f}x (per round: "
        f"{', '.join(f'{x:.2f}' for x in per_round)}; target >= 1.8x); bound of a 2-worker "
        f"schedule of these points: {', '.join(f'{x:.2f}' for x in bounds)}x; "
        f"1-min load average before each run: {', '.join(f'{x:.1f}' for x in loads)}; "
        f"cores available: {sweep.default_jobs()}"
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "points": len(configs),
                "seconds": {str(k): v for k, v in seconds.items()},
                "median_seconds": {str(k): v for k, v in med.items()},
                "speedup_median_of_rounds": speedup,
                "speedup_per_round": per_round,
                "lpt_bound_per_round": bounds,
                "load_average_1min": loads,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
