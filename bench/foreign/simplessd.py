"""Drive an already-built SimpleSSD-Standalone binary with 4 KiB random writes per OP level.

    python bench/foreign/simplessd.py --binary PATH/simplessd-standalone --work DIR \
        [--extra-op 0,10,20,30,40] [--qd 32] [--qd-sweep 4,128@0,40] [--drive-writes 4] \
        [--rounds 40] [--blocks-per-plane 64] [--commit SHA] [--library-commit SHA] \
        [--patch TEXT] \
        [--out bench/foreign/results/simplessd.json]

The drive: SimpleSSD 2.0's page-mapping FTL (SimpleSSD/SimpleSSD, the simulator library the
standalone build links) with its sample configuration's GC -- greedy victims (EvictPolicy 0),
GC when free blocks fall below 5% (GCThreshold 0.05), one block reclaimed per GC (GCMode 0)
plus one per write frontier when a frontier block filled since the last GC,
on demand in the write that finds the pool low, so that write waits for it -- on a small
geometry (GEOMETRY), 4 KiB flash pages with no superblock and no multi-plane operation (an
FTL page is a 4 KiB flash page), the internal cache off, no warm-up fill (each run starts from
an empty drive), native spare OverProvisioningRatio NATIVE_OP_RATIO. The request generator is
SimpleSSD-Standalone's fio-like one: randwrite, 4 KiB, async at the queue depth.

Extra OP X% is the host's span: the generator writes `size` = (100 - X)% of the user capacity
from offset 0 (a drive with a partition X% short of its capacity); the native spare stays.

Each (OP, QD) case is one run of D span writes (--drive-writes) with SimpleSSD's periodic
statistics (cumulative counters every LogPeriod of simulated time); the counters' differences
give per-interval IOPS (host write requests / time) and WAF (1 + GC page copies / host pages
written). Intervals are summed into --rounds rounds (40 unless given) of equal host writes;
the steady figures are the last 8 rounds' (calibrate's rule: within +-3% in range and trend).
FOB: the IOPS of the first FOB_SPAN_WRITES of the span (no GC ran in it: checked).
"""

from __future__ import annotations

import argparse
import contextlib
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

GEOMETRY = {"Channel": 2, "Package": 2, "Die": 1, "Plane": 2, "Block": 64, "Page": 64,
            "PageSize": 4096}  # fmt: skip
NATIVE_OP_RATIO = 0.25  # SimpleSSD's sample configuration
FOB_SPAN_WRITES = 0.25
ROUNDS = 40
PS_PER_S = 10**12


def physical_blocks() -> int:
    g = GEOMETRY
    return g["Channel"] * g["Package"] * g["Die"] * g["Plane"] * g["Block"]


def logical_pages() -> int:
    # FTL::FTL: totalLogicalBlocks = superBlock * (1 - OverProvisioningRatio), an integer
    return int(physical_blocks() * (1 - NATIVE_OP_RATIO)) * GEOMETRY["Page"]


def physical_pages() -> int:
    return physical_blocks() * GEOMETRY["Page"]


def ssd_config() -> str:
    g = GEOMETRY
    return f"""[cpu]
ClockSpeed = 400000000
HILCoreCount = 1
ICLCoreCount = 1
FTLCoreCount = 1
[nvme]
PCIEGeneration = 2
PCIELane = 4
AXIBusWidth = 2
AXIClock = 250000000
FIFOTransferUnit = 2048
WorkInterval = 1000000
MaxRequestCount = 8
MaxIOCQueue = 16
MaxIOSQueue = 16
WRRHigh = 2
WRRMedium = 2
DefaultNamespace = 1
LBASize = 512
EnableDiskImage = 0
StrictSizeCheck = 0
UseCopyOnWriteDisk = 0
[pal]
Channel = {g["Channel"]}
Package = {g["Package"]}
Die = {g["Die"]}
Plane = {g["Plane"]}
Block = {g["Block"]}
Page = {g["Page"]}
PageSize = {g["PageSize"]}
EnableMultiPlaneOperation = 0
NANDType = 1
LSBRead = 40000000
LSBWrite = 500000000
CSBRead = 0
CSBWrite = 0
MSBRead = 65000000
MSBWrite = 1300000000
Erase = 3500000000
DMASpeed = 400
DMAWidth = 8
SuperblockSize =
PageAllocation = CWDP
[ftl]
MappingMode = 0
OverProvisioningRatio = {NATIVE_OP_RATIO}
EraseThreshold = 100000
FillingMode = 0
FillRatio = 0.0
InvalidPageRatio = 0.0
EvictPolicy = 0
DChoiceParam = 3
GCThreshold = 0.05
GCMode = 0
GCReclaimBlocks = 1
GCReclaimThreshold = 0.1
EnableRandomIOTweak = 1
[icl]
CacheSize = 4194304
CacheWaySize = 8
EnableReadCache = 0
EnableReadPrefetch = 0
ReadPrefetchMode = 1
ReadPrefetchCount = 3
ReadPrefetchRatio = 0.25
EnableWriteCache = 0
EvictPolicy = 2
EvictMode = 1
"""


def sim_config(span_bytes: int, io_bytes: int, qd: int, log_period_ms: float) -> str:
    return f"""[global]
Mode = 0
LogPeriod = {log_period_ms:g}
LogFile = stats.log
DebugLogFile =
LatencyLogFile =
ProgressPeriod = 0
Interface = 0
Scheduler = 0
SubmissionLatency = 5us
CompletionLatency = 5us
[generator]
io_size = {io_bytes}
readwrite = randwrite
rwmixread = 0
blocksize = 4K
blockalign = 4K
iomode = async
iodepth = {qd}
offset = 0
size = {span_bytes}
thinktime = 0
randseed = 13245
time_based = 0
runtime = 10s
"""


BLOCK_RE = re.compile(r"Periodic log printout @ tick (\d+)\n(.*?)End of log", re.S)


def parse_log(text: str) -> list[dict]:
    """Each periodic printout as {tick, name: value}."""
    out = []
    for m in BLOCK_RE.finditer(text):
        row = {"tick": int(m.group(1))}
        for line in m.group(2).splitlines():
            parts = line.split()
            if len(parts) >= 2:
                with contextlib.suppress(ValueError):
                    row[parts[0]] = float(parts[1])
        out.append(row)
    return out


def key(row: dict, suffix: str) -> str:
    hits = [k for k in row if isinstance(k, str) and k.endswith(suffix)]
    if not hits:
        raise ValueError(f"SimpleSSD statistics have no '*{suffix}'")
    return min(hits, key=len)


def run(binary: Path, folder: Path, extra_op: int, qd: int, pages: int, period_ms: float) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    span = int(logical_pages() * (100 - extra_op) / 100)
    (folder / "ssd.cfg").write_text(ssd_config())
    (folder / "sim.cfg").write_text(sim_config(span * 4096, pages * 4096, qd, period_ms))
    t0 = time.monotonic()
    subprocess.run(
        ["nice", str(binary), str(folder / "sim.cfg"), str(folder / "ssd.cfg"), str(folder)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder,
    )  # fmt: skip
    return {"rows": parse_log((folder / "stats.log").read_text()), "wall_s": time.monotonic() - t0}


def rounds_of(rows: list[dict], span: int, n_rounds: int) -> list[dict]:
    """Cumulative printouts -> rounds of equal host writes: IOPS, WAF, span writes at the end."""
    w, c, g = (
        key(rows[-1], "write.request_count"),
        key(rows[-1], "gc.page_copies"),
        key(rows[-1], "gc.count"),
    )
    total = rows[-1][w]
    out, start = [], {"tick": 0, w: 0.0, c: 0.0, g: 0.0}
    for k in range(1, n_rounds + 1):
        goal = total * k / n_rounds
        end = next(r for r in rows if r[w] >= goal)
        if end[w] <= start[w]:
            continue
        host = end[w] - start[w]
        out.append({
            "span_writes": end[w] / span,
            "t_s": end["tick"] / PS_PER_S,
            "iops": host / ((end["tick"] - start["tick"]) / PS_PER_S),
            "waf": 1 + (end[c] - start[c]) / host,
            "gc_runs": end[g] - start[g],
        })  # fmt: skip
        start = end
    return out


def measure(
    binary: Path, work: Path, extra_op: int, qd: int, drive_writes: float, n_rounds: int = ROUNDS
) -> dict:
    span = int(logical_pages() * (100 - extra_op) / 100)
    folder = work / f"op{extra_op}-qd{qd}"
    # period: about 1/200 of a span write at FOB speed (~4,000 IOPS on this geometry), so
    # there are a few hundred printouts per span write at FOB speed and more when GC slows it
    period_ms = max(1.0, span / 4000 / 200 * 1000)
    res = run(binary, folder, extra_op, qd, int(span * drive_writes), period_ms)
    rows = res["rows"]
    w, g = key(rows[-1], "write.request_count"), key(rows[-1], "gc.count")
    fob_end = next(r for r in rows if r[w] >= FOB_SPAN_WRITES * span)
    if fob_end[g]:
        raise RuntimeError(f"GC ran in the FOB part at {extra_op}%")
    return common.level_record(
        extra_op, qd, span, drive_writes, rounds_of(rows, span, n_rounds),
        fob_end[w] / (fob_end["tick"] / PS_PER_S),
        {"span_writes": fob_end[w] / span, "gc_runs": fob_end[g]}, wall_s=res["wall_s"],
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    global NATIVE_OP_RATIO
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_arguments(
        ap,
        qd_sweep="4,128@0",
        drive_writes=4.0,
        out=Path(__file__).parent / "results" / "simplessd.json",
    )
    ap.add_argument(
        "--rounds",
        type=int,
        default=ROUNDS,
        help="rounds of equal host writes the run is cut into (the window is the last 8)",
    )
    ap.add_argument(
        "--blocks-per-plane", type=int, default=GEOMETRY["Block"], help="the geometry's Block"
    )
    ap.add_argument(
        "--commit", default=None, help="SimpleSSD-Standalone's commit built, when not a checkout's"
    )
    ap.add_argument(
        "--native-op", type=float, default=NATIVE_OP_RATIO, help="OverProvisioningRatio"
    )
    ap.add_argument("--library-commit", default=None, help="the SimpleSSD library's commit built")
    args = ap.parse_args(argv)
    GEOMETRY["Block"] = args.blocks_per_plane
    NATIVE_OP_RATIO = args.native_op
    cases = common.cases(args.extra_op, args.qd, args.qd_sweep)
    doc = {
        "simulator": "SimpleSSD",
        "repository": "https://github.com/SimpleSSD/SimpleSSD-Standalone (simulator library "
        "https://github.com/SimpleSSD/SimpleSSD at the standalone's submodule commit)",
        **common.provenance(args.binary, "simplessd.py", sys.argv[1:] if argv is None else argv),
        "patch": args.patch,
        "extra_op_definition": "native spare from OverProvisioningRatio kept; the generator's "
        "span (size) is (100 - X)% of the user capacity",
        "advertised_bytes": logical_pages() * GEOMETRY["PageSize"],
        "physical_bytes": physical_pages() * GEOMETRY["PageSize"],
        "config": {
            "geometry": GEOMETRY,
            "OverProvisioningRatio": NATIVE_OP_RATIO,
            "gc": "greedy (EvictPolicy 0), GCThreshold 0.05, GCMode 0 (1 block per GC, plus "
            "one per write frontier when a frontier block filled since the last GC), on demand "
            "in the write path",
            "flash": "MLC: read 40/65 us, program 500/1300 us (LSB/MSB), erase 3.5 ms; "
            "DMA 400 MT/s x8",
            "cache": "internal cache (ICL) read and write caching off; no superblock, "
            "no multi-plane",
            "interface": "none (requests straight to the HIL), 5 us submission and "
            "completion latency",
            "preconditioning": "FillRatio 0: every run starts from an empty drive",
        },
        "workload": "4 KiB random writes (randwrite, 4K aligned), async at the queue depth",
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    if args.commit:
        doc["commit"] = args.commit
    doc["library_commit"] = args.library_commit
    common.run_cases(
        doc,
        cases,
        lambda op, qd: measure(args.binary, args.work, op, qd, args.drive_writes, args.rounds),
        args.out,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
