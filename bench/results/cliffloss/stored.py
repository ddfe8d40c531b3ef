"""Task 1 of the cliffloss brief (bench/results/cliffloss/DIAGNOSIS.md): seen 1% cases of
bench/results/cliffpool/ calibrated again and kept under
``bench/results/cliffloss/stored/SEED-SHARE/`` by bench/results/cliffplateau/stored.py's
``case`` (the same steps; only the folder differs).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffloss/stored.py \
        269:0.01 252:0.01 9605:0.01 259:0.01 264:0.01 > bench/results/cliffloss/stored.json
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
