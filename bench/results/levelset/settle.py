"""Does a longer settle before each level's window remove the level-set dependence?

The twin of reproduce.py (the --from refit of sim:older-mlc-sata@1GiB), rebuilt the same way,
swept at [20], [0,20], [40], [20,40], [30,40] with the plan's default settle (0.8 span writes)
and with 3 span writes, seed 1..2. Prints JSON (settle.json) with CPU seconds (bench/cpu_clock.py).

    PYTHONPATH=python:bench:bench/results/levelset nice -n 10 /work/main/.venv/bin/python \
        bench/results/levelset/settle.py > bench/results/levelset/settle.json
"""

from __future__ import annotations

import json
import sys

from cpu_clock import cpu_s
from overprov.calibrate import twin as twinmod
from overprov.calibrate.budget import Budget
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import MeasurementPlan, segments_for
from overprov.profile.sim_target import SimTarget
from reproduce import _quiet_main  # the same CLI wrapper

SETS = [[20], [0, 20], [40], [20, 40], [30, 40]]


def _twin() -> twinmod.TwinParameters:
    import tempfile
    from pathlib import Path

    tmp = Path(tempfile.mkdtemp(prefix="levelset-settle-"))
    _quiet_main(["calibrate", "sim:older-mlc-sata@1GiB", "--out", str(tmp / "cal"),
                 "--extra-op", "0,10,20,30,40", "--target-iops", "20000"])  # fmt: skip
    got = []
    real = twinmod.simulate_levels

    def spy(p, levels, **kw):
        got.append(p)
        return real(p, levels, **kw)

    twinmod.simulate_levels = spy
    _quiet_main(["calibrate", "--from", str(tmp / "cal"), "--out", str(tmp / "r"),
                 "--extra-op", "20", "--json", "-"])  # fmt: skip
    twinmod.simulate_levels = real
    return got[-1]


def main() -> dict:
    twin = _twin()
    rows = []
    t = cpu_s()
    for settle in (None, 3.0):
        for s in SETS:
            for seed in (1, 2):
                segs = segments_for([float(x) for x in s], settle_span_writes=settle)
                plan = MeasurementPlan(budget=Budget(), segments=segs)
                target = SimTarget(f"sim:twin@{twinmod._scale(twin)}", seed=seed,
                                   drive=twinmod.drive_dict(twin))  # fmt: skip
                with target:
                    m = measure(target, plan)
                rows.append(
                    {
                        "settle_span_writes": settle or 0.8,
                        "extra_op": s,
                        "seed": seed,
                        "waf": {f"{lv.extra_op_percent:g}": lv.waf for lv in m.levels},
                    }
                )
    return {"cpu_s": round(cpu_s() - t, 2), "rows": rows}


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1)
    print()
