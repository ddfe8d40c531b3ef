"""Clause 4 of bench/results/reservenarrow/RULE.md: ``validation.compare`` on generated drives with
``burst_start.LATE_START``, ``spare_near_onset.SPARE_NEAR_ONSET`` and
``spare_near_onset.ONLY_WHERE_NONE_PINNED`` all off, then all on (``bench/flag_rule.py``), one
JSON line per run appended to ``--out``.

    PYTHONPATH=python python bench/results/reservenarrow/sim_runs.py --seeds 9671,9672 \
        --out bench/results/reservenarrow/sim.jsonl
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import flag_rule  # noqa: E402
from overprov.calibrate import burst_start, spare_near_onset  # noqa: E402

FLAGS = (
    (burst_start, "LATE_START"),
    (spare_near_onset, "SPARE_NEAR_ONSET"),
    (spare_near_onset, "ONLY_WHERE_NONE_PINNED"),
)

if __name__ == "__main__":
    set_flags = lambda on: [setattr(m, n, on) for m, n in FLAGS]  # noqa: E731
    sys.exit(flag_rule.sim_main(set_flags, "narrow", __doc__))
