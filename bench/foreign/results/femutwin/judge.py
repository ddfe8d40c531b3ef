"""The verdict's clauses of bench/foreign/results/femutwin/RULE.md from the stored cases.

    PYTHONPATH=python python bench/foreign/results/femutwin/judge.py > judged.txt

bench/foreign/results/femuweight/judge.py's clauses (loaded: one implementation) on this
folder's cases: arm A ``steep_pair.READ_AS_FLOOR`` and ``reserve_held_out.SAME_FORM_ONLY``;
arm B the same and ``reserve_plateau.ON``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

WEIGHT = load_script("femuweight_judge", HERE.parent / "femuweight" / "judge.py")

if __name__ == "__main__":
    WEIGHT.HERE = HERE
    WEIGHT.case_name = lambda folder, stem: f"FEMU--femutwin_fresh--{stem}.json"
    WEIGHT.main()
