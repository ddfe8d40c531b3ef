"""Task 1 of the cliff3level brief (bench/results/cliff3level/DIAGNOSIS.md): on seen cases kept
by bench/results/cliff3level/stored.py (3%) or bench/results/cliffslot/stored.py and
bench/results/cliffloss/stored.py (1%), the twin's prediction from purged made again in-process
(``PROBES_IN_PREDICTION`` on) with the slot past the cliff set to the truth's written-page
reads' mean wait under the workload (bench/results/cliffslot/truth_past*.json: an oracle), its
mixed series' loop captured and its windows before and past its cliff logged as the truth's
were (bench/results/cliffpast/diagnose.py's ``windows``, unchanged): each command kind's share
and mean wait, the dies' busy share, the fold's share. Side by side with the truth's windows
(truth_past*.json) and cliffpool's recorded truths; the fit's measured QD32 levels.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliff3level/diagnose.py \
        246:0.03 ... > bench/results/cliff3level/diagnose.json
"""

from __future__ import annotations

import dataclasses
import json
import sys
import tomllib
from pathlib import Path
from typing import Any
from unittest.mock import patch

from cpu_clock import cpu_s
from overprov.calibrate import cliff, read_probes, read_slot
from overprov.calibrate import twin as twinmod

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
loss = load_script("cliffloss_diagnose", RESULTS / "cliffloss" / "diagnose.py")
past = load_script("cliffpast_diagnose", RESULTS / "cliffpast" / "diagnose.py")
slot = load_script("cliffslot_oracle", RESULTS / "cliffslot" / "oracle.py")
TRUTH_PAST = ("truth_past.json", "truth_past_3pc.json", "truth_past_9768.json")


def stored(seed: int, share: float) -> tuple[dict, dict, float]:
    """A kept case (this folder's ``stored/``, else cliffslot's or cliffloss's)."""
    for folder in (HERE, RESULTS / "cliffslot", RESULTS / "cliffloss"):
        keep = folder / "stored" / f"{seed}-{share:g}"
        if keep.exists():
            break
    doc = json.loads((keep / "cliff.json").read_text())
    drive = tomllib.loads((keep / "twin.toml").read_text())
    tw = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    return doc, drive, tw


def captured(doc: dict, drive: dict, tw: float, slot_us: float | None) -> dict[str, Any]:
    """The prediction with the slot past the cliff at ``slot_us`` and its mixed series' loop
    (the last ``read_slot_series`` call's first loop: cfg, arguments, scale)."""
    calls: list[dict[str, Any]] = []
    plain_loop, plain_series = read_slot.request_loop, cliff.read_slot_series

    def series_spy(d: dict[str, Any], scale: float, **kw: Any):  # noqa: ANN202
        calls.append({"scale": scale})
        return plain_series(d, scale, **kw)

    def loop_spy(cfg: dict[str, Any], **kw: Any):  # noqa: ANN202
        if calls and "cfg" not in calls[-1]:
            calls[-1].update(cfg=cfg, kwargs=kw)
        return plain_loop(cfg, **kw)

    with patch.object(read_slot, "request_loop", loop_spy), \
            patch.object(cliff, "read_slot_series", series_spy):  # fmt: skip
        got = loss.predicted(doc, drive, tw, slot_us)
    return {"pred": got["pred"], "loop": calls[-1] if calls else None}


def levels(pred: dict, true: dict) -> dict[str, float] | None:
    """The prediction's errors in the levels before and past the cliff and in the IOPS lost."""
    if not pred or "iops_before" not in pred:
        return None
    return {k: pred[k] / true[k] - 1 for k in ("iops_before", "iops_after", "lost_iops")}


def with_before_slot(
    doc: dict, drive: dict, tw: float, past_us: float | None, before_us: float
) -> dict:
    """The prediction with the slot past the cliff at ``past_us`` (None: the probe's) and the
    slot before it (the probe before the cliff's wait) set to ``before_us``."""
    plain = read_probes.predict

    def spy(*a: Any, **kw: Any) -> Any:
        a = (*a[:2], dataclasses.replace(a[2], read_us=before_us), *a[3:])
        return plain(*a, **kw)

    with patch.object(read_probes, "predict", spy):
        return loss.predicted(doc, drive, tw, past_us)["pred"].get("purged") or {}


def case(seed: int, share: float, waits: dict[str, dict], true: dict) -> dict[str, Any]:
    t0 = cpu_s()
    name = f"{seed} at {100 * share:g}%"
    doc, drive, tw = stored(seed, share)
    tp = waits.get(name) or {}
    wait = ((tp.get("truth") or {}).get("past") or {}).get("read_written", {}).get("mean_us")
    got = captured(doc, drive, tw, wait)
    pred = got["pred"].get("purged") or {}
    row: dict[str, Any] = {"case": name, "truth_wait_us": wait, "true": true.get(name),
                           "pred": pred, "errors": slot.errors(pred, true[name]),
                           "fit": got["pred"].get("fit"),
                           "selection": got["pred"].get("read_probes_selection"),
                           "truth_windows": tp.get("truth"), "truth_nand": tp.get("truth_nand"),
                           "truth_slc": tp.get("truth_slc")}  # fmt: skip
    probe = loss.predicted(doc, drive, tw)["pred"].get("purged") or {}
    before = ((tp.get("truth") or {}).get("before") or {}).get("read_written", {}).get("mean_us")
    row["arms"] = {
        "probe_slots": levels(probe, true[name]),
        "past_oracle": levels(pred, true[name]),
    }
    if before and wait:
        row["truth_before_wait_us"] = before
        row["arms"]["past_and_before_oracle"] = levels(
            with_before_slot(doc, drive, tw, wait, before), true[name]
        )
        row["arms"]["before_oracle"] = levels(
            with_before_slot(doc, drive, tw, None, before), true[name]
        )
    loop = got["loop"]
    if loop and "time_s" in pred:
        row["twin_nand"] = loop["cfg"]["timing"]["nand"]
        row["twin_slc"] = loop["cfg"]["timing"]["slc"]
        row["twin_kwargs"] = {k: v for k, v in loop["kwargs"].items() if k != "kinds"}
        row["twin_windows"] = past.windows(loop["cfg"], row["twin_kwargs"], pred["time_s"],
                                           loop["scale"])  # fmt: skip
    row["cpu_s"] = round(cpu_s() - t0, 1)
    print(json.dumps({k: row[k] for k in ("case", "arms", "cpu_s")}), file=sys.stderr,
          flush=True)  # fmt: skip
    return row


def main() -> int:
    t0 = cpu_s()
    rows = [
        r for f in TRUTH_PAST for r in json.loads((RESULTS / "cliffslot" / f).read_text())["rows"]
    ]
    waits = {r["case"]: r for r in rows}
    true = slot.truths()
    out = [case(int(s), float(h), waits, true) for s, h in (a.split(":") for a in sys.argv[1:])]
    print(json.dumps({"rows": out, "cpu_s": round(cpu_s() - t0, 1)}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
