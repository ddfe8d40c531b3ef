"""Clause 4 of bench/results/reservespare/RULE.md: ``validation.compare`` on generated drives with
``burst_start.LATE_START`` and ``spare_near_onset.SPARE_NEAR_ONSET`` both off, then both on
(``bench/flag_rule.py``), one JSON line per run appended to ``--out``.

    PYTHONPATH=python python bench/results/reservespare/sim_runs.py --seeds 9651,9652 \
        --out bench/results/reservespare/sim.jsonl
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import flag_rule  # noqa: E402
from overprov.calibrate import burst_start, spare_near_onset  # noqa: E402

FLAGS = ((burst_start, "LATE_START"), (spare_near_onset, "SPARE_NEAR_ONSET"))

if __name__ == "__main__":
    sys.exit(flag_rule.sim_main(lambda on: [setattr(m, n, on) for m, n in FLAGS], "both", __doc__))
