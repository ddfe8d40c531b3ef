"""Task 1 of the cliffdecline brief (bench/results/cliffdecline/DIAGNOSIS.md): the seen cases
declined with "no step within 0.5 drive writes" calibrated again and kept under
``bench/results/cliffdecline/stored/SEED-SHARE/`` by bench/results/cliffplateau/stored.py's
``case`` (the same steps; only the folder differs).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffdecline/stored.py \
        9724:0.01 9728:0.01 9730:0.01 9724:0.03 9685:0.01 > bench/results/cliffdecline/stored.json
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "cliffplateau"))
import stored as plateau  # noqa: E402 - bench/results/cliffplateau/stored.py
from cliffplan_eval import single_cases  # noqa: E402

plateau.HERE = HERE

if __name__ == "__main__":
    raise SystemExit(single_cases(plateau.case, sys.argv[1:]))
