"""Development on seen drives only (bench/results/cliffcheck/RULE.md, "Disclosed"): calibrate
--cliff with ``PROBES_IN_PREDICTION`` set (the fill check) on cases whose truths earlier rules
ran, printing what the probe before the cliff's check found; no truth is simulated.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffcheck/dev_seen.py 223:0.03 ...
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

from cliffplan_eval import calibrate, truth_drive
from cpu_clock import cpu_s
from overprov.calibrate import twin as twinmod
from overprov.calibrate import validation

KEYS = ("span_bytes", "fill_iops", "iops", "read_us", "free_check", "fill_iops_ratio",
        "fill_iops_ratio_bound", "cache_not_free")  # fmt: skip


def main() -> int:
    t0 = cpu_s()
    with tempfile.TemporaryDirectory() as tmp:
        for case in sys.argv[1:]:
            seed, share = int(case.split(":")[0]), float(case.split(":")[1])
            rng = random.Random(seed * 7919)  # drawn in cliffplan_eval's order: 1% then 3%
            for s in (0.01, 0.03):
                truth = truth_drive(seed, s, rng)
                if s == share:
                    break
            scale = validation.scale_for(truth, 4 * 2**30)
            path = Path(tmp) / f"drive-{case}.toml"
            path.write_text(twinmod.to_toml(truth) + "\n")
            out = Path(tmp) / f"out-{case}"
            pred = calibrate(path, scale, out, probes=True)
            cliff = json.loads((out / "measurement.json").read_text()).get("cliff") or {}
            probes = cliff.get("probes") or {}
            row = {"case": case, "idle_s": cliff.get("idle_seconds")}
            for k in ("before", "after"):
                row[k] = {x: (probes.get(k) or {}).get(x) for x in KEYS}
            row["purged"] = pred.get("purged") if "error" not in pred else pred["error"]
            row["declined"] = pred.get("declined")
            print(json.dumps(row))
    print(f"CPU s: {cpu_s() - t0:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
