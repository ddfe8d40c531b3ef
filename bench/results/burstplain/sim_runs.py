"""Clause 4 of bench/results/burstplain/RULE.md: ``validation.compare`` on generated drives with
``burst_start.LATE_START`` and ``cycle_evidence.READ_PLAIN_WITHOUT_CYCLE`` both off, then both
on (``bench/flag_rule.py``), one JSON line per run appended to ``--out``.

    PYTHONPATH=python python bench/results/burstplain/sim_runs.py --seeds 9623,9624 \
        --out bench/results/burstplain/sim.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import flag_rule  # noqa: E402
from overprov.calibrate import burst_start, cycle_evidence  # noqa: E402


def set_both(on: bool) -> None:
    """Both flags ``on`` (or both off)."""
    burst_start.LATE_START = on
    cycle_evidence.READ_PLAIN_WITHOUT_CYCLE = on


if __name__ == "__main__":
    sys.exit(flag_rule.sim_main(set_both, "both", __doc__))
