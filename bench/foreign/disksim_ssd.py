"""Drive DiskSim 4.0's SSD model (Microsoft Research's ssdmodel) with 4 KiB random writes.

    python bench/foreign/disksim_ssd.py --binary PATH/src/disksim --work DIR \
        [--extra-op 0,10,20,30,40] [--qd 32] [--qd-sweep 4,128@0,40] [--drive-writes 6] \
        [--round 0.5] [--commit SHA] [--out bench/foreign/results/disksim-ssd.json]

The simulator: DiskSim 4.0 (Carnegie Mellon's Parallel Data Lab) with the SSD extension of
Agrawal, Prabhakaran, Wobber, Davis, Manasse and Panigrahy, "Design Tradeoffs for SSD
Performance" (USENIX ATC 2008), `ssdmodel/` (Ted Wobber and Vijayan Prabhakaran, Microsoft
Research Silicon Valley), built elsewhere from its own repository with its own Makefile; this
script writes its parameter file, runs it and reads its statistics. Nothing here builds it.

The drive (DRIVE): the SSD block of the extension's own validation file
`ssdmodel/valid/ssd-rw250k.parv` -- 8 flash packages (elements), 8 planes each, one parallel
unit per package, 64 pages of 4 KiB a block (one of them the block's summary page), page read
25 us, program 200 us, erase 1.5 ms, chip transfer 0.025 us a byte, copy-back cleaning, greedy
victims, cleaning in the foreground while a plane has at most 5% of its blocks free (one block
a clean), the allocation pool per package -- with four changes (SHIPPED): 50 blocks a plane
(from 2048: 800 MiB of NAND) and a native reserve of 20% of each plane's blocks (from 15%),
which make it small and let extra OP be set as a reserve; `Never disconnect` 0 (from 1: with 1
the device holds the bus for a whole request and about two writes are outstanding whatever the
queue depth); the device's `Max queue length` the queue depth (from 20), so that every
outstanding write reaches it.

Its FTL (ssd_init.c, ssd_timing.c, ssd_clean.c): a page map per package; a logical page's
package is fixed by its address (pages striped over the packages); within a package, writes go
to the active block of each plane in turn; before a package serves its next request while
one of its planes is at or below the watermark, it cleans one block of that plane: greedy (the
sealed block with the fewest valid pages), its valid pages moved within the plane (copy-back:
read + program, no transfer), erase; the package is busy while it cleans, so the host writes
queued on it wait (foreground GC that blocks one package of eight).

Extra OP X%: ssd_init.c maps every exported page at start (the drive starts full: no page is
ever unwritten), so a host that writes only (100 - X)% of the pages would leave the rest valid
for ever -- not extra OP. The drive at X% is therefore configured with the reserve that leaves
the same NAND free as a drive whose host writes only (100 - X)% of the 0% drive's user space:
`Reserve pages percentage` = 100 - (100 - 20)(100 - X)/100 (20, 28, 36, 44, 52: whole numbers,
and whole blocks of a 50-block plane), the GC watermark (a share of all the plane's blocks)
unchanged, and the host writes uniformly over all its exported pages. `advertised_bytes` is the
0% drive's exported space.

Each (OP, QD) case is a set of runs from the start, the same seeds in each (the runs of a case
are prefixes of the longest: DiskSim is deterministic for its seeds), each run's cumulative
counters read from its statistics: host pages (the packages' requests issued), pages moved by
cleaning, blocks cleaned, requests completed, simulated time. The runs end at 0.5 and 1 span
writes, then at every round (--round, half a span write) of the last 8 up to D (--drive-writes,
6): a round is the difference between consecutive runs, IOPS = requests completed / simulated
time, WAF = (host pages + pages moved) / host pages x 64/63 (the block's summary page, which
ssd_timing.c programs with its 63rd data page). The steady figures are the last 8 rounds'
(calibrate's rule: within +-3% in range and trend). FOB: a run of the first tenth of a span
write from the start (no block cleaned in it: checked), the packages writing with no GC.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

# ssdmodel/valid/ssd-rw250k.parv's SSD block; BLOCKS_PER_PLANE and NATIVE_RESERVE_PERCENT
# changed (the module's docstring)
DRIVE = {
    "elements": 8,
    "planes_per_package": 8,
    "blocks_per_plane": 50,
    "pages_per_block": 64,
    "page_sectors": 8,
    "parallel_units": 1,
    "min_free_blocks_percent": 5,
    "cleaning_policy": 2,  # greedy
    "copy_back": 1,
    "plane_block_mapping": 3,  # full striping
    "allocation_pool_logic": 1,  # per element
    "cleaning_in_background": 0,
    "chip_xfer_ms_per_byte": 0.000025,
    "page_read_ms": 0.025,
    "page_write_ms": 0.200,
    "block_erase_ms": 1.5,
}
NATIVE_RESERVE_PERCENT = 20
SHIPPED = {"blocks_per_plane": 2048, "reserve_percent": 15, "max_queue_length": 20}
PAGE_BYTES = 4096
FOB_SPAN_WRITES = 0.1
SEED = 42  # the validation files' Init Seed and Real Seed


def reserve_percent(extra_op: int) -> int:
    """The reserve that leaves free what a host writing (100 - X)% of the 0% drive leaves."""
    r = 100 - (100 - NATIVE_RESERVE_PERCENT) * (100 - extra_op) / 100
    if r != int(r):
        raise ValueError(f"extra OP {extra_op}% needs a reserve of {r}%: not a whole percent")
    return int(r)


def exported_pages(reserve: int, d: dict = DRIVE) -> int:
    """ssd_init.c's export size over all packages: usable blocks x (pages per block - 1)."""
    reserved_per_plane = reserve * d["blocks_per_plane"] // 100
    usable = (d["blocks_per_plane"] - reserved_per_plane) * d["planes_per_package"]
    return usable * (d["pages_per_block"] - 1) * d["elements"]


def physical_pages(d: dict = DRIVE) -> int:
    return d["elements"] * d["planes_per_package"] * d["blocks_per_plane"] * d["pages_per_block"]


def scheduler(
    policy: int, mapping: int, write_delay: str, concat: int, timeout: tuple, prio: int
) -> str:
    """A `disksim_ioqueue` block with the validation file's values: its driver's queue
    (3, 1, "0.0", 128, (6, 4), 4) or the device's (1, 0, "0", 0, (0, 0), 1); `timeout`: the
    timeout weight and the timeout scheduling."""
    return (
        "Scheduler = disksim_ioqueue {\n"
        f"Scheduling policy = {policy}, Cylinder mapping strategy = {mapping}, "
        f"Write initiation delay = {write_delay},\n"
        "Read initiation delay = 0.0, Sequential stream scheme = 0, "
        f"Maximum concat size = {concat},\n"
        "Overlapping request scheme = 0, Sequential stream diff maximum = 0,\n"
        f"Scheduling timeout scheme = 0, Timeout time/weight = {timeout[0]}, "
        f"Timeout scheduling = {timeout[1]},\n"
        f"Scheduling priority scheme = 0, Priority scheduling = {prio} }}"
    )


def parv(reserve: int, qd: int, requests: int, d: dict = DRIVE) -> str:
    """The parameter file: the validation file's global, driver, bus and controller blocks, the
    drive, and `qd` closed-loop generators (time-critical requests: a generator waits for its
    write to complete, then issues the next, no think time) over every exported page."""
    pages = exported_pages(reserve, d)
    blocks_per_element = d["planes_per_package"] * d["blocks_per_plane"]
    gen = f"""disksim_synthgen {{
   Storage capacity per device = {pages * d["page_sectors"]},
   devices = [ org0 ],
   Blocking factor = {d["page_sectors"]},
   Probability of sequential access = 0.0,
   Probability of local access = 0.0,
   Probability of read access = 0.0,
   Probability of time-critical request = 1.0,
   Probability of time-limited request = 0.0,
   Time-limited think times = [ normal, 30.0, 100.0 ],
   General inter-arrival times = [ uniform, 0.0, 0.0 ],
   Sequential inter-arrival times = [ uniform, 0.0, 0.0 ],
   Local inter-arrival times = [ exponential, 0.0, 0.0 ],
   Local distances = [ normal, 0.0, 40000.0 ],
   Sizes = [ uniform, {d["page_sectors"]}.0, {d["page_sectors"]}.0 ]
}}"""
    gens = ",\n".join([gen] * qd)
    return f"""disksim_global Global {{
   Init Seed = {SEED},
   Real Seed = {SEED},
   Stat definition file = statdefs
}}
disksim_iosim Sim {{ I/O Trace Time Scale = 1.0 }}
disksim_stats Stats {{
iodriver stats = disksim_iodriver_stats {{
Print driver size stats = 0, Print driver locality stats = 0, Print driver blocking stats = 0,
Print driver interference stats = 0, Print driver queue stats = 1, Print driver crit stats = 0,
Print driver idle stats = 0, Print driver intarr stats = 0, Print driver streak stats = 0,
Print driver stamp stats = 0, Print driver per-device stats = 0 }},
bus stats = disksim_bus_stats {{ Print bus idle stats = 0, Print bus arbwait stats = 0 }},
ctlr stats = disksim_ctlr_stats {{
Print controller cache stats = 0, Print controller size stats = 0,
Print controller locality stats = 0, Print controller blocking stats = 0,
Print controller interference stats = 0, Print controller queue stats = 0,
Print controller crit stats = 0, Print controller idle stats = 0,
Print controller intarr stats = 0, Print controller streak stats = 0,
Print controller stamp stats = 0, Print controller per-device stats = 0 }},
device stats = disksim_device_stats {{
Print device queue stats = 0, Print device crit stats = 0, Print device idle stats = 0,
Print device intarr stats = 0, Print device size stats = 0, Print device seek stats = 0,
Print device latency stats = 0, Print device xfer stats = 0, Print device acctime stats = 0,
Print device interfere stats = 0, Print device buffer stats = 0 }},
process flow stats = disksim_pf_stats {{
Print per-process stats = 0, Print per-CPU stats = 0, Print all interrupt stats = 0,
Print sleep stats = 0 }}
}}
disksim_iodriver DRIVER0 {{
type = 1,
Constant access time = 0.0,
{scheduler(3, 1, "0.0", 128, (6, 4), 4)},
Use queueing in subsystem = 1
}}
disksim_bus BUSTOP {{
type = 1, Arbitration type = 1, Arbitration time = 0.0,
Read block transfer time = 0.0, Write block transfer time = 0.0, Print stats = 0
}}
disksim_bus BUSHBA {{
type = 2, Arbitration type = 1, Arbitration time = 0.001,
Read block transfer time = 0.0002384, Write block transfer time = 0.0002384, Print stats = 0
}}
disksim_ctlr CTLR0 {{
type = 1, Scale for delays = 0.0, Bulk sector transfer time = 0.0,
Maximum queue length = {max(100, qd)}, Print stats = 0
}}
ssdmodel_ssd SSD {{
Reserve pages percentage = {reserve},
Minimum free blocks percentage = {d["min_free_blocks_percent"]},
Write policy = 2,
Cleaning policy = {d["cleaning_policy"]},
Planes per package = {d["planes_per_package"]},
Blocks per plane = {d["blocks_per_plane"]},
Plane block mapping = {d["plane_block_mapping"]},
Copy back = {d["copy_back"]},
Number of parallel units = {d["parallel_units"]},
Allocation pool logic = {d["allocation_pool_logic"]},
Elements per gang = 1,
Gang share = 1,
Cleaning in background = {d["cleaning_in_background"]},
Command overhead = 0.00,
Bus transaction latency = 0.0,
Bulk sector transfer time = 0,
Flash chip elements = {d["elements"]},
Page size = {d["page_sectors"]},
Pages per block = {d["pages_per_block"]},
Blocks per element = {blocks_per_element},
Element stride pages = 1,
Never disconnect = 0,
Print stats = 1,
Max queue length = {max(SHIPPED["max_queue_length"], qd)},
{scheduler(1, 0, "0", 0, (0, 0), 1)},
Timing model = 1,
Chip xfer latency = {d["chip_xfer_ms_per_byte"]},
Page read latency = {d["page_read_ms"]},
Page write latency = {d["page_write_ms"]},
Block erase latency = {d["block_erase_ms"]}
}}
instantiate [ simfoo ] as Sim
instantiate [ statfoo ] as Stats
instantiate [ ssd0x0 ] as SSD
instantiate [ bustop ] as BUSTOP
instantiate [ busHBA0 ] as BUSHBA
instantiate [ driver0 ] as DRIVER0
instantiate [ ctlrHBA0 ] as CTLR0
topology disksim_iodriver driver0 [
   disksim_bus bustop [
      disksim_ctlr ctlrHBA0 [
         disksim_bus busHBA0 [ ssdmodel_ssd ssd0x0 [] ]
      ]
   ]
]
disksim_logorg org0 {{
   Addressing mode = Array, Distribution scheme = Striped, Redundancy scheme = Noredun,
   devices = [ ssd0x0 ],
   Stripe unit = 128, Synch writes for safety = 0, Number of copies = 2,
   Copy choice on read = 6, RMW vs. reconstruct = 0.5, Parity stripe unit = 128,
   Parity rotation type = 1, Time stamp interval = 0.000000,
   Time stamp start time = 60000.000000, Time stamp stop time = 10000000000.000000,
   Time stamp file name = stamps
}}
disksim_pf Proc {{ Number of processors = 1, Process-Flow Time Scale = 1.0 }}
disksim_synthio Synthio {{
   Number of I/O requests to generate = {requests},
   Maximum time of trace generated = 1000000000000.0,
   System call/return with each request = 0,
   Think time from call to request = 0.0,
   Think time from request to return = 0.0,
   Generators = [
{gens}
   ]
}}
"""


_ELEM = re.compile(
    r"^ssd\s+#\d+ elem #(\d+)\s+(Total reqs issued|Number of cleans|Pages moved):\s*(\S+)", re.M
)
_HANDLED = re.compile(r"^Overall I/O System Total Requests handled:\s+(\d+)", re.M)
_SIMTIME = re.compile(r"^Overall I/O System simtime:\s+(\S+)", re.M)


def parse_stats(text: str) -> dict:
    """A run's cumulative counters from its statistics file (ssd.c's printcleanstats: per
    package; the I/O system's requests completed and simulated time)."""
    per = {"Total reqs issued": 0, "Number of cleans": 0, "Pages moved": 0}
    for _, name, value in _ELEM.findall(text):
        per[name] += int(float(value))
    handled, simtime = _HANDLED.search(text), _SIMTIME.search(text)
    if handled is None or simtime is None or not per["Total reqs issued"]:
        raise RuntimeError("DiskSim's statistics lack the SSD's or the I/O system's counters")
    return {
        "host_pages": per["Total reqs issued"],
        "pages_moved": per["Pages moved"],
        "blocks_cleaned": per["Number of cleans"],
        "completed": int(handled.group(1)),
        "t_ms": float(simtime.group(1)),
    }


def waf(host: int, moved: int, pages_per_block: int = DRIVE["pages_per_block"]) -> float:
    """NAND pages programmed per host page: host and moved pages, and the summary page
    ssd_timing.c programs after every (pages per block - 1) data pages."""
    return (host + moved) / host * pages_per_block / (pages_per_block - 1)


def run(binary: Path, folder: Path, reserve: int, qd: int, requests: int) -> dict:
    """One DiskSim run of `requests` writes from the start; its cumulative counters."""
    folder.mkdir(parents=True, exist_ok=True)
    statdefs = binary.resolve().parent.parent / "ssdmodel" / "valid" / "statdefs"
    (folder / "statdefs").write_text(statdefs.read_text())
    name = f"n{requests}"
    (folder / f"{name}.parv").write_text(parv(reserve, qd, requests))
    subprocess.run(
        [str(binary), f"{name}.parv", f"{name}.outv", "ascii", "0", "1"],
        cwd=folder, check=True, capture_output=True, text=True,
    )  # fmt: skip
    out = folder / f"{name}.outv"
    stats = parse_stats(out.read_text())
    out.unlink()  # 3,000 lines of parameters and histograms: the counters are kept
    return stats


def rounds_of(points: list[tuple[float, dict]], span: int) -> list[dict]:
    """Per-interval figures between consecutive runs (each a prefix of the next)."""
    series, prev = [], {"host_pages": 0, "pages_moved": 0, "blocks_cleaned": 0,
                        "completed": 0, "t_ms": 0.0}  # fmt: skip
    for span_writes, c in points:
        host = c["host_pages"] - prev["host_pages"]
        done = c["completed"] - prev["completed"]
        dt_s = (c["t_ms"] - prev["t_ms"]) / 1000
        series.append({
            "span_writes": span_writes,
            "t_s": c["t_ms"] / 1000,
            "iops": done / dt_s,
            "waf": waf(host, c["pages_moved"] - prev["pages_moved"]),
            "gc_runs": c["blocks_cleaned"] - prev["blocks_cleaned"],
        })  # fmt: skip
        prev = c
    return series


def run_points(drive_writes: float, round_span: float) -> list[float]:
    """The span writes each run ends at: a half and one span write, then every round of the
    last WINDOW_ROUNDS (the rounds before the window are one interval: only their end is
    needed, each run costing its whole length)."""
    first = drive_writes - common.WINDOW_ROUNDS * round_span
    if first < 1:
        raise ValueError(f"{drive_writes} span writes leave no run-in before the window")
    pts = [0.5, 1.0] + [first + i * round_span for i in range(common.WINDOW_ROUNDS + 1)]
    return sorted(set(pts))


def measure(
    binary: Path, work: Path, extra_op: int, qd: int, drive_writes: float, round_span: float
) -> dict:
    reserve = reserve_percent(extra_op)
    span = exported_pages(reserve)
    folder = work / f"op{extra_op}-qd{qd}"
    t0 = time.monotonic()
    fob_run = run(binary, folder, reserve, qd, round(FOB_SPAN_WRITES * span))
    if fob_run["blocks_cleaned"]:
        raise RuntimeError(f"blocks were cleaned in the FOB part at {extra_op}%")
    points = [(x, run(binary, folder, reserve, qd, round(x * span)))
              for x in run_points(drive_writes, round_span)]  # fmt: skip
    wall = time.monotonic() - t0
    return common.level_record(
        extra_op, qd, span, points[-1][0], rounds_of(points, span),
        fob_run["completed"] / (fob_run["t_ms"] / 1000),
        {"span_writes": FOB_SPAN_WRITES, "gc_runs": fob_run["blocks_cleaned"]},
        wall_s=wall,
        runs={
            "reserve_percent": reserve,
            "counters": [{"span_writes": x, **c} for x, c in points],
            "fob_counters": fob_run,
        },
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_arguments(
        ap,
        qd_sweep="4,128@0,40",
        drive_writes=6.0,
        out=Path(__file__).parent / "results" / "disksim-ssd.json",
    )
    ap.add_argument("--round", type=float, default=0.5, help="a round, in span writes")
    ap.add_argument("--commit", default=None, help="the commit the binary was built from")
    ap.add_argument("--packages", type=int, default=DRIVE["elements"],
                    help="flash packages (Flash chip elements; ssd-rw250k.parv: 8)")  # fmt: skip
    ap.add_argument("--planes-per-package", type=int, default=DRIVE["planes_per_package"],
                    help="planes per package (ssd-rw250k.parv: 8)")  # fmt: skip
    args = ap.parse_args(argv)
    cases = common.cases(args.extra_op, args.qd, args.qd_sweep)
    # the other drives of docs/calibrate-validation.md, "A reading that reproduces fewer of its
    # figures": every function here reads DRIVE, so it is changed in place
    if args.planes_per_package * DRIVE["blocks_per_plane"] % 8:
        ap.error("ssd_init.c needs a package's blocks (planes x 50) to be a multiple of 8")
    DRIVE.update(elements=args.packages, planes_per_package=args.planes_per_package)
    d = DRIVE
    advertised = exported_pages(NATIVE_RESERVE_PERCENT) * PAGE_BYTES
    physical = physical_pages() * PAGE_BYTES
    doc = {
        "simulator": "DiskSim SSD",
        "drive": f"ssdmodel, {advertised / 2**20:g} MiB exported on {physical / 2**20:g} MiB of "
        f"NAND, {d['elements']} packages",
        "repository": "https://github.com/benh/disksim (DiskSim 4.0 with the Microsoft Research "
        "SSD extension, ssdmodel/, with its ssd-patch applied; built 32-bit, as its Makefile says)",
        **common.provenance(args.binary, "disksim_ssd.py", sys.argv[1:] if argv is None else argv),
        "patch": args.patch,
        "extra_op_definition": "the 0% drive's exported space is the user capacity; at X% the "
        "drive's reserve leaves free the NAND a host writing only (100 - X)% of it leaves free "
        f"(Reserve pages percentage 100 - (100 - {NATIVE_RESERVE_PERCENT})(100 - X)/100: "
        "ssd_init.c maps every exported page at start, so unwritten pages would stay valid), "
        "and the host writes all the exported pages",
        "advertised_bytes": advertised,
        "physical_bytes": physical,
        "config": {
            "geometry": d | {"native_reserve_percent": NATIVE_RESERVE_PERCENT},
            "changed_from_ssd_rw250k_parv": {
                "Blocks per plane": [SHIPPED["blocks_per_plane"], d["blocks_per_plane"]],
                "Reserve pages percentage": [SHIPPED["reserve_percent"], NATIVE_RESERVE_PERCENT],
                "Never disconnect": [1, 0],
                "Max queue length": [SHIPPED["max_queue_length"], "max(20, QD)"],
                **({"Flash chip elements": [8, d["elements"]]} if d["elements"] != 8 else {}),
                **(
                    {"Planes per package": [8, d["planes_per_package"]]}
                    if d["planes_per_package"] != 8
                    else {}
                ),
            },
            "gc": "per package (element): foreground cleaning before a package's next request "
            f"while one of its planes has at most {d['min_free_blocks_percent']}% of its "
            f"{d['blocks_per_plane']} blocks free, one block a clean; greedy victims "
            "(the sealed block of that plane with the fewest valid pages), copy-back moves "
            "within the plane (read + program); the package serves no request while it cleans",
            "timing": f"per package: page read {d['page_read_ms'] * 1000:g} us, program "
            f"{d['page_write_ms'] * 1000:g} us, erase {d['block_erase_ms'] * 1000:g} us, chip "
            f"transfer {d['chip_xfer_ms_per_byte'] * 1000:g} us a byte (a 4 KiB page "
            f"{d['chip_xfer_ms_per_byte'] * 4096 * 1000:.1f} us); one request at a time per "
            "package (one parallel unit); the host bus 0.24 us a sector",
            "host": "DiskSim's synthetic generator, one process per outstanding write: each "
            "issues a time-critical 4 KiB write (it waits for its completion) and the next one "
            "at once (no think time); Never disconnect 0 (with 1, the validation file's, the "
            "device holds the bus for a whole request and about two writes are outstanding "
            "whatever the queue depth)",
            "preconditioning": "none: the drive starts with every exported page mapped "
            "(ssd_init.c), sequentially; the first span writes relax from that layout",
        },
        "workload": "4 KiB random writes, uniform over the exported pages (DiskSim's drand48, "
        f"Init Seed and Real Seed {SEED}), closed loop at the queue depth",
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    if args.commit:
        doc["commit"] = args.commit
    common.run_cases(
        doc, cases,
        lambda op, qd: measure(args.binary, args.work, op, qd, args.drive_writes, args.round),
        args.out,
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
