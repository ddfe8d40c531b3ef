"""Drive FlashSim's DFTL, built standalone, with 4 KiB random writes per OP level.

    python bench/foreign/flashsim.py --binary PATH/flashsim-dftl-harness --work DIR \
        [--conf bench/foreign/flashsim/drive-a.conf] [--extra-op 0,10,20,30,40] [--qd 32] \
        [--qd-sweep 4@0,40] [--drive-writes 12] \
        [--out bench/foreign/results/flashsim/flashsim-a.json]

FlashSim (MatiasBjorling/flashsim; Brendan Tauras, Youngjae Kim, Aayush Gupta, Bhuvan Urgaonkar,
"FlashSim: A Simulator for NAND Flash-based Solid-State Drives", SIMUL 2009) times every
request through its bus channels, RAM and NAND; its DFTL (`FTLs/dftl_ftl.cpp` over
`FTLs/dftl_parent.cpp`; Aayush Gupta, Youngjae Kim, Bhuvan Urgaonkar, "DFTL: A Flash Translation
Layer Employing Demand-based Selective Caching of Page-level Address Mappings", ASPLOS 2009)
maps pages, caches the map in a Cached Mapping Table (CMT) whose misses read a translation page
and whose dirty evictions write one, and collects greedy victims (`ssd_bm.cpp`). It is built by
flashsim/build.sh (one patch, flashsim/gc-trigger-count.patch) with a closed-loop host in
simulated time (flashsim/harness.cpp); the drive is a FlashSim config file (--conf, written to
the run's folder as the `ssd.conf` FlashSim reads).

FlashSim's DFTL maps every page of the drive and its GC holds back a share of the blocks free
(`Block_manager::insert_events`: it collects once the used share reaches 0.90, as counted
there); the host's namespace is the first NAMESPACE_SHARE of the pages. Extra OP X% is the host's
span: the first (100 - X)% of the namespace. Each (OP, QD) case is one run from an empty drive:
a sequential fill of the span, then D span writes of uniform random 4 KiB writes
(--drive-writes); each span write is a round (IOPS: writes completed / simulated time; WAF:
FlashSim's FTL writes -- host pages, GC copies and translation-page writes -- / writes) and the
steady figures are the last 8 rounds' (calibrate's rule, common.settle). FOB: the first quarter
span write of the fill (no erase in it: checked).
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

REPORTS_PER_ROUND = 4
NAMESPACE_SHARE = 0.90  # the host's namespace: this share of FlashSim's pages
SEED = 1
RUN_TIMEOUT_S = 3600
QD_SWEEP = "4@0,40"  # QD4 at 0% and 40%, beside QD32 at every level
DRIVE_WRITES = 12.0  # span writes of random writes after the fill
HERE = Path(__file__).resolve().parent
DRIVE_A = HERE / "flashsim" / "drive-a.conf"
RESULTS = HERE / "results" / "flashsim"


def parse_output(text: str) -> tuple[dict, list[dict]]:
    """The harness's output: its `G` line (the drive FlashSim derived) and its `R` lines
    (cumulative: writes completed, the completion's ns, FTL writes, erases, translation-page
    writes, FlashSim's free-block count) as `common.report_rounds`' rows."""
    geometry: dict = {}
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if parts and parts[0] == "G":
            geometry = {parts[i]: int(parts[i + 1]) for i in range(1, len(parts) - 1, 2)}
        elif parts and parts[0] == "R":
            if len(parts) != 7:
                raise ValueError(f"harness output line {n}: expected 7 fields, got {len(parts)}")
            done, t_ns, programs, erases, translation, free = (int(p) for p in parts[1:])
            rows.append({"requests": done, "t_ns": t_ns, "programs": programs, "erases": erases,
                         "translation_writes": translation, "free_blocks": free})  # fmt: skip
    if not geometry or not rows:
        raise ValueError("harness output has no G line or no R lines")
    return geometry, rows


def drive_pages(conf: Path) -> int:
    """The drive's pages as FlashSim's config sets them (all of them mapped by its DFTL)."""
    values = {}
    for line in conf.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2 and not line.startswith("#"):
            values[parts[0]] = float(parts[1])
    keys = ("SSD_SIZE", "PACKAGE_SIZE", "DIE_SIZE", "PLANE_SIZE", "BLOCK_SIZE")
    pages = 1
    for k in keys:
        pages *= int(values[k])
    return pages


def translation_share(rows: list[dict], span: int) -> float:
    """Translation-page writes per host write over the steady window (its last 8 rounds)."""
    a, b = rows[-1 - common.WINDOW_ROUNDS * REPORTS_PER_ROUND], rows[-1]
    return (b["translation_writes"] - a["translation_writes"]) / (b["requests"] - a["requests"])


def measure(binary: Path, conf: Path, work: Path, extra_op: int, qd: int, drive_writes: float,
            logical: int) -> dict:  # fmt: skip
    every = int(logical * (100 - extra_op) / 100) // REPORTS_PER_ROUND
    span = every * REPORTS_PER_ROUND  # whole reports: the fill ends on one
    rounds = int(drive_writes)
    folder = work / f"op{extra_op}-qd{qd}"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(conf, folder / "ssd.conf")
    cmd = [str(binary), "--span-pages", str(span), "--fill", "--host-pages", str(rounds * span),
           "--qd", str(qd), "--report-every", str(every), "--seed", str(SEED)]  # fmt: skip
    t0 = time.monotonic()
    res = subprocess.run(["nice", *cmd], check=True, capture_output=True, text=True,
                         timeout=RUN_TIMEOUT_S, cwd=folder)  # fmt: skip
    wall = time.monotonic() - t0
    (folder / "harness.out").write_text(res.stdout)
    geometry, rows = parse_output(res.stdout)
    row = common.report_level_record(
        extra_op, qd, span, rows, REPORTS_PER_ROUND, REPORTS_PER_ROUND, wall_s=wall,
        command=shlex.join(cmd[1:]), drive=geometry, simulator="FlashSim",
    )  # fmt: skip
    row["runs"] = {"translation_writes_per_write": translation_share(rows, span)}
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_arguments(
        ap, qd_sweep=QD_SWEEP, drive_writes=DRIVE_WRITES, out=RESULTS / "flashsim-a.json"
    )
    ap.add_argument("--conf", type=Path, default=DRIVE_A, help="the drive: a FlashSim config")
    ap.add_argument("--label", default="FlashSim's shipped ssd.conf (DFTL)",
                    help="the drive in words, for the results file")  # fmt: skip
    args = ap.parse_args(argv)
    binary = args.binary.resolve()
    conf = args.conf.resolve()
    physical_pages = drive_pages(conf)
    logical = int(physical_pages * NAMESPACE_SHARE)
    doc = {
        "simulator": "FlashSim DFTL",
        "drive": f"{args.label} ({args.conf.name}), {physical_pages * 4096 / 2**20:.0f} MiB of "
        f"NAND, a namespace of {logical * 4096 / 2**20:.1f} MiB",
        "repository": "https://github.com/MatiasBjorling/flashsim (ssd_*.cpp, FTLs/*.cpp, "
        "SSDSim.cpp compiled by bench/foreign/flashsim/build.sh)",
        **common.provenance(args.binary, "flashsim.py", sys.argv[1:] if argv is None else argv),
        "patch": args.patch,
        "extra_op_definition": f"the namespace is the first {NAMESPACE_SHARE:.0%} of "
        "FlashSim's pages (its DFTL maps them all); the host writes the first (100 - X)% of it",
        "advertised_bytes": logical * 4096,
        "physical_bytes": physical_pages * 4096,
        "config": {
            "conf": args.conf.read_text(),
            "gc": "FlashSim's Block_manager::insert_events, run when the data write pointer "
            "opens a block: once its used share reaches 0.90 it collects up to 5 victims, "
            "each the full block with the most invalid pages (while that is > 0), its valid "
            "pages read and written to the data write pointer (host and GC share one), then "
            "erased; the GC's time is added to the host write that ran it",
            "timing": "FlashSim's: a write locks its package's bus channel (control + data), "
            "then adds RAM and the page program to its time; reads and erases likewise; dies "
            "and planes keep no busy time (only the bus channels are shared)",
            "mapping": "DFTL's CMT (CACHE_DFTL_LIMIT translation pages of entries): a miss "
            "reads a translation page (a no-op read: timed, no data), a dirty eviction writes "
            "one (a no-op write: timed, counted in the FTL's writes, no flash page used)",
            "host": "closed loop at the queue depth in simulated time: each write starts at "
            "the earliest completion of those outstanding",
            "preconditioning": "a sequential fill of the span (4 KiB writes) from empty",
        },
        "workload": f"4 KiB writes: the fill, then uniform random over the span's pages "
        f"(splitmix64, seed {SEED}), closed loop at the queue depth",
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    commit_file = binary.parent / "COMMIT"
    if commit_file.exists():
        doc["commit"] = commit_file.read_text().strip()

    def measure_level(op: int, qd: int) -> dict:
        return measure(binary, conf, args.work, op, qd, args.drive_writes, logical)

    levels = common.cases(args.extra_op, args.qd, args.qd_sweep)
    common.run_cases(doc, levels, measure_level, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
