"""The figures bench/results/emu0/RULE.md decides on, from ``reproduce.py``'s output folders:
per run the predicted IOPS and WAF of the emulated run (``dev``), of ``calibrate sim:`` at the
default budget (``sim``) and at the emulated run's ``--budget 30dw`` (``sim-same``), the
emulated run's errors against each, and the measured 0% level of each (IOPS, WAF, window).

``python3 bench/results/emu0/summarize.py RUN_DIR...``
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)


def predicted(folder: Path) -> dict[float, tuple[float, float]]:
    doc = json.loads((folder / "prediction.json").read_text())
    return {lv["extra_op_percent"]: (lv["steady_iops"], lv["waf"]) for lv in doc["levels"]}


def measured_0(folder: Path) -> str:
    m = json.loads((folder / "measurement.json").read_text())
    (lv,) = [x for x in m["levels"] if x["extra_op_percent"] == 0.0 and x["queue_depth"] is None]
    return f"{lv['steady_iops']:.0f} IOPS, WAF {lv['waf']:.2f}, {lv['window_rounds']} rounds"


def main() -> None:
    spreads: dict[str, list[float]] = {"sim": [], "sim-same": []}
    for run in map(Path, sys.argv[1:]):
        dev = predicted(run / "dev")
        print(f"{run.name}: emulated predicted IOPS "
              + " / ".join(f"{dev[op][0]:.0f}" for op in LEVELS)
              + f"; measured 0%: emulated {measured_0(run / 'dev')}")  # fmt: skip
        for ref in ("sim", "sim-same"):
            sim = predicted(run / ref)
            iops = [dev[op][0] / sim[op][0] - 1 for op in LEVELS]
            waf = [dev[op][1] / sim[op][1] - 1 for op in LEVELS]
            spreads[ref].append(iops[0])
            print(f"  vs {ref:8s} IOPS " + " / ".join(f"{sim[op][0]:.0f}" for op in LEVELS)
                  + "; IOPS error " + " ".join(f"{e:+.1%}" for e in iops)
                  + "; WAF error " + " ".join(f"{e:+.1%}" for e in waf)
                  + f"; measured 0%: {measured_0(run / ref)}")  # fmt: skip
    for ref, errors in spreads.items():
        print(f"0% IOPS error against {ref}: min {min(errors):+.1%}, median "
              f"{sorted(errors)[len(errors) // 2]:+.1%}, max {max(errors):+.1%}, spread "
              f"{max(errors) - min(errors):.1%} over {len(errors)} runs")  # fmt: skip


if __name__ == "__main__":
    main()
