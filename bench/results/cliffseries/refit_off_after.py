"""After the verdict (bench/results/cliffseries/RULE.md, "Also reported, not judged"): whether
``cliff_refit`` made any fit on the held-out cases, the top-level fit's and the refits of the
probe past the cliff's chosen program (``read_probes.predict``'s ``fitter``) alike — runs.json
records ``second_try`` for the first only. Each case whose series showed a step is calibrated
again as ``bench/cliffplan_eval.py --probes-in-prediction`` runs it and predicted in-process from
that measurement with ``cliff_refit.REFIT_REFUSED`` on (this rule's form: it should give
runs.json's figures) and off (bench/results/cliffpast/RULE.md's), counting the second tries
made and those that made a fit, against the truth's cliff from purged as runs.json records it.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffseries/refit_off_after.py \
        9601:0.01 9601:0.03 9602:0.01 9602:0.03 9603:0.01 9603:0.03 9605:0.01 9605:0.03 \
        9606:0.01 9606:0.03 > bench/results/cliffseries/refit_off_after.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cliffplan_eval import calibrated_again, single_cases
from overprov.calibrate import cliff, cliff_prediction, cliff_refit

RUNS = Path(__file__).resolve().parent / "runs.json"


def case(seed: int, share: float, work: Path) -> dict:
    doc, drive, tw_scale, _ = calibrated_again(seed, share, work)
    name = f"generated {seed}, cache {100 * share:g}%"
    run = next(r for r in json.loads(RUNS.read_text())["rows"] if r["drive"] == name)
    t = run["purged"]["true"]
    true = cliff.Cliff(**{k: t[k] for k in cliff.Cliff.__dataclass_fields__}) if t else None
    row: dict = {"case": name, "truth": t, "runs_json_purged": run["cliff"].get("purged")}
    tries = {"second_tries": 0, "second_fits": 0}
    inner = cliff_refit.fit_kw

    def counted(twin: dict) -> dict:
        tries["second_tries"] += 1
        return inner(twin)

    original = cliff_prediction._fit_steps  # noqa: SLF001

    def steps(measured, twin, sc, kw):  # noqa: ANN001, ANN202
        f = original(measured, twin, sc, kw)
        tries["second_fits"] += "slc_range" in kw
        return f

    cliff_refit.fit_kw = counted
    cliff_prediction._fit_steps = steps  # noqa: SLF001
    try:
        for form in (True, False):
            cliff_refit.REFIT_REFUSED = form
            tries.update(second_tries=0, second_fits=0)
            pred = cliff_prediction.predict(doc, drive, tw_scale)
            got = pred.get("purged") or {}
            p = cliff.Cliff(**{k: got[k] for k in cliff.Cliff.__dataclass_fields__}) if (
                "time_s" in got) else None  # fmt: skip
            row["refit" if form else "refit_off"] = {
                "fit": pred.get("fit"), "declined": pred.get("declined"), "predicted": got,
                **cliff.errors(p, true), **tries,
            }  # fmt: skip
    finally:
        cliff_refit.fit_kw = inner
        cliff_prediction._fit_steps = original  # noqa: SLF001
        cliff_refit.REFIT_REFUSED = True
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
