"""How exact a scaled drive's WAF is: full-size runs against the same drive scaled by the one
scaling rule (overprov.scaled_drive.scale_config), per workload class. The table in
docs/scale.md and overprov.scaled_drive.MEASURED_WAF_ERROR_PERCENT come from this script.

Full size: 128 GiB of NAND sold as 128 GB (7.37 % native OP), extra OP 0 and 20 %, greedy GC,
256 pages per block, 4 KiB writes after a sequential fill, the simulate defaults of warm-up 2 and
4 measured drive writes, seed 1. Scaled: the same configs at 32 GiB (the default scaled size,
1/4), 8 GiB (1/16) and 2 GiB (1/64) of NAND. The noise column is the WAF difference between
seeds 1 and 2 at 32 GiB: the part of the error that no size removes.

Usage: python bench/scale_error.py [--jobs N] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import time

from overprov import engine, sweep
from overprov.scaled_drive import GIB, scale_config

FULL_PHYSICAL_BYTES = 128 * GIB
WORKLOADS = {
    "uniform": {"pattern": "uniform"},
    "hot-cold": {"pattern": "hot-cold", "hot_access_percent": 80.0, "hot_space_percent": 20.0},
    "zipf": {"pattern": "zipf", "zipf_theta": 0.99},
    "jesd219": {"pattern": "jesd219"},
}
EXTRA_OP = (0.0, 20.0)
SCALED_GIB = (32, 8, 2)


def full_config(workload: dict, extra_op: float, seed: int = 1) -> dict:
    return {
        "geometry": {
            "physical_bytes": FULL_PHYSICAL_BYTES,
            "advertised_bytes": 128_000_000_000,
            "extra_op_percent": extra_op,
            "pages_per_block": 256,
        },
        "workload": workload,
        "run": {"warmup_drive_writes": 2.0, "drive_writes": 4.0, "seed": seed},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--out", default="target/bench/scale_error.json")
    args = ap.parse_args()
    points: list[tuple[str, float, str, dict]] = []
    for name, w in WORKLOADS.items():
        for x in EXTRA_OP:
            cfg = full_config(w, x)
            points.append((name, x, "full", cfg))
            for gib in SCALED_GIB:
                factor = gib * GIB / FULL_PHYSICAL_BYTES
                points.append((name, x, f"{gib}GiB", scale_config(cfg, factor)))
            noise = scale_config(full_config(w, x, seed=2), 32 * GIB / FULL_PHYSICAL_BYTES)
            points.append((name, x, "32GiB-seed2", noise))
    for *_, cfg in points:
        engine.validate(cfg)
    started = time.perf_counter()
    reports = sweep.run_points([p[3] for p in points], jobs=args.jobs, progress=True)
    wall = time.perf_counter() - started
    waf: dict[tuple[str, float, str], float] = {}
    rows = []
    if reports.interrupted:
        raise SystemExit(f"interrupted: {len(reports)} of {len(points)} runs finished")
    for (name, x, size, _), rep in zip(points, reports, strict=True):
        waf[(name, x, size)] = rep["measured"]["waf"]
        rows.append(
            {
                "workload": name,
                "extra_op_percent": x,
                "size": size,
                "user_pages": rep["geometry"]["user_pages"],
                "rho": rep["geometry"]["rho"],
                "waf": rep["measured"]["waf"],
                "wall_seconds": rep["wall_seconds"],
            }
        )
    print(f"\n{len(points)} runs in {wall:.0f} s wall\n")
    print(
        "| workload | extra OP | ρ | WAF full (128 GiB) | 32 GiB | 8 GiB | 2 GiB "
        "| seed noise at 32 GiB |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in WORKLOADS:
        for x in EXTRA_OP:
            full = waf[(name, x, "full")]
            rho = next(
                r["rho"]
                for r in rows
                if r["workload"] == name and r["size"] == "full" and r["extra_op_percent"] == x
            )
            cells = []
            for gib in SCALED_GIB:
                w = waf[(name, x, f"{gib}GiB")]
                cells.append(f"{w:.3f} ({(w - full) / full * 100:+.2f} %)")
            noise = waf[(name, x, "32GiB-seed2")] - waf[(name, x, "32GiB")]
            print(
                f"| {name} | {x:g} % | {rho:.4f} | {full:.3f} | {' | '.join(cells)} | "
                f"{noise / full * 100:+.2f} % |"
            )
    with open(args.out, "w") as fh:
        json.dump({"rows": rows, "wall_seconds": wall}, fh, indent=1)
    print(f"\nraw figures: {args.out}")


if __name__ == "__main__":
    main()
