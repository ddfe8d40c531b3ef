"""The onset of garbage collection from empty on the FEMU drives results files describe.

    python bench/foreign/femu_onset.py --binary PATH/femu-bbssd-harness RESULTS.json ... \
        [--reports 1024] [--out FILE]
    python bench/foreign/femu_onset.py --plan --binary ... RESULTS.json ... [--out FILE]
    python bench/foreign/femu_onset.py --fill --binary ... RESULTS.json ... [--out FILE] \
        [--reports 2048] [--sweeps-drive-writes 0.4] [--work DIR]

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

``--fill``: the onset as the graded plan dates it inside its graded fill
(``plan.with_graded_fill``, ``graded_run.graded_fill``, ``gc_onset.date_in_rounds``), on the
writes that plan makes, from an empty drive: its FOB (``MeasurementPlan.fob_drive_writes`` of
random writes over the namespace), the fill's steps as ``precondition.graded_fill_steps`` gives
them (each the next share of the namespace in order, ended on a 128 KiB boundary as
``graded_fill`` ends it, then its random writes over the part filled), then the 0% level's
sweeps (``precondition.graded_rounds`` of ``SWEEP_DRIVE_WRITES``, prefixes as
``graded_run.round_region`` makes them) until they reach ``--sweeps-drive-writes``: the harness's
``--workload`` (one phase a round), its counters after each phase read as that round's write
counters and dated by the plan's code (``gc_onset.OnsetDating`` from the purge: the first
round with NAND writes above the host's, confirmed, read at its middle). FEMU's own first
copy on the same writes (``first_copy``) is the first of the reports every 1/``--reports``
of the namespace (and at every phase's end) with NAND pages above the host's, at the middle
of it and the report before. Phases are whole rounds here: the plan's rounds on a real target
are cut by time and a short share is carried to the next step, which moves a round's end by
less than its size.

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
from overprov.calibrate.graded_run import round_region  # noqa: E402
from overprov.calibrate.plan import FILL_HAZARD, Budget, MeasurementPlan  # noqa: E402
from overprov.calibrate.precondition import (  # noqa: E402
    SWEEP_DRIVE_WRITES,
    graded_fill_steps,
    graded_rounds,
)
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


def drive_of(cfg: dict) -> dict:
    """The FTL's parameters a results file's ``config`` records, for ``femu.command``."""
    # files written before femu.py recorded its thresholds ran run-blackbox.sh's
    drive = cfg.get("gc_thresholds", femu.GC_THRESHOLDS) | {
        k: cfg["geometry"][k] for k in (*femu.DRIVE_GEOMETRY, "pgs_per_blk")
    }
    return drive | {k: cfg["flash_ns"][k] for k in ("pg_rd_lat", "pg_wr_lat", "blk_er_lat")}


def fill_workload(span: int, sweeps_drive_writes: float) -> tuple[list[str], int]:
    """The graded plan's writes from the purge as harness phases (``--fill``: module
    docstring) over a namespace of ``span`` pages, and the phases before the sweeps."""
    page = femu.PAGE_BYTES
    cap = span * page
    phases = [f"rand 0 {span} {round(MeasurementPlan(Budget()).fob_drive_writes * span)}"]
    steps = graded_fill_steps(FILL_HAZARD)
    start = 0
    for i, step in enumerate(steps):
        end = cap if i == len(steps) - 1 else int(cap * step.end_fraction) // 131072 * 131072
        phases.append(f"seq {start // page} {(end - start) // page}")
        if round(step.random_drive_writes * span):
            phases.append(f"rand 0 {end // page} {round(step.random_drive_writes * span)}")
        start = end
    in_fill = len(phases)
    sweeps = 0.0
    while sweeps < sweeps_drive_writes:
        for r in graded_rounds(0.0, SWEEP_DRIVE_WRITES):
            size = round_region(cap, r, page)[1] // page
            phases.append(f"rand 0 {size} {max(1, round(r.drive_writes * span))}")
        sweeps += SWEEP_DRIVE_WRITES
    return phases, in_fill


def measure_fill(
    binary: Path, results: Path, reports: int, sweeps_drive_writes: float, work: Path
) -> dict:
    """``--fill`` on the drive ``results`` describes (module docstring)."""
    doc = json.loads(results.read_text())
    cfg = doc["config"]
    span = femu.logical_pages(cfg["namespace_mb"])
    phases, in_fill = fill_workload(span, sweeps_drive_writes)
    work.mkdir(parents=True, exist_ok=True)
    wl = work / f"{results.stem}.workload"
    wl.write_text("\n".join(phases) + "\n")
    cmd = femu.command(binary, span, QD, 1, max(span // reports, 1), drive_of(cfg))
    cmd += ["--workload", str(wl)]
    t0 = os.times()
    res = subprocess.run(["nice", *cmd], check=True, capture_output=True, text=True)
    t1 = os.times()
    child = (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)
    return {
        "file": str(results),
        "drive": doc["drive"],
        **date_fill(res.stdout, span, len(phases), in_fill),
        "workload": f"graded plan's FOB, graded fill (hazard {FILL_HAZARD:g}, "
        f"{len(graded_fill_steps(FILL_HAZARD))} steps), 0% sweeps up to "
        f"{sweeps_drive_writes:g} drive writes: {len(phases)} phases",
        "command": " ".join(cmd[1:]),
        "cpu_s": child,
    }


def date_fill(text: str, span: int, phases: int, in_fill: int) -> dict:
    """The harness's output on ``fill_workload``'s ``phases`` (the first ``in_fill`` of them the
    FOB and the fill): the onset the plan dates from the phases' counters, where, and FEMU's
    first copy from every report."""
    geometry, rows = femu.parse_output(text)
    rounds = _rows(text, "P")
    if len(rounds) != phases:
        raise ValueError(f"{len(rounds)} phase reports for {phases} phases")
    dated = plan_onset_of([rows[0], *rounds], span)
    fill_end = rounds[in_fill - 1]["host_pages"] / span
    first = onset_of(sorted(rows + rounds, key=lambda r: r["host_pages"]), span)
    return {
        **dated,
        "dated_by": "calibrate's plan (gc_onset.OnsetDating over the plan's rounds from the "
        "purge: the FOB, the fill's sequential and random steps, the 0% sweeps)",
        "dated_in": "fill" if dated["onset_spare_factor"] <= fill_end else "sweeps",
        "fill_end_drive_writes": fill_end,
        "first_copy": first,
        "difference": dated["onset_spare_factor"] - first["onset_spare_factor"],
        "gc_thres_lines": geometry["gc_thres_lines"],
        "harness_geometry": geometry,
    }


def _rows(text: str, kind: str) -> list[dict]:
    """The harness's ``kind`` lines (``P``: a phase's end) as ``femu.parse_output``'s rows."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == kind:
            host, t_ns, nand, erases, free = (int(p) for p in parts[1:])
            out.append({"host_pages": host, "t_ns": t_ns, "nand_pages": nand,
                        "erases": erases, "free_lines": free})  # fmt: skip
    return out


def measure(binary: Path, results: Path, reports: int, plan: bool = False) -> dict:
    doc = json.loads(results.read_text())
    cfg = doc["config"]
    span = femu.logical_pages(cfg["namespace_mb"])
    drive = drive_of(cfg)
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
    ap.add_argument(
        "--fill",
        action="store_true",
        help="date it in the graded plan's graded fill (the harness's --workload)",
    )
    ap.add_argument(
        "--sweeps-drive-writes",
        type=float,
        default=0.4,
        help="--fill: the 0%% level's sweeps written after the fill (reached or passed "
        "by one sweep)",
    )
    ap.add_argument("--work", type=Path, default=Path("target/femu-fill"),
                    help="--fill: where the workload files are written")  # fmt: skip
    args = ap.parse_args(argv)
    reports = round(1 / ONSET_ROUND_DRIVE_WRITES) if args.plan else args.reports
    if args.fill:
        out = [measure_fill(args.binary, p, args.reports, args.sweeps_drive_writes, args.work)
               for p in args.results]  # fmt: skip
    else:
        out = [measure(args.binary, p, reports, args.plan) for p in args.results]
    text = json.dumps(out, indent=1) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
