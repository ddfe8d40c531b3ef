"""Drive SSDsim's page-mapped FTL with 4 KiB random writes per OP level.

    python bench/foreign/ssdsim.py --binary PATH/ssdsim-harness --work DIR \
        [--extra-op 0,10,20,30,40] [--qd 32] [--qd-sweep 4@0,40] [--drive-writes 12] \
        [--geometry 2,2,1,2,256,64] [--overprovide 0.25] [--gc-hard-threshold 0.05] \
        [--t-prog-ns 200000] [--pattern zones-shuffle --details "s0.9 f0.1 s0.1 f0.9"]
        [--seed 42] [--out bench/foreign/results/ssdsim/ssdsim-a.json]

SSDsim (Yang Hu, Hong Jiang, Dan Feng, Lei Tian, Hao Luo, Shuping Zhang, "Performance impact
and interplay of SSD parallelism through advanced commands, allocation strategy and data
granularity", ICS 2011; Huazhong University of Science and Technology; huaicheng/ssdsim, C,
BSD-style licence), built by ssdsim/build.sh of this folder with one patch (its clock, below)
and this repository's run loop (ssdsim/harness.c), which calls SSDsim's own functions in the
order its simulate() calls them and prints its own counters every quarter span write.

The drive is SSDsim's shipped page.parameters with these changed: the geometry (--geometry:
channels, chips a channel, dies a chip, planes a die, blocks a plane, pages a block), 4 KiB
pages of 8 sectors (its sample has 2 KiB pages of 4), no DRAM write buffer (`dram capacity`
0: every write goes to the flash, so WAF and IOPS are the FTL's), its native spare
(`overprovide`, the share of the NAND the host never sees) and the GC threshold (`gc hard
threshold`: a plane below that share of free pages queues a collection). The sample's pair,
overprovide 0.10 with a 0.30 threshold, asks a plane to keep 30% of its pages free while 90% of
them hold user data; SSDsim runs out of free blocks under it ("Error in uninterrupt_gc()").
No advanced commands (`advanced command` 0; ADVANCED_COMMANDS says why). Everything else is
the sample's: page mapping, dynamic allocation (channel, chip, die and plane by SSDsim's tokens,
not by address), 200 us program, 20 us read, 1.5 ms erase (--t-prog-ns sets another program
time), FCFS scheduling, and its GC: each host write that leaves a plane under the threshold
queues one uninterruptible collection of that plane (greedy: the block with most invalid pages,
its valid pages read, moved over the channel and programmed inside the plane, then erased), run
when the chip is idle, holding the channel for the moves and the chip for the erase.

Queue depth: SSDsim admits a trace request only while fewer than `queue_length` requests are
in the device (get_requests()); the trace's arrival times are all 0, so a request enters the
moment one completes: a closed loop at QD = queue_length.

Extra OP X% is the host's span: the trace addresses only the first (100 - X)% of the user
space's pages (SSDsim's `overprovide` is the native spare and stays), as for every FTL of
bench/foreign/README.md ("Extra OP X% on a foreign drive").

Each (OP, QD) case is one run from an empty drive: a sequential fill of the span (4 KiB writes),
then D span writes of random 4 KiB writes (--drive-writes): uniform, or a skewed workload of
SSD-iq's (--pattern, --details: iob's words, bench/foreign/skewed_addresses.py; Zipf and zones
over the span's pages in a random order); each span write is a round
(IOPS: requests completed / simulated time; WAF: SSDsim's program_count, every page program, the
host's and GC's, / requests completed) and the steady figures are the last 8 rounds' (calibrate's
rule: within +-3% in range and trend). FOB: the first quarter span write of the fill from empty
(no erase in it: checked); on SSDsim's dynamic allocation a write's place does not depend on its
address, so a sequential and a random write to an empty drive cost the same.
"""

from __future__ import annotations

import argparse
import struct
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))
import common  # noqa: E402
import skewed_addresses  # noqa: E402
from corpus_workload_runs import overprov_workload, workload_label  # noqa: E402  (bench/)

GEOMETRY_KEYS = ("channels", "chips_per_channel", "dies_per_chip", "planes_per_die",
                 "blocks_per_plane", "pages_per_block")  # fmt: skip
GEOMETRY = dict(zip(GEOMETRY_KEYS, (2, 2, 1, 2, 256, 64), strict=True))
PAGE_BYTES = 4096
SECTOR_BYTES = 512
SECTORS_PER_PAGE = PAGE_BYTES // SECTOR_BYTES
REPORTS_PER_ROUND = 4
SEED = 42
RUN_TIMEOUT_S = 1800  # SSDsim spins (`while(1){}`) on some internal errors
# SSDsim's sample page.parameters (its timings and switches), kept as shipped
T_PROG_NS = 200000
# none. With the sample's 31 (copy-back on) and `greed CB command` 0, uninterrupt_gc() sets no
# busy time for the channel or the chip (its branch for that pair is empty): a collection costs
# no time; with `greed CB command` 1 its copy-back path (move_page()) crashed here (SIGSEGV);
# with every command but copy-back (29) make_level_page() read a page location never set once
# GC ran (SIGSEGV). SSDsim's bugs, not patched; with none, uninterrupt_gc() charges the moves'
# and the erase's time
ADVANCED_COMMANDS = 0


def float32(x: float) -> float:
    """x as C's float holds it (SSDsim reads `overprovide` into a float)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def physical_pages(g: dict) -> int:
    out = 1
    for k in GEOMETRY_KEYS:
        out *= g[k]
    return out


def user_pages(g: dict, overprovide: float) -> int:
    """The pages the host can address: SSDsim's large_lsn (get_requests(), sectors of the NAND
    times 1 - overprovide, in float, truncated) in whole pages."""
    sectors = physical_pages(g) * SECTORS_PER_PAGE
    return int(sectors * float32(1 - float32(overprovide))) // SECTORS_PER_PAGE


def span_pages(extra_op: int, g: dict, overprovide: float) -> int:
    return int(user_pages(g, overprovide) * (100 - extra_op) / 100)


def geometry_of(text: str) -> dict:
    """--geometry "CHANNELS,CHIPS,DIES,PLANES,BLOCKS,PAGES" -> GEOMETRY's keys."""
    parts = [int(v) for v in text.split(",")]
    if len(parts) != len(GEOMETRY_KEYS) or min(parts) < 1:
        raise ValueError(f"--geometry {text!r}: six positive integers")
    return dict(zip(GEOMETRY_KEYS, parts, strict=True))


def parameters(sample: str, g: dict, overprovide: float, threshold: float, t_prog_ns: int,
               qd: int) -> str:  # fmt: skip
    """SSDsim's sample page.parameters with this drive's lines in place of its own."""
    chips = [g["chips_per_channel"] if i < g["channels"] else 0 for i in range(19)]
    set_to = {
        "dram capacity": "0",
        "channel number": str(g["channels"]),
        "chip number": str(g["channels"] * g["chips_per_channel"]),
        "die number": str(g["dies_per_chip"]),
        "plane number": str(g["planes_per_die"]),
        "block number": str(g["blocks_per_plane"]),
        "page number": str(g["pages_per_block"]),
        "subpage page": str(SECTORS_PER_PAGE),
        "page capacity": str(PAGE_BYTES),
        "subpage capacity": str(SECTOR_BYTES),
        "t_PROG": str(t_prog_ns),
        "overprovide": f"{overprovide:g}",
        "gc hard threshold": f"{threshold:g}",
        "advanced command": str(ADVANCED_COMMANDS),
        **{f"chip number[{i}]": str(c) for i, c in enumerate(chips)},
    }
    out, seen = [], set()
    for line in sample.splitlines():
        key = line.split("=", 1)[0].strip() if "=" in line else None
        if key in set_to:
            out.append(f"{key} = {set_to[key]};")
            seen.add(key)
        else:
            out.append(line)
    missing = set(set_to) - seen
    if missing:
        raise ValueError(f"the sample page.parameters has no line for {sorted(missing)}")
    out.append(f"queue_length = {qd};")
    return "\n".join(out) + "\n"


def write_trace(path: Path, span: int, random_writes: int, qd: int,
                draw: skewed_addresses.Sampler) -> int:  # fmt: skip
    """The trace: a sequential fill of the span, `random_writes` 4 KiB writes over it at the
    pages `draw` gives (the workload's: skewed_addresses.sampler), then `2 * qd` more the
    harness never counts (it stops before the trace's end: harness.c). No newline after the
    last line (SSDsim's readme.txt). Returns the requests to count."""
    s = SECTORS_PER_PAGE
    with path.open("w") as f:
        f.write("".join(f"0 0 {p * s} {s} 0\n" for p in range(span)))
        left = random_writes + 2 * qd
        while left:
            n = min(left, 1 << 16)
            f.write("".join(f"0 0 {p * s} {s} 0\n" for p in draw(n).tolist()))
            left -= n
    with path.open("rb+") as f:  # drop the final newline
        f.seek(-1, 2)
        f.truncate()
    return span + random_writes


def parse_output(text: str) -> tuple[dict, list[dict]]:
    """The harness's output: its `G` line (the drive as SSDsim read it) and its `R` lines
    (requests completed, simulated ns and SSDsim's cumulative counters) as rows."""
    drive: dict = {}
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "G":
            keys = ("channels", "chips", "dies_per_chip", "planes_per_die", "blocks_per_plane",
                    "pages_per_block", "queue_length")  # fmt: skip
            if len(parts) != len(keys) + 3:
                raise ValueError(f"harness output line {n}: a G line of {len(parts)} fields")
            drive = dict(zip(keys, (int(p) for p in parts[1:8]), strict=True))
            drive["overprovide"] = float(parts[8])
            drive["gc_hard_threshold"] = float(parts[9])
        elif parts[0] == "R":
            if len(parts) != 6:
                raise ValueError(f"harness output line {n}: expected 6 fields, got {len(parts)}")
            rows.append({"requests": int(parts[1]), "t_ns": int(parts[2]),
                         "programs": int(parts[3]), "erases": int(parts[4]),
                         "copy_backs": int(parts[5])})  # fmt: skip
    if not drive or not rows:
        raise ValueError("harness output has no G line or no R lines")
    return drive, rows


def rounds_of(rows: list[dict], span: int, per_round: int = REPORTS_PER_ROUND) -> list[dict]:
    """Cumulative rows (one a quarter span write; the first `per_round` the fill's) -> rounds
    of the random writes, `per_round` reports each (common.report_rounds)."""
    return common.report_rounds(rows, span, per_round, per_round)


fob_of = common.fob_of


def measure(binary: Path, work: Path, sample: str, extra_op: int, qd: int, drive_writes: float,
            g: dict, overprovide: float, threshold: float, t_prog_ns: int,
            workload: dict | None = None, seed: int = SEED,
            shuffle: bool = True) -> dict:  # fmt: skip
    span = span_pages(extra_op, g, overprovide)
    every = span // REPORTS_PER_ROUND
    span = every * REPORTS_PER_ROUND  # whole reports: the fill ends on one
    rounds = int(drive_writes)
    folder = work / f"op{extra_op}-qd{qd}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "page.parameters").write_text(
        parameters(sample, g, overprovide, threshold, t_prog_ns, qd)
    )
    draw = skewed_addresses.sampler(workload or {"pattern": "uniform"}, span, seed, shuffle)
    total = write_trace(folder / "trace.ascii", span, rounds * span, qd, draw)
    out_file = folder / "ex.out"  # SSDsim's per-request log: not kept
    if not out_file.is_symlink():
        out_file.unlink(missing_ok=True)
        out_file.symlink_to("/dev/null")
    cmd = [str(binary), str(total), str(every)]
    t0 = time.monotonic()
    res = subprocess.run(["nice", *cmd], input="trace.ascii\n", check=True, capture_output=True,
                         text=True, cwd=folder, timeout=RUN_TIMEOUT_S)  # fmt: skip
    wall = time.monotonic() - t0
    (folder / "trace.ascii").unlink()
    (folder / "harness.out").write_text(
        "\n".join(x for x in res.stdout.splitlines() if x[:2] in ("G ", "R ", "Q ")) + "\n"
    )
    if "error" in res.stdout.lower():
        raise RuntimeError(f"SSDsim reported an error at {extra_op}% QD{qd}: see its stdout")
    drive, rows = parse_output(res.stdout)
    return common.report_level_record(
        extra_op, qd, span, rows, REPORTS_PER_ROUND, REPORTS_PER_ROUND, wall_s=wall,
        command=" ".join(cmd[1:]), drive=drive, simulator="SSDsim",
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_arguments(
        ap,
        qd_sweep="4@0,40",
        drive_writes=12.0,
        out=Path(__file__).parent / "results" / "ssdsim" / "ssdsim-a.json",
    )
    ap.add_argument("--sample", type=Path, default=None,
                    help="SSDsim's page.parameters (default: beside the binary, src/)")  # fmt: skip
    ap.add_argument(
        "--geometry",
        type=geometry_of,
        default=GEOMETRY,
        help="CHANNELS,CHIPS,DIES,PLANES,BLOCKS,PAGES (default 2,2,1,2,256,64)",
    )
    ap.add_argument("--overprovide", type=float, default=0.25, help="SSDsim's native spare")
    ap.add_argument("--gc-hard-threshold", type=float, default=0.05)
    ap.add_argument("--t-prog-ns", type=int, default=T_PROG_NS)
    ap.add_argument("--pattern", default="uniform",
                    help="iob's pattern after the fill: uniform, zipf-shuffle, zones-shuffle "
                    "(zipf, zones: not shuffled; bench/foreign/skewed_addresses.py)")  # fmt: skip
    ap.add_argument(
        "--details",
        default="",
        help='its details: θ for zipf-shuffle, "sA fA sB fB" for zones-shuffle',
    )
    ap.add_argument("--seed", type=int, default=SEED, help="the trace's random pages")
    args = ap.parse_args(argv)
    workload = overprov_workload(args.pattern, args.details)
    g = args.geometry
    binary = args.binary.resolve()
    sample = (args.sample or binary.parent / "src" / "page.parameters").read_text(
        encoding="utf-8", errors="replace"
    )
    commit_file = binary.parent / "COMMIT"
    patches_file = binary.parent / "PATCHES"
    nand = physical_pages(g)
    user = user_pages(g, args.overprovide)
    doc = {
        "simulator": "SSDsim",
        "drive": f"{g['channels']} channels x {g['chips_per_channel']} chips x "
        f"{g['dies_per_chip']} dies x {g['planes_per_die']} planes x {g['blocks_per_plane']} "
        f"blocks x {g['pages_per_block']} pages of 4 KiB, overprovide {args.overprovide:g}, "
        f"gc hard threshold {args.gc_hard_threshold:g}, program {args.t_prog_ns / 1000:g} us: "
        f"{user * PAGE_BYTES / 2**20:.1f} MiB of user space on "
        f"{nand * PAGE_BYTES / 2**20:g} MiB of NAND",
        "repository": "https://github.com/huaicheng/ssdsim (its sources compiled with "
        "bench/foreign/ssdsim/harness.c by bench/foreign/ssdsim/build.sh)",
        **common.provenance(args.binary, "ssdsim.py", sys.argv[1:] if argv is None else argv),
        "patch": args.patch
        or (patches_file.read_text().strip() if patches_file.exists() else None),
        "extra_op_definition": "native spare (SSDsim's overprovide: the NAND beyond the user "
        "space) kept; the host writes the first (100 - X)% of the user space",
        "advertised_bytes": user * PAGE_BYTES,
        "physical_bytes": nand * PAGE_BYTES,
        "config": {
            "geometry": g,
            "page_bytes": PAGE_BYTES,
            "flash_ns": {"program": args.t_prog_ns, "read": 20000, "erase": 1500000},
            "overprovide": args.overprovide,
            "gc_hard_threshold": args.gc_hard_threshold,
            "ftl": "page mapping (address mapping 1), dynamic allocation (allocation 0, "
            "dynamic_allocation 0), no advanced commands (advanced command 0), no DRAM "
            "buffer (dram capacity 0), FCFS",
            "gc": "a host write leaving a plane under gc hard threshold x its pages free "
            "queues one uninterruptible collection of the plane (active_write 0): greedy "
            "victim (most invalid pages), valid pages moved within the plane, erase; run "
            "when its chip is idle, holding the channel for the moves and the chip for the "
            "erase",
            "host": "trace arrivals all at 0; SSDsim admits a request while fewer than "
            "queue_length = QD are in the device (a closed loop)",
            "preconditioning": "a sequential fill of the span (4 KiB writes) from empty",
        },
        "workload": f"4 KiB writes: the fill, then {workload_label(args.pattern, args.details)} "
        f"over the span's pages (bench/foreign/skewed_addresses.py, seed {args.seed})",
        "workload_label": workload_label(args.pattern, args.details),
        "overprov_workload": workload,
        "seed": args.seed,
        "pattern": args.pattern,
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    if commit_file.exists():
        doc["commit"] = commit_file.read_text().strip()
    common.run_cases(
        doc,
        common.cases(args.extra_op, args.qd, args.qd_sweep),
        lambda op, qd: measure(binary, args.work, sample, op, qd, args.drive_writes, g,
                               args.overprovide, args.gc_hard_threshold, args.t_prog_ns,
                               workload, args.seed, args.pattern.endswith("-shuffle")),
        args.out,
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
