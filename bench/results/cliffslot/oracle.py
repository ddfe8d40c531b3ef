"""Task 1 of the cliffslot brief (bench/results/cliffslot/DIAGNOSIS.md): on seen 1% cases kept by
bench/results/cliffslot/stored.py (or bench/results/cliffloss/stored.py), the prediction from
purged made again in-process (``PROBES_IN_PREDICTION`` on, as bench/results/cliffpool/ ran it)
with the slot past the cliff left at the probe's wait or set to the truth's written-page reads'
mean wait past its cliff under the workload (bench/results/cliffslot/truth_past.json: an oracle,
not a form), each with ``cliff_span.SPAN_FROM_MIX`` off and on (bench/results/cliffloss/
diagnose.py's ``predicted``), and with ``cliff_slot.SLOT_FROM_LOAD`` on (the candidate: the slot
carried to the twin's die load); errors against cliffpool's recorded truths.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffslot/oracle.py \
        231:0.01 246:0.01 ... > bench/results/cliffslot/oracle.json
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any
from unittest.mock import patch

from cpu_clock import cpu_s
from overprov.calibrate import cliff_slot
from overprov.calibrate import twin as twinmod

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
loss = load_script("cliffloss_diagnose", HERE.parent / "cliffloss" / "diagnose.py")


def stored(seed: int, share: float) -> tuple[dict, dict, float]:
    """A stored case's step measurement, twin and the twin's scale (this folder's ``stored/``,
    else cliffloss's)."""
    keep = HERE / "stored" / f"{seed}-{share:g}"
    if not keep.exists():
        keep = RESULTS / "cliffloss" / "stored" / f"{seed}-{share:g}"
    doc = json.loads((keep / "cliff.json").read_text())
    drive = tomllib.loads((keep / "twin.toml").read_text())
    tw = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    return doc, drive, tw


def truths() -> dict[str, dict]:
    """cliffpool's (and cliffseries', and cliffloss's fresh) recorded truths from purged, by
    case name."""
    out = {}
    files = [
        *sorted((RESULTS / "cliffpool").glob("runs_*.json")),
        RESULTS / "cliffseries/runs.json",
    ]
    for f in files:
        for r in json.loads(f.read_text())["rows"]:
            seed, share = r["drive"].split()[1].rstrip(","), r["drive"].split()[-1]
            out[f"{seed} at {share}"] = r["purged"]["true"]
    for r in json.loads((RESULTS / "cliffloss/runs_fresh.json").read_text())["rows"]:
        seed, share = r["drive"].split()[1].rstrip(","), r["drive"].split()[-1]
        out.setdefault(f"{seed} at {share}", r["off"]["true"])
    return out


def errors(pred: dict | None, true: dict) -> dict[str, float] | None:
    if not pred or "time_s" not in pred:
        return None
    return {"time": pred["time_s"] / true["time_s"] - 1,
            "lost": pred["lost_iops"] / true["lost_iops"] - 1}  # fmt: skip


def case(seed: int, share: float, waits: dict[str, float], true: dict) -> dict[str, Any]:
    t0 = cpu_s()
    name = f"{seed} at {100 * share:g}%"
    doc, drive, tw = stored(seed, share)
    row: dict[str, Any] = {"case": name, "truth_wait_us": waits.get(name)}
    arms = {"now": (None, False), "span": (None, True)}
    if name in waits:
        arms |= {"truth_wait": (waits[name], False), "span_truth_wait": (waits[name], True)}
    for arm, (slot, span) in arms.items():
        pred = loss.predicted(doc, drive, tw, slot, span)["pred"].get("purged")
        row[arm] = errors(pred, true[name])
    with patch.object(cliff_slot, "SLOT_FROM_LOAD", True):
        got = loss.predicted(doc, drive, tw)["pred"]
    row["slot_from_load"] = errors(got.get("purged"), true[name])
    row["die_load"] = (got.get("slot_from_load") or {}).get("die_load")
    row["cpu_s"] = round(cpu_s() - t0, 1)
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def main() -> int:
    t0 = cpu_s()
    past = [r for f in ("truth_past.json", "truth_past_9768.json")
            for r in json.loads((HERE / f).read_text())["rows"]]  # fmt: skip
    waits = {
        r["case"]: r["truth"]["past"]["read_written"]["mean_us"] for r in past if r.get("truth")
    }
    true = truths()
    rows = [case(int(s), float(h), waits, true) for s, h in (a.split(":") for a in sys.argv[1:])]
    print(json.dumps({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
