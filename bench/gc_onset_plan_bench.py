"""The onset of garbage collection from empty as calibrate's plan dates it
(``calibrate/gc_onset.py``) against the simulator's own count, on simulated drives.

For each drive: calibrate's graded plan with the onset step (``plan.with_onset_step`` within
``--budget``) run through ``measure.measure`` as on any target (the
drive seen only through its write counters); then, on a fresh copy of the drive, the
simulator's own count (:func:`first_copy_from_empty`: host writes from a purge to the first
round whose garbage-collection page count is above zero, ``totals()["gc_pages"]``, rounds of
0.002 simulated seconds); then the same plan without the step. Prints a markdown table: both
figures, 1 + the free space the plan without the step measured after its fill (the same spare
on a drive whose collector uses its native spare), each plan's 0% and 40% IOPS and WAF against
the truth's (``validation.truth``), the drive writes each spent and the CPU seconds of both.

    PYTHONPATH=python python bench/gc_onset_plan_bench.py [--seeds 11,43] \\
        [--presets consumer-tlc-sata] [--physical 2GiB] [--budget 4dw]

``--fill`` (with ``--budget 2dw``): the graded plan's own way instead, the onset dated inside
its graded fill (``design(..., onset_from_empty=True)``: ``plan.with_graded_fill``), against
the same plan without it (the default plan at that budget): the onset, where it was dated (the
fill or the first level's sweeps), the simulator's first copy, the drive writes to the fill's
end, both plans' 0% and 40% IOPS and WAF against the truth, and the drive writes each spent.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from overprov.calibrate import validation
from overprov.calibrate.graded_run import SPARE_IN_FILL
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import design, fit_to_budget, parse_budget, with_onset_step
from overprov.profile.sim_target import SimTarget
from overprov.profile.targets import RoundSpec
from overprov.units import parse_size_bytes


def first_copy_from_empty(spec: str, round_seconds: float = 0.002) -> tuple[float, float]:
    """The simulator's own count: host writes ÷ capacity from a purge to the end of the first
    round whose garbage-collection page count is above zero, and that round's share of the
    capacity (the count's resolution)."""
    with SimTarget(spec) as t:
        t.purge()
        sim, cap = t._sim, t.capacity_bytes
        base = sim.totals()
        for i in range(1_000_000):
            r = t.run(RoundSpec(f"x{i}", "randwrite", 4096, 32, 1, cap, seconds=round_seconds))
            now = sim.totals()
            if now["gc_pages"] > base["gc_pages"]:
                host = (now["host_pages"] - base["host_pages"]) * t.page_bytes / cap
                return host, r.combined.bytes_written / cap
            if r.combined.bytes_written == 0:
                break
    raise ValueError(f"{spec}: no garbage collection")


def _errors(m, truth: dict) -> str:
    out = []
    for lv in m.levels:
        if lv.queue_depth is None:
            t = truth[lv.extra_op_percent]
            out.append(f"{100 * (lv.steady_iops / t.steady_iops - 1):+.1f} / "
                       f"{100 * (lv.waf / t.waf - 1):+.1f}%")  # fmt: skip
    return ", ".join(out)


def row(name: str, spec: str, budget: str) -> str:
    t0 = time.process_time()
    b = parse_budget(budget)
    graded = design([0, 40], b, precondition="graded")
    plan = fit_to_budget(with_onset_step(graded), b.drive_writes) if b.drive_writes else graded
    with SimTarget(spec) as t:
        m = measure(t, plan)
    with SimTarget(spec) as t:
        without = measure(t, replace(plan, onset_from_empty=False))
    cpu = time.process_time() - t0
    count, resolution = first_copy_from_empty(spec)
    truth = {lv.extra_op_percent: lv for lv in validation.truth(spec, [0.0, 40.0]).levels}
    onset = f"{m.onset_spare_factor:.4f}" if m.onset_spare_factor is not None else "—"
    after = f"{1 + without.spare_drive_writes:.4f}" if without.spare_drive_writes else "—"
    return (f"| {name} | {onset} | {count:.4f} (±{resolution:.4f}) | {after} | "
            f"{_errors(m, truth)} | {_errors(without, truth)} | {m.drive_writes:.2f} / "
            f"{without.drive_writes:.2f} | {cpu:.1f} |")  # fmt: skip


def fill_row(name: str, spec: str, budget: str) -> str:
    """The plan dating the onset in its graded fill (``design(..., onset_from_empty=True)`` at a
    graded ``budget``, ``plan.with_graded_fill``) against the same plan without any onset
    (``plan.design``'s default there), and the simulator's first copy from empty."""
    t0 = time.process_time()
    b = parse_budget(budget)
    plan = design([0, 40], b, precondition="graded", onset_from_empty=True)
    if not plan.fill_hazard:
        raise ValueError(f"{budget}: the plan does not hold the graded fill")
    with SimTarget(spec) as t:
        m = measure(t, plan)
    with SimTarget(spec) as t:
        without = measure(t, design([0, 40], b, precondition="graded", onset_from_empty=False))
    cpu = time.process_time() - t0
    count, resolution = first_copy_from_empty(spec)
    truth = {lv.extra_op_percent: lv for lv in validation.truth(spec, [0.0, 40.0]).levels}
    onset = f"{m.onset_spare_factor:.4f}" if m.onset_spare_factor is not None else "—"
    fill_end = sum(r.bytes_written for r in m.rounds if r.label.startswith(("fob", "fill")))
    where = "fill" if m.spare_source == SPARE_IN_FILL else "sweeps"
    return (f"| {name} | {onset} ({where}, {m.onset_source}) | {count:.4f} (±{resolution:.4f}) | "
            f"{fill_end / m.capacity_bytes:.3f} | {_errors(m, truth)} | {_errors(without, truth)} "
            f"| {m.drive_writes:.2f} / {without.drive_writes:.2f} | {cpu:.1f} |")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="11,43", help="generated drives (validation.drive)")
    ap.add_argument("--presets", default="consumer-tlc-sata", help="presets, comma-separated")
    ap.add_argument("--physical", default="2GiB", help="NAND of each generated drive")
    ap.add_argument("--preset-size", default="1GiB", help="the presets' size")
    ap.add_argument("--budget", default="4dw")
    ap.add_argument("--fill", action="store_true",
                    help="the onset dated in the graded fill (at --budget, e.g. 2dw) against "
                         "the plan without it")  # fmt: skip
    args = ap.parse_args(argv)
    if args.fill:
        print(
            "| drive | the plan's onset from empty (where) | the simulator's first copy | "
            "drive writes to the fill's end | 0%, 40% IOPS / WAF vs truth, with the graded "
            "fill | the same without | drive writes with / without | CPU s (both plans) |"
        )
        print("|---|---|---|---|---|---|---|---|")
        row_of = fill_row
    else:
        row_of = row
        print("| drive | the plan's onset from empty | the simulator's first copy | 1 + the free "
          "space after the fill (no step) | 0%, 40% IOPS / WAF vs truth, with the step | the "
          "same without | drive writes with / without | CPU s (both plans) |")  # fmt: skip
        print("|---|---|---|---|---|---|---|---|")
    physical = parse_size_bytes(args.physical, "--physical")
    with tempfile.TemporaryDirectory() as tmp:
        for seed in [int(s) for s in args.seeds.split(",") if s]:
            path = validation.write_drive(seed, Path(tmp))
            spec = f"sim:{path}@{validation.scale_for(validation.drive(seed), physical)}"
            print(row_of(f"generated {seed} at {args.physical}", spec, args.budget), flush=True)
        for p in [p for p in args.presets.split(",") if p]:
            print(row_of(f"{p} at {args.preset_size}", f"sim:{p}@{args.preset_size}",
                         args.budget), flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
