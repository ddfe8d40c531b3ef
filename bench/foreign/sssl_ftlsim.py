"""Drive an already-built sssl-ftlsim (pjd-nu/sssl-ftlsim) with 4 KiB random writes per OP level.

    python bench/foreign/sssl_ftlsim.py --binary BUILD_DIR --python PYTHON2 --work DIR \
        [--policy greedy|lru] [--spare 0.07] [--extra-op 0,10,20,30,40] [--drive-writes 30] \
        [--blocks 512] [--pages-per-block 128] [--minfree 3] [--commit SHA] [--patch TEXT] \
        [--out bench/foreign/results/sssl-ftlsim-POLICY-spare007.json]

sssl-ftlsim is Peter Desnoyers' fast FTL simulator (Solid-State Storage Lab, Northeastern
University): a C core (page-mapped FTL, reverse map, free list, write frontier; greedy or LRU
(FIFO) cleaning of one pool) behind SWIG modules, driven from Python 2 scripts. It counts page
writes only: WAF, no time, no queue. BUILD_DIR is the folder its own `python2 setup.py build`
built the modules in (`--binary`, as for the other drivers); `--python` is the interpreter they
were built for. Each case runs `sssl_ftlsim_run.py` (the simulator's example set-up, one pool
cleaned into itself) in that interpreter.

The drive: U = --blocks segments of --pages-per-block 4 KiB pages of user space, native spare
S_f = --spare (the simulator's spare factor: T = int(U / (1 - S_f)) + minfree segments of NAND,
as its example scripts size it), cleaning when fewer than --minfree segments are free, one
victim at a time (`ftl.minfree` = `ftl.maxfree`), victims by --policy. Every run starts from an
empty drive; the workload is uniform random single-page writes (the simulator's
`getaddr.uniform`) over the first (100 - X)% of the user pages for extra OP X%.

Each case writes D = --drive-writes span writes in quarter-span steps; the series has one row
per span write (WAF = NAND page writes / host page writes in it, segments cleaned); the steady
figure is the last 8 rows' mean (calibrate's rule: within +-3% in range and trend). FOB
evidence: the first quarter span write from empty, with no segment cleaned and WAF 1 (checked).
There is no IOPS: `steady_iops` and `fob_iops` are null and the document says `measures`
["waf"].
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import common  # noqa: E402

PAGE_BYTES = 4096
STEPS_PER_SPAN = 4  # the harness reports every quarter span write: the first is the FOB


def span_pages(user_pages: int, extra_op: int) -> int:
    return user_pages * (100 - extra_op) // 100


def physical_blocks(blocks: int, spare: float, minfree: int) -> int:
    """The simulator's NAND in segments: greedy-high.py's T = int(U * alpha) + minfree."""
    return int(blocks / (1 - spare)) + minfree


def rows_of(steps: list[dict], span: int) -> list[dict]:
    """Quarter-span steps (the harness's lines: pages written in the step, segments cleaned in
    total) into one row per span write."""
    rows, cleaned_before = [], 0
    for k in range(0, len(steps) - STEPS_PER_SPAN + 1, STEPS_PER_SPAN):
        group = steps[k : k + STEPS_PER_SPAN]
        host = sum(s["host_pages"] for s in group)
        nand = sum(s["nand_pages"] for s in group)
        cleaned = group[-1]["segments_cleaned"]
        rows.append({
            "span_writes": sum(s["host_pages"] for s in steps[: k + STEPS_PER_SPAN]) / span,
            "waf": nand / host,
            "gc_runs": cleaned - cleaned_before,
            "host_pages": host,
            "nand_pages": nand,
        })  # fmt: skip
        cleaned_before = cleaned
    return rows


def run(args, extra_op: int) -> tuple[dict, list[dict]]:
    """One case in the simulator's interpreter: its header and its quarter-span steps."""
    user = args.blocks * args.pages_per_block
    span = span_pages(user, extra_op)
    step = span // STEPS_PER_SPAN
    n_steps = round(args.drive_writes * STEPS_PER_SPAN)
    cmd = [str(args.python), str(HERE / "sssl_ftlsim_run.py"), str(args.binary), args.policy,
           str(args.blocks), str(args.pages_per_block), str(args.spare), str(args.minfree),
           str(span), str(n_steps), str(step)]  # fmt: skip
    args.work.mkdir(parents=True, exist_ok=True)
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    log = args.work / f"{args.policy}-spare{args.spare:g}-op{extra_op}.log"
    log.write_text(res.stdout + res.stderr)
    if res.returncode != 0:
        raise RuntimeError(f"sssl-ftlsim failed at OP {extra_op}% (see {log})")
    lines = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
    return lines[0], lines[1:]


def measure(args, extra_op: int) -> dict:
    t0 = time.monotonic()
    header, steps = run(args, extra_op)
    user = args.blocks * args.pages_per_block
    span = span_pages(user, extra_op)
    step = span // STEPS_PER_SPAN
    rows = rows_of(steps, step * STEPS_PER_SPAN)
    rule = common.settle(rows, keys=("waf",))
    window = rows[rule["first_index"] :]
    first = steps[0]
    return {
        "extra_op_percent": extra_op,
        "queue_depth": 1,
        "span_pages": span,
        "drive_writes": rows[-1]["span_writes"],
        "physical_blocks": header["physical_blocks"],
        "steady_iops": None,
        "steady_waf": rule["waf_mean"],
        "fob_iops": None,
        "fob": {
            "span_writes": first["host_pages"] / span,
            "gc_runs": first["segments_cleaned"],
            "waf": first["nand_pages"] / first["host_pages"],
        },
        "steady_window": {
            "span_writes": [
                rows[rule["first_index"] - 1]["span_writes"],
                window[-1]["span_writes"],
            ],
            "settled": rule["settled"],
            "rule": rule | {"tolerance": common.WINDOW_TOLERANCE},
        },
        "series": rows,
        "wall_s": time.monotonic() - t0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", type=Path, required=True, help="the folder of its SWIG build")
    ap.add_argument("--python", type=Path, required=True, help="the interpreter it was built for")
    ap.add_argument("--work", type=Path, required=True, help="folder for the runs' logs")
    ap.add_argument("--policy", choices=("greedy", "lru"), default="greedy")
    ap.add_argument("--spare", type=float, default=0.07, help="native spare factor S_f")
    ap.add_argument("--extra-op", default="0,10,20,30,40")
    ap.add_argument("--drive-writes", type=float, default=30.0)
    ap.add_argument("--blocks", type=int, default=512, help="U: user segments")
    ap.add_argument("--pages-per-block", type=int, default=128, help="Np")
    ap.add_argument("--minfree", type=int, default=3, help="free segments kept by cleaning")
    ap.add_argument("--commit", default=None, help="sssl-ftlsim's commit built")
    ap.add_argument("--patch", default=None, help="what was patched in it, in words")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    name = f"sssl-ftlsim-{args.policy}-spare{round(args.spare * 100):03d}.json"
    out = args.out or HERE / "results" / name
    t_blocks = physical_blocks(args.blocks, args.spare, args.minfree)
    doc = {
        "simulator": "sssl-ftlsim",
        "drive": f"{args.policy}, spare factor {args.spare:g}",
        "repository": "https://github.com/pjd-nu/sssl-ftlsim",
        **common.provenance(args.binary, "sssl_ftlsim.py", sys.argv[1:] if argv is None else argv),
        "hardware": "2-core x86_64 VM; counted page writes (host speed does not change them)",
        "patch": args.patch,
        "measures": ["waf"],
        "extra_op_definition": "native spare S_f kept; the workload's addresses are the first "
        "(100 - X)% of the user pages",
        "advertised_bytes": args.blocks * args.pages_per_block * PAGE_BYTES,
        "physical_bytes": t_blocks * args.pages_per_block * PAGE_BYTES,
        "config": {
            "user_segments": args.blocks,
            "physical_segments": t_blocks,
            "pages_per_segment": args.pages_per_block,
            "page_bytes": PAGE_BYTES,
            "spare_factor": args.spare,
            "gc": f"{args.policy} victims over one pool, valid pages copied into the same pool's "
            f"write frontier; cleaning while fewer than {args.minfree} segments are free "
            f"(ftl.minfree = ftl.maxfree = {args.minfree}), one victim at a time",
            "preconditioning": "none: every run starts from an empty drive",
            "timing": "none: sssl-ftlsim counts page writes only (no IOPS, no queue)",
        },
        "workload": "uniform random single-page (4 KiB) writes, getaddr.uniform over the span, "
        "C library rand() unseeded (the same sequence every run); one write at a time "
        "(queue_depth 1: the simulator has no queue)",
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    if args.commit:
        doc["commit"] = args.commit
    label = f"{args.policy} S_f {args.spare:g}"
    common.run_waf_levels(doc, args.extra_op, lambda x: measure(args, x), label, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
