"""RULE.md's clauses (b) and the checks of the stored off runs, into judge.txt; clause (a) is
``ssdsim_rule.py --dir``'s, clause (c) erasegreedy's ``noharm.py`` (``noharm.cmd``).

    PYTHONPATH=python python bench/foreign/results/erasefloor/judge.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
ec = load_script("ec_run", RESULTS / "erasecheck" / "run.py")

SKIP = {"cpu_s", "date", "wall_s", "command"}


def figures(d):
    """A run's figures, its clock, date and command line (evaluate.py's prelude) left out."""
    if isinstance(d, dict):
        return {k: figures(v) for k, v in d.items() if k not in SKIP}
    if isinstance(d, list):
        return [figures(x) for x in d]
    return d


def main() -> int:
    lines = ["# erasefloor: clause (b) and the checks (judge.py)", ""]
    for case in ("gen-R6", "mqsim"):
        a = json.loads((HERE / f"check/both-off/{case}.json").read_text())["result"]
        b = json.loads((RESULTS / f"erasecheck/runs/both-off/{case}.json").read_text())["result"]
        lines.append(f"check {case}: both-off again equals erasecheck's stored run figure for "
                     f"figure: {figures(a) == figures(b)}")  # fmt: skip
    a_on = RESULTS / "erasereading/noharm-off/nvmevirt-a/evaluation.json"
    a_now = HERE / "gate-off/nvmevirt-a/evaluation.json"
    if a_now.exists():
        same = figures(json.loads(a_now.read_text())[0]["cases"]) == figures(
            json.loads(a_on.read_text())[0]["cases"]
        )
        lines.append(f"check NVMeVirt A's plan case off equals erasereading's stored: {same}")
    lines += ["", "## (b) erasecheck's cases at 2%: on (check2/floor-on) against stored both-off",
              "", "| case | what changed | harm |", "|---|---|---|"]  # fmt: skip
    harm_any, missing = False, []
    for case in [*ec.TYPED, *ec.MEASURED]:
        on = HERE / f"check2/floor-on/{case}.json"
        if not on.exists():
            missing.append(case)
            continue
        off = RESULTS / f"erasecheck/runs/both-off/{case}.json"
        r_on = json.loads(on.read_text())["result"]
        r_off = json.loads(off.read_text())["result"]
        text, harm = ec.compare(r_off, r_on)
        same = figures(r_on) == figures(r_off)
        harm_any |= harm
        lines.append(f"| {case} | {'figure for figure the same; ' if same else ''}{text} | "
                     f"{'HARM' if harm else 'no'} |")  # fmt: skip
    lines += ["", f"(b): {'harm' if harm_any else 'no harm'}"
              + (f"; not run: {', '.join(missing)}" if missing else "")]  # fmt: skip
    (HERE / "judge.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
