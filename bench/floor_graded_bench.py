"""The graded plan (2 drive writes) on a simulated drive whose collector holds a reserve with a
victim floor (``twin.reserve_collector``): measured with the onset of garbage collection from
empty on or off, predicted at 0-40%, each level's WAF against the drive's own simulation there.

    PYTHONPATH=python python bench/floor_graded_bench.py --spare-factor 0.84 --floor-waf 6 \\
        --t-page-us 5 --t-cmd-us 2.5 --onset on --out bench/results/floor-graded/a-on.json

The rule it was run under: bench/results/floor-graded/RULE.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from overprov.calibrate import answer, twin, twin_runs
from overprov.calibrate import predict as predmod
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import design, parse_budget
from overprov.profile.sim_target import SimTarget

LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]
HELD_OUT = (10.0, 20.0, 30.0)


def run(args: argparse.Namespace) -> dict:
    rho0, collector = twin.reserve_collector(args.spare_factor, args.floor_waf)
    truth = twin.TwinParameters(
        advertised_bytes=2**31, native_op=rho0, t_page_us=args.t_page_us,
        t_cmd_us=args.t_cmd_us, uncertainty={}, source="truth", gc_reserve=collector,
        buffer_bytes=0,
    )  # fmt: skip
    plan = design([0, 40], parse_budget(args.budget), onset_from_empty=args.onset == "on")
    with SimTarget("sim:reserve-drive@1", drive=twin.drive_dict(truth)) as t:
        m = measure(t, plan, progress=lambda s: print("  |", s, file=sys.stderr))
    fig = predmod.PredictionInput(
        predmod.points_from(m), LEVELS, fob_iops=m.fob_iops, measurement=m,
        advertised_bytes=int(m.capacity_bytes / m.scale_factor), source="bench",
        bootstrap_samples=5,
    )  # fmt: skip
    pred = answer.predict(fig)
    got = {lv.extra_op_percent: lv.waf for lv in pred.levels}
    true = twin_runs.simulate_levels(truth, LEVELS, {"pattern": "uniform"}, timed=False, jobs=1)
    errors = {lv.extra_op_percent: got[lv.extra_op_percent] / lv.waf - 1 for lv in true.levels}
    held = [abs(errors[x]) for x in HELD_OUT]
    return {
        "drive": {k: str(v) for k, v in vars(args).items()}
        | {"native_op": rho0, "reserve": collector.reserve, "waf_floor": collector.waf_floor},
        "onset_spare_factor": m.onset_spare_factor,
        "measured": [
            {"extra_op_percent": lv.extra_op_percent, "waf": lv.waf, "steady_iops": lv.steady_iops,
             "queue_depth": lv.queue_depth, "settled": lv.settled}
            for lv in m.levels
        ],
        "drive_writes": m.drive_writes,
        "predicted_waf": got,
        "true_waf": {lv.extra_op_percent: lv.waf for lv in true.levels},
        "waf_error": errors,
        "held_out_median_abs_error": statistics.median(held),
        "held_out_max_abs_error": max(held),
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spare-factor", type=float, required=True)
    ap.add_argument("--floor-waf", type=float, required=True)
    ap.add_argument("--t-page-us", type=float, required=True)
    ap.add_argument("--t-cmd-us", type=float, required=True)
    ap.add_argument("--onset", choices=["on", "off"], default="on")
    ap.add_argument("--budget", default="2dw")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    out = run(args)
    text = json.dumps(out, indent=1, default=str)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
