"""Drive an already-built SSD-iq GC simulator (gabriel-haas/ssdiq-pub `sim/`) per OP level.

    python bench/foreign/ssdiq_sim.py --binary SIM --work DIR [--gc greedy|2r-greedy|2r-fifo]
        [--native-fill 0.9] [--extra-op 0,10,20,30,40] [--drive-writes 16] [--capacity 2G]
        [--erase 1M] [--pattern uniform | --pattern zones --zones "s0.9 f0.1 uniform s0.1 f0.9
        uniform"] [--out bench/foreign/results/ssdiq-sim/GC.json]

The SSD-iq GC simulator (Haas, Lee, Bonnet, Leis, "SSD-iq: Uncovering the Hidden Side of SSD
Performance", PVLDB 18, 2025; github.com/gabriel-haas/ssdiq-pub, `sim/`) is a page-mapped FTL
that counts page writes only: WAF, no time, no queue. One pool of erase blocks with one write
frontier; when the frontier's block is full and no block is free, one victim is collected:
greedy (the full block with the fewest valid pages, compacted in place: its valid pages moved
to its front, the rest of it the next frontier; no free-block reserve) or its "2R" policies
(`2r-greedy`, `2r-fifo`: blocks written by GC kept apart as a cold region; victims chosen
greedily from whichever region holds the fewer valid pages, or by a FIFO scan with a
utilisation threshold; several victims compacted until one block is free). SIM is the binary
built from the repository (bench/foreign/README.md, "SSD-iq's GC simulator"); nothing of it is
held here.

The drive: CAPACITY bytes of NAND in ERASE-byte blocks of 4 KiB pages; SSDFILL, the simulator's
one knob of spare space, is the share of the NAND that is user space (logical pages =
NAND pages × SSDFILL). The native drive is --native-fill f₀ (its spare (1 − f₀)/f₀ of the user
space); extra OP X% is the host writing only (100 − X)% of that user space, the rest never
written (trimmed), which in this simulator is the drive with SSDFILL = f₀ × (100 − X)/100: the
pages the host never writes are pages the map never holds. `advertised_bytes` is the native
drive's user space, `physical_bytes` the NAND.

Each case is one run of the simulator as its README runs it (`CAPACITY=.. ERASE=.. PAGE=4K
SSDFILL=.. PATTERN=.. GC=.. WRITES=D sim`), with its own preconditioning (`LOAD` true: the
logical pages written in order, then as many pattern writes as the NAND has pages; counters
reset) and then D span writes of the pattern (WRITES, in its unit of the logical pages),
reported by it every quarter span write (`runningWAF`: NAND page writes ÷ host page writes in
that quarter). A round is a span write (four reports: their mean, the four having equal host
writes); the steady figure is the last 8 rounds' mean (calibrate's rule: within ±3% in range
and trend). Its random generator is seeded from `std::random_device` (not settable without a
patch): a rerun is another sample. There is no IOPS: `steady_iops` and `fob_iops` are null and
the document says `measures` ["waf"].
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import common  # noqa: E402

PAGE_BYTES = 4096
REPS_PER_SPAN = 4  # the simulator reports every logicalPages / 4 writes
REPOSITORY = "https://github.com/gabriel-haas/ssdiq-pub"
DEFAULT_ZONES = "s0.9 f0.1 uniform s0.1 f0.9 uniform"  # its sim.cpp's ZONES default
#: the 2R policies' names (sim.cpp: "2r-greedy", "2r-fifo") and greedy's
POLICIES = ("greedy", "2r-greedy", "2r-fifo")
UNITS = {"K": 1024, "M": 1024**2, "G": 1024**3}


def size_bytes(text: str) -> int:
    """A size as the simulator reads it (`getBytesFromString`): 2G, 1M, 4K."""
    text = text.strip().upper()
    if text[-1] in UNITS:
        return int(float(text[:-1]) * UNITS[text[-1]])
    return int(text)


def fill_for(native_fill: float, extra_op: int) -> float:
    """SSDFILL of the drive at extra OP X%: the native user share of the NAND, (100 − X)% of it
    written."""
    return native_fill * (100 - extra_op) / 100


def hot_flags(zones: str) -> list[str]:
    """calibrate's flags for a two-zone ZONES text ("sS fF pattern sS fF pattern", uniform
    inside each zone): `--hot ACCESS/SPACE`, the write and size shares of the hotter zone."""
    shares = [(float(w[1:]), k) for k, w in enumerate(zones.split()) if w[0] in "sf"]
    sizes = [v for v, k in shares[0::2]]
    freqs = [v for v, k in shares[1::2]]
    if len(sizes) != 2 or len(freqs) != 2 or "zipf" in zones:
        raise ValueError(f"ZONES {zones!r}: calibrate's --hot takes two uniform zones")
    hot = max(range(2), key=lambda i: freqs[i] / sizes[i])
    access = 100 * freqs[hot] / sum(freqs)
    space = 100 * sizes[hot] / sum(sizes)
    return ["--hot", f"{access:g}/{space:g}"]


def parse_output(text: str) -> dict:
    """The simulator's standard output: its geometry line, the preconditioning's WAF (`Init WA`)
    and one report per quarter span write (the CSV rows that start with `bench,`)."""
    head: dict = {"reports": []}
    columns: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("blockCnt:"):
            parts = line.split()
            vals = dict(zip(parts[0::2], parts[1::2], strict=False))
            head["blocks"] = int(vals["blockCnt:"])
            head["pages_per_block"] = int(vals["pagesPerBlock:"])
            head["logical_pages"] = int(vals["logicalPages:"])
            head["ssd_fill"] = float(vals["ssdfill:"])
        elif line.startswith("Init WA:"):
            head["init_waf"] = float(line.split(":", 1)[1])
        elif line.startswith("sim,hash,rep,"):
            columns = line.split(",")
        elif line.startswith("bench,") and columns is not None:
            # the `zones` field is quoted and holds no comma (its parts are space-separated)
            row = dict(zip(columns, line.split(","), strict=True))
            head["reports"].append({
                "rep": int(row["rep"]),
                "waf": float(row["runningWAF"]),
                "cumulative_waf": float(row["cumulativeWAF"]),
                "gc": row["gc"],
                "pattern": row["pattern"],
            })  # fmt: skip
    if "logical_pages" not in head:
        raise ValueError("no geometry line (blockCnt: ...) in the simulator's output")
    return head


def rows_of(reports: list[dict], logical_pages: int) -> list[dict]:
    """Quarter-span reports into one row per span write: WAF the mean of its four reports (each
    over logicalPages / 4 host writes), `span_writes` counted after the preconditioning."""
    per_rep = logical_pages // REPS_PER_SPAN  # its writesPerRep
    rows = []
    for k in range(0, len(reports) - REPS_PER_SPAN + 1, REPS_PER_SPAN):
        group = reports[k : k + REPS_PER_SPAN]
        rows.append({
            "span_writes": (k + REPS_PER_SPAN) // REPS_PER_SPAN,
            "waf": sum(r["waf"] for r in group) / REPS_PER_SPAN,
            "host_pages": per_rep * REPS_PER_SPAN,
        })  # fmt: skip
    return rows


def environment(args, extra_op: int) -> dict[str, str]:
    env = {
        "CAPACITY": args.capacity,
        "ERASE": args.erase,
        "PAGE": "4K",
        "SSDFILL": f"{fill_for(args.native_fill, extra_op):.6g}",
        "PATTERN": args.pattern,
        "GC": args.gc,
        "WRITES": str(args.drive_writes),
    }
    if args.pattern == "zones":
        env["ZONES"] = args.zones
    return env


def measure(args, extra_op: int) -> dict:
    t0 = time.monotonic()
    env = environment(args, extra_op)
    work = args.work / f"{args.gc}-{args.pattern}-op{extra_op}"
    work.mkdir(parents=True, exist_ok=True)  # it writes runBench.csv in its working folder
    res = subprocess.run(
        [str(args.binary.resolve())],
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env},
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    (work / "stdout.txt").write_text(res.stdout + res.stderr)
    if res.returncode != 0:
        raise RuntimeError(f"ssdiq sim failed at OP {extra_op}% (see {work / 'stdout.txt'})")
    out = parse_output(res.stdout)
    rows = rows_of(out["reports"], out["logical_pages"])
    rule = common.settle(rows, keys=("waf",))
    return {
        "extra_op_percent": extra_op,
        "queue_depth": 1,
        "span_pages": out["logical_pages"],
        "ssd_fill": out["ssd_fill"],
        "drive_writes": rows[-1]["span_writes"],
        "steady_iops": None,
        "steady_waf": rule["waf_mean"],
        "fob_iops": None,
        "preconditioning_waf": out.get("init_waf"),
        "steady_window": {
            # span writes after the preconditioning: the window's first round starts at the
            # end of the round before it
            "span_writes": [rule["first_index"], rows[-1]["span_writes"]],
            "settled": rule["settled"],
            "rule": rule | {"tolerance": common.WINDOW_TOLERANCE},
        },
        "series": rows,
        "environment": env,
        "wall_s": time.monotonic() - t0,
    }


def document(args, argv: list[str]) -> dict:
    nand = size_bytes(args.capacity)
    block = size_bytes(args.erase)
    pages = (nand // block) * (block // PAGE_BYTES)
    user_pages = int(pages * args.native_fill)
    workload = (
        "uniform random single-page (4 KiB) writes over the logical pages"
        if args.pattern == "uniform"
        else f'its zones pattern, ZONES "{args.zones}" (size share sX, write share fX, '
        "uniform inside a zone) over the logical pages"
    )
    return {
        "simulator": "ssdiq-sim",
        "drive": f"{args.gc}, {args.pattern}, native fill {args.native_fill:g}",
        "repository": REPOSITORY,
        **common.provenance(args.binary, "ssdiq_sim.py", argv),
        "hardware": "2-core x86_64 VM; counted page writes (host speed does not change them)",
        "patch": None,
        "measures": ["waf"],
        "extra_op_definition": "SSDFILL = native fill × (100 − X)/100: the host writes (100 − X)% "
        "of the native user space, the rest never written",
        "advertised_bytes": user_pages * PAGE_BYTES,
        "physical_bytes": pages * PAGE_BYTES,
        "config": {
            "capacity": args.capacity,
            "erase": args.erase,
            "page_bytes": PAGE_BYTES,
            "blocks": nand // block,
            "pages_per_block": block // PAGE_BYTES,
            "native_fill": args.native_fill,
            "gc": args.gc,
            "pattern": args.pattern,
            "zones": args.zones if args.pattern == "zones" else None,
            "preconditioning": "its own (LOAD true): every logical page written in order, then "
            "one NAND's worth of pattern writes, counters reset",
            "timing": "none: the simulator counts page writes only (no IOPS, no queue)",
        },
        "workload": workload + "; std::mt19937_64 seeded from std::random_device; one write at "
        "a time (queue_depth 1: the simulator has no queue)",
        "drive_writes": args.drive_writes,
        # the workload as calibrate is told it (evaluate.py passes these flags on)
        "calibrate_workload": hot_flags(args.zones) if args.pattern == "zones" else [],
        "levels": [],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", type=Path, required=True, help="its sim/sim, built elsewhere")
    ap.add_argument("--work", type=Path, required=True, help="folder for its runs")
    ap.add_argument("--gc", choices=POLICIES, default="greedy")
    ap.add_argument("--native-fill", type=float, default=0.9, help="SSDFILL at 0%% extra OP")
    ap.add_argument("--extra-op", default="0,10,20,30,40")
    ap.add_argument("--drive-writes", type=int, default=16, help="WRITES: span writes a run")
    ap.add_argument("--capacity", default="2G", help="CAPACITY: the NAND")
    ap.add_argument("--erase", default="1M", help="ERASE: the erase block")
    ap.add_argument("--pattern", choices=("uniform", "zones"), default="uniform")
    ap.add_argument("--zones", default=DEFAULT_ZONES, help="ZONES, with --pattern zones")
    ap.add_argument("--commit", default=None, help="ssdiq-pub's commit built")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    stem = args.gc if args.pattern == "uniform" else f"{args.gc}-{args.pattern}"
    out = args.out or HERE / "results" / "ssdiq-sim" / f"{stem}.json"
    doc = document(args, argv)
    if args.commit:
        doc["commit"] = args.commit
    common.run_waf_levels(doc, args.extra_op, lambda x: measure(args, x), doc["drive"], out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
