"""U3 of bench/foreign/results/settle40/RULE.md: a generated reserve drive
(``bench/onset_default_bench.reserve_drive``), measured by calibrate's plan with the onset from
empty (``design([0, 40], 2dw, onset_from_empty=True)``, simulator seed 1) as
bench/foreign/results/onset-default5/reserve_test_seeds.py measures, predicted from that one
measurement with ``waf_drift.SD_FROM_DRIFT`` off and on, against its own simulation at 10/20/30%.

    PYTHONPATH=python python bench/foreign/results/settle40/reserve_drive.py NAME

Output: bench/foreign/results/settle40/unseen-reserve.txt.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path("bench").resolve()))
from cpu_clock import cpu_s as cpu  # noqa: E402
from onset_default_bench import reserve_drive  # noqa: E402
from overprov.calibrate import answer, twin, twin_runs, waf_drift  # noqa: E402
from overprov.calibrate import predict as predmod  # noqa: E402
from overprov.calibrate.measure import measure  # noqa: E402
from overprov.calibrate.plan import design, parse_budget  # noqa: E402
from overprov.profile.sim_target import SimTarget  # noqa: E402

LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]


def main() -> None:
    name = sys.argv[1]
    _, sf, floor, t_page, t_cmd = name.split("-")  # reserve-SF-FLOOR-TPAGE-TCMD
    rho0, collector = twin.reserve_collector(float(sf), float(floor))
    truth = twin.TwinParameters(
        advertised_bytes=2**31, native_op=rho0, t_page_us=float(t_page), t_cmd_us=float(t_cmd),
        uncertainty={}, source=name, gc_reserve=collector, buffer_bytes=0,
    )  # fmt: skip
    drive = reserve_drive(name)
    assert twin.drive_dict(truth) == drive  # the bench's drive, its parameters at hand
    c0 = cpu()
    sim = twin_runs.simulate_levels(truth, [10.0, 20.0, 30.0], {"pattern": "uniform"},
                                    timed=False, jobs=1)  # fmt: skip
    tw = {lv.extra_op_percent: lv.waf for lv in sim.levels}
    print(json.dumps({"drive": name, "truth_waf": tw, "cpu_s": round(cpu() - c0, 1)}), flush=True)
    c0 = cpu()
    p = design([0, 40], parse_budget("2dw"), onset_from_empty=True)
    with SimTarget(f"sim:{name}@1", drive=drive, seed=1) as t:
        m = measure(t, p)
    top = next(lv for lv in m.levels if lv.extra_op_percent == 40.0 and lv.queue_depth is None)
    drift = waf_drift.drift(m, top)
    print(json.dumps({
        "measure_cpu_s": round(cpu() - c0, 1), "onset": m.onset_spare_factor,
        "drive_writes": round(m.drive_writes, 3),
        "measured_waf": {lv.extra_op_percent: round(lv.waf, 3) for lv in m.levels
                         if lv.queue_depth is None},
        "top_drift_pct": None if drift is None else round(100 * drift, 1),
    }), flush=True)  # fmt: skip
    for flag in (False, True):
        waf_drift.SD_FROM_DRIFT = flag
        c0 = cpu()
        fig = predmod.PredictionInput(
            predmod.points_from(m), LEVELS, fob_iops=m.fob_iops, measurement=m,
            advertised_bytes=int(m.capacity_bytes / m.scale_factor), source="settle40",
            bootstrap_samples=5,
        )  # fmt: skip
        pred = answer.predict(fig)
        got = {lv.extra_op_percent: lv.waf for lv in pred.levels}
        errs = {x: round(100 * (got[x] / tw[x] - 1), 2) for x in tw}
        print(json.dumps({
            "sd_from_drift": flag, "cpu_s": round(cpu() - c0, 1),
            "top_waf_rel_sd": round(waf_drift.waf_rel_sd(m, top), 4),
            "predicted_waf": {x: round(got[x], 3) for x in tw}, "waf_err_pct": errs,
            "median_abs_pct": sorted(abs(e) for e in errs.values())[1],
            "worst_abs_pct": max(abs(e) for e in errs.values()),
        }), flush=True)  # fmt: skip
    waf_drift.SD_FROM_DRIFT = False


if __name__ == "__main__":
    main()
