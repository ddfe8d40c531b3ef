"""calibrate's graded plan (about 1.9 drive writes) against its earlier plan (about 3.4) on
the same drives: the steady figures each reaches at its measured levels, its predictions at
0-40% extra OP against the drive's truth, and the drive writes each spent (from its
measurement).

Targets: the presets and generated drives (``overprov.calibrate.validation.drive``) the twin
was not fitted to; truth is ``validation.truth`` (one drive, levels lowest first, each settled
after the freed space plus 1.5 span writes).

    PYTHONPATH=python python bench/cheap_plan_bench.py [--seeds 11-14] [--physical 2GiB]
        [--presets consumer-tlc-sata,older-mlc-sata,enterprise-tlc-nvme] [--plans graded,random]
        [--rounds] [--readings] [--dir DIR [--refit]] [--out FILE]

``--rounds`` also prints each plain random round's WAF at the first level (0%) against the
truth's, from the write counters. ``--dir`` keeps each calibration (DIR/DRIVE/cal-PLAN: its
measurement.json, to refit with ``overprov calibrate --from`` or ``--refit``, which fits each
kept measurement again instead of measuring). ``--readings`` adds two columns: the weight the
blocking-GC reading took (``blocking_reading.weigh``) and the analytic reading's own
predicted IOPS errors (docs/calibrate-graded-plan.md, "Why a 4% misreading became a 30-40%
miss").

Prints a markdown table (for bench/README.md and docs/calibrate-graded-plan.md) and writes
--out (JSON, default target/bench/cheap_plan_bench.json; each run with its drive's erase
blocks, which a scale's last digits can move by one: docs/calibrate-graded-plan.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from calibrate_bench import seeds_arg  # bench/ is on the path when run as a script
from overprov import measurement_file
from overprov.calibrate import answer, validation
from overprov.calibrate import predict as predmod
from overprov.calibrate.graded_run import round_waf
from overprov.calibrate.measure import measure, write_counters
from overprov.calibrate.plan import design, parse_budget
from overprov.calibrate.twin import TwinConfigError
from overprov.profile.sim_target import SimTarget
from overprov.units import parse_size_bytes

ROOT = Path(__file__).resolve().parent.parent
LEVELS = validation.TRUTH_LEVELS
PLANS = {"graded": "2dw", "random": "6dw"}


def calibrate(spec: str, precondition: str, folder: Path, refit: bool = False) -> dict:
    """Calibrate ``spec`` with ``precondition``'s plan into ``folder``/cal-PLAN (its
    measurement.json, prediction.json and twin); ``refit``: fit the measurement.json kept
    there by an earlier run instead of measuring again."""
    t0 = time.monotonic()
    out = folder / f"cal-{precondition}"
    kept = out / measurement_file.NAME
    said: list[str] = []
    with SimTarget(spec) as t:
        # the drive itself: a scale's last digits can move its NAND by an erase block
        blocks = t.physical_bytes // (t.pages_per_block * t.page_bytes)
        if refit:
            m = measurement_file.load(kept)
        else:
            plan = design(
                LEVELS, parse_budget(PLANS[precondition]),
                write_counters=write_counters(t) is not None, precondition=precondition,
            )  # fmt: skip
            m = measure(t, plan, said.append)
    fig = predmod.PredictionInput(
        predmod.points_from(m), LEVELS, fob_iops=m.fob_iops,
        advertised_bytes=int(m.capacity_bytes / m.scale_factor), measurement=m,
        source=f"{spec} ({precondition})",
    )  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    if not refit:
        measurement_file.save(m, kept)  # for `overprov calibrate --from` and --refit
    mechanism: dict = {}
    analytic: dict[float, float] = {}
    try:
        pred = answer.predict(fig).document(out)
        predicted = {r["extra_op_percent"]: (r["steady_iops"], r["waf"]) for r in pred["levels"]}
        # the analytic reading's own IOPS, where the blocking-GC reading was weighed with it
        analytic = {r["extra_op_percent"]: r["analytic_iops"]
                    for r in pred["levels"] if r.get("analytic_iops")}  # fmt: skip
        mechanism = pred["fit"].get("gc_mechanism") or {}
        no_prediction = None
    except TwinConfigError as exc:  # the fitted twin cannot be simulated: no figure at any level
        predicted = {x: (None, None) for x in LEVELS}
        no_prediction = str(exc)
    return {
        "drive_writes": m.drive_writes,
        "erase_blocks": blocks,
        "settled": all(lv.settled for lv in m.levels),
        # the levels at the plan's queue depth (not the QD4 probe, whose level is also 40%)
        "measured": {
            lv.extra_op_percent: (lv.steady_iops, lv.waf) for lv in m.levels if not lv.queue_depth
        },
        "spare_drive_writes": getattr(m, "spare_drive_writes", None),  # None before the field
        "spare_source": getattr(m, "spare_source", None),
        "predicted": predicted,
        "no_prediction": no_prediction,
        # how the prediction's IOPS were weighed (blocking_reading.weigh, evidence.py)
        "blocking_weight": mechanism.get("weight"),
        "chi2": {"analytic": mechanism.get("analytic_chi2"), "blocking": mechanism.get("chi2")},
        "analytic_iops": analytic,
        "wall_s": time.monotonic() - t0,
        "warnings": [line for line in said if line.startswith("WARNING")],
        # the first level's plain random rounds (not its sweeps or prefix rounds): their WAF
        "zero_round_wafs": [
            round_waf(before, r)
            for before, r in zip(m.rounds, m.rounds[1:], strict=False)
            if r.label.startswith(f"op{LEVELS[0]:g}-r")
        ],
    }


def _errors(predicted: dict[float, float | None], truth: dict[float, tuple]) -> list[float]:
    """|predicted IOPS / truth's − 1| at every level; a level left without a figure: 1."""
    return [abs(predicted[x] / truth[x][0] - 1) if predicted.get(x) else 1.0 for x in LEVELS]


def one(
    name: str, spec: str, folder: Path, plans: list[str], rounds: bool = False,
    refit: bool = False,
) -> dict:  # fmt: skip
    true = validation.truth(spec, LEVELS)
    truth = {lv.extra_op_percent: (lv.steady_iops, lv.waf) for lv in true.levels}
    row: dict = {"drive": name, "spec": spec, "truth_drive_writes": true.drive_writes}
    for pre in plans:
        c = calibrate(spec, pre, folder / name.replace(" ", "-"), refit)
        meas = [
            (c["measured"][x][0] / truth[x][0] - 1, (c["measured"][x][1] or 0) / truth[x][1] - 1)
            for x in c["measured"]
        ]
        # a level the prediction left without a figure counts as a miss of 100%
        errs = _errors({x: c["predicted"][x][0] for x in LEVELS}, truth)
        alone = _errors(c["analytic_iops"], truth) if c["analytic_iops"] else None
        werrs = [
            abs(c["predicted"][x][1] / truth[x][1] - 1) if c["predicted"][x][1] else 1.0
            for x in LEVELS
            if truth[x][1]
        ]
        row[pre] = {
            **c,
            "measured_vs_truth": meas,
            "median_error": statistics.median(errs),
            "worst_error": max(errs),
            "worst_waf_error": max(werrs),
            # the analytic reading alone (before it was weighed with the blocking-GC one)
            "analytic_median_error": statistics.median(alone) if alone else None,
            "analytic_worst_error": max(alone) if alone else None,
        }
        r = row[pre]
        weighed = (
            f"; blocking-GC weight {c['blocking_weight']:.3g} (chi2 analytic "
            f"{c['chi2']['analytic']:.0f}, blocking {c['chi2']['blocking']:.0f}), the analytic "
            f"reading alone {100 * r['analytic_median_error']:.1f}% / "
            f"{100 * r['analytic_worst_error']:.1f}%"
            if alone and c["blocking_weight"] is not None
            else ""
        )
        print(
            f"{name} {pre}: {c['drive_writes']:.2f} dw, measured vs truth "
            + ", ".join(f"{100 * a:+.1f}%/{100 * b:+.1f}%" for a, b in meas)
            + f"; prediction median {100 * row[pre]['median_error']:.1f}% worst "
            f"{100 * row[pre]['worst_error']:.1f}% (WAF worst {100 * max(werrs):.1f}%)"
            + weighed
            + (f"; no prediction: {c['no_prediction']}" if c["no_prediction"] else "")
            + "".join(f"\n  {w}" for w in c["warnings"]),
            file=sys.stderr,
            flush=True,
        )
        if rounds:
            zero = truth[LEVELS[0]][1]
            print(
                f"{name} {pre}: {LEVELS[0]:g}% rounds' WAF vs truth "
                + " ".join(f"{100 * (w / zero - 1):+.1f}" for w in c["zero_round_wafs"]),
                file=sys.stderr,
                flush=True,
            )
    return row


def _spare(c: dict) -> str:
    """What the graded plan's first level was sized to (drive writes) and how it was known."""
    if c.get("spare_drive_writes") is None:
        return "—"
    how = c["spare_source"].split(":")[0].removeprefix("garbage-collection ")
    return f"{c['spare_drive_writes']:.3f} ({how})"


def _reading(c: dict) -> str:
    """The blocking-GC reading's weight and the analytic reading's own IOPS errors."""
    if c.get("blocking_weight") is None or c.get("analytic_median_error") is None:
        return " — | — |"
    return (
        f" {c['blocking_weight']:.2g} | {100 * c['analytic_median_error']:.1f}% / "
        f"{100 * c['analytic_worst_error']:.1f}% |"
    )


def markdown(rows: list[dict], readings: bool = False) -> str:
    extra = " blocking-GC weight | analytic reading alone: IOPS median / worst |"
    out = [
        "| drive | plan | drive writes | settled | measured IOPS vs truth (0% / 40%) | "
        "measured WAF vs truth | predicted IOPS median / worst | predicted WAF worst | "
        "first level's free space |" + (extra if readings else ""),
        "|---|---|---|---|---|---|---|---|---|" + ("---|---|" if readings else ""),
    ]
    for r in rows:
        for pre in (p for p in PLANS if p in r):
            c = r[pre]
            iops = " / ".join(f"{100 * a:+.1f}%" for a, _ in c["measured_vs_truth"])
            waf = " / ".join(f"{100 * b:+.1f}%" for _, b in c["measured_vs_truth"])
            out.append(
                f"| {r['drive']} | {pre} | {c['drive_writes']:.2f} | "
                f"{'yes' if c['settled'] else 'no'} | {iops} | {waf} | "
                + (
                    "no prediction | — | "
                    if c.get("no_prediction")
                    else f"{100 * c['median_error']:.1f}% / {100 * c['worst_error']:.1f}% | "
                    f"{100 * c['worst_waf_error']:.1f}% | "
                )
                + f"{_spare(c)} |"
                + (_reading(c) if readings else "")
            )
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds_arg, default=seeds_arg("11-14"))
    ap.add_argument("--physical", default="2GiB")
    ap.add_argument("--presets", default="consumer-tlc-sata,older-mlc-sata")
    ap.add_argument("--plans", default=",".join(PLANS), help="graded,random (default both)")
    ap.add_argument("--rounds", action="store_true", help="each first-level round's WAF")
    ap.add_argument("--dir", type=Path, help="keep each calibration here (default: a temp folder)")
    ap.add_argument("--refit", action="store_true", help="fit --dir's measurements, not measure")
    ap.add_argument("--readings", action="store_true", help="the readings' weight, own errors")
    ap.add_argument("--out", type=Path, default=ROOT / "target/bench/cheap_plan_bench.json")
    args = ap.parse_args()
    physical = parse_size_bytes(args.physical, "--physical")
    plans = [p for p in args.plans.split(",") if p]
    if args.refit and args.dir is None:
        ap.error("--refit: give the --dir of the earlier run")
    if not plans or set(plans) - set(PLANS):
        ap.error(f"--plans: {args.plans!r}: give graded, random or both")
    folder = args.dir or Path(tempfile.mkdtemp(prefix="overprov-cheap-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"calibrations in {folder} (DRIVE/cal-PLAN)", file=sys.stderr, flush=True)
    rows = []
    for name in filter(None, args.presets.split(",")):
        rows.append(
            one(name, f"sim:{name}@{args.physical}", folder, plans, args.rounds, args.refit)
        )
    for seed in args.seeds:
        path = validation.write_drive(seed, folder)
        d = validation.drive(seed)
        spec = f"sim:{path}@{validation.scale_for(d, physical)}"
        rows.append(one(f"generated {seed}", spec, folder, plans, args.rounds, args.refit))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1, default=str) + "\n")
    print(markdown(rows, args.readings))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
