"""Where the FIFO reading (python/overprov/calibrate/fifo_gc.py, ``fifo_gc.OFFERED``) would take
weight: for every stored case given (default: the 72 scoreboard truths' cases under today's
defaults, bench/foreign/results/status72/cases/, and the sssl-ftlsim LRU truths' "WAF 0+40"
cases, :data:`LRU_CASES`), its typed figures read as
``spare_readings.weigh`` reads them with the design offered, and each FIFO reading's weight
(``spare_readings.class_weights``) against the largest. A case where no FIFO reading keeps
``evidence.SPAN_MIN_WEIGHT`` of the largest weight cannot change: its readings set aside are
not simulated and the mixture is over the others (their weights renormalised as before).
Surrogate fits only (milliseconds a case); nothing simulated.

    PYTHONPATH=python python bench/foreign/results/fifogc/feasible.py [case.json ...] \
        > bench/foreign/results/fifogc/feasible.txt
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from unittest import mock

from overprov.calibrate import cli, evidence, fifo_gc, spare_readings, uncertainty
from overprov.calibrate import predict as predmod

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "steephull"))
from fires import command_of, read_cases  # noqa: E402  (bench/foreign/results/steephull/fires.py)

CASES = HERE.parent / "status72" / "cases"
#: The sssl-ftlsim LRU truths' "WAF 0+40" cases as stored (no FOB figure: WAF only).
LRU_CASES = sorted((HERE.parent / "byfig5" / "noharm").glob("sssl-ftlsim-lru-*--WAF040.json"))
LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]


def waf_only_fig(command: str) -> predmod.PredictionInput:
    """A WAF-only case's typed figures (``--waf-points``) as calibrate reads them."""
    argv = shlex.split(command)
    pts = cli.user_points(None, argv[argv.index("--waf-points") + 1])
    form = uncertainty.model_form_for(pts, False)
    return predmod.PredictionInput(pts, LEVELS, typed=True, model_form=form)


def read_waf_only(paths: list[Path]):
    for path in paths:
        case = json.loads(path.read_text())
        fig = waf_only_fig(command_of(case))
        yield path, case, fig, uncertainty.weighing_rel_sd(fig.model_form)


def fifo_share(fig) -> tuple[float, list[str]]:
    """The largest FIFO reading's weight over the largest weight, and the readings kept (weight
    ≥ ``evidence.SPAN_MIN_WEIGHT`` of the largest), with the design offered."""
    with mock.patch.object(fifo_gc, "OFFERED", True):
        evs, _ = spare_readings.weigh(fig)
    w = spare_readings.class_weights(evs)
    top = max(w.values())
    kept = sorted((r for r in w if w[r] >= evidence.SPAN_MIN_WEIGHT * top), key=lambda r: -w[r])
    fifo = [w[r] for r in w if r.design == fifo_gc.NAME]
    share = max(fifo) / top if fifo and top > 0 else 0.0
    return share, [f"{r.key} {w[r] / top:.3g}" for r in kept]


def main(paths: list[Path]) -> None:
    hit, n = [], 0
    waf_only = [p for p in paths if p in LRU_CASES]
    cases = [p for p in paths if p not in LRU_CASES]
    for path, _case, fig, _cv in [*read_cases(cases), *read_waf_only(waf_only)]:
        n += 1
        try:
            share, kept = fifo_share(fig)
        except Exception as e:  # noqa: BLE001  (a case calibrate refuses at the fit: said so)
            print(f"{path.stem}: not weighed ({type(e).__name__}: {e})")
            continue
        takes = share >= evidence.SPAN_MIN_WEIGHT
        print(f"{path.stem}: fifo/top {share:.3g} {'TAKES' if takes else '-'}; kept: "
              + ", ".join(kept))  # fmt: skip
        if takes:
            hit.append(path.stem)
    print(f"\nFIFO keeps >= {evidence.SPAN_MIN_WEIGHT} of the top weight on {len(hit)} of {n}:")
    for s in hit:
        print(f"  {s}")


if __name__ == "__main__":
    given = [Path(a) for a in sys.argv[1:]]
    main(given or [*sorted(CASES.glob("*.json")), *LRU_CASES])
