"""bench/results/cliffloss/RULE.md's runs: each case through bench/results/cliffsmall/judge.py's
``case`` (the CLI's calibration with ``PROBES_IN_PREDICTION`` set, as bench/results/cliffpool/ ran
it, every other flag at its default; the truth from purged; the prediction from purged made
again in-process with ``cliff_span.SPAN_FROM_MIX`` off, ``off``, which must equal the CLI's, and
on, ``on``), then the rule's clauses: F (``check_verdict`` on ``on`` over the fresh cases), N (no
fresh case within 25% off is outside it on), S (the pooled seen set: bench/results/cliffpool/'s
41 predicted cases, ``--seen`` rerun here and ``--seen-recorded`` taken from a recorded
runs file's ``harm`` rows, within 25% with the flag at least 27) and the pooled target with the
flag (cliffpool's P1 and P2 over its 59 truths, the 18 declined at calibration as recorded).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffloss/judge.py \
        FRESH_SEED:SHARE,... > bench/results/cliffloss/runs_fresh.json
    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffloss/judge.py "" \
        --seen SEED:SHARE,... > bench/results/cliffloss/runs_seen.json
    python bench/results/cliffloss/judge.py --decide runs_fresh.json runs_seen.json \
        --seen-recorded bench/results/cliffsmall/runs.json > bench/results/cliffloss/decision.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from cliffplan_eval import WITHIN, _within, check_verdict
from cpu_clock import cpu_s

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cliffsmall"))
import judge as small  # noqa: E402 - bench/results/cliffsmall/judge.py

#: bench/results/cliffpool/verdict.md: within 25% of the 41 predicted, and its truths and
#: cases predicted (P1, P2 asked two thirds of each)
SEEN_WITHIN_OFF, POOL_TRUTHS, POOL_PREDICTED_OFF = 27, 59, 41
TWO_THIRDS = 2 / 3
#: cliffseries' seeds: their rows taken from ``--seen-recorded`` (its ``harm`` rows)
RECORDED_SEEDS = {9601, 9602, 9603, 9605, 9606}


def run(spec: str) -> list[dict[str, Any]]:
    """Each ``SEED:SHARE`` of ``spec`` through cliffsmall's ``case``; a case that raises (a
    drawn truth the core refuses to simulate, as 9746 in bench/results/cliffdecline/) is
    recorded with its error and no truth, so it does not count."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for c in filter(None, spec.split(",")):
            seed, share = c.split(":")
            try:
                rows.append(small.case(int(seed), float(share), Path(tmp)))
            except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
                none = {"true": None, "predicted": None, "time_error": None, "lost_error": None}
                rows.append({"drive": f"generated {seed}, cache {100 * float(share):g}%",
                             "error": str(exc)[-400:], "off": none, "on": none})  # fmt: skip
    return rows


def _predicted(e: dict[str, Any]) -> bool:
    return e.get("true") is not None and e.get("time_error") is not None


def decide(fresh: list[dict], seen: list[dict]) -> dict[str, Any]:
    """The rule's clauses on the fresh rows and the seen rows (the pooled 41)."""
    f = {k: check_verdict(fresh, k) for k in ("off", "on")}
    worse = [r["drive"] for r in fresh
             if _within(r["off"], WITHIN) and not _within(r["on"], WITHIN)]  # fmt: skip
    seen_cases = [r for r in seen if _predicted(r["off"])]
    within = {k: sum(_within(r[k], WITHIN) for r in seen_cases) for k in ("off", "on")}
    predicted_on = sum(_predicted(r["on"]) for r in seen_cases)
    pool = {
        "truths": POOL_TRUTHS, "predicted_on": predicted_on,
        "within_25_on": within["on"], "within_25_off": within["off"],
        "P1_met": predicted_on >= TWO_THIRDS * POOL_TRUTHS,
        "P2_met": predicted_on > 0 and within["on"] >= TWO_THIRDS * predicted_on,
    }  # fmt: skip
    clauses = {
        "F_P1_P2_met_on": f["on"]["met"],
        "N_none_worse": not worse,
        "S_seen_within_on_at_least_27": len(seen_cases) == POOL_PREDICTED_OFF
        and within["on"] >= SEEN_WITHIN_OFF,
    }  # fmt: skip
    met = all(clauses.values())
    return {
        "fresh": f, "fresh_worse": worse, "seen_cases": len(seen_cases), "seen_within": within,
        "seen_worse": [r["drive"] for r in seen_cases
                       if _within(r["off"], WITHIN) and not _within(r["on"], WITHIN)],
        "pool_with_flag": pool, "clauses": clauses, "met": met,
        "span_from_mix_on": met,
        "probes_in_prediction_on": met and pool["P1_met"] and pool["P2_met"],
    }  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fresh", nargs="?", default="", help="SEED:SHARE,... the fresh cases")
    ap.add_argument("--seen", default="", help="SEED:SHARE,... seen cases rerun")
    ap.add_argument("--decide", nargs=2, metavar=("FRESH_JSON", "SEEN_JSON"))
    ap.add_argument("--seen-recorded", default="", help="a runs file whose harm rows are seen")
    args = ap.parse_args()
    if args.decide:
        fresh = json.loads(Path(args.decide[0]).read_text())["rows"]
        seen = json.loads(Path(args.decide[1]).read_text())["rows"]
        if args.seen_recorded:
            rec = json.loads(Path(args.seen_recorded).read_text())["rows"]["harm"]
            seen += [r for r in rec if int(r["drive"].split()[1].rstrip(",")) in RECORDED_SEEDS]
        json.dump(decide(fresh, seen), sys.stdout, indent=1)
        print()
        return 0
    t0 = cpu_s()
    rows = run(args.fresh) + run(args.seen)
    json.dump({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
