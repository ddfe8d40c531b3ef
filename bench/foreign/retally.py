"""FEMU's stored evaluations against the same cases run again with the code as it is: old → now.

    python bench/foreign/retally.py evaluate OLD.json NEW.json [--results femu.json ...]
    python bench/foreign/retally.py reserve OLD_PLAN.json NEW_PLAN.json

``evaluate``: two ``evaluation.json`` files written by ``bench/foreign/evaluate.py`` (the stored
one and the run again), each case's figures side by side: QD32 IOPS and WAF median / worst
|error| over 0–40% (fitted levels included), the held-out figures inside the 80% interval, the
other queue depths not fitted (median / worst), the blocking-GC reading's weight, and whether
the case meets the targets of docs/calibrate-validation.md, "A fourth FTL, held out" (IOPS
within 10% median and 20% worst, WAF within 5% at every level, 70–90% of the held-out figures
inside the interval) and, where the truth has other queue depths, those within 10% / 20%
(bench/foreign/results/femu-units/RULE.md, condition 1).

``reserve``: two plan files of ``bench/gc_reserve_bench.py``: each drive's held-out WAF (10, 20,
30%) median / worst |error| of the baseline (calibrate's readings as they are) and the reserve
reading's weight beside it. Nothing here fits or changes a figure; it reads and compares.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

IOPS_MEDIAN_MAX = 0.10
IOPS_WORST_MAX = 0.20
WAF_WORST_MAX = 0.05
COVER_RANGE = (0.70, 0.90)
HELD_OUT_LEVELS = (10.0, 20.0, 30.0)


def figures(case: dict) -> dict:
    """One evaluated case's figures (fractions), None where the case has none."""
    s = case.get("summary") or {}
    out: dict = {"case": case["case"], "error": case.get("error")}
    for key in ("iops", "waf"):
        got = s.get(key)
        out[f"{key}_median"] = got["median_abs_err"] if got else None
        out[f"{key}_worst"] = got["worst_abs_err"] if got else None
    inside = n = 0
    for key in ("iops_held_out", "waf_held_out"):
        got = s.get(key)
        if got:
            inside += got["in_80"]
            n += got["n_interval"]
    out["held_out_inside"] = (inside, n)
    other = s.get("iops_other_qd")
    out["other_median"] = other["median_abs_err"] if other else None
    out["other_worst"] = other["worst_abs_err"] if other else None
    mech = case.get("gc_mechanism")
    out["blocking_weight"] = mech.get("weight") if mech else None
    return out


def met(f: dict) -> bool:
    """The case meets every target its figures allow (see the module's text)."""
    if f["error"] or (f["iops_median"] is None and f["waf_worst"] is None):
        return False
    ok = True
    if f["iops_median"] is not None:
        ok &= f["iops_median"] <= IOPS_MEDIAN_MAX and f["iops_worst"] <= IOPS_WORST_MAX
    if f["waf_worst"] is not None:
        ok &= f["waf_worst"] <= WAF_WORST_MAX
    inside, n = f["held_out_inside"]
    if n:
        ok &= COVER_RANGE[0] <= inside / n <= COVER_RANGE[1]
    if f["other_median"] is not None:
        ok &= f["other_median"] <= IOPS_MEDIAN_MAX and f["other_worst"] <= IOPS_WORST_MAX
    return bool(ok)


def pair(median: float | None, worst: float | None) -> str:
    if median is None:
        return "–"
    return f"{100 * median:.1f} / {100 * worst:.1f}%"


def cell(old: dict, new: dict, key: str) -> str:
    before = pair(old[key + "_median"], old[key + "_worst"])
    return f"{before} → {pair(new[key + '_median'], new[key + '_worst'])}"


def weight(w: float | None) -> str:
    return "–" if w is None else f"{w:.2f}"


def evaluate_rows(old: list[dict], new: list[dict], results: set[str] | None = None) -> list[str]:
    """Markdown rows, one per case present in both files (matched by results file and case)."""
    before = {(e["results"], c["case"]): c for e in old for c in e["cases"]}
    rows = []
    for e in new:
        if results and e["results"] not in results:
            continue
        for c in e["cases"]:
            prior = before.get((e["results"], c["case"]))
            if prior is None:
                continue
            o, n = figures(prior), figures(c)
            (oi, on), (ni, nn) = o["held_out_inside"], n["held_out_inside"]
            rows.append(
                f"| {e['results']}: {c['case']} | {cell(o, n, 'iops')} | {cell(o, n, 'waf')} | "
                f"{oi}/{on} → {ni}/{nn} | {cell(o, n, 'other')} | "
                f"{weight(o['blocking_weight'])} → {weight(n['blocking_weight'])} | "
                f"{'met' if met(o) else 'not met'} → {'met' if met(n) else 'not met'} |"
            )
    return rows


EVALUATE_HEAD = (
    "| truth: case | QD32 IOPS median / worst | WAF median / worst | held out inside the 80% "
    "interval | other QDs median / worst | blocking-GC weight | targets |\n"
    "|---|---|---|---|---|---|---|"
)


def held_out_waf(case: dict) -> tuple[float, float]:
    """A gc_reserve_bench plan case's baseline held-out WAF median and worst |error|."""
    errs = [
        abs(r["baseline_error"])
        for r in case["rows"]
        if r["figure"] == "waf" and r["extra_op_percent"] in HELD_OUT_LEVELS
    ]
    return statistics.median(errs), max(errs)


def reserve_rows(old: dict, new: dict) -> list[str]:
    before = {(c["drive"], c["raw_nand_given"]): c for c in old["cases"]}
    rows = []
    for c in new["cases"]:
        prior = before.get((c["drive"], c["raw_nand_given"]))
        if prior is None:
            continue
        o, n = held_out_waf(prior), held_out_waf(c)
        rows.append(
            f"| {c['drive']}{', raw NAND' if c['raw_nand_given'] else ''} | "
            f"{pair(*o)} → {pair(*n)} | "
            f"{'met' if o[1] <= WAF_WORST_MAX else 'not met'} → "
            f"{'met' if n[1] <= WAF_WORST_MAX else 'not met'} |"
        )
    return rows


RESERVE_HEAD = (
    "| drive | held-out WAF (10–30%) median / worst, baseline | WAF within 5% |\n|---|---|---|"
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    e = sub.add_parser("evaluate")
    e.add_argument("old", type=Path)
    e.add_argument("new", type=Path)
    e.add_argument("--results", action="append", default=None, help="a results file's name")
    r = sub.add_parser("reserve")
    r.add_argument("old", type=Path)
    r.add_argument("new", type=Path)
    args = ap.parse_args(argv)
    old, new = json.loads(args.old.read_text()), json.loads(args.new.read_text())
    if args.what == "evaluate":
        wanted = set(args.results) if args.results else None
        print("\n".join([EVALUATE_HEAD, *evaluate_rows(old, new, wanted)]))
    else:
        print("\n".join([RESERVE_HEAD, *reserve_rows(old, new)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
