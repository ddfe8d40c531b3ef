"""Drive NVMeVirt's conventional FTL, built standalone, with 4 KiB random writes per OP level.

    python bench/foreign/nvmevirt.py --binary PATH/nvmevirt-conv-harness --work DIR \
        [--extra-op 0,10,20,30,40] [--qd 32] [--qd-sweep 4@0,40] [--drive-writes 12] \
        [--capacity-mb 4096] [--drive "--partitions 1 --nchs 4 ..."] \
        [--out bench/foreign/results/nvmevirt/nvmevirt-a.json]

NVMeVirt (snu-csl/nvmevirt; Sang-Hoon Kim, Jaehoon Shim, Euidong Lee, Seongyeop Jeong, Ilkueon
Kang, Jin-Soo Kim, "NVMeVirt: A Versatile Software-defined Virtual NVMe Device", USENIX FAST
2023) emulates an NVMe SSD as a Linux kernel module; its conventional FTL (`conv_ftl.c` over
`ssd.c`'s NAND and `channel_model.c`'s bandwidth model, descended from FEMU's black-box FTL)
is compiled here in user space, unmodified, with this repository's stand-ins for its kernel
headers and a closed-loop host in simulated time (nvmevirt/, built by nvmevirt/build.sh;
bench/foreign/README.md, "NVMeVirt: its conventional FTL compiled standalone").

The drive: NVMeVirt's SAMSUNG_970PRO model (its ssd_config.h, the conventional FTL's build):
4 partitions (each an FTL of its own over 2 of the 8 channels, host pages dealt round-robin),
2 LUNs a channel, 8,192 blocks a plane, 32 KiB flash and one-shot pages, program 185 us, erase
0, channels 800 MB/s, PCIe 3,360 MB/s, a 1 MiB write buffer with early completion, native spare
7% (OP_AREA_PERCENT: the namespace is the NAND / 1.07); the block size follows from the
capacity (--capacity-mb, NVMeVirt's memmap size). --drive passes other values of those macros
to the harness (its options: harness.c).

Extra OP X% is the host's span: the first (100 - X)% of the namespace's pages (the native spare
stays). Each (OP, QD) case is one run from an empty drive: a sequential fill of the span, then
D span writes of uniform random 4 KiB writes (--drive-writes); each span write is a round
(IOPS: writes completed / simulated time; WAF: NAND pages programmed, host and GC, / writes) and
the steady figures are the last 8 rounds' (calibrate's rule, common.settle). FOB: the first
quarter span write of the fill (no erase in it: checked).
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402
import femu  # noqa: E402

REPORTS_PER_ROUND = 4
CAPACITY_MB = 4096
SEED = 1
RUN_TIMEOUT_S = 3600
QD_SWEEP = "4@0,40"  # QD4 at 0% and 40%, beside QD32 at every level
DRIVE_WRITES = 12.0  # span writes of random writes after the fill
RESULTS = Path(__file__).parent / "results" / "nvmevirt"


def parse_output(text: str) -> tuple[dict, list[dict], int]:
    """The harness's output: its `G` line (the geometry conv_ftl derived) and its `R` lines,
    laid out as FEMU's harness lays them (femu.parse_output: writes dispatched, the latest
    completion's ns, NAND pages programmed, erases, free lines), as `common.report_rounds`'
    rows, and its `E` line (NVMeVirt's error count)."""
    errors = [int(line.split()[1]) for line in text.splitlines() if line.startswith("E ")]
    if not errors:
        raise ValueError("harness output has no E line")
    geometry, femu_rows = femu.parse_output(text)
    rows = [{"requests": r["host_pages"], "t_ns": r["t_ns"], "programs": r["nand_pages"],
             "erases": r["erases"], "free_lines": r["free_lines"]} for r in femu_rows]  # fmt: skip
    return geometry, rows, errors[-1]


def logical_pages(binary: Path, capacity_mb: int, drive: list[str]) -> int:
    """The namespace's pages as NVMeVirt sizes it (conv_init_namespace), from the harness."""
    cmd = [str(binary), "--capacity-mb", str(capacity_mb), *drive, "--span-pages", "1",
           "--host-pages", "0", "--report-every", "1"]  # fmt: skip
    res = subprocess.run(cmd, check=False, capture_output=True, text=True)
    first = res.stdout.splitlines()[0].split()
    return int(first[first.index("logical_pages") + 1])


def command(binary: Path, capacity_mb: int, drive: list[str], span: int, qd: int,
            random_pages: int, every: int) -> list[str]:  # fmt: skip
    return [str(binary), "--capacity-mb", str(capacity_mb), *drive, "--span-pages", str(span),
            "--fill", "--host-pages", str(random_pages), "--qd", str(qd),
            "--report-every", str(every), "--seed", str(SEED)]  # fmt: skip


def measure(binary: Path, work: Path, extra_op: int, qd: int, drive_writes: float,
            capacity_mb: int, drive: list[str], logical: int) -> dict:  # fmt: skip
    every = int(logical * (100 - extra_op) / 100) // REPORTS_PER_ROUND
    span = every * REPORTS_PER_ROUND  # whole reports: the fill ends on one
    rounds = int(drive_writes)
    folder = work / f"op{extra_op}-qd{qd}"
    folder.mkdir(parents=True, exist_ok=True)
    cmd = command(binary, capacity_mb, drive, span, qd, rounds * span, every)
    t0 = time.monotonic()
    res = subprocess.run(["nice", *cmd], check=True, capture_output=True, text=True,
                         timeout=RUN_TIMEOUT_S)  # fmt: skip
    wall = time.monotonic() - t0
    (folder / "harness.out").write_text(res.stdout)
    geometry, rows, errors = parse_output(res.stdout)
    if errors:
        raise RuntimeError(f"NVMeVirt reported {errors} errors at {extra_op}% QD{qd}: "
                           f"{res.stderr[:500]}")  # fmt: skip
    row = common.report_level_record(
        extra_op, qd, span, rows, REPORTS_PER_ROUND, REPORTS_PER_ROUND, wall_s=wall,
        command=shlex.join(cmd[1:]), drive=geometry, simulator="NVMeVirt",
    )  # fmt: skip
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_arguments(
        ap, qd_sweep=QD_SWEEP, drive_writes=DRIVE_WRITES, out=RESULTS / "nvmevirt-a.json"
    )
    ap.add_argument("--capacity-mb", type=int, default=CAPACITY_MB,
                    help="NVMeVirt's memmap size, MiB: the NAND (default 4096)")  # fmt: skip
    ap.add_argument("--drive", default="",
                    help="the harness's drive options where they differ from the 970PRO model "
                    "(e.g. \"--partitions 1 --nchs 4 --prog-ns 600000\")")  # fmt: skip
    ap.add_argument("--label", default="NVMeVirt's SAMSUNG_970PRO model",
                    help="the drive in words, for the results file")  # fmt: skip
    args = ap.parse_args(argv)
    binary = args.binary.resolve()
    drive = shlex.split(args.drive)
    logical = logical_pages(binary, args.capacity_mb, drive)
    commit_file = binary.parent / "COMMIT"
    doc = {
        "simulator": "NVMeVirt",
        "drive": f"{args.label}{' (' + args.drive + ')' if args.drive else ''}, "
        f"{args.capacity_mb} MiB of NAND, a namespace of {logical * 4096 / 2**20:.1f} MiB",
        "repository": "https://github.com/snu-csl/nvmevirt (conv_ftl.c, conv_ftl.h, ssd.c, "
        "ssd.h, channel_model.c, channel_model.h, pqueue/ compiled standalone by "
        "bench/foreign/nvmevirt/build.sh)",
        **common.provenance(args.binary, "nvmevirt.py", sys.argv[1:] if argv is None else argv),
        "patch": args.patch,
        "shims": "bench/foreign/nvmevirt/nvmev.h in place of NVMeVirt's nvmev.h (its kernel "
        "calls in user space, the clock the harness's simulated time), "
        "bench/foreign/nvmevirt/ssd_config.h in place of its ssd_config.h (the drive's macros "
        "read from the harness's options, the 970PRO model's values by default)",
        "extra_op_definition": "native spare (OP_AREA_PERCENT: the NAND beyond the namespace) "
        "kept; the host writes the first (100 - X)% of the namespace",
        "advertised_bytes": logical * 4096,
        "physical_bytes": args.capacity_mb * 2**20,
        "config": {
            "capacity_mb": args.capacity_mb,
            "drive_options": args.drive,
            "gc": "greedy victims (a priority queue on valid pages) by line (one block of "
            "every LUN of a partition); foreground only: every line's worth of host pages "
            "(then every victim's invalid pages: write credits) one line is collected if free "
            "lines <= 2 (gc_thres_lines_high), its valid pages moved to the GC write pointer's "
            "line; GC delay emulation on (enable_gc_delay)",
            "timing": "per-LUN next-available time and per-channel bandwidth (channel_model): "
            "a one-shot page's program = its channel transfer + tPROG; GC reads a flash page "
            "(tR + transfer), programs whole one-shot pages, erases; GC's operations start at "
            "the dispatch time of the write that ran it",
            "host": "closed loop at the queue depth in simulated time: a write submitted when "
            "a slot frees, dispatched in order (retried at the next buffer release while the "
            "write buffer is full), completed at the nsecs_target conv_write returns (early "
            "completion: the transfer into the buffer)",
            "preconditioning": "a sequential fill of the span (4 KiB writes) from empty",
        },
        "workload": f"4 KiB writes: the fill, then uniform random over the span's pages "
        f"(splitmix64, seed {SEED}), closed loop at the queue depth",
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    if commit_file.exists():
        doc["commit"] = commit_file.read_text().strip()

    def measure_level(op: int, qd: int) -> dict:
        return measure(binary, args.work, op, qd, args.drive_writes, args.capacity_mb, drive,
                       logical)  # fmt: skip

    levels = common.cases(args.extra_op, args.qd, args.qd_sweep)
    common.run_cases(doc, levels, measure_level, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
