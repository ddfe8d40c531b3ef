"""The drive of tests/calibrate/test_reserve_reading.py's default-graded-plan test (a GC reserve
with a victim floor, spare factor 0.88), measured and predicted as that test does, with the
graded pass's carry off and on, at several of the simulator's random-write seeds: the held-out
WAF errors (%) against the drive's own simulation.

    PYTHONPATH=python python bench/foreign/results/onset-default5/reserve_test_seeds.py 1,2,3

Output: bench/foreign/results/onset-default5/reserve-test-seeds.txt (a diagnosis before
bench/foreign/results/onset-default5/RULE.md, not judged).
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path("bench").resolve()))
from cpu_clock import cpu_s as cpu  # noqa: E402
from overprov.calibrate import answer, graded_run, twin, twin_runs  # noqa: E402
from overprov.calibrate import predict as predmod  # noqa: E402
from overprov.calibrate.measure import measure  # noqa: E402
from overprov.calibrate.plan import design, parse_budget  # noqa: E402
from overprov.profile.sim_target import SimTarget  # noqa: E402

LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]


def main() -> None:
    rho0, collector = twin.reserve_collector(0.88, 8.0)
    truth = twin.TwinParameters(
        advertised_bytes=2**31, native_op=rho0, t_page_us=6.0, t_cmd_us=3.0, uncertainty={},
        source="truth", gc_reserve=collector, buffer_bytes=0,
    )  # fmt: skip
    c0 = cpu()
    true = twin_runs.simulate_levels(
        truth, [10.0, 20.0, 30.0], {"pattern": "uniform"}, timed=False, jobs=1
    )
    tw = {lv.extra_op_percent: lv.waf for lv in true.levels}
    print("truth", tw, "cpu", round(cpu() - c0, 1), flush=True)
    for seed in [int(s) for s in sys.argv[1].split(",")]:
        for carry in (False, True):
            graded_run.CARRY_GRADED_SURPLUS = carry
            c0 = cpu()
            p = design([0, 40], parse_budget("2dw"), onset_from_empty=True)
            with SimTarget("sim:reserve-drive@1", drive=twin.drive_dict(truth), seed=seed) as t:
                m = measure(t, p)
            fig = predmod.PredictionInput(
                predmod.points_from(m), LEVELS, fob_iops=m.fob_iops, measurement=m,
                advertised_bytes=int(m.capacity_bytes / m.scale_factor), source="test",
                bootstrap_samples=5,
            )  # fmt: skip
            got = {lv.extra_op_percent: lv.waf for lv in answer.predict(fig).levels}
            print(json.dumps({
                "seed": seed, "carry": carry, "onset": m.onset_spare_factor,
                "drive_writes": round(m.drive_writes, 3),
                "waf_err_pct": {x: round(100 * (got[x] / tw[x] - 1), 2) for x in tw},
                "measured": {lv.extra_op_percent: round(lv.waf, 3) for lv in m.levels
                             if lv.queue_depth is None},
                "cpu_s": round(cpu() - c0, 1),
            }), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
