"""Condition 4 of bench/results/probe40/RULE.md: ``validation.compare`` on generated drives with
``plan.PROBE_WHOLE_CYCLES`` off and on (calibrate's IOPS errors over 0-40% against the drive's
truth; ``bench/flag_rule.py``), one JSON line per run appended to ``--out``.

    PYTHONPATH=python python bench/results/probe40/sim_runs.py --seeds 9413,9414 \
        --out bench/results/probe40/sim.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import flag_rule  # noqa: E402
from overprov.calibrate import plan  # noqa: E402

if __name__ == "__main__":
    sys.exit(
        flag_rule.sim_main(
            lambda on: setattr(plan, "PROBE_WHOLE_CYCLES", on), "whole_cycles", __doc__
        )
    )
