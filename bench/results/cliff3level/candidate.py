"""Task 1 of the cliff3level brief (bench/results/cliff3level/DIAGNOSIS.md): on the seen cases
kept (bench/results/cliff3level/diagnose.py's ``stored``), the prediction from purged made again
in-process with ``PROBES_IN_PREDICTION`` and ``cliff_slot.SLOT_FROM_LOAD`` on, without and with
``cliff_slot.BEFORE_FROM_LOAD`` (the candidate): errors in the levels before and past the cliff
and in the IOPS lost against cliffpool's recorded truths.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliff3level/candidate.py \
        246:0.03 ... > bench/results/cliff3level/candidate.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from unittest.mock import patch

from cpu_clock import cpu_s
from overprov.calibrate import cliff_prediction, cliff_slot

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
diag = load_script("cliff3level_diagnose", HERE / "diagnose.py")


def case(seed: int, share: float, true: dict) -> dict[str, Any]:
    t0 = cpu_s()
    name = f"{seed} at {100 * share:g}%"
    doc, drive, tw = diag.stored(seed, share)
    row: dict[str, Any] = {"case": name}
    for arm, before in (("slot_from_load", False), ("with_before", True)):
        with patch.object(cliff_prediction, "PROBES_IN_PREDICTION", True), \
                patch.object(cliff_slot, "SLOT_FROM_LOAD", True), \
                patch.object(cliff_slot, "BEFORE_FROM_LOAD", before):  # fmt: skip
            got = cliff_prediction.predict(doc, drive, tw)
        row[arm] = diag.levels(got.get("purged") or {}, true[name])
        row[arm + "_loads"] = got.get("slot_from_load")
    row["cpu_s"] = round(cpu_s() - t0, 1)
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def main() -> int:
    t0 = cpu_s()
    true = diag.slot.truths()
    rows = [case(int(s), float(h), true) for s, h in (a.split(":") for a in sys.argv[1:])]
    print(json.dumps({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
