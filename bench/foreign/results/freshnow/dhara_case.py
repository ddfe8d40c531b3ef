"""bench/foreign/results/freshnow/PLAN.md's Dhara cases: evaluate.py's "WAF 0+40" on a fresh
Dhara truth under main's defaults, as bench/foreign/results/statusnew/case.py runs it (through
bench/foreign/results/fifogc/case.py ``run``, arm "today", no flags), writing today/STEM.json
here rather than in statusnew's folder.

    PYTHONPATH=python python bench/foreign/results/freshnow/dhara_case.py run TRUTH.json

Run from the worktree root (bench/foreign/results/freshnow/runs.sh does).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

statusnew = load_script("freshnow_statusnew_case", HERE.parent / "statusnew" / "case.py")
os.environ["TALLY_DIR"] = str(HERE)
statusnew.fifogc.HERE = HERE  # its run() writes ARM/STEM.json here


def main(argv: list[str]) -> None:
    if len(argv) != 2 or argv[0] != "run":
        raise SystemExit(__doc__)
    statusnew.fifogc.run("today", Path(argv[1]))


if __name__ == "__main__":
    main(sys.argv[1:])
