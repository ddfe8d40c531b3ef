"""Development on seen drives only (bench/results/clifflift/RULE.md, "Disclosed"): each case
run as ``bench/cliffplan_eval.py --probes-in-prediction --also-workloads qd8,read0`` runs it
(``cliffplan_eval.one``), with this branch's form (the ceiling lifted only under the plateau,
the fit's plateau read past the twin's buffer fill). Cases: cliffcheck's and cliffidle's.

    PYTHONPATH=python:bench nice -n 10 python bench/results/clifflift/dev_seen.py \
        237:0.01 232:0.01 235:0.03 221:0.01 224:0.01 > bench/results/clifflift/dev_seen.json

(run from the repository's root; it was run from bench/ with the paths relative to it)
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

from cliffplan_eval import one, truth_drive
from cpu_clock import cpu_s
from overprov.calibrate import cliff_prediction


def main() -> int:
    cliff_prediction.PROBES_IN_PREDICTION = True
    t0 = cpu_s()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in sys.argv[1:]:
            seed, share = int(case.split(":")[0]), float(case.split(":")[1])
            rng = random.Random(seed * 7919)  # drawn in cliffplan_eval's order: 1% then 3%
            if share == 0.03:
                truth_drive(seed, 0.01, rng)
            rows.append(one(seed, share, rng, 4 * 2**30, Path(tmp), ["qd8,read0"], True))
    print(json.dumps({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
