"""Drive FEMU's black-box SSD FTL, built standalone, with 4 KiB random writes per OP level.

    python bench/foreign/femu.py --binary PATH/femu-bbssd-harness --work DIR \
        [--extra-op 0,10,20,30,40] [--qd 32] [--qd-sweep 4,128@0,40] [--drive-writes 30] \
        [--commit SHA] [--out bench/foreign/results/femu.json] \
        [--gc-thres-pcent 75] [--gc-thres-pcent-high 95] [--nchs 8] [--luns-per-ch 8] \
        [--blks-per-pl 256] [--namespace-mb 12288] [--program-ns 200000] [--patch WORDS]

The drive: FEMU's black-box SSD (MoatLab/FEMU, hw/femu/bbssd/ftl.c with its pqueue library,
unmodified) as femu-scripts/run-blackbox.sh configures it: 8 channels x 8 LUNs x 1 plane x 256
blocks x 256 pages of 4 KiB (16 GiB of NAND), a 12 GiB namespace (`ssd_size=12288`: "a default
25% overprovisioning ratio"), page read 40 us, program 200 us, erase 2 ms, no channel time, GC
thresholds 75% and 95% (GEOMETRY, TIMINGS_NS, GC_THRESHOLDS, NAMESPACE_MB; the options of the
same names set another drive, --program-ns TIMINGS_NS's pg_wr_lat: the harness's configuration,
FEMU's code unchanged). Its FTL: a page map; a line is one block of every LUN (64 blocks),
written page by page across the LUNs; greedy victims (fewest valid pages, a priority queue);
background GC of one line after each request while free lines are at most 25% of all (victims
with at least 1/8 of the line invalid only), foreground GC in the write path while at most 5%
are free (any victim). Timing: each LUN's next-available time, advanced by every page read,
program and block erase, GC's included, so GC delays the host writes that land on its LUNs.

The binary is femu_harness/ of this folder (its own code: a stand-in for FEMU's QEMU header
and a closed-loop host in simulated time) compiled with FEMU's FTL source by
femu_harness/build.sh; README.md says how. Nothing here builds it.

Extra OP X% is the host's span: the harness writes uniform random pages over the first
(100 - X)% of the namespace; the native spare (NAND beyond the namespace) stays.

Each (OP, QD) case is one run of D span writes (--drive-writes) from an empty drive. The
harness prints cumulative counters read from the FTL's state every quarter span write; each
span write is a round (IOPS: host writes / simulated time; WAF: NAND pages programmed / host
pages written) and the steady figures are the last 8 rounds' (calibrate's rule: within +-3% in
range and trend). D is 30 by default: at 12 (every FEMU end-to-end truth before
bench/foreign/results/femufix/) the window 4-12 was unsettled at transition levels by that rule,
1.6-2.8% below the window 22-30 (bench/foreign/results/femularge/DIAGNOSIS.md (b)).
FOB: the first quarter span write from empty (no GC ran in it: checked).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

# hw/femu/femu.c's properties and femu-scripts/run-blackbox.sh (femu-v9.0.1)
GEOMETRY = {"secsz": 512, "secs_per_pg": 8, "pgs_per_blk": 256, "blks_per_pl": 256,
            "pls_per_lun": 1, "luns_per_ch": 8, "nchs": 8}  # fmt: skip
TIMINGS_NS = {"pg_rd_lat": 40000, "pg_wr_lat": 200000, "blk_er_lat": 2000000, "ch_xfer_lat": 0}
GC_THRESHOLDS = {"gc_thres_pcent": 75, "gc_thres_pcent_high": 95}
NAMESPACE_MB = 12288  # run-blackbox.sh: ssd_size (devsz_mb)
#: The geometry's parameters an option may change (pls_per_lun must be 1, ftl.c's check).
DRIVE_GEOMETRY = ("nchs", "luns_per_ch", "blks_per_pl")
SHIPPED_LUNS = 64
PAGE_BYTES = 4096
FOB_SPAN_WRITES = 0.25
SEED = 1


def default_namespace_mb(luns: int) -> int:
    """Another LUN count than run-blackbox.sh's keeps its blocks per LUN and its namespace of
    75% of the NAND (the unseen truths of docs/calibrate-validation.md, "IOPS that depend on
    queue depth over many parallel units")."""
    return NAMESPACE_MB * luns // SHIPPED_LUNS


def physical_pages(g: dict = GEOMETRY) -> int:
    return (g["nchs"] * g["luns_per_ch"] * g["pls_per_lun"] * g["blks_per_pl"]
            * g["pgs_per_blk"])  # fmt: skip


def logical_pages(namespace_mb: int = NAMESPACE_MB) -> int:
    return namespace_mb * 2**20 // PAGE_BYTES


def span_pages(extra_op: int, namespace_mb: int = NAMESPACE_MB) -> int:
    return int(logical_pages(namespace_mb) * (100 - extra_op) / 100)


def parse_output(text: str) -> tuple[dict, list[dict]]:
    """The harness's output: its `G` line (the FTL's derived geometry) and its `R` lines
    (cumulative counters) as rows."""
    geometry: dict = {}
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "G":
            geometry = {parts[i]: int(parts[i + 1]) for i in range(1, len(parts) - 1, 2)}
        elif parts[0] == "R":
            if len(parts) != 6:
                raise ValueError(f"harness output line {n}: expected 6 fields, got {len(parts)}")
            host, t_ns, nand, erases, free = (int(p) for p in parts[1:])
            rows.append({"host_pages": host, "t_ns": t_ns, "nand_pages": nand,
                         "erases": erases, "free_lines": free})  # fmt: skip
    if not geometry or not rows:
        raise ValueError("harness output has no G line or no R lines")
    return geometry, rows


def rounds_of(rows: list[dict], span: int, reports_per_round: int, blocks_per_line: int) -> list:
    """Cumulative rows (the first at zero) -> rounds of `reports_per_round` reports each:
    IOPS, WAF, lines collected, free lines at the round's end."""
    out = []
    for k in range(reports_per_round, len(rows), reports_per_round):
        a, b = rows[k - reports_per_round], rows[k]
        host = b["host_pages"] - a["host_pages"]
        out.append({
            "span_writes": b["host_pages"] / span,
            "t_s": b["t_ns"] / 1e9,
            "iops": host / ((b["t_ns"] - a["t_ns"]) / 1e9),
            "waf": (b["nand_pages"] - a["nand_pages"]) / host,
            "gc_runs": (b["erases"] - a["erases"]) // blocks_per_line,
            "free_lines": b["free_lines"],
        })  # fmt: skip
    return out


def fob_of(rows: list[dict], span: int, blocks_per_line: int) -> dict:
    """The first report at or past FOB_SPAN_WRITES of the span from empty (in whole pages: the
    harness reports every ``span // 4`` pages, below a quarter when 4 does not divide the span,
    and the report after it can be past an early onset of GC)."""
    end = next(r for r in rows if r["host_pages"] >= int(FOB_SPAN_WRITES * span))
    return {
        "iops": end["host_pages"] / (end["t_ns"] / 1e9),
        "span_writes": end["host_pages"] / span,
        "gc_runs": end["erases"] // blocks_per_line,
    }


def command(
    binary: Path,
    span: int,
    qd: int,
    host_pages: int,
    report_every: int,
    drive: dict | None = None,
) -> list[str]:
    """The harness's command line; ``drive``: the FTL's parameters (GEOMETRY, TIMINGS_NS,
    GC_THRESHOLDS by name) where they differ from run-blackbox.sh's."""
    cmd = [str(binary), "--span-pages", str(span), "--host-pages", str(host_pages),
           "--qd", str(qd), "--report-every", str(report_every), "--seed", str(SEED)]  # fmt: skip
    for name, value in (GEOMETRY | TIMINGS_NS | GC_THRESHOLDS | (drive or {})).items():
        if name not in ("secsz", "secs_per_pg", "pls_per_lun", "ch_xfer_lat"):
            cmd += ["--" + name.replace("_", "-"), str(value)]
    return cmd


def measure(
    binary: Path,
    work: Path,
    extra_op: int,
    qd: int,
    drive_writes: float,
    drive: dict | None = None,
    namespace_mb: int = NAMESPACE_MB,
) -> dict:
    span = span_pages(extra_op, namespace_mb)
    report_every = span // 4
    rounds = int(drive_writes)
    folder = work / f"op{extra_op}-qd{qd}"
    folder.mkdir(parents=True, exist_ok=True)
    cmd = command(binary, span, qd, report_every * 4 * rounds, report_every, drive)
    t0 = time.monotonic()
    res = subprocess.run(["nice", *cmd], check=True, capture_output=True, text=True)
    wall = time.monotonic() - t0
    (folder / "harness.out").write_text(res.stdout)
    geometry, rows = parse_output(res.stdout)
    per_line = geometry["tt_luns"]  # a line is one block of every LUN
    fob = fob_of(rows, span, per_line)
    if fob["gc_runs"]:
        raise RuntimeError(f"GC ran in the FOB part at {extra_op}%")
    return common.level_record(
        extra_op, qd, span, rounds * 4 * report_every / span, rounds_of(rows, span, 4, per_line),
        fob["iops"], {"span_writes": fob["span_writes"], "gc_runs": fob["gc_runs"]},
        wall_s=wall, harness={"command": " ".join(cmd[1:]), "geometry": geometry},
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_arguments(
        ap,
        qd_sweep="4,128@0,40",
        drive_writes=30.0,
        out=Path(__file__).parent / "results" / "femu.json",
    )
    ap.add_argument("--commit", default=None, help="FEMU's commit the harness was built from")
    for name, value in (GC_THRESHOLDS | {k: GEOMETRY[k] for k in DRIVE_GEOMETRY}).items():
        ap.add_argument("--" + name.replace("_", "-"), type=int, default=value,
                        help=f"FEMU's {name} (run-blackbox.sh: {value})")  # fmt: skip
    ap.add_argument(
        "--namespace-mb",
        type=int,
        default=None,
        help=f"the namespace (ssd_size), MiB (run-blackbox.sh: {NAMESPACE_MB}; with other "
        "LUN counts, default 75%% of the NAND as there)",
    )
    ap.add_argument("--program-ns", type=int, default=TIMINGS_NS["pg_wr_lat"],
                    help="page program time, ns (pg_wr_lat; run-blackbox.sh: 200000)")  # fmt: skip
    args = ap.parse_args(argv)
    TIMINGS_NS["pg_wr_lat"] = args.program_ns
    cases = common.cases(args.extra_op, args.qd, args.qd_sweep)
    commit_file = args.binary.resolve().parent / "COMMIT"
    gc = {k: getattr(args, k) for k in GC_THRESHOLDS}
    geometry = GEOMETRY | {k: getattr(args, k) for k in DRIVE_GEOMETRY}
    drive = gc | {k: geometry[k] for k in DRIVE_GEOMETRY}
    luns = geometry["nchs"] * geometry["luns_per_ch"]
    ns_mb = args.namespace_mb if args.namespace_mb is not None else default_namespace_mb(luns)
    lines = geometry["blks_per_pl"]
    nand_gib = physical_pages(geometry) * PAGE_BYTES / 2**30
    doc = {
        "simulator": "FEMU",
        "drive": f"black-box SSD (bbssd), {ns_mb / 1024:g} GiB namespace on {nand_gib:g} GiB "
        "of NAND"
        + (f", {luns} LUNs" if luns != SHIPPED_LUNS else "")
        + (f", program {args.program_ns / 1000:g} us" if args.program_ns != 200000 else ""),
        "repository": "https://github.com/MoatLab/FEMU (hw/femu/bbssd/ftl.c, ftl.h, "
        "hw/femu/lib/pqueue.c, inc/pqueue.h compiled standalone by "
        "bench/foreign/femu_harness/build.sh)",
        **common.provenance(args.binary, "femu.py", sys.argv[1:] if argv is None else argv),
        "patch": args.patch,
        "shims": "bench/foreign/femu_harness/nvme.h in place of FEMU's hw/femu/nvme.h: the "
        "BbCtrlParams, FemuCtrl and NvmeRequest fields ftl.c uses, QEMU's QTAILQ as glibc's "
        "TAILQ, g_malloc0 as calloc, qemu_clock_get_ns as the harness's simulated time, "
        "qemu_thread_create and the rings as no-ops (ftl_thread is not started: the harness "
        "calls ssd_write and the background GC check itself, as ftl_thread does)",
        "extra_op_definition": f"native spare (the NAND beyond the {ns_mb / 1024:g} GiB "
        "namespace) kept; the host writes the first (100 - X)% of the namespace",
        "advertised_bytes": logical_pages(ns_mb) * PAGE_BYTES,
        "physical_bytes": physical_pages(geometry) * PAGE_BYTES,
        "config": {
            "geometry": geometry,
            "namespace_mb": ns_mb,
            "flash_ns": TIMINGS_NS,
            "gc_thresholds": gc,
            "gc": f"greedy victims (priority queue on valid pages) by line (one block of each "
            f"of the {luns} LUNs); background: one line after each request while free lines <= "
            f"{100 - gc['gc_thres_pcent']}% of {lines} (gc_thres_pcent "
            f"{gc['gc_thres_pcent']}), only a victim with >= 1/8 of its pages invalid; "
            f"foreground in the write path while free lines <= "
            f"{100 - gc['gc_thres_pcent_high']}% (gc_thres_pcent_high "
            f"{gc['gc_thres_pcent_high']}), any victim; GC delay emulation on",
            "timing": f"per-LUN next-available time: read 40 us, program "
            f"{args.program_ns / 1000:g} us, erase 2 ms "
            "(GC's included); a write's latency is its page's LUN completion minus its "
            "submission; no channel time (ch_xfer_lat 0, as run-blackbox.sh)",
            "host": "closed loop at the queue depth in simulated time: a write submitted when "
            "a slot frees, completed at submission + the latency ssd_write returns",
            "preconditioning": "none: every run starts from an empty drive",
        },
        "workload": "4 KiB random writes (uniform over the span's pages, splitmix64 seed 1), "
        "closed loop at the queue depth",
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    if args.commit:
        doc["commit"] = args.commit
    elif commit_file.exists():
        doc["commit"] = commit_file.read_text().strip()
    common.run_cases(
        doc, cases,
        lambda op, qd: measure(args.binary, args.work, op, qd, args.drive_writes, drive, ns_mb),
        args.out,
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
