"""The scoreboard's stored cases run again with each reading's own figures and intervals kept,
as bench/foreign/results/scorenarrow/rerun.py runs them (its ``run``, ``keep`` and log), into
this folder's runs-<arm>/ and runs-<arm>.log. Arm ``off``: ``--python DIR``, a copy of the
base commit's python/ taken before any change of this branch; arm ``on``: this worktree's with
``own_erase_residual.ON = True``. CPU s of each run by bench/cpu_clock.py.

    PYTHONPATH=python python bench/foreign/results/formterm/runs.py off --python DIR STEM ...
    PYTHONPATH=python python bench/foreign/results/formterm/runs.py on STEM ...
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scorenarrow"))
import rerun  # noqa: E402  (bench/foreign/results/scorenarrow/rerun.py)

rerun.HERE = HERE
rerun.FLAG_ON = "from overprov.calibrate import own_erase_residual; own_erase_residual.ON = True; "

if __name__ == "__main__":
    sys.exit(rerun.main())
