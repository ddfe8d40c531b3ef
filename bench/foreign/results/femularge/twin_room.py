"""Diagnosis (b), the twin's side: J2's twin (gate14's femu-21lun-130blk-thres74-3700us-ns85-off,
its fit/twin.toml as written) simulated at 10-30% as fitted, with its GC reserve cut (fewer
blocks held free: more room for data) and with larger blocks (the reserve scaled with them, at
scale 1, the least these sizes allow): how steep the transition level is in the room and in the
collector's unit. Nothing predicted or judged.

    PYTHONPATH=python python bench/foreign/results/femularge/twin_room.py \
        > bench/foreign/results/femularge/twin_room.txt
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

from overprov.calibrate import twin
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import Budget, MeasurementPlan, segments_for
from overprov.profile.sim_target import SimTarget

TWIN = Path("bench/foreign/results/gate14/femu-21lun-130blk-thres74-3700us-ns85-off/fit/twin.toml")
LEVELS = [10.0, 20.0, 30.0]


def wafs(drive: dict, scale: str) -> str:
    plan = MeasurementPlan(budget=Budget(), segments=segments_for(LEVELS))
    with SimTarget(f"sim:twin@{scale}", seed=1, drive=drive) as target:
        m = measure(target, plan)
    return " / ".join(f"{lv.waf:.3f}" for lv in m.levels)


def main() -> None:
    d = tomllib.loads(TWIN.read_text())
    d.pop("notes", None)
    scale = twin.sim_scale(d["advertised_bytes"], d["physical_bytes"] / d["advertised_bytes"] - 1)
    free = d["config"]["ftl"]["gc_free_blocks"]
    print(f"# {TWIN} at scale {scale}; WAF at {' / '.join(f'{x:g}' for x in LEVELS)}%")
    print(f"as fitted ({free} blocks held free): {wafs(d, scale)}")
    for blocks in (570, 560, 550):
        v = copy.deepcopy(d)
        v["config"]["ftl"]["gc_free_blocks"] = v["config"]["timing"][
            "background_gc_free_blocks"
        ] = blocks
        print(f"{blocks} blocks held free: {wafs(v, scale)}")
    ppb = d["config"]["geometry"]["pages_per_block"]
    for factor in (2, 4, 8):
        v = copy.deepcopy(d)
        v["config"]["geometry"]["pages_per_block"] = ppb * factor
        v["config"]["ftl"]["gc_free_blocks"] = v["config"]["timing"][
            "background_gc_free_blocks"
        ] = round(free / factor)
        v["config"]["timing"]["nand"]["die_block_bytes"] *= factor
        print(
            f"blocks {factor}x larger, {round(free / factor)} held free (scale 1): {wafs(v, '1')}"
        )


if __name__ == "__main__":
    main()
