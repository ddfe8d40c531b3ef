"""Drive VSSIM's page-mapping FTL with 4 KiB random writes per OP level.

    python bench/foreign/vssim.py --binary /work/foreign-build/vssim/vssim-harness --work DIR \
        [--extra-op 0,10,20,30,40] [--drive-writes 10] [--flashes 8] [--channels 4] \
        [--blocks 64] [--block-pages 64] [--spare 0.07] [--ovp 0] \
        [--timings-us 82,940,82,140,2000,16,33] [--seed 1] [--out FILE]

VSSIM (Jinsoo Yoo, Youjip Won, Joongwoo Hwang, Sooyong Kang, Jongmoo Choi, Sungroh Yoon,
Jaehyuk Cha, "VSSIM: Virtual machine based SSD simulator", MSST 2013; ESOS-Lab/VSSIM, C, no
licence file: nothing of it is held here) is an SSD module inside QEMU that runs in real time.
Its page-mapping FTL (FTL/PAGE_MAP) and SSD module (SSD_MODULE/ssd_io_manager.c) are compiled
standalone and unmodified by bench/foreign/vssim/build.sh with this repository's host
(bench/foreign/vssim/harness.c) and a simulated clock (bench/foreign/vssim/clock.h: every
reading of VSSIM's clock advances it one time unit of 100 ns, so its busy-waits take simulated
time). The FTL as shipped (FTL/COMMON/common.h): a page map; host pages striped over the flash
chips in turn (GET_NEW_PAGE, VICTIM_OVERALL); after a host write, while the drive has at most one
empty block a chip left (GC_TRIGGER_OVERALL), a collection of GC_VICTIM_NB victims (20 when the
config's OVP is 0, else chips x blocks x OVP / 100 / 2 in integers), each the block with the
fewest valid pages over the whole drive (greedy), its valid pages read and written into the
same chip (VICTIM_INCHIP), then erased, all inside the host write that triggered it. Timing:
each chip's register and cell (REG_WRITE_DELAY then CELL_PROGRAM_DELAY, CELL_READ_DELAY then
REG_READ_DELAY, BLOCK_ERASE_DELAY), channel switches, and an operation on a chip waiting for
the chip's previous one (IO_PARALLELISM 0). One plane a chip: with two, its in-chip GC finds
no empty block and loops (bench/foreign/results/newftl/REPORT.md).

Host: VSSIM takes one request at a time in its caller's thread (an IDE device: no queue), so a
request completes when FTL_WRITE returns; every queue depth gives the same figures. The levels
are recorded at QD32, the depth the scoreboard reads, with `host_queue` saying so; no QD4 level.

The drive: VSSIM's sectors are its whole NAND (no spare of its own); the native drive's user
space is the first (1 - spare) of the NAND (--spare), and extra OP X% is the host writing the
first (100 - X)% of that user space (bench/foreign/README.md, "Extra OP X% on a foreign drive").
Each level is one run from empty: a sequential fill of the span, then D span writes of uniform
random 4 KiB writes (--drive-writes); a round is a span write (4 reports), IOPS = requests ÷
simulated time, WAF = (host pages + pages GC copied) ÷ host pages; the steady figures are the
last 8 rounds' (calibrate's rule: within ±3% in range and trend). FOB: the first quarter span
write of the fill (no erase in it: checked); VSSIM places a write by turn over the chips, not by
its address, so a sequential and a random write to an empty drive cost the same.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

PAGE_BYTES = 4096
SECTOR_BYTES = 512
REPORTS_PER_ROUND = 4
UNIT_NS = 100  # harness.c's VSSIM_UNIT_NS: ssd.conf's delays are in these
TIMING_KEYS = ("REG_WRITE_DELAY", "CELL_PROGRAM_DELAY", "REG_READ_DELAY", "CELL_READ_DELAY",
               "BLOCK_ERASE_DELAY", "CHANNEL_SWITCH_DELAY_R", "CHANNEL_SWITCH_DELAY_W")  # fmt: skip
SAMPLE_TIMINGS_US = (82, 940, 82, 140, 2000, 16, 33)  # VSSIM's CONFIG/ssd.conf
CPU_CAP_S = 300  # a run is stopped here (RLIMIT_CPU): a loop in VSSIM never ends on its own
REPOSITORY = "https://github.com/ESOS-Lab/VSSIM"


def timings_of(text: str) -> tuple[int, ...]:
    parts = tuple(int(v) for v in text.split(","))
    if len(parts) != len(TIMING_KEYS) or min(parts) < 0:
        raise ValueError(f"--timings-us {text!r}: {len(TIMING_KEYS)} integers ≥ 0")
    return parts


def ssd_conf(flashes: int, channels: int, blocks: int, block_pages: int, ovp: int,
             timings_us: tuple[int, ...]) -> str:  # fmt: skip
    """VSSIM's ssd.conf for this drive: its sample's keys, delays in harness time units."""
    lines = {
        "PAGE_SIZE": PAGE_BYTES, "PAGE_NB": block_pages, "SECTOR_SIZE": SECTOR_BYTES,
        "FLASH_NB": flashes, "BLOCK_NB": blocks, "PLANES_PER_FLASH": 1,
        **{k: t * 1000 // UNIT_NS for k, t in zip(TIMING_KEYS, timings_us, strict=True)},
        "IO_PARALLELISM": 0, "WRITE_BUFFER_FRAME_NB": 2048, "READ_BUFFER_FRAME_NB": 2048,
        "CACHE_IDX_SIZE": 10, "CHANNEL_NB": channels, "OVP": ovp,
    }  # fmt: skip
    return "".join(f"{k}\t{v}\n" for k, v in lines.items())


def victims_per_collection(flashes: int, blocks: int, ovp: int) -> int:
    """GC_VICTIM_NB as VSSIM's INIT_SSD_CONFIG sets it."""
    return flashes * blocks * ovp // 100 // 2 if ovp else 20


def user_pages(nand_pages: int, spare: float) -> int:
    return int(nand_pages * (1 - spare))


def span_pages(extra_op: int, user: int) -> int:
    span = int(user * (100 - extra_op) / 100)
    return span // REPORTS_PER_ROUND * REPORTS_PER_ROUND  # whole reports: the fill ends on one


def parse_output(text: str) -> list[dict]:
    """The harness's `R` lines as rows of cumulative counters; raises on a VSSIM error line or
    a run that did not reach `DONE`."""
    rows, done = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("ERROR"):
            raise RuntimeError(f"VSSIM reported an error, output line {n}: {line.strip()}")
        parts = line.split()
        if parts[:1] == ["R"]:
            if len(parts) != 6:
                raise ValueError(f"harness output line {n}: expected 6 fields, got {len(parts)}")
            rows.append({"requests": int(parts[1]), "t_ns": int(parts[2]),
                         "programs": int(parts[3]), "erases": int(parts[4]),
                         "gc_copies": int(parts[5])})  # fmt: skip
        done = done or parts == ["DONE"]
    if not rows or not done:
        raise ValueError("harness output has no R lines or no DONE")
    return rows


def run_harness(binary: Path, folder: Path, conf: str, span: int, writes: int,
                seed: int) -> tuple[str, float, float]:  # fmt: skip
    """One run from empty in `folder` (data/ssd.conf, no map files): stdout, wall s, CPU s."""
    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    for old in data.glob("*.dat"):
        old.unlink()
    (data / "ssd.conf").write_text(conf)
    cmd = ["nice", "-n", "10", str(binary), str(span), str(writes),
           str(span // REPORTS_PER_ROUND), str(seed)]  # fmt: skip
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_CAP_S, CPU_CAP_S + 5))

    res = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, preexec_fn=cap)
    wall = time.monotonic() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime
    (folder / "harness.out").write_text(res.stdout[-200000:])
    if res.returncode != 0:
        raise RuntimeError(f"the harness exited {res.returncode} after {cpu:.0f} CPU s in "
                           f"{folder}: {res.stderr.strip()[-300:]}")  # fmt: skip
    return res.stdout, wall, cpu


def measure(args: argparse.Namespace, extra_op: int, qd: int) -> dict:
    nand = args.flashes * args.blocks * args.block_pages
    span = span_pages(extra_op, user_pages(nand, args.spare))
    writes = int(args.drive_writes * span)
    conf = ssd_conf(args.flashes, args.channels, args.blocks, args.block_pages, args.ovp,
                    args.timings_us)  # fmt: skip
    folder = args.work / f"op{extra_op}"
    out, wall, cpu = run_harness(args.binary, folder, conf, span, writes, args.seed)
    rows = parse_output(out)
    drive = {"flashes": args.flashes, "channels": args.channels, "blocks": args.blocks,
             "block_pages": args.block_pages, "ovp": args.ovp,
             "gc_victims_per_collection": victims_per_collection(args.flashes, args.blocks,
                                                                 args.ovp)}  # fmt: skip
    rec = common.report_level_record(
        extra_op, qd, span, rows, REPORTS_PER_ROUND, REPORTS_PER_ROUND, wall_s=wall,
        command=f"{span} {writes} {span // REPORTS_PER_ROUND} {args.seed}", drive=drive,
        simulator="VSSIM",
    )  # fmt: skip
    rec["cpu_s"] = round(cpu, 1)
    return rec


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_out = Path(__file__).parent / "results" / "newftl" / "vssim-a.json"
    common.add_arguments(ap, qd_sweep="", drive_writes=10.0, out=default_out)
    ap.add_argument("--flashes", type=int, default=8, help="FLASH_NB: chips, one plane each")
    ap.add_argument("--channels", type=int, default=4, help="CHANNEL_NB")
    ap.add_argument("--blocks", type=int, default=64, help="BLOCK_NB: blocks a chip")
    ap.add_argument("--block-pages", type=int, default=64, help="PAGE_NB: pages a block")
    ap.add_argument("--spare", type=float, default=0.07,
                    help="the native spare: the share of the NAND the host never sees")  # fmt: skip
    ap.add_argument("--ovp", type=int, default=0, help="VSSIM's OVP (victims a collection)")
    ap.add_argument("--timings-us", type=timings_of, default=SAMPLE_TIMINGS_US,
                    help=f"µs: {','.join(TIMING_KEYS)} (default VSSIM's ssd.conf's)")  # fmt: skip
    ap.add_argument("--seed", type=int, default=1, help="the random writes' pages")
    args = ap.parse_args(argv)
    args.binary = args.binary.resolve()
    if args.qd_sweep:
        raise SystemExit("vssim.py: VSSIM has no queue; every depth gives the same figures")
    nand = args.flashes * args.blocks * args.block_pages
    user = user_pages(nand, args.spare)
    t = dict(zip(TIMING_KEYS, args.timings_us, strict=True))
    victims = victims_per_collection(args.flashes, args.blocks, args.ovp)
    conf = ssd_conf(args.flashes, args.channels, args.blocks, args.block_pages, args.ovp,
                    args.timings_us)  # fmt: skip
    commit_file = args.binary.parent / "COMMIT"
    doc = {
        "simulator": "VSSIM",
        "drive": f"{args.flashes} chips on {args.channels} channels x {args.blocks} blocks x "
        f"{args.block_pages} pages of 4 KiB, one plane a chip, native spare {args.spare:g}, "
        f"program {t['CELL_PROGRAM_DELAY']} us, {victims} victims a collection: "
        f"{user * PAGE_BYTES / 2**20:.1f} MiB of user space on "
        f"{nand * PAGE_BYTES / 2**20:g} MiB of NAND",
        "repository": f"{REPOSITORY} (FTL/PAGE_MAP, SSD_MODULE/ssd_io_manager.c, "
        "FTL/COMMON/ftl_perf_manager.c, CONFIG/vssim_config_manager.c unmodified, compiled with "
        "bench/foreign/vssim/harness.c and clock.h by bench/foreign/vssim/build.sh)",
        **common.provenance(args.binary, "vssim.py", sys.argv[1:] if argv is None else argv),
        "patch": None,
        "extra_op_definition": "native spare (--spare: the NAND beyond the user space) kept; "
        "the host writes the first (100 - X)% of the user space",
        "advertised_bytes": user * PAGE_BYTES,
        "physical_bytes": nand * PAGE_BYTES,
        "config": {
            "ssd_conf": conf,
            "time_unit_ns": UNIT_NS,
            "timings_us": t,
            "spare": args.spare,
            "ftl": "VSSIM's PAGE_MAP as shipped (common.h: GC_ON, GC_TRIGGER_OVERALL, "
            "FIRM_IO_BUFFER's buffer absent: no-op stand-ins), IO_PARALLELISM 0, one plane a chip",
            "gc": "after a host write, while empty blocks <= chips: GC_VICTIM_NB greedy victims "
            "over the whole drive, each moved within its chip and erased, in the host write",
            "host_queue": "none: VSSIM serves one request at a time in the caller's thread; a "
            "closed loop at any queue depth gives these figures, recorded at QD32",
            "clock": "simulated: each reading of VSSIM's clock advances it 100 ns "
            "(bench/foreign/vssim/clock.h)",
            "preconditioning": "a sequential fill of the span (4 KiB writes) from empty",
        },
        "workload": f"4 KiB writes: the fill, then uniform random over the span's pages "
        f"(harness.c's splitmix64, seed {args.seed})",
        "seed": args.seed,
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    if commit_file.exists():
        doc["commit"] = commit_file.read_text().strip()
    args.work.mkdir(parents=True, exist_ok=True)
    common.run_cases(doc, common.cases(args.extra_op, args.qd, ""),
                     lambda op, qd: measure(args, op, qd), args.out)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
