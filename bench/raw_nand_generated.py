"""Generated drives as raw-NAND truths: each seed's drive (``calibrate.validation.drive``)
measured the long way (``validation.truth``) at 0, 10, 20, 30 and 40% extra OP, written as a
curve ``bench/raw_nand_bench.py`` reads like a foreign FTL's (steady IOPS and WAF per level at
the measurement's queue depth, the 0% level's FOB IOPS when the measurement has it), with the
drive's raw NAND (its physical bytes) and its user capacity, both at full size. A level whose
truth did not settle is no truth: it is kept under ``unsettled_levels``, out of the curve.

    PYTHONPATH=python python bench/raw_nand_generated.py --seeds 7001-7004 \\
        --physical 2GiB --out bench/raw_nand/generated

docs/calibrate-validation.md, "The raw NAND given needs evidence, not any preference".
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from overprov.calibrate import validation
from overprov.units import parse_size

LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]


def seeds_of(text: str) -> list[int]:
    """``7001-7004`` or ``7001,7003``: the seeds."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def curve(seed: int, physical_bytes: float, folder: Path) -> dict:
    """Seed ``seed``'s truth at :data:`LEVELS` as a foreign curve (module doc)."""
    d = validation.drive(seed)
    path = validation.write_drive(seed, folder)
    spec = f"sim:{path}@{validation.scale_for(d, physical_bytes)}"
    t0 = time.monotonic()
    m = validation.truth(spec, LEVELS)
    levels = []
    for lv in m.levels:
        row = {"extra_op_percent": lv.extra_op_percent, "queue_depth": lv.queue_depth or m.qd,
               "steady_iops": lv.steady_iops, "steady_waf": lv.waf, "settled": lv.settled,
               "drive_writes": lv.drive_writes}  # fmt: skip
        if lv.extra_op_percent == 0 and m.fob_iops:
            row["fob_iops"] = m.fob_iops
        levels.append(row)
    return {
        "simulator": f"overprov generated drive {seed}",
        "drive": f"seed {seed} (calibrate.validation.drive) at scale {spec.rsplit('@')[1]}",
        "advertised_bytes": int(d["advertised_bytes"]),
        "physical_bytes": int(d["physical_bytes"]),
        "levels": [r for r in levels if r["settled"]],
        "unsettled_levels": [r for r in levels if not r["settled"]],
        "truth": "validation.truth: one drive, one fill, levels lowest first, each until its "
        "last 10 rounds agree within ±2%",
        "wall_s": time.monotonic() - t0,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--physical", default="2GiB", help="NAND each drive is simulated at")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="overprov-raw-nand-gen-") as tmp:
        for seed in seeds_of(args.seeds):
            before = resource.getrusage(resource.RUSAGE_SELF)
            doc = curve(seed, parse_size(args.physical), Path(tmp))
            after = resource.getrusage(resource.RUSAGE_SELF)
            doc["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            (args.out / f"generated-{seed}.json").write_text(json.dumps(doc, indent=1) + "\n")
            print(f"seed {seed}: {doc['cpu_s']:.0f} CPU s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
