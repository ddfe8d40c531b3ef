"""bench/results/cliffsmall/RULE.md's runs: each case calibrated once as
``bench/cliffplan_eval.py --probes-in-prediction`` runs it (the CLI, ``PROBES_IN_PREDICTION``
set, ``cliff_span.SPAN_FROM_MIX`` off: the flag's default), its truth's cliff under QD8 70%
reads from purged (``truth_cliff``), and the prediction from purged made again in this process
from the run's measurement and twin.toml with ``PROBES_IN_PREDICTION`` on, the form off
(``off``: it must equal the CLI's, ``off_same_as_cli``) and on (``on``); each against the
truth as ``cliffplan_eval.check_verdict`` counts; the rule's conditions.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffsmall/judge.py \
        FRESH_SEEDS:SHARE,... --harm 9601:0.01,... > bench/results/cliffsmall/runs.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from cliffplan_eval import (
    CHECK_PREDICTED_MIN,
    CHECK_WITHIN_MIN,
    WITHIN,
    _within,
    calibrate,
    check_verdict,
    truth_cliff,
    written_truth,
)
from cpu_clock import cpu_s
from overprov import measurement_file
from overprov.calibrate import cliff_prediction, cliff_span
from overprov.calibrate import twin as twinmod


def _errors(pred: dict[str, Any] | None, true: dict[str, Any] | None) -> dict[str, Any]:
    """``check_verdict``'s entry: the truth's cliff and the prediction's errors (None where
    either has no cliff)."""
    row: dict[str, Any] = {"true": true, "predicted": pred, "time_error": None,
                           "lost_error": None}  # fmt: skip
    if true is not None and pred is not None and "time_s" in pred:
        row["time_error"] = pred["time_s"] / true["time_s"] - 1
        row["lost_error"] = pred["lost_iops"] / true["lost_iops"] - 1
    return row


def _predict(doc: dict, drive: dict, tw_scale: float, span: bool) -> dict[str, Any]:
    flags = cliff_prediction.PROBES_IN_PREDICTION, cliff_span.SPAN_FROM_MIX
    cliff_prediction.PROBES_IN_PREDICTION, cliff_span.SPAN_FROM_MIX = True, span
    try:
        return cliff_prediction.predict(doc, drive, tw_scale)
    finally:
        cliff_prediction.PROBES_IN_PREDICTION, cliff_span.SPAN_FROM_MIX = flags


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    t0 = cpu_s()
    truth, scale, path = written_truth(seed, share, work)
    out = work / f"out-{seed}-{share:g}"
    cli = calibrate(path, scale, out, probes=True)
    row: dict[str, Any] = {
        "drive": f"generated {seed}, cache {100 * share:g}%",
        "true_cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
    }
    c = truth_cliff(truth, float(scale), "none")
    true = c.to_dict() if c is not None else None
    if "error" in cli or not (out / "measurement.json").exists():
        row["cli"] = cli
        row["off"] = row["on"] = _errors(None, true)
        row["cpu_s"] = round(cpu_s() - t0, 1)
        return row
    doc = dict(measurement_file.load(out / "measurement.json").cliff or {})
    drive = tomllib.loads((out / "twin.toml").read_text())
    tw_scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    off = _predict(doc, drive, tw_scale, span=False)
    on = _predict(doc, drive, tw_scale, span=True)
    row.update(
        cli_purged=cli.get("purged"), off_same_as_cli=off.get("purged") == cli.get("purged"),
        fit=off.get("fit"), declined=off.get("declined"),
        off=_errors(off.get("purged"), true), on=_errors(on.get("purged"), true),
        cpu_s=round(cpu_s() - t0, 1),
    )  # fmt: skip
    print(json.dumps({k: row[k] for k in ("drive", "off", "on")}), file=sys.stderr, flush=True)
    return row


def harm(rows: list[dict]) -> dict[str, Any]:
    """H: no case within 25% off is outside it on, and as many within 25% on at least."""
    off = sum(_within(r["off"], WITHIN) for r in rows)
    on = sum(_within(r["on"], WITHIN) for r in rows)
    worse = [r["drive"] for r in rows if _within(r["off"], WITHIN) and not _within(r["on"], WITHIN)]
    return {"within_25_off": off, "within_25_on": on, "worse": worse,
            "met": not worse and on >= off}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fresh", help="SEED:SHARE,... the fresh cases (P1, P2)")
    ap.add_argument("--harm", default="", help="SEED:SHARE,... the no-harm cases (H)")
    args = ap.parse_args()
    t0 = cpu_s()
    groups: dict[str, list[dict]] = {"fresh": [], "harm": []}
    with tempfile.TemporaryDirectory() as tmp:
        for name, spec in (("fresh", args.fresh), ("harm", args.harm)):
            for c in filter(None, spec.split(",")):
                seed, share = c.split(":")
                groups[name].append(case(int(seed), float(share), Path(tmp)))
    fresh = {k: check_verdict(groups["fresh"], k) for k in ("off", "on")}
    h = {"harm": harm(groups["harm"]), "fresh": harm(groups["fresh"])}
    met = fresh["on"]["met"] and h["harm"]["met"] and h["fresh"]["met"]
    doc = {
        "rows": groups,
        "fresh": fresh,
        "no_harm": h,
        "bounds": {"predicted_min": CHECK_PREDICTED_MIN, "within_min": CHECK_WITHIN_MIN},
        "decision": {
            "P1_P2_met_on": fresh["on"]["met"],
            "H1_met": h["harm"]["met"],
            "H2_met": h["fresh"]["met"],
            "flag_on": met,
        },  # fmt: skip
        "cpu_s": round(cpu_s() - t0, 1),
    }
    json.dump(doc, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
