"""The cases of bench/foreign/results/level3/RULE.md: a truth typed as calibrate's plan gives it
(bench/foreign/results/midlevel/typed.py's ``cases_of``: today's plan case, IOPS and WAF at 0%
and 40% + FOB (+ QD4 at 40% where the truth has it), and the third level's, the same with IOPS
and WAF at 20% too), each with ``three_levels.ON`` off and on (``EVALUATE_FLAGS``,
bench/foreign/evaluate.py), into four folders:

- ``two-off/``, ``two-on/``: today's plan case, the flag off and on (the two must agree);
- ``three-off/``, ``three-on/``: the third level's case, the flag off and on.

    PYTHONPATH=python python bench/foreign/results/level3/cases.py fresh FOLDER STEM FAMILY
    PYTHONPATH=python python bench/foreign/results/level3/cases.py seen KEY...

``seen`` runs the third level's case with the flag on into ``seen-on/`` for midlevel's seen
truths (their flag-off answers are midlevel's ``seen-typed/``). Run from the worktree root under
``nice -n 10``; each case's CPU seconds (bench/cpu_clock.py) go to runs.log here; a case whose
file exists is skipped (resumable).
"""

from __future__ import annotations

import datetime
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
ROOT = FOREIGN.parent.parent
sys.path.insert(0, str(FOREIGN))
import evaluate  # noqa: E402  (bench/foreign/evaluate.py)
from common import load_script  # noqa: E402  (bench/foreign/common.py)

TYPED = load_script("midlevel_typed", FOREIGN / "results" / "midlevel" / "typed.py")
LOG = HERE / "runs.log"
FLAG_ON = "three_levels.ON=True"


def log(line: str) -> None:
    with LOG.open("a") as f:
        f.write(f"{datetime.datetime.now(datetime.UTC):%H:%M:%S} {line}\n")


def run_case(out: Path, doc: dict, curve: dict, case: tuple, others: list, on: bool,
             tag: dict) -> None:  # fmt: skip
    """One case into ``out`` (skipped where it exists), the flag as ``on`` says."""
    if out.exists():
        return
    os.environ[evaluate.FLAGS_ENV] = FLAG_ON if on else ""
    res, warnings, used = TYPED.with_source(doc, curve, case, others)
    res |= tag | {"cpu_s": used, "warnings": warnings, "three_levels_on": on}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1) + "\n")
    log(f"{out.parent.name} {tag['truth']}: {used:.1f} CPU s")


def fresh(folder: str, stem: str, family: str) -> None:
    doc = json.loads((ROOT / folder / f"{stem}.json").read_text())
    curve, others, two, three = TYPED.cases_of(doc)
    name = f"{TYPED.key(folder, stem, family)}.json"
    tag = {"family": family, "truth": f"{folder}/{stem}.json"}
    for sub, case, on in (("two-off", two, False), ("two-on", two, True),
                          ("three-off", three, False), ("three-on", three, True)):  # fmt: skip
        run_case(HERE / sub / name, doc, curve, case, others, on, tag)


def seen(keys: list[str]) -> None:
    rows = {TYPED.key(*r): r for r in TYPED.truths()}
    for k in keys:
        folder, stem, family = rows[k]
        doc = json.loads((ROOT / folder / f"{stem}.json").read_text())
        curve, others, _two, three = TYPED.cases_of(doc)
        tag = {"family": family, "truth": f"{folder}/{stem}.json"}
        run_case(HERE / "seen-on" / f"{k}.json", doc, curve, three, others, True, tag)


if __name__ == "__main__":
    if sys.argv[1] == "fresh":
        fresh(*sys.argv[2:5])
    elif sys.argv[1] == "seen":
        seen(sys.argv[2:])
