"""The on arm of bench/foreign/results/wiscbatch/RULE.md on the 72 scoreboard truths: run.py's
`all` (its order, its CPU cap per case, its budget and stop time from SCOREBOARD_BUDGET_CPU_S and
SCOREBOARD_STOP_UTC) with its cases and log here (`on/`, `runs-on.log`; run.py's own log would
name a path inside its folder).

    EVALUATE_FLAGS="batch_gc.OFFERED=True" SCOREBOARD_BUDGET_CPU_S=900 \\
        SCOREBOARD_STOP_UTC=10:05 PYTHONPATH=python python bench/foreign/results/wiscbatch/arm.py

(The arm stored here ran with this script's first version, commit 663350d5: the same loop
written out, its budget from ARM_BUDGET_CPU_S = 900 and stop ARM_STOP_UTC = 10:05.)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ARM = "on"
os.environ["SCOREBOARD_CASES"] = f"../{HERE.name}/{ARM}"  # where run.py `one` writes
sys.path.insert(0, str(HERE.parent / "scoreboard"))
import run  # noqa: E402

if __name__ == "__main__":
    run.HERE, run.CASES_DIR = HERE, ARM  # the same folder, and the log beside it
    run.run_all()
