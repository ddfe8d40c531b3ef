"""Parallel sweep benchmark: a 7-point OP sweep with ``--jobs 2`` against
``--jobs 1``, wall-clock seconds of the whole sweep as a user sees it, through
``overprov.sweep.run_points`` (the function ``overprov simulate`` calls).

The sweep: the demo drive's extra OP 0, 10, …, 60 % (16 GB sold on 16 GiB of NAND, greedy GC,
256 pages per block, uniform random 4 KiB writes after a sequential fill, warm-up 2 and 2
measured drive writes, seed 1). The machine is shared, so the settings are run in turns, in
ABBA order (round 1: jobs 1 then jobs 2; round 2: jobs 2 then jobs 1; …) ``--rounds`` times,
and the median of the per-round ratios is reported with their spread; every round also checks
that the settings gave the same reports (wall-clock fields aside).

Also recorded per run: the CPU seconds the sweep used (this process and its waited-for
children, ``getrusage``) and so the cores it got on average (CPU / wall): on a machine shared
with other users' processes, Linux's autogroup scheduler gives each autogroup (one `setsid`
session) its share of the cores however many threads it runs, and this says whether
``--jobs 2`` got a second core at all.
From the serial runs' per-point wall seconds it prints the best a 2-worker schedule of these 7
unequal points could do (longest first: the sum over the makespan), the bound on the speed-up.

``--with-processes`` adds a third setting, the same 2-way sweep on a spawned process pool
(as ``overprov.sweep`` ran local points before it used threads), to compare the two.

Usage: python bench/sweep_bench.py [--rounds 5] [--with-processes]
           [--out target/bench/sweep_bench.json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import time
from pathlib import Path
from typing import Any

from cpu_clock import cpu_s
from overprov import sweep
from overprov.simulate.cli import demo_configs


def run_processes(configs: list[dict], jobs: int) -> list[dict]:
    """The sweep on a spawned pool of ``jobs`` processes, costliest first, reports in order."""
    texts = [json.dumps(c) for c in configs]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(processes=jobs) as pool:
        pending = {i: pool.apply_async(sweep.run_point_json, (texts[i],))
                   for i in sweep.longest_first(configs)}  # fmt: skip
        return [json.loads(pending[i].get()) for i in range(len(configs))]


def timed_sweep(configs: list[dict], setting: str) -> tuple[float, float, list[dict]]:
    """(wall seconds, CPU seconds, reports) of one sweep."""
    cpu, started = cpu_s(), time.perf_counter()
    if setting == "processes-2":
        reports = run_processes(configs, 2)
    else:
        reports = sweep.run_points(configs, jobs=int(setting.removeprefix("jobs-")))
    return time.perf_counter() - started, cpu_s() - cpu, reports


def lpt_bound(point_seconds: list[float], workers: int = 2) -> float:
    """Serial time over the makespan of the points on ``workers``, costliest first."""
    loads = [0.0] * workers
    for t in sorted(point_seconds, reverse=True):
        loads[loads.index(min(loads))] += t
    return sum(point_seconds) / max(loads)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--with-processes", action="store_true")
    ap.add_argument("--out", default="target/bench/sweep_bench.json")
    args = ap.parse_args()
    configs = demo_configs()
    settings = ["jobs-1", "jobs-2"] + (["processes-2"] if args.with_processes else [])
    wall: dict[str, list[float]] = {s: [] for s in settings}
    cpu: dict[str, list[float]] = {s: [] for s in settings}
    loads: list[float] = []
    bounds: list[float] = []
    for r in range(args.rounds):
        figures = {}
        for setting in settings if r % 2 == 0 else list(reversed(settings)):
            loads.append(os.getloadavg()[0])
            w, c, reports = timed_sweep(configs, setting)
            wall[setting].append(w)
            cpu[setting].append(c)
            figures[setting] = [sweep.without_wall_clock(x) for x in reports]
            if setting == "jobs-1":
                bounds.append(lpt_bound([x["wall_seconds"] for x in reports]))
            print(f"round {r + 1}: {setting}: {w:.2f} s wall, {c:.2f} s CPU "
                  f"({c / w:.2f} cores)", flush=True)  # fmt: skip
        if any(f != figures["jobs-1"] for f in figures.values()):
            raise SystemExit("the settings gave different reports")
    summary: dict[str, Any] = {"points": len(configs), "settings": {}}
    for s in settings:
        ratios = [a / b for a, b in zip(wall["jobs-1"], wall[s], strict=True)]
        cores = [c / w for c, w in zip(cpu[s], wall[s], strict=True)]
        summary["settings"][s] = {
            "wall_seconds": wall[s],
            "cpu_seconds": cpu[s],
            "median_wall_seconds": statistics.median(wall[s]),
            "speedup_per_round": ratios,
            "speedup_median_of_rounds": statistics.median(ratios),
            "cores_used_per_round": cores,
        }
        print(
            f"{s}: median {statistics.median(wall[s]):.2f} s wall; speed-up over jobs-1: "
            f"median {statistics.median(ratios):.2f}x, spread {min(ratios):.2f}-"
            f"{max(ratios):.2f}x; cores used {min(cores):.2f}-{max(cores):.2f}"
        )
    summary["lpt_bound_per_round"] = bounds
    summary["load_average_1min"] = loads
    print(
        f"bound of a 2-worker schedule of these points: "
        f"{', '.join(f'{x:.2f}' for x in bounds)}x; 1-min load average before each run: "
        f"{', '.join(f'{x:.1f}' for x in loads)}; cores available: {sweep.default_jobs()}"
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
