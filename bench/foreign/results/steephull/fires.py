"""Where ``steep_pair.HULL_WHERE_AMBIGUOUS`` reads a case's typed figures: for every stored case
given (default: the 72 scoreboard truths, bench/foreign/results/scoreboard/cases-final/), the
command it ran read as ``spare_readings.weigh`` reads it with the flag on, whether
``reserve_hull.beside_where_ambiguous`` holds and which reserve readings are offered
(``reserve_hull.forms``). Surrogate fits only (milliseconds a case); nothing simulated. A case
it does not read is unchanged by the flag: nothing else in calibrate reads the flag.

    PYTHONPATH=python python bench/foreign/results/steephull/fires.py [case.json ...] > fires.txt
"""

from __future__ import annotations

import ast
import json
import shlex
import sys
from pathlib import Path

from overprov.calibrate import reserve_hull, steep_pair, uncertainty

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "bench/intervals/hullgate"))
from centre_diag import fig_of  # noqa: E402

CASES = ROOT / "bench/foreign/results/scoreboard/cases-final"


def command_of(case: dict) -> str:
    cmd = case["command"]
    if isinstance(cmd, list) or cmd.startswith("["):
        cmd = shlex.join(cmd if isinstance(cmd, list) else ast.literal_eval(cmd))
    return cmd


def read_cases(paths: list[Path]):
    """Each stored case's typed figures: (path, case, its ``PredictionInput``, the model-form
    error of a held-out prediction); a case without a command is said so and skipped."""
    for path in paths:
        case = json.loads(path.read_text())
        if "command" not in case:
            print(f"{path.stem}: no command stored")
            continue
        fig = fig_of(command_of(case))
        yield path, case, fig, uncertainty.weighing_rel_sd(fig.model_form)


def said(path: Path, case: dict, fig, cv_sd: float, test: str, fire: bool) -> list[str]:
    """The designs whose reserve reading ``reserve_hull.forms`` offers where ``fire`` (the
    test named ``test`` held), with the case's line printed."""
    offered = sorted(r.design for r in reserve_hull.forms(fig, cv_sd)) if fire else []
    state = "refused off" if "levels" not in case else "answered off"
    print(f"{path.stem}: {test}={fire} reserve offered={offered or '-'} ({state})")
    return offered


def main(paths: list[Path]) -> None:
    steep_pair.HULL_WHERE_AMBIGUOUS = True
    n_fire = 0
    for path, case, fig, cv_sd in read_cases(paths):
        fire = reserve_hull.beside_where_ambiguous(fig, cv_sd)
        n_fire += bool(said(path, case, fig, cv_sd, "gentlest_alone", fire))
    print(f"\n{n_fire} of {len(paths)} cases read by the flag (a reserve reading offered)")


if __name__ == "__main__":
    given = [Path(a) for a in sys.argv[1:]]
    main(given or sorted(CASES.glob("*.json")))
