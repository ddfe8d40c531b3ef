"""Task 1 of the cliff3level brief (bench/results/cliff3level/DIAGNOSIS.md): seen 3% cases of
bench/results/cliffpool/ calibrated again and kept under
``bench/results/cliff3level/stored/SEED-SHARE/`` by bench/results/cliffplateau/stored.py's
``case`` (as bench/results/cliffslot/stored.py does, only the folder differs).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliff3level/stored.py \
        246:0.03 269:0.03 ... > bench/results/cliff3level/stored.json
"""

from __future__ import annotations

import sys
from pathlib import Path

from cliffplan_eval import single_cases

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
loss = load_script("cliffloss_diagnose", HERE.parent / "cliffloss" / "diagnose.py")

if __name__ == "__main__":
    mod = loss.plateau("stored")
    mod.HERE = HERE
    raise SystemExit(single_cases(mod.case, sys.argv[1:]))
