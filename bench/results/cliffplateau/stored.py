"""Task 1 of the cliffplateau brief (bench/results/cliffplateau/DIAGNOSIS.md): seen 1% cases of
bench/results/cliffsmall/runs.json calibrated again as ``bench/cliffplan_eval.py
--probes-in-prediction`` runs them (``calibrated_again``), their step's measurement and twin kept
under ``stored/SEED-SHARE/`` (``cliff.json``, ``twin.toml``, ``prediction.json``: the CLI's
``cliff``) so that the diagnosis remakes the fit in-process without calibrating again.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffplateau/stored.py \
        9682:0.01 9686:0.01 9687:0.01 9681:0.01 9688:0.01 > bench/results/cliffplateau/stored.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cliffplan_eval import single_cases, written_truth
from cpu_clock import cpu_s

HERE = Path(__file__).resolve().parent


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    from cliffplan_eval import calibrate

    t0 = cpu_s()
    truth, scale, path = written_truth(seed, share, work)
    out = work / f"out-{seed}-{share:g}"
    pred = calibrate(path, scale, out, probes=True)
    keep = HERE / "stored" / f"{seed}-{share:g}"
    keep.mkdir(parents=True, exist_ok=True)
    doc = json.loads((out / "measurement.json").read_text()).get("cliff")
    (keep / "cliff.json").write_text(json.dumps(doc, indent=1) + "\n")
    (keep / "twin.toml").write_text((out / "twin.toml").read_text())
    (keep / "prediction.json").write_text(json.dumps(pred, indent=1) + "\n")
    row = {"case": f"{seed} at {100 * share:g}%", "scale": scale,
           "declined": pred.get("declined") or pred.get("error"),
           "purged": pred.get("purged"), "cpu_s": round(cpu_s() - t0, 1)}  # fmt: skip
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
