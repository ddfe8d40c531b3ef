"""The verdict of bench/results/fobcheck/RULE.md: the queue-depth elasticity
(``fob_check.queue_depth_elasticity``) of every stored IOPS-only input (tally.json, check 1) and
of the fresh FlashSim drive C's cases (fresh/evaluation.json, the judgement), against their
worst WAF miss.

Run: PYTHONPATH=python python bench/results/fobcheck/judge.py > bench/results/fobcheck/verdict.txt
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from overprov.calibrate import fob_check

HERE = Path(__file__).resolve().parent
MISS = 0.25


def points(cmd: str) -> list[dict]:
    out = []
    for tok in re.search(r"--points (\S+)", cmd).group(1).split(","):
        qd = None
        if "@qd" in tok:
            tok, q = tok.split("@qd")
            qd = int(q)
        x, iops = tok.split(":")[:2]
        out.append({"extra_op_percent": float(x), "iops": float(iops), "queue_depth": qd})
    return out


def worst(case: dict) -> float | None:
    errs = [abs(lv["waf_err"]) for lv in case.get("levels", []) if lv.get("waf_err") is not None]
    return max(errs) if errs else None


def main() -> None:
    rows = json.loads((HERE / "tally.json").read_text())
    seen: dict[str, tuple[float, float | None, str]] = {}
    for r in rows:
        got = fob_check.queue_depth_elasticity(points(r["command"]))
        if got is None:
            continue
        key = re.search(r"--points (\S+)", r["command"]).group(1)
        key += " raw" if "--advertised" in r["command"] else ""
        prev = seen.get(key)
        w = r["waf_worst"]
        if prev is None or (w is not None and (prev[1] is None or w > prev[1])):
            seen[key] = (got[0], w, r["file"])
    flagged = [v for v in seen.values() if v[0] >= fob_check.ELASTICITY_MIN]
    print(
        f"Check 1 (stored, seen): {len(seen)} IOPS-only inputs with QD32 and QD4 figures at "
        f"one level; {len(flagged)} at or above e = {fob_check.ELASTICITY_MIN}:"
    )
    for e, w, f in sorted(flagged, key=lambda v: v[0]):
        print(f"  e {e:.2f}  worst WAF miss {'refused' if w is None else f'{100 * w:.0f}%'}  {f}")
    within = [v for v in flagged if v[1] is not None and v[1] <= MISS]
    print(f"  within 25% among them: {len(within)} -> check {'holds' if not within else 'fails'}")
    below = sorted(
        (v for v in seen.values() if v[0] < fob_check.ELASTICITY_MIN), key=lambda v: v[0]
    )
    print(
        f"  below: {len(below)}, e {below[0][0]:.2f}-{below[-1][0]:.2f}, "
        f"{sum(1 for v in below if v[1] is not None and v[1] > MISS)} of them missing"
    )
    print()
    fresh = json.loads((HERE / "fresh" / "evaluation.json").read_text())
    verdict = None
    for rec in fresh:
        for case in rec["cases"]:
            cmd = case["command"] if isinstance(case["command"], str) else " ".join(case["command"])
            e = fob_check.queue_depth_elasticity(points(cmd))[0]
            w = worst(case)
            state = (
                "refused by calibrate already" if w is None else f"worst WAF miss {100 * w:.0f}%"
            )
            print(f"Fresh: {rec['label']}: {case['case']}: e {e:.2f}, {state}")
            if case["case"] == "IOPS 0+40 QD32 + 40 QD4, FOB":
                if w is None:
                    verdict = "not met (the case is refused already: nothing to judge)"
                elif e < fob_check.ELASTICITY_MIN:
                    verdict = "not met (untested: e below the bound)"
                elif w > MISS:
                    verdict = "met (e at or above the bound and the WAF missed by more than 25%)"
                else:
                    verdict = "not met (a refusal of a WAF within 25%)"
    print(f"\nVerdict: {verdict}")


if __name__ == "__main__":
    main()
