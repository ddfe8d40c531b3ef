"""bench/foreign/results/statusnew/PLAN.md's Dhara cases: evaluate.py's "WAF 0+40" on a stored
Dhara truth as bench/foreign/results/fifogc/case.py ``run`` runs it (newftl2's case and
``summary``), under main's defaults only (arm "today", no flags), writing today/STEM.json here.

    PYTHONPATH=python python bench/foreign/results/statusnew/case.py run TRUTH.json

Run from the worktree root. The tables are bench/foreign/results/statusnew/table.py's.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

fifogc = load_script("statusnew_fifogc_case", HERE.parent / "fifogc" / "case.py")
os.environ["TALLY_DIR"] = str(HERE)
fifogc.ARMS.clear()
fifogc.ARMS.update({"today": ""})
fifogc.HERE = HERE  # its run() writes ARM/STEM.json here


def main(argv: list[str]) -> None:
    if len(argv) != 2 or argv[0] != "run":
        raise SystemExit(__doc__)
    fifogc.run("today", Path(argv[1]))


if __name__ == "__main__":
    main(sys.argv[1:])
