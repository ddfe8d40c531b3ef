"""bench/results/cliffdecline/DIAGNOSIS.md's dev runs of the candidate (seen cases only): each
case calibrated by the CLI with ``cliff_ceiling.LARGER_REQUEST`` set in calibrate's process
(bench/results/cliffdecline/judge.py's ``_arm``, ``on``), its run kept under KEEP, and its
prediction from purged remade in-process with ``PROBES_IN_PREDICTION`` on (so a change to the
prediction alone is tried without calibrating again).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffdecline/dev_on.py KEEP 9730:0.01
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
import tomllib
from pathlib import Path

from cliffplan_eval import written_truth
from cpu_clock import cpu_s
from overprov import measurement_file
from overprov.calibrate import cliff_prediction
from overprov.calibrate import twin as twinmod

_spec = importlib.util.spec_from_file_location("decline_judge", Path(__file__).parent / "judge.py")
judge = importlib.util.module_from_spec(_spec)  # bench/results/cliffdecline/judge.py
_spec.loader.exec_module(judge)


def main() -> int:
    keep = Path(sys.argv[1])
    keep.mkdir(parents=True, exist_ok=True)
    for c in sys.argv[2:]:
        t0 = cpu_s()
        seed, share = c.split(":")
        out = keep / c.replace(":", "-")
        if not (out / "measurement.json").exists():
            with tempfile.TemporaryDirectory() as tmp:
                _, scale, path = written_truth(int(seed), float(share), Path(tmp))
                judge._arm(path, scale, out, on=True)  # noqa: SLF001 - the judge's own arm
        doc = dict(measurement_file.load(out / "measurement.json").cliff or {})
        drive = tomllib.loads((out / "twin.toml").read_text())
        op = drive["physical_bytes"] / drive["advertised_bytes"] - 1
        tw_scale = twinmod.sim_scale(drive["advertised_bytes"], op)
        cliff_prediction.PROBES_IN_PREDICTION = True
        p = cliff_prediction.predict(doc, drive, tw_scale)
        row = {"case": c, "status": doc["status"], "bs_bytes": doc["bs_bytes"],
               "declined": p.get("declined"), "fit": p.get("fit"), "purged": p.get("purged"),
               "cpu_s": round(cpu_s() - t0, 1)}  # fmt: skip
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
