"""Task 1 of the clifffall brief (bench/results/clifffall/DIAGNOSIS.md): on seen cases kept by
bench/results/cliffplateau/stored.py or bench/results/clifffall/stored.py, the prediction from
purged remade in-process (``PROBES_IN_PREDICTION`` on) with ``cliff_at_cache.AT_CACHE`` off and
on, against the truth's cliff (``cliffplan_eval.truth_cliff``): the errors, whether the off arm
equals the CLI's stored prediction.

    PYTHONPATH=python:bench nice -n 10 python bench/results/clifffall/forms.py \
        9681:0.01 9688:0.01 9705:0.01 9707:0.01 9710:0.01 > bench/results/clifffall/forms.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from unittest.mock import patch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "cliffplateau"))
import diagnose  # noqa: E402 - bench/results/cliffplateau/diagnose.py
from cliffplan_eval import single_cases, truth_cliff, written_truth  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import cliff, cliff_at_cache, cliff_prediction  # noqa: E402


def _folder(seed: int, share: float) -> Path:
    mine = HERE / "stored" / f"{seed}-{share:g}"
    return HERE if mine.exists() else HERE.parent / "cliffplateau"


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    t0 = cpu_s()
    truth, scale, _ = written_truth(seed, share, work)
    diagnose.HERE = _folder(seed, share)
    doc, drive, tw_scale = diagnose.stored(seed, share)
    cli = json.loads(
        (diagnose.HERE / "stored" / f"{seed}-{share:g}" / "prediction.json").read_text()
    )
    c = truth_cliff(truth, float(scale), "none")
    true = c.to_dict() if c is not None else None
    row: dict[str, Any] = {"case": f"{seed} at {100 * share:g}%", "true": true}
    for arm, on in (("off", False), ("on", True)):
        with (
            patch.object(cliff_prediction, "PROBES_IN_PREDICTION", True),
            patch.object(cliff_at_cache, "AT_CACHE", on),
        ):
            p = cliff_prediction.predict(doc, drive, tw_scale)
        got = p.get("purged") or {}
        keys = ("time_s", "host_write_bytes_before", "iops_before", "iops_after")
        pred = cliff.Cliff(**{k: got[k] for k in keys}) if "time_s" in got else None
        row[arm] = {"purged": got, **cliff.errors(pred, c)}
        if arm == "off":
            row["off_same_as_cli"] = got == cli.get("purged")
    row["cpu_s"] = round(cpu_s() - t0, 1)
    print(json.dumps({k: row[k] for k in ("case", "cpu_s")}), file=sys.stderr, flush=True)
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, sys.argv[1:]))
