"""bench/results/cliffslot/RULE.md's runs: each case calibrated once through the CLI as
``bench/cliffplan_eval.py --probes-in-prediction`` runs it (``PROBES_IN_PREDICTION`` set, every
other flag at its default: ``cliff_slot.SLOT_FROM_LOAD`` off), or, for a seen case kept by
bench/results/cliffslot/stored.py or bench/results/cliffloss/stored.py, its stored calibration
(the same CLI run, kept); its truth's cliff under QD8 70% reads from purged (``truth_cliff``);
``off``: the CLI's prediction from purged (the defaults); ``on``: the prediction from purged made
again in this process from the run's measurement and twin with ``PROBES_IN_PREDICTION`` and
``SLOT_FROM_LOAD`` on. The clauses are bench/results/cliffloss/judge.py's ``decide`` (F, N, S
and the pooled target with the flag), all seen cases rerun here (none taken as recorded).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffslot/judge.py \
        SEED:SHARE,... > bench/results/cliffslot/runs_fresh.json
    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffslot/judge.py \
        SEED:SHARE,... --stored > bench/results/cliffslot/runs_seen.json
    python bench/results/cliffslot/judge.py --decide runs_fresh.json runs_seen.json \
        > bench/results/cliffslot/decision.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from cliffplan_eval import calibrate, truth_cliff, written_truth
from cpu_clock import cpu_s
from overprov import measurement_file
from overprov.calibrate import cliff_prediction, cliff_slot
from overprov.calibrate import twin as twinmod

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
loss = load_script("cliffloss_judge", HERE.parent / "cliffloss" / "judge.py")


def _stored(seed: int, share: float) -> Path | None:
    for folder in (HERE / "stored", HERE.parent / "cliffloss" / "stored"):
        keep = folder / f"{seed}-{share:g}"
        if (keep / "prediction.json").exists():
            return keep
    return None


def _measured(seed: int, share: float, work: Path, stored: bool) -> tuple[Any, ...]:
    """The CLI's prediction (``cliff``), the step's measurement and the twin (None, None where
    the CLI ended with an error or wrote no measurement)."""
    keep = _stored(seed, share) if stored else None
    if keep is not None:
        return (json.loads((keep / "prediction.json").read_text()),
                json.loads((keep / "cliff.json").read_text()),
                tomllib.loads((keep / "twin.toml").read_text()), str(keep))  # fmt: skip
    _, scale, path = written_truth(seed, share, work)
    out = work / f"out-{seed}-{share:g}"
    cli = calibrate(path, scale, out, probes=True)
    if "error" in cli or not (out / "measurement.json").exists():
        return cli, None, None, None
    doc = dict(measurement_file.load(out / "measurement.json").cliff or {})
    return cli, doc, tomllib.loads((out / "twin.toml").read_text()), None


def case(seed: int, share: float, work: Path, stored: bool = False) -> dict[str, Any]:
    t0 = cpu_s()
    truth, scale, _ = written_truth(seed, share, work)
    c = truth_cliff(truth, float(scale), "none")
    true = c.to_dict() if c is not None else None
    cli, doc, drive, kept = _measured(seed, share, work, stored)
    row: dict[str, Any] = {"drive": f"generated {seed}, cache {100 * share:g}%",
                           "true_cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
                           "stored": kept}  # fmt: skip
    if doc is None:
        row.update(cli=cli, off=loss.small._errors(None, true), on=loss.small._errors(None, true))
    else:
        tw = twinmod.sim_scale(
            drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
        )
        flags = cliff_prediction.PROBES_IN_PREDICTION, cliff_slot.SLOT_FROM_LOAD
        cliff_prediction.PROBES_IN_PREDICTION, cliff_slot.SLOT_FROM_LOAD = True, True
        try:
            on = cliff_prediction.predict(doc, drive, tw)
        finally:
            cliff_prediction.PROBES_IN_PREDICTION, cliff_slot.SLOT_FROM_LOAD = flags
        row.update(
            fit=cli.get("fit"), declined=cli.get("declined"), cli_purged=cli.get("purged"),
            slot_from_load=on.get("slot_from_load"),
            off=loss.small._errors(cli.get("purged"), true),
            on=loss.small._errors(on.get("purged"), true),
        )  # fmt: skip
    row["cpu_s"] = round(cpu_s() - t0, 1)
    print(json.dumps({k: row.get(k) for k in ("drive", "off", "on", "cpu_s")}), file=sys.stderr,
          flush=True)  # fmt: skip
    return row


def run(spec: str, stored: bool) -> list[dict[str, Any]]:
    """Each ``SEED:SHARE`` of ``spec``; a case that raises is recorded with its error and no
    truth (it does not count; its seed is not replaced)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for c in filter(None, spec.split(",")):
            seed, share = c.split(":")
            try:
                rows.append(case(int(seed), float(share), Path(tmp), stored))
            except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                none = {"true": None, "predicted": None, "time_error": None, "lost_error": None}
                rows.append({"drive": f"generated {seed}, cache {100 * float(share):g}%",
                             "error": str(exc)[-400:], "off": none, "on": none})  # fmt: skip
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="?", default="", help="SEED:SHARE,...")
    ap.add_argument("--stored", action="store_true", help="a kept calibration where there is one")
    ap.add_argument("--decide", nargs=2, metavar=("FRESH_JSON", "SEEN_JSON"))
    args = ap.parse_args()
    if args.decide:
        fresh = json.loads(Path(args.decide[0]).read_text())["rows"]
        seen = json.loads(Path(args.decide[1]).read_text())["rows"]
        got = loss.decide(fresh, seen)
        got["slot_from_load_on"] = got.pop("span_from_mix_on")
        json.dump(got, sys.stdout, indent=1)
        print()
        return 0
    t0 = cpu_s()
    rows = run(args.cases, args.stored)
    json.dump({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
