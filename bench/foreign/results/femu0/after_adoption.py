"""The burst-cycle reading (``burst_cycle.READ_THROUGH_CYCLE``) on the fresh FEMU drives run
after it was adopted (femu40's H1, H2 and gate14's J1-J3): each drive's 0% WAF as the plan's
plain mean read it (the measurement file keeps it), as the burst cycle reads it from the same
rounds, and FEMU's steady truth. A record of the adopted default on drives its rule never saw;
nothing is fitted or changed.

    PYTHONPATH=python python bench/foreign/results/femu0/after_adoption.py
"""

from __future__ import annotations

import json
from pathlib import Path

from overprov.calibrate import burst_cycle
from overprov.measurement_file import load

ROOT = Path(__file__).resolve().parents[4]
DRIVES = [
    ("femu40", "femu-17lun-210blk-thres61-3400us"),
    ("femu40", "femu-3lun-430blk-thres73-4200us"),
    ("gate14", "femu-19lun-150blk-thres62-4600us-ns80"),
    ("gate14", "femu-21lun-130blk-thres74-3700us-ns85"),
    ("gate14", "femu-23lun-118blk-thres58-4300us-ns85"),
]


def main() -> None:
    print("| drive | truth 0% WAF | plain mean | burst cycle | plain error | burst error |")
    print("|---|---|---|---|---|---|")
    for folder, name in DRIVES:
        results = ROOT / "bench" / "foreign" / "results" / folder
        truth = json.loads((results / f"{name}.json").read_text())["levels"][0]["steady_waf"]
        m = load(results / f"{name}-off" / "measurement.json")
        plain = m.levels[0].waf
        read = burst_cycle.read_first_level(m)
        cycle = m.levels[0].waf if read else None
        cells = [f"{plain:.3f}", f"{cycle:.3f}" if cycle else "not read (left)"]
        errs = [f"{plain / truth - 1:+.1%}", f"{cycle / truth - 1:+.1%}" if cycle else "—"]
        print(f"| {name} | {truth:.3f} | {' | '.join(cells)} | {' | '.join(errs)} |")


if __name__ == "__main__":
    main()
