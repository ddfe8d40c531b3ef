"""bench/results/cliffdecline/RULE.md's runs: each case calibrated by the CLI as
bench/results/cliffsmall/judge.py runs it (``cliffplan_eval.calibrate``, the read probes in
the prediction, every other flag at its default) twice: ``off`` (``cliff_ceiling.LARGER_REQUEST``
off: the default when the rule ran) and ``on`` (each set in calibrate's process); each
prediction from purged against the truth's cliff under QD8 70% reads from purged
(``truth_cliff``), counted by ``cliffplan_eval.check_verdict``; with each run's step status,
request size and decline.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffdecline/judge.py \
        FRESH_SEEDS:SHARE,... [--seen SEED:SHARE,...] [--prior STDERR_JSONL] \
        > bench/results/cliffdecline/runs.json

A drawn drive the core cannot simulate (its truth refused) is recorded with the error and no
truth (added after the rule's run stopped on one, seed 9746: bench/results/cliffdecline/
verdict.md); ``--prior`` takes the rows such a stopped run had printed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import cliffplan_eval
from cliffplan_eval import calibrate, check_verdict, truth_cliff, written_truth
from cpu_clock import cpu_s
from overprov import measurement_file
from overprov.errors import ConfigError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cliffsmall"))
from judge import _errors, harm  # noqa: E402 - bench/results/cliffsmall/judge.py

#: the flag set in calibrate's process (before the CLI's own line), each arm's way (the rule's
#: run set it only in ``on``, the default then off; set in both since it became the default)
_FLAG = "from overprov.calibrate import cliff_ceiling; cliff_ceiling.LARGER_REQUEST = {}; "


def _arm(path: Path, scale: str, out: Path, on: bool) -> dict[str, Any]:
    plain = cliffplan_eval._CLI_WITH_PROBES  # noqa: SLF001 - the arm's process
    cliffplan_eval._CLI_WITH_PROBES = _FLAG.format(on) + plain  # noqa: SLF001
    try:
        pred = calibrate(path, scale, out, probes=True)
    finally:
        cliffplan_eval._CLI_WITH_PROBES = plain  # noqa: SLF001
    step: dict[str, Any] = {}
    if (out / "measurement.json").exists():
        doc = measurement_file.load(out / "measurement.json").cliff or {}
        step = {"status": doc.get("status"), "bs_bytes": doc.get("bs_bytes"),
                "drive_writes": doc.get("drive_writes"),
                "ceiling_series": "ceiling_series" in doc}  # fmt: skip
    return {"prediction": pred, "step": step}


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    t0 = cpu_s()
    truth, scale, path = written_truth(seed, share, work)
    row: dict[str, Any] = {"drive": f"generated {seed}, cache {100 * share:g}%"}
    try:
        c = truth_cliff(truth, float(scale), "none")
    except ConfigError as exc:  # a drawn drive the core cannot simulate: no case (no truth)
        row["truth_error"] = str(exc)
        row["off"] = row["on"] = _errors(None, None)
        row["cpu_s"] = round(cpu_s() - t0, 1)
        print(json.dumps(row), file=sys.stderr, flush=True)
        return row
    true = c.to_dict() if c is not None else None
    for arm in ("off", "on"):
        got = _arm(path, scale, work / f"out-{seed}-{share:g}-{arm}", arm == "on")
        pred = got["prediction"]
        row[arm] = _errors((pred or {}).get("purged"), true)
        row[arm]["declined"] = (pred or {}).get("declined") or (pred or {}).get("error")
        row[arm]["step"] = got["step"]
    row["cpu_s"] = round(cpu_s() - t0, 1)
    print(json.dumps({k: row[k] for k in ("drive", "off", "on")}), file=sys.stderr, flush=True)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fresh", help="SEED:SHARE,... the fresh cases (P1, P2)")
    ap.add_argument("--seen", default="", help="SEED:SHARE,... seen cases run both ways")
    ap.add_argument("--prior", default="", help="fresh rows of an earlier run (its stderr, JSONL)")
    args = ap.parse_args()
    t0 = cpu_s()
    groups: dict[str, list[dict]] = {"fresh": [], "seen": []}
    if args.prior:  # a run stopped by a bench fault: its finished rows, as it printed them
        lines = Path(args.prior).read_text().splitlines()
        groups["fresh"] = [json.loads(x) for x in lines if x.startswith("{")]
    with tempfile.TemporaryDirectory() as tmp:
        for name, spec in (("fresh", args.fresh), ("seen", args.seen)):
            for c in filter(None, spec.split(",")):
                seed, share = c.split(":")
                groups[name].append(case(int(seed), float(share), Path(tmp)))
    fresh = {k: check_verdict(groups["fresh"], k) for k in ("off", "on")}
    h2 = harm(groups["fresh"])
    decision = {"P1_P2_met_on": fresh["on"]["met"], "H2_met": h2["met"],
                "flag_on": fresh["on"]["met"] and h2["met"]}  # fmt: skip
    doc = {"rows": groups, "fresh": fresh, "no_harm_fresh": h2, "decision": decision,
           "cpu_s": round(cpu_s() - t0, 1)}  # fmt: skip
    json.dump(doc, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
