"""Drive EagleTree's page-mapped FTL with 4 KiB random writes per OP level.

    python bench/foreign/eagletree.py --binary PATH/eagletree-harness --work DIR \
        [--extra-op 0,10,20,30,40] [--qd 32] [--qd-sweep 4,128@0,40] [--drive-writes 16] \
        [--geometry 4,2,64,128] [--timings-us 5,20,60,1,10] \
        [--commit SHA] [--out bench/foreign/results/eagletree.json]

EagleTree (ClydeProjects/EagleTree; Niv Dayan, Martin Kjaer Svendsen, Matias Bjorling, Philippe
Bonnet, Luc Bouganim, "EagleTree: Exploring the Design Space of SSD-Based Algorithms", VLDB 2013
demo), C++, built with its own Makefile: unpatched for the truths stored before
bench/foreign/results/eaglefix/, since with eagletree_harness/build_patched.sh's one patch (an
EagleTree bug that aborts small drives: bench/foreign/results/eaglefix/DIAGNOSIS.md). The drive
is its
`set_small_SSD_config()` (config.cpp) as shipped but for the blocks per plane (1,024 -> 64,
GEOMETRY): 4 packages x 2 dies x 1 plane x 64 blocks x 128 pages of 4 KiB (256 MiB of NAND), page
read 5 us, program 20 us, erase 60 us, bus command 1 us and 10 us a page transfer, a page-mapped FTL
(FTL_DESIGN 0), writes allocated to the die with the shortest queue (BLOCK_MANAGER_ID 0), greedy
victims per die (GARBAGE_COLLECTION_POLICY 0) collected when a die has fewer than GREED_SCALE = 2
free blocks, up to 8 collections at once (MAX_CONCURRENT_GC_OPS), GC reads and programs scheduled
with the host's (SCHEDULING_SCHEME 0, FIFO), no copy-back. The user space is EagleTree's
OVER_PROVISIONING_FACTOR 0.7 of the NAND, the range its workloads write (Workload_Definition).

--geometry (packages, dies a package, blocks a plane, pages a block) and --timings-us (page read,
program, block erase, bus command, bus page transfer) set another drive of the same FTL; the
defaults are the drive above (bench/foreign/results/eagletree.json). The harness prints the
times EagleTree was set to (its `T` line) and they are recorded beside each level.

The binary is eagletree_harness/ of this folder (its own code: one EagleTree Simple_Thread of
random writes that reports EagleTree's counters every quarter span write) linked with
EagleTree's objects by eagletree_harness/build.sh; README.md says how. Nothing here builds it.

Extra OP X% is the host's span: uniform random pages over the first (100 - X)% of the user
space; the native spare (the 30% of the NAND beyond it) stays.

Each (OP, QD) case is one run of D span writes (--drive-writes) from an empty drive; each span
write is a round (IOPS: host writes completed / simulated time; WAF: page programs, the host's
and GC's, / host writes completed) and the steady figures are the last 8 rounds' (calibrate's
rule: within +-3% in range and trend). FOB: the first quarter span write from empty (no GC
program in it: checked).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

# config.cpp set_small_SSD_config(), PLANE_SIZE 1024 -> 64
GEOMETRY = {"packages": 4, "dies_per_package": 2, "planes_per_die": 1, "blocks_per_plane": 64,
            "pages_per_block": 128}  # fmt: skip
TIMINGS_US = {"page_read": 5, "page_write": 20, "block_erase": 60, "bus_ctrl": 1, "bus_data": 10}
OVER_PROVISIONING_FACTOR = 0.7  # config.cpp: the share of the NAND the workloads address
PAGE_BYTES = 4096
REPORTS_PER_ROUND = 4
SEED = 42


TIMING_KEYS = ("page_read", "page_write", "block_erase", "bus_ctrl", "bus_data")


def physical_pages(g: dict = GEOMETRY) -> int:
    return (g["packages"] * g["dies_per_package"] * g["planes_per_die"] * g["blocks_per_plane"]
            * g["pages_per_block"])  # fmt: skip


def user_pages(g: dict = GEOMETRY) -> int:
    return int(OVER_PROVISIONING_FACTOR * physical_pages(g))


def span_pages(extra_op: int, g: dict = GEOMETRY) -> int:
    return int(user_pages(g) * (100 - extra_op) / 100)


def geometry_of(text: str) -> dict:
    """--geometry "PACKAGES,DIES,BLOCKS,PAGES" -> GEOMETRY's keys (one plane a die)."""
    parts = [int(v) for v in text.split(",")]
    if len(parts) != 4 or min(parts) < 1:
        raise ValueError(f"--geometry {text!r}: four positive integers")
    keys = ("packages", "dies_per_package", "blocks_per_plane", "pages_per_block")
    return {**dict(zip(keys, parts, strict=True)), "planes_per_die": 1}


def timings_of(text: str) -> dict:
    """--timings-us "READ,PROGRAM,ERASE,BUS_CTRL,BUS_DATA" -> TIMINGS_US's keys."""
    parts = [float(v) for v in text.split(",")]
    if len(parts) != len(TIMING_KEYS) or min(parts) <= 0:
        raise ValueError(f"--timings-us {text!r}: five positive times in microseconds")
    return dict(zip(TIMING_KEYS, parts, strict=True))


def parse_output(text: str) -> tuple[dict, list[dict]]:
    """The harness's output: its `G` line (the drive as EagleTree set it) and its `R` lines
    (cumulative counters) as rows, a zero row first."""
    geometry: dict = {}
    timings: dict = {}
    rows = [{"host_writes": 0, "t_us": 0.0, "host_programs": 0, "gc_programs": 0}]
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "G":
            keys = ("packages", "dies_per_package", "blocks_per_plane", "pages_per_block",
                    "nand_pages", "span_pages", "queue_depth")  # fmt: skip
            if len(parts) != len(keys) + 1:
                raise ValueError(f"harness output line {n}: a G line of {len(parts)} fields")
            geometry = dict(zip(keys, (int(p) for p in parts[1:]), strict=True))
        elif parts[0] == "T" and len(parts) == len(TIMING_KEYS) + 1:
            timings = dict(zip(TIMING_KEYS, (float(p) for p in parts[1:]), strict=True))
        elif parts[0] == "R":
            if len(parts) != 5:
                raise ValueError(f"harness output line {n}: expected 5 fields, got {len(parts)}")
            rows.append({"host_writes": int(parts[1]), "t_us": float(parts[2]),
                         "host_programs": int(parts[3]), "gc_programs": int(parts[4])})  # fmt: skip
    if not geometry or len(rows) < 2:
        raise ValueError("harness output has no G line or no R lines")
    if timings:
        geometry["timings_us"] = timings
    return geometry, rows


def rounds_of(rows: list[dict], span: int, reports_per_round: int = REPORTS_PER_ROUND) -> list:
    """Cumulative rows (the first at zero) -> rounds of `reports_per_round` reports each."""
    out = []
    for k in range(reports_per_round, len(rows), reports_per_round):
        a, b = rows[k - reports_per_round], rows[k]
        host = b["host_writes"] - a["host_writes"]
        gc = b["gc_programs"] - a["gc_programs"]
        out.append({
            "span_writes": b["host_writes"] / span,
            "t_s": b["t_us"] / 1e6,
            "iops": host / ((b["t_us"] - a["t_us"]) / 1e6),
            "waf": (b["host_programs"] - a["host_programs"] + gc) / host,
            "gc_programs": gc,
        })  # fmt: skip
    return out


def fob_of(rows: list[dict], span: int) -> dict:
    """The first report (a quarter span write from empty): IOPS and its GC programs."""
    first = rows[1]
    return {
        "iops": first["host_writes"] / (first["t_us"] / 1e6),
        "span_writes": first["host_writes"] / span,
        "gc_runs": first["gc_programs"],
    }


def command(
    binary: Path, span: int, qd: int, report_every: int, reports: int,
    g: dict = GEOMETRY, timings: dict | None = None,
) -> list[str]:  # fmt: skip
    """The harness's command line; ``timings`` (TIMINGS_US's keys) appended when given."""
    times = [f"{timings[k]:g}" for k in TIMING_KEYS] if timings else []
    return [str(binary), str(g["packages"]), str(g["dies_per_package"]),
            str(g["blocks_per_plane"]), str(g["pages_per_block"]), str(span), str(qd),
            str(report_every), str(reports), str(SEED), *times]  # fmt: skip


def measure(
    binary: Path, work: Path, extra_op: int, qd: int, drive_writes: float,
    g: dict = GEOMETRY, timings: dict | None = None,
) -> dict:  # fmt: skip
    span = span_pages(extra_op, g)
    report_every = span // REPORTS_PER_ROUND
    rounds = int(drive_writes)
    folder = work / f"op{extra_op}-qd{qd}"
    folder.mkdir(parents=True, exist_ok=True)
    cmd = command(binary, span, qd, report_every, REPORTS_PER_ROUND * rounds, g, timings)
    t0 = time.monotonic()
    res = subprocess.run(["nice", *cmd], check=True, capture_output=True, text=True, cwd=folder)
    wall = time.monotonic() - t0
    (folder / "harness.out").write_text(res.stdout)
    geometry, rows = parse_output(res.stdout)
    fob = fob_of(rows, span)
    if fob["gc_runs"]:
        raise RuntimeError(f"GC programmed pages in the FOB part at {extra_op}%")
    return common.level_record(
        extra_op, qd, span, rows[-1]["host_writes"] / span, rounds_of(rows, span), fob["iops"],
        {"span_writes": fob["span_writes"], "gc_runs": fob["gc_runs"]},
        wall_s=wall, harness={"command": " ".join(cmd[1:]), "geometry": geometry},
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_arguments(
        ap,
        qd_sweep="4,128@0,40",
        drive_writes=16.0,
        out=Path(__file__).parent / "results" / "eagletree.json",
    )
    ap.add_argument("--commit", default=None, help="EagleTree's commit the harness was built from")
    ap.add_argument("--geometry", type=geometry_of, default=None,
                    help="PACKAGES,DIES,BLOCKS,PAGES: dies a package, blocks a plane, pages a "
                    "block (default 4,2,64,128)")  # fmt: skip
    ap.add_argument("--timings-us", type=timings_of, default=None,
                    help="READ,PROGRAM,ERASE,BUS_CTRL,BUS_DATA in microseconds (default "
                    "set_small_SSD_config's 5,20,60,1,10)")  # fmt: skip
    args = ap.parse_args(argv)
    g = args.geometry or GEOMETRY
    timings = args.timings_us
    cases = common.cases(args.extra_op, args.qd, args.qd_sweep)
    commit_file = args.binary.resolve().parent / "COMMIT"
    nand = physical_pages(g)
    shape = (
        f"{g['packages']} packages x {g['dies_per_package']} dies x {g['blocks_per_plane']} "
        f"blocks x {g['pages_per_block']} pages"
        if args.geometry
        else f"{GEOMETRY['blocks_per_plane']} blocks a plane"
    )
    times = (
        ", read/program/erase/bus command/bus transfer "
        + "/".join(f"{timings[k]:g}" for k in TIMING_KEYS) + " us"
        if timings
        else ""
    )  # fmt: skip
    doc = {
        "simulator": "EagleTree",
        "drive": f"set_small_SSD_config with {shape}{times}: "
        f"{user_pages(g) * PAGE_BYTES / 2**20:.1f} MiB of user space on "
        f"{nand * PAGE_BYTES / 2**20:g} MiB of NAND",
        "repository": "https://github.com/ClydeProjects/EagleTree (its objects linked with "
        "bench/foreign/eagletree_harness/harness.cpp by eagletree_harness/build.sh)",
        **common.provenance(args.binary, "eagletree.py", sys.argv[1:] if argv is None else argv),
        "patch": args.patch,
        "extra_op_definition": "native spare (the NAND beyond EagleTree's "
        f"OVER_PROVISIONING_FACTOR {OVER_PROVISIONING_FACTOR} of it) kept; the host writes the "
        "first (100 - X)% of the user space",
        "advertised_bytes": user_pages(g) * PAGE_BYTES,
        "physical_bytes": nand * PAGE_BYTES,
        "config": {
            "geometry": g,
            "flash_us": timings or TIMINGS_US,
            "ftl": "page-mapped (FTL_DESIGN 0); writes to the die with the shortest queue "
            "(BLOCK_MANAGER_ID 0); a write to a logical page whose earlier write is still "
            "pending replaces it",
            "gc": "greedy victims (fewest valid pages) per die (GARBAGE_COLLECTION_POLICY 0), a "
            "die collected while it has fewer than GREED_SCALE 2 free blocks, up to 8 "
            "collections at once (MAX_CONCURRENT_GC_OPS), no copy-back "
            "(MAX_REPEATED_COPY_BACKS_ALLOWED 0); GC reads and programs queue with the host's "
            "on the die and the package's bus (SCHEDULING_SCHEME 0, FIFO)",
            "host": "EagleTree's OperatingSystem with one Simple_Thread of random writes, QD "
            "outstanding (MAX_SSD_QUEUE_SIZE = QD)",
            "preconditioning": "none: every run starts from an empty drive",
        },
        "workload": f"4 KiB random writes (EagleTree's Random_IO_Pattern, MTRand seed {SEED}, "
        "uniform over the span's pages), closed loop at the queue depth",
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    if args.commit:
        doc["commit"] = args.commit
    elif commit_file.exists():
        doc["commit"] = commit_file.read_text().strip()
    common.run_cases(
        doc, cases,
        lambda op, qd: measure(args.binary, args.work, op, qd, args.drive_writes, g, timings),
        args.out,
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
