"""Condition 3 of bench/results/burststart/RULE.md: ``validation.compare`` on generated drives
with ``burst_start.LATE_START`` off and on (``bench/flag_rule.py``), one JSON line per run
appended to ``--out``.

    PYTHONPATH=python python bench/results/burststart/sim_runs.py --seeds 9517,9518 \
        --out bench/results/burststart/sim.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import flag_rule  # noqa: E402
from overprov.calibrate import burst_start  # noqa: E402

if __name__ == "__main__":
    sys.exit(
        flag_rule.sim_main(lambda on: setattr(burst_start, "LATE_START", on), "late_start", __doc__)
    )
