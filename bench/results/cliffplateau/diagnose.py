"""Task 1 of the cliffplateau brief (bench/results/cliffplateau/DIAGNOSIS.md), on seen 1% cases
stored by bench/results/cliffplateau/stored.py (no calibration here): the prediction's steps up to
the fit made again in-process as ``cliff_prediction.predict`` makes them with
``PROBES_IN_PREDICTION`` (bench/results/cliffseries/fit_refused.py's ``lifted_twin``), and

- the truth's and the twin's ceilings (bench/results/cliffseries/fit_refused.py's);
- the measured series (the step's rounds: IOPS, full-size seconds, host bytes) and its step as
  the fit reads it (``cliff_step.measured_step``, the interval k that fell, the first interval);
- the fit (``cliff_prediction.fit_tried``: both tries) with every simulation it makes recorded
  (SLC and TLC program times, the series' IOPS).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffplateau/diagnose.py \
        9682:0.01 9686:0.01 9687:0.01 > bench/results/cliffplateau/diagnose.json
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from cliffplan_eval import single_cases, written_truth
from cpu_clock import cpu_s
from overprov.calibrate import cliff, cliff_prediction
from overprov.calibrate import twin as twinmod
from overprov.calibrate.cliff_step import measured_step
from overprov.errors import ConfigError

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "cliffseries"))
from fit_refused import Recorder, lifted_twin, twin_ceilings  # noqa: E402
from truth_series import ceilings  # noqa: E402


def stored(seed: int, share: float) -> tuple[dict[str, Any], dict[str, Any], str]:
    keep = HERE / "stored" / f"{seed}-{share:g}"
    doc = json.loads((keep / "cliff.json").read_text())
    drive = tomllib.loads((keep / "twin.toml").read_text())
    tw_scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    return doc, drive, tw_scale


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    t0 = cpu_s()
    truth, scale, _ = written_truth(seed, share, work)
    doc, drive, tw_scale = stored(seed, share)
    flag = cliff_prediction.PROBES_IN_PREDICTION
    cliff_prediction.PROBES_IN_PREDICTION = True
    s, bs, fill, twin, factor, lifted = lifted_twin(doc, drive, tw_scale)
    step = measured_step(s, bs, fill)
    rec = Recorder()
    cliff.simulate_series = rec
    try:
        try:
            f, second = cliff_prediction.fit_tried(s, lifted, factor, bs, fill > 0, True)
            outcome = {"cache_bytes": f.cache_bytes, "slc_program_us": f.slc_program_us,
                       "tlc_program_us": f.tlc_program_us, "second_try": second}  # fmt: skip
        except ConfigError as exc:
            outcome = {"refused": str(exc)}
    finally:
        cliff.simulate_series = rec.inner
        cliff_prediction.PROBES_IN_PREDICTION = flag
    dt = s.times_s[0]
    written, acc = [], 0.0
    for x in s.iops:
        acc += x * dt * bs
        written.append(acc)
    k = None if step is None else next(i for i, t in enumerate(s.times_s) if t >= step.time_s)
    return {
        "case": f"{seed} at {100 * share:g}%", "scale": scale, "twin_scale": factor,
        "true_cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
        "true_slc_program_us": truth["config"]["timing"]["slc"]["program_us"],
        "true_tlc_program_us": truth["config"]["timing"]["nand"]["program_us"],
        "truth_ceilings": ceilings(truth), "twin_ceilings": twin_ceilings(twin),
        "lifted_ceilings": twin_ceilings(lifted), "buffer_fill_bytes": fill,
        "measured": {"interval_s": dt, "iops": [round(x) for x in s.iops],
                     "host_bytes": [round(w) for w in written], "gc": s.gc_started,
                     "step": step.to_dict() if step else None, "k": k},  # fmt: skip
        "fit": outcome, "fit_calls": rec.calls, "cpu_s": round(cpu_s() - t0, 1),
    }  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
