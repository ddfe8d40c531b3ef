"""calibrate's graded plan (about 1.9 drive writes) against its earlier plan (about 3.4) on
the same drives: the steady figures each reaches at its measured levels, its predictions at
0-40% extra OP against the drive's truth, and the drive writes each spent (from its
measurement).

Targets: the presets and generated drives (``overprov.calibrate.validation.drive``) the twin
was not fitted to; truth is ``validation.truth`` (one drive, levels lowest first, each settled
after the freed space plus 1.5 span writes).

    PYTHONPATH=python python bench/cheap_plan_bench.py [--seeds 11-14] [--physical 2GiB]
        [--presets consumer-tlc-sata,older-mlc-sata,enterprise-tlc-nvme] [--plans graded,random]
        [--rounds] [--out FILE]

``--rounds`` also prints each plain random round's WAF at the first level (0%) against the
truth's, from the write counters.

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


def calibrate(spec: str, precondition: str, folder: Path) -> dict:
    t0 = time.monotonic()
    with SimTarget(spec) as t:
        plan = design(
            LEVELS, parse_budget(PLANS[precondition]), write_counters=write_counters(t) is not None,
            precondition=precondition,
        )  # fmt: skip
        said: list[str] = []
        m = measure(t, plan, said.append)
        # the drive itself: a scale's last digits can move its NAND by an erase block
        blocks = t.physical_bytes // (t.pages_per_block * t.page_bytes)
    fig = predmod.PredictionInput(
        predmod.points_from(m), LEVELS, fob_iops=m.fob_iops,
        advertised_bytes=int(m.capacity_bytes / m.scale_factor), measurement=m,
        source=f"{spec} ({precondition})",
    )  # fmt: skip
    try:
        pred = answer.predict(fig).document(folder / f"cal-{precondition}")
        predicted = {r["extra_op_percent"]: (r["steady_iops"], r["waf"]) for r in pred["levels"]}
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
        "wall_s": time.monotonic() - t0,
        "warnings": [line for line in said if line.startswith("WARNING")],
        # the first level's plain random rounds (not its sweeps or prefix rounds): their WAF
        "zero_round_wafs": [
            round_waf(before, r)
            for before, r in zip(m.rounds, m.rounds[1:], strict=False)
            if r.label.startswith(f"op{LEVELS[0]:g}-r")
        ],
    }


def one(name: str, spec: str, folder: Path, plans: list[str], rounds: bool = False) -> dict:
    true = validation.truth(spec, LEVELS)
    truth = {lv.extra_op_percent: (lv.steady_iops, lv.waf) for lv in true.levels}
    row: dict = {"drive": name, "spec": spec, "truth_drive_writes": true.drive_writes}
    for pre in plans:
        c = calibrate(spec, pre, folder)
        meas = [
            (c["measured"][x][0] / truth[x][0] - 1, (c["measured"][x][1] or 0) / truth[x][1] - 1)
            for x in c["measured"]
        ]
        # a level the prediction left without a figure counts as a miss of 100%
        errs = [
            abs(c["predicted"][x][0] / truth[x][0] - 1) if c["predicted"][x][0] else 1.0
            for x in LEVELS
        ]
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
        }
        print(
            f"{name} {pre}: {c['drive_writes']:.2f} dw, measured vs truth "
            + ", ".join(f"{100 * a:+.1f}%/{100 * b:+.1f}%" for a, b in meas)
            + f"; prediction median {100 * row[pre]['median_error']:.1f}% worst "
            f"{100 * row[pre]['worst_error']:.1f}% (WAF worst {100 * max(werrs):.1f}%)"
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


def markdown(rows: list[dict]) -> str:
    out = [
        "| drive | plan | drive writes | settled | measured IOPS vs truth (0% / 40%) | "
        "measured WAF vs truth | predicted IOPS median / worst | predicted WAF worst | "
        "first level's free space |",
        "|---|---|---|---|---|---|---|---|---|",
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
            )
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds_arg, default=seeds_arg("11-14"))
    ap.add_argument("--physical", default="2GiB")
    ap.add_argument("--presets", default="consumer-tlc-sata,older-mlc-sata")
    ap.add_argument("--plans", default=",".join(PLANS), help="graded,random (default both)")
    ap.add_argument("--rounds", action="store_true", help="each first-level round's WAF")
    ap.add_argument("--out", type=Path, default=ROOT / "target/bench/cheap_plan_bench.json")
    args = ap.parse_args()
    physical = parse_size_bytes(args.physical, "--physical")
    plans = [p for p in args.plans.split(",") if p]
    if not plans or set(plans) - set(PLANS):
        ap.error(f"--plans: {args.plans!r}: give graded, random or both")
    folder = Path(tempfile.mkdtemp(prefix="overprov-cheap-"))
    rows = []
    for name in filter(None, args.presets.split(",")):
        rows.append(one(name, f"sim:{name}@{args.physical}", folder, plans, args.rounds))
    for seed in args.seeds:
        path = validation.write_drive(seed, folder)
        d = validation.drive(seed)
        spec = f"sim:{path}@{validation.scale_for(d, physical)}"
        rows.append(one(f"generated {seed}", spec, folder, plans, args.rounds))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1, default=str) + "\n")
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
