"""Check bench/foreign/results/ssdsim/RULE.md on calibrate's evaluation of the SSDsim drives.

    python bench/foreign/ssdsim_rule.py [--dir bench/foreign/results/ssdsim] [--out verdict.txt]
        [--simulator SSDsim]

Reads `evaluation.json` (written there by `evaluate.py --results DIR`), prints per drive and
case the QD32 IOPS error (median and worst over 0-40%, fitted levels included), the worst WAF
error and its level, and whether each meets the rule's targets (IOPS 10% median / 20% worst,
WAF 5% at every level); then the 80% interval's coverage of the held-out QD32 figures (IOPS and
WAF at 10, 20, 30%) over every case run, its median relative width, and the verdict: SSDsim
passes when the plan case with WAF meets the IOPS and WAF targets on every drive. A case
calibrate refused (no twin written: its fit does not reproduce its own figures) is listed with
calibrate's message and counted as meeting no target: the rule did not say how a refusal counts,
and this is the stricter reading.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAN_CASE = "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"
IOPS_MEDIAN_MAX = 0.10
IOPS_WORST_MAX = 0.20
WAF_WORST_MAX = 0.05
HELD_OUT_LEVELS = (10, 20, 30)
COVERAGE_RANGE = (0.70, 0.90)


def judge_case(case: dict) -> dict:
    """One case's QD32 figures against the targets. A case calibrate refused (evaluate.py
    records its `error` and no levels) gives no figure and meets no target."""
    if "levels" not in case:
        return {"case": case["case"], "refused": " ".join(case.get("error", [])), "iops_ok": False,
                "waf_ok": False}  # fmt: skip
    levels = case["levels"]
    iops = [abs(r["iops_err"]) for r in levels]
    waf = [(abs(r["waf_err"]), r["extra_op_percent"]) for r in levels if "waf_err" in r]
    worst_waf, worst_waf_at = max(waf) if waf else (None, None)
    out = {
        "case": case["case"],
        "iops_median": statistics.median(iops),
        "iops_worst": max(iops),
        "waf_worst": worst_waf,
        "waf_worst_at": worst_waf_at,
    }
    out["iops_ok"] = out["iops_median"] <= IOPS_MEDIAN_MAX and out["iops_worst"] <= IOPS_WORST_MAX
    out["waf_ok"] = worst_waf is not None and worst_waf <= WAF_WORST_MAX
    return out


def coverage(cases: list[dict]) -> dict:
    """The 80% interval over the held-out QD32 figures of every case: share inside, width."""
    inside, widths = [], []
    for case in cases:
        for r in case["levels"]:
            if r["extra_op_percent"] not in HELD_OUT_LEVELS:
                continue
            for key in ("iops", "waf"):
                if f"{key}_in_80" in r:
                    inside.append(bool(r[f"{key}_in_80"]))
                    widths.append((r[f"{key}_high"] - r[f"{key}_low"]) / r[f"{key}_pred"])
    if not inside:
        return {"n": 0}
    share = sum(inside) / len(inside)
    return {
        "n": len(inside),
        "inside": sum(inside),
        "share": share,
        "median_rel_width": statistics.median(widths),
        "ok": COVERAGE_RANGE[0] <= share <= COVERAGE_RANGE[1],
    }


def verdict(evals: list[dict], simulator: str = "SSDsim") -> tuple[dict, str]:
    """The rule's verdict on `simulator` and its table, from evaluate.py's evaluation.json
    entries (the same rule judges WiscSim: bench/foreign/results/wiscsee/RULE.md)."""
    drives, all_cases, lines = {}, [], []
    lines.append("| drive | case | IOPS median / worst | met | WAF worst (level) | met |")
    lines.append("|---|---|---|---|---|---|")
    for ev in evals:
        all_cases += [c for c in ev["cases"] if "levels" in c]
        judged = [judge_case(c) for c in ev["cases"]]
        drives[ev["results"]] = judged
        for j in judged:
            if "refused" in j:
                lines.append(
                    f"| {ev['results']} | {j['case']} | refused: {j['refused']} | no | - | no |"
                )
                continue
            waf = (
                f"{j['waf_worst']:.1%} ({j['waf_worst_at']}%)"
                if j["waf_worst"] is not None
                else "-"
            )
            lines.append(
                f"| {ev['results']} | {j['case']} | {j['iops_median']:.1%} / {j['iops_worst']:.1%}"
                f" | {'yes' if j['iops_ok'] else 'no'} | {waf} | {'yes' if j['waf_ok'] else 'no'} |"
            )
    cov = coverage(all_cases)
    plan = {d: next((j for j in js if j["case"] == PLAN_CASE), None) for d, js in drives.items()}
    run_on_all = bool(plan) and all(p is not None for p in plan.values())
    passes = run_on_all and all(p["iops_ok"] and p["waf_ok"] for p in plan.values())
    lines.append("")
    if cov["n"]:
        lines.append(
            f"80% interval, held-out QD32 figures (IOPS and WAF at 10-30%, every case): "
            f"{cov['inside']}/{cov['n']} inside ({cov['share']:.0%}; target 70-90%: "
            f"{'met' if cov['ok'] else 'missed'}), "
            f"median relative width {cov['median_rel_width']:.2f}"
        )
    if not run_on_all:
        lines.append(
            f"verdict: not decided (the plan case {PLAN_CASE!r} has not run on every drive)"
        )
    else:
        lines.append(
            f"verdict: {simulator} {'passes' if passes else 'fails'} (the plan case {PLAN_CASE!r} "
            f"{'meets' if passes else 'does not meet'} the IOPS and WAF targets on every drive)"
        )
    return {"drives": drives, "coverage": cov, "passes": passes if run_on_all else None}, "\n".join(
        lines
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=HERE / "results" / "ssdsim")
    ap.add_argument("--out", type=Path, default=None, help="also write the table here")
    ap.add_argument("--simulator", default="SSDsim", help="the name the verdict gives")
    args = ap.parse_args(argv)
    evals = json.loads((args.dir / "evaluation.json").read_text())
    _, text = verdict(evals, args.simulator)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
