"""Task 1 of the cliffslot brief (bench/results/cliffslot/DIAGNOSIS.md): seen cases of
bench/results/cliffpool/ calibrated again and kept under
``bench/results/cliffslot/stored/SEED-SHARE/`` by bench/results/cliffplateau/stored.py's ``case``
(loaded through bench/results/cliffloss/diagnose.py's ``plateau``, its ``HERE`` set to this
folder; the same steps, only the folder differs).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffslot/stored.py \
        231:0.01 246:0.01 ... > bench/results/cliffslot/stored.json
"""

from __future__ import annotations

import sys
from pathlib import Path

from cliffplan_eval import single_cases

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
loss = load_script("cliffloss_diagnose", HERE.parent / "cliffloss" / "diagnose.py")


def main() -> int:
    """cliffplateau's ``case`` keeping its measurements in this folder's ``stored/``."""
    mod = loss.plateau("stored")
    mod.HERE = HERE
    return single_cases(mod.case, sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
