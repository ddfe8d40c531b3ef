"""After the verdict (bench/results/cliffpast/RULE.md, "Also reported, not judged"): the
held-out cases the run predicted from purged, calibrated again (as ``bench/cliffplan_eval.py
--probes-in-prediction`` runs them) and predicted in-process from that measurement twice, with
``cliff_past.READS_IN_ORDER`` on (this rule's form) and off (bench/results/cliffmix/RULE.md's),
each against the truth's cliff under QD8 70% reads from purged as runs.json records it.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffpast/form_off_after.py \
        264:0.01 267:0.01 269:0.01 269:0.03 > bench/results/cliffpast/form_off_after.json
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

from cliffplan_eval import calibrate, single_cases, written_truth
from overprov import measurement_file
from overprov.calibrate import cliff, cliff_past, cliff_prediction
from overprov.calibrate import twin as twinmod

RUNS = Path(__file__).resolve().parent / "runs.json"


def case(seed: int, share: float, work: Path) -> dict:
    _, scale, path = written_truth(seed, share, work)
    out = work / f"out-{seed}-{share:g}"
    calibrate(path, scale, out, probes=True)
    doc = dict(measurement_file.load(out / "measurement.json").cliff or {})
    drive = tomllib.loads((out / "twin.toml").read_text())
    tw_scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    name = f"generated {seed}, cache {100 * share:g}%"
    run = next(r for r in json.loads(RUNS.read_text())["rows"] if r["drive"] == name)
    true = cliff.Cliff(**{k: run["purged"]["true"][k] for k in cliff.Cliff.__dataclass_fields__})
    row = {"case": name, "truth": run["purged"]["true"]}
    flag = cliff_prediction.PROBES_IN_PREDICTION
    cliff_prediction.PROBES_IN_PREDICTION = True
    try:
        for form in (True, False):
            cliff_past.READS_IN_ORDER = form
            got = cliff_prediction.predict(doc, drive, tw_scale).get("purged") or {}
            p = cliff.Cliff(**{k: got[k] for k in cliff.Cliff.__dataclass_fields__}) if (
                "time_s" in got) else None  # fmt: skip
            row["in_order" if form else "cliffmix"] = {"predicted": got, **cliff.errors(p, true)}
    finally:
        cliff_prediction.PROBES_IN_PREDICTION = flag
        cliff_past.READS_IN_ORDER = True
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
