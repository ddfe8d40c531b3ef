"""Drive an already-built Dhara harness (dlbeer/dhara's FTL) with 4 KiB random writes per OP level.

    python bench/foreign/dhara.py --binary /work/foreign-build/dhara/dhara-harness --work DIR \
        [--log2-ppb 6] [--blocks 256] [--gc-ratio 4] [--extra-op 0,10,20,30,40] \
        [--drive-writes 12] [--seed 1] [--out bench/foreign/results/newftl2/dhara-a.json]

Dhara (Daniel Beer; ISC-style licence) is a NAND flash translation layer for small MCUs. Its
map (dhara/map.c) keeps every logical sector in one page of a circular journal
(dhara/journal.c); the sector-to-page map is a radix tree whose paths ride in each page's
metadata, and every 2^ppc pages of the journal end in a checkpoint page holding the group's
metadata (ppc 4 for 4 KiB pages: 15 user pages and one checkpoint page). A rewrite appends; GC
is the journal's tail: each step reads the tail page's metadata, copies the page to the head if
it still holds its sector's data, and drops it either way (oldest first, FIFO: there is no
victim choice). GC is paced: once the journal holds `capacity` pages, every write first runs
gc_ratio + 1 tail steps. The map's capacity (its advertised sectors) is the journal's user
pages less 1 / (gc_ratio + 1) of them and eight blocks (dhara_map_capacity). There is no time:
the FTL counts page writes only (WAF, no IOPS, no queue).

bench/foreign/dhara/build.sh compiles Dhara's files unmodified with this repository's harness
(bench/foreign/dhara/harness.c) over an in-memory NAND (bench/foreign/dhara/nand_ram.c: no bad
blocks, no failures; a copy counts as a program). For extra OP X% the writes go to the first
(100 - X)% of the map's capacity, uniformly at random (splitmix64 from --seed), from an empty
chip, in quarter-span steps; the series has one row per span write (WAF = NAND page programs /
host pages in it, checkpoint pages and GC copies included; `gc_runs` = blocks erased in it);
the steady figure is the last 8 rows' mean (calibrate's rule: within +-3% in range and trend).
FOB evidence: the first quarter span write from empty, with no page copied (checked). Dhara
erases each block just before its journal enters it, so blocks are erased in the FOB part too.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import common  # noqa: E402
from sssl_ftlsim import STEPS_PER_SPAN, rows_of, span_pages  # noqa: E402

PAGE_BYTES = 4096
REPOSITORY = "https://github.com/dlbeer/dhara"


def parse(output: str, where: str) -> tuple[dict, list[dict]]:
    """The harness's drive line and its steps; an ERROR line or no drive line raises."""
    lines = output.splitlines()
    errors = [x for x in lines if x.startswith("ERROR")]
    if errors:
        raise RuntimeError(f"Dhara failed {where}: {errors[0]}")
    rows = [json.loads(x) for x in lines if x.startswith("{")]
    if not rows or "map_capacity" not in rows[0]:
        raise RuntimeError(f"Dhara's harness printed no drive line {where}")
    return rows[0], rows[1:]


def harness(args, span: int, steps: int, step_writes: int, where: str) -> tuple[dict, list]:
    cmd = [str(args.binary), str(args.log2_ppb), str(args.blocks), str(args.gc_ratio),
           str(span), str(steps), str(step_writes), str(args.seed)]  # fmt: skip
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    args.work.mkdir(parents=True, exist_ok=True)
    (args.work / f"{where.replace(' ', '-')}.log").write_text(res.stdout + res.stderr)
    drive, out = parse(res.stdout, where)
    if res.returncode != 0 or len(out) != steps:
        raise RuntimeError(f"Dhara's harness stopped {where} (rc {res.returncode})")
    return drive, out


def level(extra_op: int, span: int, steps: list[dict]) -> dict:
    """One level's record from its quarter-span steps."""
    rows = rows_of(steps, span)
    rule = common.settle(rows, keys=("waf",)) | {"tolerance": common.WINDOW_TOLERANCE}
    first = steps[0]
    if first["copies"]:
        raise RuntimeError(f"Dhara copied pages in the FOB part at {extra_op}%")
    return {
        "extra_op_percent": extra_op,
        "queue_depth": 1,
        "span_pages": span,
        "drive_writes": rows[-1]["span_writes"],
        "steady_iops": None,
        "steady_waf": rule["waf_mean"],
        "fob_iops": None,
        "fob": {
            "span_writes": first["host_pages"] / span,
            "gc_copies": first["copies"],
            "waf": first["nand_pages"] / first["host_pages"],
        },
        "steady_window": common.steady_window(rows, rule),
        "series": rows,
        "journal_pages_end": steps[-1]["journal_pages"],
    }


def measure(args, capacity: int, extra_op: int) -> dict:
    t0 = time.monotonic()
    span = span_pages(capacity, extra_op)
    step = span // STEPS_PER_SPAN
    n_steps = round(args.drive_writes * STEPS_PER_SPAN)
    _, steps = harness(args, step * STEPS_PER_SPAN, n_steps, step, f"at {extra_op}%")
    return level(extra_op, step * STEPS_PER_SPAN, steps) | {"wall_s": time.monotonic() - t0}


def document(args, drive: dict, argv: list[str]) -> dict:
    pages = drive["physical_pages"]
    return {
        "simulator": "Dhara",
        "drive": f"{args.blocks} blocks x {1 << args.log2_ppb} pages, gc_ratio {args.gc_ratio}",
        "repository": REPOSITORY,
        **common.provenance(args.binary, "dhara.py", argv),
        "hardware": "2-core x86_64 VM; counted page writes (host speed does not change them)",
        "patch": None,
        "measures": ["waf"],
        "extra_op_definition": "native spare kept; the workload's addresses are the first "
        "(100 - X)% of the map's capacity (dhara_map_capacity, its advertised sectors)",
        "advertised_bytes": drive["map_capacity"] * PAGE_BYTES,
        "physical_bytes": pages * PAGE_BYTES,
        "config": {
            "blocks": args.blocks,
            "pages_per_block": 1 << args.log2_ppb,
            "page_bytes": PAGE_BYTES,
            "gc_ratio": args.gc_ratio,
            "journal_capacity_pages": drive["journal_capacity"],
            "map_capacity_sectors": drive["map_capacity"],
            "checkpoint_pages": 1 << drive["log2_ppc"],
            "gc": "FIFO: the journal's tail page copied to its head when still current, "
            f"gc_ratio + 1 = {args.gc_ratio + 1} tail steps before each write once the journal "
            f"holds {drive['map_capacity']} pages",
            "preconditioning": "none: every run starts from an empty (erased) chip",
            "timing": "none: Dhara counts page writes only (no IOPS, no queue)",
        },
        "workload": "uniform random single-sector (4 KiB) writes over the span, splitmix64 "
        f"seeded {args.seed} (the same sequence every level); one write at a time (queue_depth "
        "1: the FTL has no queue)",
        "drive_writes": args.drive_writes,
        "levels": [],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", type=Path, required=True, help="build.sh's dhara-harness")
    ap.add_argument("--work", type=Path, required=True, help="folder for the runs' logs")
    ap.add_argument("--log2-ppb", type=int, default=6, help="log2 of pages a block")
    ap.add_argument("--blocks", type=int, default=256)
    ap.add_argument("--gc-ratio", type=int, default=4, help="Dhara's gc_ratio (1..255)")
    ap.add_argument("--extra-op", default="0,10,20,30,40")
    ap.add_argument("--drive-writes", type=float, default=12.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    drive, _ = harness(args, 0, 0, 0, "probe")
    doc = document(args, drive, sys.argv[1:] if argv is None else argv)
    commit = args.binary.resolve().parent / "COMMIT"
    if commit.exists():
        doc["commit"] = commit.read_text().strip()
    label = f"Dhara {args.blocks}x{1 << args.log2_ppb} gc_ratio {args.gc_ratio}"
    measure_at = lambda x: measure(args, drive["map_capacity"], x)  # noqa: E731
    common.run_waf_levels(doc, args.extra_op, measure_at, label, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
