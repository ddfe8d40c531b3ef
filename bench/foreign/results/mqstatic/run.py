"""MQSim's own trace at QD32 (the trace build, bench/foreign/mqsim_patches/trace/): one run a case,
its last span write traced and counted (``MQSIM_DIAG_FROM``), each candidate of
bench/foreign/results/mqorder/DIAGNOSIS.md switched off in turn.

    python bench/foreign/results/mqstatic/run.py --binary /work/foreign-build/mqsim-trace/MQSim \
        --work /tmp/mqstatic --drive 512x32 --levels 0,10 \
        --whatifs base,no-static-wl,no-barrier,rga-redraw --out runs.json

What-ifs: ``no-static-wl`` Static_Wearleveling_Enabled false (configuration); ``no-barrier``
MQSIM_WHATIF_NO_BARRIER=1 (host writes to a victim's valid pages are not parked behind the LPA
barrier; a relocation whose page was overwritten meanwhile is dropped); ``rga-redraw``
MQSIM_WHATIF_RGA_RESAMPLE=1 (an RGA set whose pick has no invalid page is drawn again instead
of the check starting no collection); ``skip-checks-0.2`` MQSIM_WHATIF_SKIP_CHECKS=0.2 (a check
that would start a collection starts none, one time in five). A postponed collection
(``Can_execute_gc_wl`` false) is counted, not switched: see DIAGNOSIS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent.parent.parent))
import mqsim  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402
from mqsim_pairing import MAX_ONGOING  # noqa: E402
from trace_summary import course, summarise  # noqa: E402

WHATIFS = {
    "base": {},
    "no-static-wl": {},
    "no-barrier": {"MQSIM_WHATIF_NO_BARRIER": "1"},
    "rga-redraw": {"MQSIM_WHATIF_RGA_RESAMPLE": "1"},
    # not a candidate: the mechanism's test (DIAGNOSIS.md) -- checks that start no collection
    # at the rate RGA's empty picks have at 0% outside the lockstep, at a level without them,
    # and at 0% with RGA's own empty picks redrawn
    "skip-checks-0.2": {"MQSIM_WHATIF_SKIP_CHECKS": "0.2"},
    "rga-redraw+skip-checks-0.2": {
        "MQSIM_WHATIF_RGA_RESAMPLE": "1",
        "MQSIM_WHATIF_SKIP_CHECKS": "0.2",
    },
}


def run_case(binary: Path, work: Path, blocks: int, pages: int, level: int, whatif: str,
             drive_writes: int, qd: int, keep_trace: bool, seed: int = 0,
             course_host: int = 0, window: tuple[int, int] | None = None) -> dict:  # fmt: skip
    mqsim.GEOMETRY["Block_No_Per_Plane"] = blocks
    mqsim.GEOMETRY["Page_No_Per_Block"] = pages
    span = int(mqsim.logical_pages() * (100 - level) / 100)
    folder = (
        work
        / f"u{blocks}x{pages}-{level}-{whatif}-s{seed}"
        / (f"{window[0]}-{window[1]}" if window else "")
    )
    folder.mkdir(parents=True, exist_ok=True)
    cfg = mqsim.ssd_config()
    if whatif == "no-static-wl":
        cfg = cfg.replace("<Static_Wearleveling_Enabled>true", "<Static_Wearleveling_Enabled>false")
    first, requests = window or (span * (drive_writes - 1), span * drive_writes)
    wl = mqsim.workload(level, qd, requests)
    if seed:  # another address stream and another device seed (RGA's draws): mqsim.py's plus seed
        cfg = cfg.replace("<Seed>321</Seed>", f"<Seed>{321 + seed}</Seed>")
        wl = wl.replace("<Seed>798</Seed>", f"<Seed>{798 + seed}</Seed>")
    (folder / "ssd.xml").write_text(cfg)
    (folder / "wl.xml").write_text(wl)
    env = dict(os.environ, MQSIM_DIAG_TRACE=str(folder / "trace.txt"),
               MQSIM_DIAG_COUNTERS=str(folder / "counters.json"),
               MQSIM_DIAG_FROM=str(first), **WHATIFS[whatif])  # fmt: skip
    c0, t0 = cpu_s(), time.monotonic()
    if course_host:  # the whole run, read as MQSim writes it (a FIFO), one row a chunk
        fifo = folder / "trace.fifo"
        fifo.unlink(missing_ok=True)
        os.mkfifo(fifo)
        env.update(MQSIM_DIAG_TRACE=str(fifo), MQSIM_DIAG_FROM="0")
    proc = subprocess.Popen(["nice", "-n", "10", str(binary), "-i", "ssd.xml", "-w", "wl.xml"],
                            cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
    rows_course = None
    if course_host:
        with open(fifo) as f:
            rows_course = course(f, course_host)
        fifo.unlink()
    _out, err = proc.communicate()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, None, err)
    mqsim_cpu = cpu_s() - c0
    if rows_course is not None:
        return {"drive": f"u{blocks}x{pages}", "level": level, "whatif": whatif, "queue_depth": qd,
                "seed": seed, "drive_writes": drive_writes, "span_pages": span,
                "course_host_writes": course_host, "course": rows_course,
                "returncode": proc.returncode, "cpu_s": round(mqsim_cpu, 1)}  # fmt: skip
    if done.returncode != 0:
        return {
            "drive": f"u{blocks}x{pages}",
            "level": level,
            "whatif": whatif,
            "queue_depth": qd,
            "seed": seed,
            "drive_writes": drive_writes,
            "error": done.stderr[-400:],
            "mqsim_cpu_s": mqsim_cpu,
        }
    out = (folder / "wl_scenario_1.xml").read_text()
    threshold = max(MAX_ONGOING, int(mqsim.GC_EXEC_THRESHOLD * blocks))
    c1 = cpu_s()
    summary = summarise(folder / "trace.txt", threshold)
    row = {
        "drive": f"u{blocks}x{pages}",
        "level": level,
        "whatif": whatif,
        "queue_depth": qd,
        "seed": seed,
        "span_pages": span,
        "drive_writes": drive_writes,
        "window": f"host writes issued from {first} to the run's end ({requests} requests)",
        **({"window_host_writes": list(window)} if window else {}),
        "gc_threshold_blocks": threshold,
        "counters": json.loads((folder / "counters.json").read_text()),
        "mqsim_report": {k: mqsim.attr(out, k) for k in (
            "Request_Count", "IOPS", "Issued_Flash_Program_CMD",
            "Issued_Flash_Multiplane_Program_CMD", "Total_GC_Executions", "Total_WL_Executions")},
        **summary,
        "mqsim_cpu_s": round(mqsim_cpu, 1),
        "summary_cpu_s": round(cpu_s() - c1, 1),
        "wall_s": round(time.monotonic() - t0, 1),
    }  # fmt: skip
    if not keep_trace:
        (folder / "trace.txt").unlink()
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", type=Path, required=True)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--drive", default="512x32")
    ap.add_argument("--levels", default="0,10")
    ap.add_argument("--whatifs", default=",".join(WHATIFS))
    ap.add_argument("--drive-writes", type=int, default=8)
    ap.add_argument("--qd", type=int, default=32)
    ap.add_argument("--seeds", default="0", help="0: mqsim.py's seeds; s: both seeds plus s")
    ap.add_argument("--keep-trace", action="store_true")
    ap.add_argument("--out", type=Path, required=True)
    course_help = "N: trace the whole run and record a row each N host writes (no window)"
    ap.add_argument("--course", type=int, default=0, help=course_help)
    ap.add_argument("--window", help="FROM,TO: trace host writes FROM to TO (TO requests run)")
    args = ap.parse_args()
    blocks, pages = map(int, args.drive.split("x"))
    rows = json.loads(args.out.read_text())["runs"] if args.out.exists() else []
    window = tuple(map(int, args.window.split(","))) if args.window else None
    key = ("drive", "level", "whatif", "queue_depth", "seed", "drive_writes", "course_host_writes",
           "window_host_writes")  # fmt: skip
    for level in map(int, args.levels.split(",")):
        for whatif in args.whatifs.split(","):
            for seed in map(int, args.seeds.split(",")):
                row = run_case(args.binary, args.work, blocks, pages, level, whatif,
                               args.drive_writes, args.qd, args.keep_trace, seed,
                               args.course, window)  # fmt: skip
                rows = [r for r in rows if tuple(r.get(k) for k in key)
                        != tuple(row.get(k) for k in key)] + [row]  # fmt: skip
                shown = ("drive", "level", "whatif", "seed", "paired", "us_per_nand_page",
                         "mqsim_cpu_s", "cpu_s", "error")  # fmt: skip
                print(json.dumps({k: row.get(k) for k in shown}), flush=True)
            args.out.write_text(
                json.dumps({"binary": str(args.binary), "runs": rows}, indent=1) + "\n"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
