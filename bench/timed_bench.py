"""Timed-mode benchmark (make bench): simulated host I/Os per wall-clock second, QD32, on the
consumer-tlc-sata preset scaled to 32 GiB, and the same drive at full size (1 TB) against the
scaled one: WAF, steady IOPS and the IOPS curve against drive writes.

Usage: python bench/timed_bench.py [--full] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import resource
import time

from overprov import engine, presets

PRESET = "consumer-tlc-sata"


def run(scale: str, extra_op: float, drive_writes: float, precondition: str, interval_s: float):
    cfg, factor = presets.preset_config(PRESET, scale)
    cfg = engine.merge(
        cfg,
        {
            "geometry": {"extra_op_percent": extra_op},
            "precondition": {"kind": precondition},
            "timing": {"interval_s": interval_s},
            "run": {"warmup_drive_writes": 0, "drive_writes": drive_writes},
        },
    )
    t0, c0 = time.perf_counter(), time.process_time()
    rep = engine.run(cfg)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return rep, factor, wall, cpu


def curve(rep, points=(0.5, 1.0, 1.5, 2.0, 2.5, 2.9)):
    rows = rep["timed"]["intervals"]
    out = {}
    for dw in points:
        near = [i["iops"] for i in rows if abs(i["drive_writes_total"] - dw) < 0.05]
        out[dw] = sum(near) / len(near)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--full", action="store_true", help="also run the 1 TB drive (minutes)")
    ap.add_argument("--out")
    args = ap.parse_args()
    results: dict = {}

    rep, factor, wall, cpu = run("32GiB", 0.0, 4.0, "none", 1.0)
    t = rep["timed"]
    rate = t["ios"] / wall
    print(
        f"timed mode, {PRESET} scaled to 32 GiB (factor {factor:.4f}), QD32, write saturation "
        f"from fresh, 4 drive writes:"
    )
    print(
        f"  {t['ios']:,} simulated I/Os in {wall:.2f} s wall = {rate / 1e6:.2f} M I/Os per "
        f"second ({t['ios'] / cpu / 1e6:.2f} M per CPU second: {cpu:.2f} s of CPU, so on a shared "
        f"machine the wall figure counts time other jobs held the core); "
        f"{t['simulated_s']:.0f} s simulated; steady IOPS "
        f"{'not reached' if t['steady_iops'] is None else format(t['steady_iops'], ',.0f')}"
    )
    results["timed_32gib"] = {
        "ios": t["ios"],
        "wall_s": wall,
        "ios_per_wall_s": rate,
        "cpu_s": cpu,
        "ios_per_cpu_s": t["ios"] / cpu,
        "simulated_s": t["simulated_s"],
    }

    if args.full:
        cmp = {}
        for scale, interval in (("32GiB", 1.0), ("1", 32.0)):
            rep, factor, wall, _ = run(scale, 20.0, 3.0, "sequential", interval)
            cmp[scale] = (rep, factor, wall)
            print(
                f"  scale {scale:>5} (factor {factor:.4f}, {rep['geometry']['blocks']:,} blocks): "
                f"WAF {rep['measured']['waf']:.4f}, steady {rep['timed']['steady_iops']:,.0f} "
                f"IOPS, {wall:.1f} s wall, peak RSS "
                f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"
            )
        small, big = cmp["32GiB"][0], cmp["1"][0]
        cs, cb = curve(small), curve(big)
        print("  IOPS against drive writes (scaled / full size):")
        for dw in cs:
            print(
                f"    {dw:>4} DW: {cs[dw]:>9,.0f} / {cb[dw]:>9,.0f}  "
                f"{(cs[dw] / cb[dw] - 1) * 100:+.2f}%"
            )
        results["scaled_vs_full"] = {
            "waf": [small["measured"]["waf"], big["measured"]["waf"]],
            "steady_iops": [small["timed"]["steady_iops"], big["timed"]["steady_iops"]],
            "curve": {str(k): [cs[k], cb[k]] for k in cs},
        }
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
