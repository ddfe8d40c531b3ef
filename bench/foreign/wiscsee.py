"""Drive WiscSim's page-mapped DFTL-DES with 4 KiB random writes per OP level.

    python bench/foreign/wiscsee.py --binary BUILD/src/wiscsim-harness --work DIR \
        [--extra-op 0,10,20,30,40] [--qd 32] [--qd-sweep 4@0,40] [--drive-writes 6] \
        [--geometry 4,32,32] [--over-provisioning 1.28] [--gc 0.95,0.9] [--gc-procs 16] \
        [--t-prog-ns 200000] [--reports-per-round 2] [--fix-move-race] \
        [--out bench/foreign/results/wiscsee/wiscsee-a.json]

WiscSim is the simulator of WiscSee (Jun He, Sudarsun Kannan, Andrea C. Arpaci-Dusseau, Remzi
H. Arpaci-Dusseau, "The Unwritten Contract of Solid State Drives", EuroSys 2017; junhe/wiscsee,
Python 2 on simpy, no licence file: none of it is kept here), set up by wiscsee/build.sh of this
folder, unpatched, and run by this repository's run loop (wiscsee/harness.py), which builds
WiscSim's own SSD, FTL and flash controller as its SimulatorDESNew does and prints WiscSim's own
flash counters every quarter span write.

The drive: WiscSim's dftldes (DFTL as a discrete-event simulation) with the whole mapping table
cached (a page-mapped FTL, as WiscSee's experiments set it), 4 KiB pages, --geometry channels,
blocks a channel, pages a block; WiscSim's flash is one resource a channel (`Channel3`: a page
read, program or block erase holds the channel for t_R, t_PROG or t_BERS; 20 us, 200 us and 1.5
ms, WiscSim's defaults, --t-prog-ns another program time), so its parallel units are its
channels. Host pages go round-robin over the channels (stripe_size 1). Native spare: WiscSee
sizes the NAND as the logical space times `over_provisioning` (its experiment.py in
config_helper), so the user space is the NAND's pages / over_provisioning. GC (dftldes.Cleaner):
after a request, a NCQ worker that finds more than GC_high of the blocks in use (not free) runs
a collection in that worker, holding its NCQ slot, while the other workers go on: greedy (the
used blocks by valid ratio, lowest first, none above 0.9), in batches of 2 x channels victims
cleaned concurrently (at most n_gc_procs at once), each victim's valid pages moved one after
another (read, program on the next channel in turn), then erased; until fewer than GC_low of the
blocks are in use. The worker then skips the check for its next 10 requests (WiscSim's
gc_sleep).

Queue depth: WiscSim's NCQ has `ncq_depth` workers, each taking the next request when it has
finished one (and its GC); the harness issues every request at time 0: a closed loop at
QD = ncq_depth.

Extra OP X% is the host's span: the first (100 - X)% of the user space's pages (the native spare
kept), as for every FTL of bench/foreign/README.md ("Extra OP X% on a foreign drive").

Each (OP, QD) case is one run from an empty drive: a sequential fill of the span, then D span
writes of uniform random 4 KiB writes (--drive-writes); a round is half a span write (WiscSim
runs a few hundred requests a CPU second once GC runs, and its victim search reads every page's
state, so the drives are small and the rounds short; --reports-per-round 4 makes a round one span
write; the settling rule is calibrate's: the last 8 rounds within +-3% in range and trend). IOPS:
requests
completed / simulated time; WAF: WiscSim's page programs (host, GC and translation pages) /
requests completed. FOB: the first quarter span write of the fill from empty (no erase in it:
checked).

--fix-move-race: the harness's run-time fix of WiscSim's GC-move race (wiscsee/harness.py,
`fix_move_race`: a GC move remaps only if its logical page still maps to the page it read, and a
host write invalidates the page mapped when it updates the mapping); off by default, so the
stored results reproduce; on, the results file's "patch" says so.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

GEOMETRY_KEYS = ("channels", "blocks_per_channel", "pages_per_block")
GEOMETRY = dict(zip(GEOMETRY_KEYS, (4, 32, 32), strict=True))
PAGE_BYTES = 4096
REPORTS_PER_SPAN = 4  # the harness reports every quarter span write
REPORTS_PER_ROUND = 2  # a round: half a span write (--reports-per-round)
SEED = 42
T_PROG_NS = 200000  # WiscSim's defaults (config.py, flash_default)
T_READ_NS = 20000
T_ERASE_NS = 1500000
RUN_TIMEOUT_S = 3600
MOVE_RACE_FIX = (
    "run time, by the harness (--fix-move-race): dftldes's GC move remaps its logical page only "
    "if it still maps to the page the move read (else the copy is marked invalid), and a host "
    "write invalidates the page mapped when it updates the mapping"
)


def physical_pages(g: dict) -> int:
    return g["channels"] * g["blocks_per_channel"] * g["pages_per_block"]


def user_pages(g: dict, over_provisioning: float) -> int:
    """The host's pages: the NAND's over WiscSee's over_provisioning (NAND = logical x it)."""
    return int(physical_pages(g) / over_provisioning)


def span_pages(extra_op: int, g: dict, over_provisioning: float) -> int:
    """The span at extra OP `extra_op`%, in whole quarter-span reports."""
    span = int(user_pages(g, over_provisioning) * (100 - extra_op) / 100)
    return span // REPORTS_PER_SPAN * REPORTS_PER_SPAN


def geometry_of(text: str) -> dict:
    """--geometry "CHANNELS,BLOCKS,PAGES" -> GEOMETRY's keys."""
    parts = [int(v) for v in text.split(",")]
    if len(parts) != len(GEOMETRY_KEYS) or min(parts) < 1:
        raise ValueError(f"--geometry {text!r}: three positive integers")
    return dict(zip(GEOMETRY_KEYS, parts, strict=True))


def gc_of(text: str) -> tuple[float, float]:
    """--gc "HIGH,LOW": WiscSim's GC_high_threshold_ratio and GC_low_threshold_ratio."""
    high, low = (float(v) for v in text.split(","))
    if not 0 < low < high < 1:
        raise ValueError(f"--gc {text!r}: 0 < LOW < HIGH < 1")
    return high, low


def parse_output(text: str) -> tuple[dict, list[dict]]:
    """The harness's report: its `G` line (the drive as WiscSim was given it) and its `R` lines
    (requests completed, simulated ns and WiscSim's cumulative flash counters) as rows."""
    drive: dict = {}
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "G":
            if len(parts) != 9:
                raise ValueError(f"harness report line {n}: a G line of {len(parts)} fields")
            keys = ("channels", "blocks_per_channel", "pages_per_block", "ncq_depth")
            drive = dict(zip(keys, (int(p) for p in parts[1:5]), strict=True))
            drive["over_provisioning"] = float(parts[5])
            drive["gc_high"] = float(parts[6])
            drive["gc_low"] = float(parts[7])
            drive["n_gc_procs"] = int(parts[8])
        elif parts[0] == "R":
            if len(parts) != 6:
                raise ValueError(f"harness report line {n}: expected 6 fields, got {len(parts)}")
            rows.append({"requests": int(parts[1]), "t_ns": int(parts[2]),
                         "programs": int(parts[3]), "erases": int(parts[4]),
                         "reads": int(parts[5])})  # fmt: skip
    if not drive or not rows:
        raise ValueError("harness report has no G line or no R lines")
    return drive, rows


def rounds_of(rows: list[dict], span: int, per_round: int = REPORTS_PER_ROUND) -> list[dict]:
    """Cumulative rows (one a quarter span write; the first REPORTS_PER_SPAN the fill's) ->
    rounds of the random writes, `per_round` reports each (common.report_rounds)."""
    return common.report_rounds(rows, span, REPORTS_PER_SPAN, per_round)


fob_of = common.fob_of


def spec_of(g: dict, args, span: int, qd: int, result_dir: Path) -> dict:
    high, low = args.gc
    return {
        **g,
        "over_provisioning": args.over_provisioning,
        "gc_high": high,
        "gc_low": low,
        "n_gc_procs": args.gc_procs,
        "t_prog_ns": args.t_prog_ns,
        "t_read_ns": T_READ_NS,
        "t_erase_ns": T_ERASE_NS,
        "ncq_depth": qd,
        "span_pages": span,
        "random_writes": int(args.drive_writes * span),
        "report_every": span // REPORTS_PER_SPAN,
        "seed": SEED,
        "result_dir": str(result_dir),
        "do_not_check_gc_setting": True,
        **({"fix_move_race": True} if args.fix_move_race else {}),
    }


def measure(binary: Path, work: Path, args, extra_op: int, qd: int) -> dict:
    g = args.geometry
    span = span_pages(extra_op, g, args.over_provisioning)
    folder = work / f"op{extra_op}-qd{qd}"
    folder.mkdir(parents=True, exist_ok=True)
    spec = spec_of(g, args, span, qd, folder / "wiscsim")
    (folder / "spec.json").write_text(json.dumps(spec, indent=1) + "\n")
    report = folder / "harness.out"
    cmd = [str(binary), "spec.json", report.name]
    t0 = time.monotonic()
    res = subprocess.run(["nice", *cmd], check=False, capture_output=True, text=True,
                         cwd=folder, timeout=RUN_TIMEOUT_S)  # fmt: skip
    wall = time.monotonic() - t0
    if res.returncode:
        (folder / "stderr.txt").write_text(res.stderr)
        raise RuntimeError(
            f"WiscSim failed at {extra_op}% QD{qd} (exit {res.returncode}): "
            f"{res.stderr.strip().splitlines()[-1] if res.stderr.strip() else 'no message'}"
        )
    drive, rows = parse_output(report.read_text())
    if rows[-1]["requests"] != span + spec["random_writes"]:
        raise RuntimeError(f"WiscSim stopped early at {extra_op}% QD{qd}: {rows[-1]}")
    return common.report_level_record(
        extra_op, qd, span, rows, REPORTS_PER_SPAN, args.reports_per_round, wall_s=wall,
        command=" ".join(cmd[1:]), drive=drive, simulator="WiscSim",
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_arguments(
        ap,
        qd_sweep="4@0,40",
        drive_writes=6.0,
        out=Path(__file__).parent / "results" / "wiscsee" / "wiscsee-a.json",
    )
    ap.add_argument(
        "--geometry",
        type=geometry_of,
        default=GEOMETRY,
        help="CHANNELS,BLOCKS_PER_CHANNEL,PAGES_PER_BLOCK (default 4,32,32)",
    )
    ap.add_argument(
        "--over-provisioning",
        type=float,
        default=1.28,
        help="WiscSee's over_provisioning: NAND / user space (default 1.28)",
    )
    ap.add_argument(
        "--gc",
        type=gc_of,
        default=(0.95, 0.9),
        help="GC_HIGH,GC_LOW: shares of blocks in use (default 0.95,0.9)",
    )
    ap.add_argument("--gc-procs", type=int, default=16, help="WiscSim's n_gc_procs")
    ap.add_argument("--t-prog-ns", type=int, default=T_PROG_NS)
    ap.add_argument(
        "--reports-per-round",
        type=int,
        default=REPORTS_PER_ROUND,
        help="quarter-span reports a round (default 2: half a span write; 4: one span write)",
    )
    ap.add_argument(
        "--fix-move-race",
        action="store_true",
        help="fix WiscSim's GC-move race at run time (wiscsee/harness.py's fix_move_race)",
    )
    args = ap.parse_args(argv)
    if args.fix_move_race and args.patch:
        ap.error("--fix-move-race names its own patch; --patch is for other changes")
    g = args.geometry
    binary = args.binary.resolve()
    commit_file = binary.parent / "COMMIT"
    nand = physical_pages(g)
    user = user_pages(g, args.over_provisioning)
    high, low = args.gc
    doc = {
        "simulator": "WiscSim (WiscSee)",
        "drive": f"{g['channels']} channels x {g['blocks_per_channel']} blocks x "
        f"{g['pages_per_block']} pages of 4 KiB, over_provisioning {args.over_provisioning:g}, "
        f"GC {high:g}/{low:g} of blocks in use, {args.gc_procs} GC processes, program "
        f"{args.t_prog_ns / 1000:g} us: {user * PAGE_BYTES / 2**20:.1f} MiB of user space on "
        f"{nand * PAGE_BYTES / 2**20:g} MiB of NAND",
        "repository": "https://github.com/junhe/wiscsee (unpatched, set up by "
        "bench/foreign/wiscsee/build.sh, run by bench/foreign/wiscsee/harness.py"
        + (
            ", its GC-move race fixed at run time by --fix-move-race)"
            if args.fix_move_race
            else ")"
        ),
        **common.provenance(args.binary, "wiscsee.py", sys.argv[1:] if argv is None else argv),
        "patch": MOVE_RACE_FIX if args.fix_move_race else args.patch or "none",
        "extra_op_definition": "native spare (the NAND beyond NAND / over_provisioning) kept; "
        "the host writes the first (100 - X)% of the user space",
        "advertised_bytes": user * PAGE_BYTES,
        "physical_bytes": nand * PAGE_BYTES,
        "config": {
            "geometry": g,
            "page_bytes": PAGE_BYTES,
            "flash_ns": {"program": args.t_prog_ns, "read": T_READ_NS, "erase": T_ERASE_NS},
            "over_provisioning": args.over_provisioning,
            "gc_high_threshold_ratio": high,
            "gc_low_threshold_ratio": low,
            "n_gc_procs": args.gc_procs,
            "ftl": "dftldes with the whole mapping table cached (page mapping), stripe_size 1 "
            "(host pages round-robin over the channels), one flash resource a channel",
            "gc": "a NCQ worker finding more than GC_high of the blocks in use runs a greedy "
            "collection (lowest valid ratio first, none above 0.9) in batches of 2 x channels "
            "victims, at most n_gc_procs at once, until under GC_low; its NCQ slot held",
            "host": "every request issued at 0; ncq_depth = QD workers (a closed loop)",
            "preconditioning": "a sequential fill of the span (4 KiB writes) from empty",
        },
        "workload": f"4 KiB writes: the fill, then uniform random pages over the span "
        f"(Python random, seed {SEED})",
        "drive_writes": args.drive_writes,
        "round_span_writes": args.reports_per_round / REPORTS_PER_SPAN,
        "levels": [],
    }
    if commit_file.exists():
        doc["commit"] = commit_file.read_text().strip()
    common.run_cases(
        doc,
        common.cases(args.extra_op, args.qd, args.qd_sweep),
        lambda op, qd: measure(binary, args.work, args, op, qd),
        args.out,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
