"""After the verdict (bench/results/cliffbuffer/verdict.md, not judged): why the fit was refused
for the TLC level past the drop on buffer-set drives (bench/results/cliffbuffer/RULE.md) whose
buffer is large. Each ``SEED:SHARE`` is drawn with drives.json's buffer and calibrated as
``bench/cliffplan_eval.py --probes-in-prediction --past-buffer-step`` runs it; then, in this
process, the fit is made again (``cliff_prediction.fit``, as calibrate made it) with every
simulation it makes recorded (bench/results/cliffseries/fit_refused.py's ``Recorder``): the
measured series and its step, and the fitted drives' series at each TLC program time tried.

    PYTHONPATH=python:bench:bench/results/cliffseries nice -n 10 python \
        bench/results/cliffbuffer/tlc_refused.py 9611:0.03 \
        > bench/results/cliffbuffer/tlc_refused.json
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from cliffplan_eval import buffers_arg, calibrated_again, single_cases, written_truth
from fit_refused import Recorder, fit_outcome, lifted_twin
from overprov.calibrate import cliff, cliff_prediction, cliff_series
from overprov.calibrate.cliff_step import measured_step

HERE = Path(__file__).resolve().parent


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    buffer = buffers_arg(str(HERE / "drives.json"))[(seed, share)]
    truth, scale, _ = written_truth(seed, share, work, buffer)
    cliff_series.PAST_BUFFER_STEP = True
    doc, drive, tw_scale, pred = calibrated_again(seed, share, work, buffer)
    cliff_prediction.PROBES_IN_PREDICTION = True
    s, bs, fill, _, factor, lifted = lifted_twin(doc, drive, tw_scale)
    step = measured_step(s, bs, fill)
    first = cliff_series.find_step(s, bs)[0]
    rec = Recorder()
    cliff.simulate_series = rec
    try:
        outcome = fit_outcome(s, lifted, factor, bs, fill)
    finally:
        cliff.simulate_series = rec.inner
    k = next(i for i, t in enumerate(s.times_s) if t >= step.time_s) if step else None
    return {
        "case": f"{seed} at {100 * share:g}%", "scale": scale, "twin_scale": factor,
        "true_cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
        "buffer_bytes": buffer, "buffer_fill_bytes": fill,
        "twin_buffer_bytes": lifted["config"]["timing"]["buffer"]["bytes"],
        "measured": {"iops": [round(x) for x in s.iops], "k": k,
                     "round_s": s.times_s[0], "first_step": first.to_dict() if first else None,
                     "step": step.to_dict() if step else None},  # fmt: skip
        "calibrate": pred.get("declined") if "error" not in pred else pred["error"],
        "fit_again": outcome, "fit_calls": rec.calls,
    }  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
