"""The onset of garbage collection from empty on the FEMU drives results files describe.

    python bench/foreign/femu_onset.py --binary PATH/femu-bbssd-harness RESULTS.json ... \
        [--reports 1024] [--out FILE]
    python bench/foreign/femu_onset.py --plan --binary ... RESULTS.json ... [--out FILE]

For each results file written by femu.py (its ``config``: geometry, namespace, timings, GC
thresholds), the harness is run once more as that file's 0% level at QD32 (the plan's lowest
level: uniform random 4 KiB writes over the whole namespace, seed 1, from an empty drive) for
as many host writes as the drive has NAND pages, reporting its counters ``--reports`` times a
span write. The onset is the first report whose NAND pages exceed the host's (the first GC
copy: the write counters' WAF above 1, as calibrate's graded plan dates it,
``calibrate/graded_run.py``), taken at the middle of the two reports around it; the figure is
its host writes ÷ the user capacity (the namespace), the spare factor every reading predicts
(``calibrate/gc_reserve.py``, ``onset_spare_factor``). The run is femu.py's 0% run with finer
reports (the same seed and queue: the same writes), so it is the first part of that level.

``--plan``: the onset as calibrate's plan dates it (``calibrate/gc_onset.py``): reports every
``gc_onset.ONSET_ROUND_DRIVE_WRITES`` of the namespace (the plan's rounds), each read as a
round's write counters, dated by the plan's own code (``gc_onset.OnsetDating``: the first
round with NAND writes above the host's, confirmed by more excess soon after, read at its
middle). ``onset_spare_factor`` is then that figure; ``first_excess`` keeps this script's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import femu  # noqa: E402
from overprov.calibrate.gc_onset import ONSET_ROUND_DRIVE_WRITES, OnsetDating  # noqa: E402
from overprov.measurement_file import Round  # noqa: E402

QD = 32


def onset_of(rows: list[dict], user_pages: int) -> dict:
    """The first report with more NAND pages than host pages, read as host writes ÷
    ``user_pages`` at the middle of it and the report before (``resolution``: half the gap)."""
    for before, r in zip(rows, rows[1:], strict=False):
        if r["nand_pages"] > r["host_pages"]:
            mid = 0.5 * (before["host_pages"] + r["host_pages"])
            return {"onset_spare_factor": mid / user_pages,
                    "resolution": 0.5 * (r["host_pages"] - before["host_pages"]) / user_pages,
                    "free_lines_at_onset": r["free_lines"]}  # fmt: skip
    raise ValueError("no garbage collection within the run: no onset")


def plan_onset_of(rows: list[dict], user_pages: int, page_bytes: int = femu.PAGE_BYTES) -> dict:
    """The onset as the plan dates it: each report a round (its counters), through
    ``gc_onset.OnsetDating``; ``plan_resolution``: half the largest round."""
    dating = OnsetDating(user_pages * page_bytes)
    before = None
    biggest = 0
    for row in rows:
        host, nand = row["host_pages"] * page_bytes, row["nand_pages"] * page_bytes
        written = host - (before.host_bytes if before is not None else 0)
        biggest = max(biggest, written)
        r = Round("report", 0.0, 0.0, written, 0.0, None, host_bytes=host, nand_bytes=nand)
        if before is not None:
            dating.add(before, r)
        before = r
    if dating.spare_factor is None:
        raise ValueError("the plan's dating finds no onset within the run")
    return {"onset_spare_factor": dating.spare_factor,
            "plan_resolution": 0.5 * biggest / (user_pages * page_bytes),
            "dated_by": "calibrate's plan (gc_onset.OnsetDating, a round every "
                        f"{ONSET_ROUND_DRIVE_WRITES:g} of the namespace)"}  # fmt: skip


def measure(binary: Path, results: Path, reports: int, plan: bool = False) -> dict:
    doc = json.loads(results.read_text())
    cfg = doc["config"]
    span = femu.logical_pages(cfg["namespace_mb"])
    # files written before femu.py recorded its thresholds ran run-blackbox.sh's
    drive = cfg.get("gc_thresholds", femu.GC_THRESHOLDS) | {
        k: cfg["geometry"][k] for k in (*femu.DRIVE_GEOMETRY, "pgs_per_blk")
    }
    drive |= {k: cfg["flash_ns"][k] for k in ("pg_rd_lat", "pg_wr_lat", "blk_er_lat")}
    host_pages = femu.physical_pages(cfg["geometry"])
    cmd = femu.command(binary, span, QD, host_pages, max(span // reports, 1), drive)
    t0 = os.times()
    res = subprocess.run(["nice", *cmd], check=True, capture_output=True, text=True)
    t1 = os.times()
    child = (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)
    geometry, rows = femu.parse_output(res.stdout)
    first = onset_of(rows, span)
    dated = plan_onset_of(rows, span) if plan else {}
    if plan:
        first = {"first_excess": first}
    return {
        "file": str(results),
        "drive": doc["drive"],
        **first,
        **dated,
        "command": " ".join(cmd[1:]),
        "harness_geometry": geometry,
        "cpu_s": child,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", type=Path, required=True, help="the built femu-bbssd-harness")
    ap.add_argument("results", type=Path, nargs="+", help="femu.py results files")
    ap.add_argument("--reports", type=int, default=1024, help="reports per span write")
    ap.add_argument("--out", type=Path, default=None, help="write the onsets here (JSON)")
    ap.add_argument("--plan", action="store_true",
                    help="date the onset as the plan does (a report a round)")  # fmt: skip
    args = ap.parse_args(argv)
    reports = round(1 / ONSET_ROUND_DRIVE_WRITES) if args.plan else args.reports
    out = [measure(args.binary, p, reports, args.plan) for p in args.results]
    text = json.dumps(out, indent=1) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
