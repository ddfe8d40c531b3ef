"""Task 1 of the cliffslot brief (bench/results/cliffslot/DIAGNOSIS.md): seen cases of
bench/results/cliffpool/ calibrated again and kept under
``bench/results/cliffslot/stored/SEED-SHARE/`` by bench/results/cliffplateau/stored.py's ``case``
(loaded through bench/results/cliffloss/diagnose.py's ``plateau``, its ``HERE`` set to this
folder; the same steps, only the folder differs).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffslot/stored.py \
        231:0.01 246:0.01 ... > bench/results/cliffslot/stored.json
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from cliffplan_eval import single_cases

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location(
    "cliffloss_diagnose", HERE.parent / "cliffloss" / "diagnose.py"
)
assert _spec is not None and _spec.loader is not None
loss = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(loss)


def main() -> int:
    """cliffplateau's ``case`` keeping its measurements in this folder's ``stored/``."""
    mod = loss.plateau("stored")
    mod.HERE = HERE
    return single_cases(mod.case, sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
