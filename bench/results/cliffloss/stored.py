"""Task 1 of the cliffloss brief (bench/results/cliffloss/DIAGNOSIS.md): seen 1% cases of
bench/results/cliffpool/ calibrated again and kept under
``bench/results/cliffloss/stored/SEED-SHARE/`` by bench/results/cliffplateau/stored.py's
``case`` (the same steps; only the folder differs).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffloss/stored.py \
        269:0.01 252:0.01 9605:0.01 259:0.01 264:0.01 > bench/results/cliffloss/stored.json
"""

from __future__ import annotations

import sys

from cliffplan_eval import single_cases
from diagnose import plateau  # bench/results/cliffloss/diagnose.py


def main() -> int:
    """cliffplateau's ``case`` keeping its measurements in this folder's ``stored/``."""
    return single_cases(plateau("stored").case, sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
