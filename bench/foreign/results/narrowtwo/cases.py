"""The 72 plan cases in the scoreboard's order (bench/foreign/results/scoreboard/run.py
``order``) as "folder stem family" lines, split as bench/foreign/results/narrowtwo/RULE.md runs
them: ``erase`` the cases an erase-cost reading carries today or in narrowband's joint arm
(bench/foreign/results/narrowtwo/feasible.py's ``erase_carries``), ``rest`` the others.

    PYTHONPATH=python python bench/foreign/results/narrowtwo/cases.py erase|rest
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NB = HERE.parent / "narrowband"
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(NB))
sys.path.insert(0, str(HERE))
import today  # noqa: E402  (bench/foreign/results/narrowband/today.py)
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from feasible import erase_carries  # noqa: E402  (bench/foreign/results/narrowtwo/feasible.py)


def split() -> dict[str, list[tuple[str, str, str]]]:
    """``erase`` and ``rest``: (folder, stem, family) in the scoreboard's order."""
    run = load_script("scoreboard_run", HERE.parent / "scoreboard" / "run.py")
    docs = today.docs()
    out: dict[str, list[tuple[str, str, str]]] = {"erase": [], "rest": []}
    for fam, folder, stem in run.order():
        key = run.case_path(fam, folder, stem).stem
        nb = NB / "joint-72" / f"{key}.json"
        joint = json.loads(nb.read_text()) if nb.exists() else {}
        hit = erase_carries(docs.get(key, {})) or erase_carries(joint)
        out["erase" if hit else "rest"].append((folder, stem, fam))
    return out


if __name__ == "__main__":
    for line in split()[sys.argv[1]]:
        print(*line)
