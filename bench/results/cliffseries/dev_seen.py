"""Development, before bench/results/cliffseries/RULE.md, on seen cases only: the prediction made
again in this process from the measurements fit_refused.py stored (``stored/SEED-SHARE/``: the
cliff step's ``cliff.json`` and ``twin.toml``, as ``bench/cliffplan_eval.py --probes-in-
prediction`` calibrated them), with ``cliff_prediction.PROBES_IN_PREDICTION`` on and
``cliff_refit.REFIT_REFUSED`` on, against the truth's cliff from purged recorded in
bench/results/cliffpast/runs.json.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffseries/dev_seen.py \
        267:0.03 273:0.01 273:0.03 264:0.03 268:0.01 > bench/results/cliffseries/dev_seen.json
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

from cpu_clock import cpu_s
from overprov.calibrate import cliff, cliff_prediction, cliff_refit
from overprov.calibrate import twin as twinmod

HERE = Path(__file__).resolve().parent
PAST = HERE.parent / "cliffpast" / "runs.json"


def main(args: list[str]) -> int:
    t0 = cpu_s()
    truths = {r["drive"]: r["purged"]["true"] for r in json.loads(PAST.read_text())["rows"]}
    rows = []
    cliff_prediction.PROBES_IN_PREDICTION = True
    for arg in args:
        seed, share = arg.split(":")
        keep = HERE / "stored" / f"{seed}-{float(share):g}"
        doc = json.loads((keep / "cliff.json").read_text())
        drive = tomllib.loads((keep / "twin.toml").read_text())
        scale = twinmod.sim_scale(
            drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
        )
        out = {}
        for refit in (False, True):
            cliff_refit.REFIT_REFUSED = refit
            t1 = cpu_s()
            pred = cliff_prediction.predict(doc, drive, scale)
            got = pred.get("purged") or {}
            true = truths[f"generated {seed}, cache {100 * float(share):g}%"]
            p = cliff.Cliff(**{k: got[k] for k in ("time_s", "host_write_bytes_before",
                            "iops_before", "iops_after")}) if "time_s" in got else None  # fmt: skip
            t = cliff.Cliff(**{k: true[k] for k in ("time_s", "host_write_bytes_before",
                            "iops_before", "iops_after")}) if true else None  # fmt: skip
            out["refit" if refit else "first_try"] = {
                "fit": pred.get("fit"), "declined": pred.get("declined"),
                "purged": got, "true": true, **cliff.errors(p, t),
                "cpu_s": round(cpu_s() - t1, 1),
            }  # fmt: skip
        rows.append({"case": f"{seed} at {100 * float(share):g}%", **out})
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print(json.dumps({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
