"""Greedy garbage collection with static wear levelling: one threshold read from one skewed figure,
the drive's other skewed figures predicted (the rule: bench/corpus/RULE-skewed-wl.md).

Each drive's greedy reading (``victim_selection.readings_of``) with static wear levelling at each
threshold of ``victim_selection.STATIC_WL_THRESHOLDS`` (None: none); the threshold whose twin is
nearest the drive's one skewed figure (``victim_selection.read_threshold``) predicts its other
skewed figures. Three sets:

- A: SSD-iq's Micron 7450 PRO and MAX, IOPS at 0%, fitted on their uniform figures
  (bench/corpus/published.toml); the skewed figure the victim-selection rule read
  (bench/corpus/RULE-skewed-figure.md); the other steady skewed figures held out.
- B: SSD-iq's GC simulator (bench/foreign/results/ssdiq-sim/), WAF under 90/10 zones: the zones
  WAF at 0% read, 10–40% held out.
- C: SSD-iq's six other drives (one uniform figure each, calibrate cannot fit them): each
  workload's IOPS over the drive's uniform IOPS, predicted by the 7450 PRO's greedy twin with
  the threshold read from one of the drive's ratios.

    PYTHONPATH=python python bench/corpus_static_wl.py --out CASES.jsonl [--only A,B,C]
    PYTHONPATH=python python bench/corpus_static_wl.py --judge CASES.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from overprov.calibrate import victim_selection as vs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_bench import CORPUS, load, read_cases  # noqa: E402  (bench/)
from corpus_workload_victim import (  # noqa: E402
    SKEWED_FIGURE,
    SSDIQ_FIGURE_LEVEL,
    SSDIQ_LEVELS,
    SSDIQ_POLICIES,
    SSDIQ_REL_SD,
    SSDIQ_WORKLOAD,
    set_lines,
    ssdiq_readings,
    ssdiq_wafs,
)
from corpus_workloads import PREDICTED, held_out_cases, uniform_prediction, workload_figures  # noqa: E402

#: The victim-selection rule's cases (sets A and B's comparison).
VICTIM_RULE_CASES = CORPUS / "skewed-figure-cases.jsonl"
#: Set C's twin: the 7450 PRO's greedy reading (a read-intensive drive like the six).
PROXY = "micron-7450-pro-960"
UNIFORM = {"pattern": "uniform"}
THRESHOLDS = vs.STATIC_WL_THRESHOLDS


def _t(t: int | None) -> str:
    return "off" if t is None else str(t)


def grid(r: vs.VictimReading) -> dict[int | None, vs.VictimReading]:
    return {t: vs.with_static_wl(r, t) for t in THRESHOLDS}


def greedy_reading(readings: list[vs.VictimReading]) -> vs.VictimReading:
    (r,) = [r for r in readings if r.name == "greedy"]
    return r


_FITS: dict[str, vs.VictimReading] = {}


def drive_reading(drive: str, jobs: int | None) -> vs.VictimReading:
    """A 7450's greedy reading, fitted on its uniform figures (once a run: set C's proxy is set
    A's PRO)."""
    if drive not in _FITS:
        d = {x["id"]: x for x in load(CORPUS)}[drive]
        _FITS[drive] = greedy_reading(vs.readings_of(uniform_prediction(d, jobs)))
    return _FITS[drive]


def _grid_values(
    rs: dict[int | None, vs.VictimReading], workload: dict[str, Any], level: float, kind: str,
    jobs: int | None, memo: dict,
) -> dict[int | None, float]:  # fmt: skip
    return {t: vs.simulate(r, workload, [level], kind, jobs, memo)[0] for t, r in rs.items()}


def _case(base: dict[str, Any], measured: float, by_t: dict[int | None, float],
          threshold: int | None, compare: float | None) -> dict[str, Any]:  # fmt: skip
    got = by_t[threshold]
    case = {
        **base, "measured": measured, "predicted": got, "rel_error": got / measured - 1.0,
        "greedy_rel_error": by_t[None] / measured - 1.0, "comparison_rel_error": compare,
        "by_threshold": {_t(t): v for t, v in by_t.items()},
    }  # fmt: skip
    print(f"{base['drive']} {base['workload']} {base.get('extra_op_percent', 0):g}%: "
          f"{got:.4g} vs {measured:.4g} ({100 * case['rel_error']:+.1f}%)",
          file=sys.stderr, flush=True)  # fmt: skip
    return case


def set_a(drive: str, jobs: int | None, memo: dict) -> list[dict[str, Any]]:
    t0 = time.process_time()
    rs = grid(drive_reading(drive, jobs))
    mine = held_out_cases(workload_figures(), drive)
    (f,) = [h for h in mine if h["workload"] == SKEWED_FIGURE[drive]]
    fig = vs.SkewedFigure(f["overprov_workload"], 0.0, float(f["value"]), "iops", f["rel_sd"])
    threshold, read = vs.read_threshold(rs, fig, jobs, memo)
    rule = {(c["drive"], c["workload"]): c["rel_error"] for c in read_cases(VICTIM_RULE_CASES)}
    base = {"set": "A", "drive": drive, "figure": f["workload"], "threshold": _t(threshold),
            "figure_by_threshold": {_t(t): v for t, v in read.items()}}  # fmt: skip
    out = []
    for h in mine:
        if h is f or not h["steady_state"]:
            continue
        by_t = _grid_values(rs, h["overprov_workload"], 0.0, "iops", jobs, memo)
        base_h = {**base, "workload": h["workload"], "workload_kind": h["kind"]}
        out.append(_case(base_h, float(h["value"]), by_t, threshold, rule[drive, h["workload"]]))
    out[0]["cpu_s"] = time.process_time() - t0
    return out


def set_b(policy: str, jobs: int | None, memo: dict) -> list[dict[str, Any]]:
    t0 = time.process_time()
    zones = ssdiq_wafs(f"{policy}-zones")
    rs = grid(greedy_reading(ssdiq_readings(policy, jobs)))
    fig = vs.SkewedFigure(SSDIQ_WORKLOAD, SSDIQ_FIGURE_LEVEL, zones[SSDIQ_FIGURE_LEVEL], "waf",
                          SSDIQ_REL_SD)  # fmt: skip
    threshold, read = vs.read_threshold(rs, fig, jobs, memo)
    rule = {(c["drive"], c["extra_op_percent"]): c["rel_error"]
            for c in read_cases(VICTIM_RULE_CASES)}  # fmt: skip
    drive = f"ssdiq-sim {policy}"
    base = {"set": "B", "drive": drive, "figure": "zones 90/10 at 0%", "threshold": _t(threshold),
            "figure_by_threshold": {_t(t): v for t, v in read.items()},
            "workload": "zones 90/10", "workload_kind": "zones"}  # fmt: skip
    out = []
    for x in SSDIQ_LEVELS:
        if x == SSDIQ_FIGURE_LEVEL:
            continue
        by_t = _grid_values(rs, SSDIQ_WORKLOAD, x, "waf", jobs, memo)
        out.append(_case({**base, "extra_op_percent": x}, zones[x], by_t, threshold,
                         rule[drive, x]))  # fmt: skip
    out[0]["cpu_s"] = time.process_time() - t0
    return out


def set_c(jobs: int | None, memo: dict) -> list[dict[str, Any]]:
    """Each of the six drives: its ratios (a workload's IOPS over its uniform IOPS) against the
    proxy twin's at each threshold; the threshold read from one ratio, the others held out."""
    t0 = time.process_time()
    rs = grid(drive_reading(PROXY, jobs))
    figures = workload_figures()
    uni = _grid_values(rs, UNIFORM, 0.0, "iops", jobs, memo)
    drives = [r["drive"] for r in figures if r["kind"] == "uniform" and r["drive"] not in PREDICTED]
    ratio: dict[str, dict[int | None, float]] = {}
    out = []
    for drive in drives:
        uniform = next(float(r["value"]) for r in figures
                       if r["drive"] == drive and r["kind"] == "uniform")  # fmt: skip
        mine = [h for h in held_out_cases(figures, drive) if h["steady_state"]]
        for h in mine:
            if h["workload"] not in ratio:
                got = _grid_values(rs, h["overprov_workload"], 0.0, "iops", jobs, memo)
                ratio[h["workload"]] = {t: got[t] / uni[t] for t in THRESHOLDS}
        f = _figure_c(mine, ratio)
        measured = float(f["value"]) / uniform
        threshold = min(THRESHOLDS, key=lambda t: abs(math.log(ratio[f["workload"]][t] / measured)))
        base = {"set": "C", "drive": drive, "figure": f["workload"], "threshold": _t(threshold),
                "figure_by_threshold": {_t(t): v for t, v in ratio[f["workload"]].items()},
                "figure_measured": measured}  # fmt: skip
        for h in mine:
            if h is f:
                continue
            by_t = ratio[h["workload"]]
            m = float(h["value"]) / uniform
            out.append(_case({**base, "workload": h["workload"], "workload_kind": h["kind"]},
                             m, by_t, threshold, by_t[None] / m - 1.0))  # fmt: skip
    out[0]["cpu_s"] = time.process_time() - t0
    return out


def _figure_c(mine: list[dict[str, Any]], ratio: dict[str, dict[int | None, float]]) -> Any:
    """Set C's figure: the drive's steady zones 0.95/0.05 (hot/cold, as the PRO's), else its
    steady zones-ro figure at which the proxy twin's thresholds part most."""
    hot = [h for h in mine if h["workload"] == "zones 0.95/0.05"]
    if hot:
        return hot[0]
    static = [h for h in mine if h["kind"] == "zones-ro"]
    return max(static, key=lambda h: max(ratio[h["workload"]].values())
               / min(ratio[h["workload"]].values()))  # fmt: skip


def verdict(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """The rule's targets on one set: (1) median |error| ≤ 10%, worst ≤ 25%; (2) median and
    worst |error| not above the comparison's on the same cases."""
    err = [abs(c["rel_error"]) for c in cases]
    cmp_ = [abs(c["comparison_rel_error"]) for c in cases]
    greedy = [abs(c["greedy_rel_error"]) for c in cases]
    median, worst = statistics.median(err), max(err)
    accuracy = median <= 0.10 and worst <= 0.25
    not_worse = median <= statistics.median(cmp_) and worst <= max(cmp_)
    return {"cases": len(cases), "median": median, "worst": worst,
            "comparison_median": statistics.median(cmp_), "comparison_worst": max(cmp_),
            "greedy_median": statistics.median(greedy), "greedy_worst": max(greedy),
            "accuracy": accuracy, "not_worse": not_worse,
            "met": accuracy and not_worse}  # fmt: skip


COMPARISON = {"A": "victim-selection rule", "B": "victim-selection rule",
              "C": "the proxy's greedy twin"}  # fmt: skip


def judge(cases: list[dict[str, Any]]) -> str:
    pct = lambda v: f"{100 * v:.1f}%"  # noqa: E731
    lines = ["| set | cases | median error | worst | comparison (median / worst) | greedy twin, "
             "no levelling (median / worst) | target 1 | target 2 | verdict |",
             "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    lines += set_lines(cases, ("A", "B", "C"), verdict, lambda s, v: (
        f"{pct(v['median'])} | {pct(v['worst'])} | {COMPARISON[s]}: "
        f"{pct(v['comparison_median'])} / {pct(v['comparison_worst'])} | "
        f"{pct(v['greedy_median'])} / {pct(v['greedy_worst'])}"), 9)  # fmt: skip
    heads = " | ".join(f"T={_t(t)}" for t in THRESHOLDS)
    lines += ["", "| drive | figure read | measured | " + heads + " | threshold read |",
              "|---|---|---|" + "---|" * len(THRESHOLDS) + "---|"]  # fmt: skip
    for d in dict.fromkeys(c["drive"] for c in cases):
        c = next(c for c in cases if c["drive"] == d)
        measured = c.get("figure_measured")
        if measured is None:  # sets A and B: the figure itself
            measured = _figure_value(c)
        cells = " | ".join(f"{c['figure_by_threshold'][_t(t)]:.4g}" for t in THRESHOLDS)
        lines.append(f"| {d} | {c['figure']} | {measured:.4g} | {cells} | {c['threshold']} |")
    lines += ["", "| case | measured | predicted | error | comparison | greedy twin | "
              + heads + " |", "|---|---|---|---|---|---|" + "---|" * len(THRESHOLDS)]  # fmt: skip
    for c in cases:
        at = f" {c['extra_op_percent']:g}%" if "extra_op_percent" in c else ""
        cells = " | ".join(f"{100 * (c['by_threshold'][_t(t)] / c['measured'] - 1):+.1f}%"
                           for t in THRESHOLDS)  # fmt: skip
        lines.append(
            f"| {c['set']} {c['drive']} {c['workload']}{at} | {c['measured']:.4g} | "
            f"{c['predicted']:.4g} | {100 * c['rel_error']:+.1f}% | "
            f"{100 * c['comparison_rel_error']:+.1f}% | {100 * c['greedy_rel_error']:+.1f}% | "
            f"{cells} |"
        )
    return "\n".join(lines)


def _figure_value(c: dict[str, Any]) -> float:
    if c["set"] == "B":
        return ssdiq_wafs(f"{c['drive'].removeprefix('ssdiq-sim ')}-zones")[SSDIQ_FIGURE_LEVEL]
    (f,) = [h for h in held_out_cases(workload_figures(), c["drive"])
            if h["workload"] == c["figure"]]  # fmt: skip
    return float(f["value"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="JSON lines the cases go to")
    ap.add_argument("--only", default="A,B,C", help="the sets to run (A,B,C)")
    ap.add_argument("--judge", type=Path, default=None, help="judge these cases (JSON lines)")
    args = ap.parse_args()
    if args.judge is not None:
        print(judge(read_cases(args.judge)))
        return 0
    # a drive (sets A, B) or set C whose cases are in --out already is not run again
    stored = _read(args.out)
    done = {c["drive"] for c in stored} | {f"set {c['set']}" for c in stored}
    memo: dict = {}
    runs: list[tuple[str, Any]] = []
    sets = args.only.split(",")
    if "B" in sets:
        runs += [(f"ssdiq-sim {p}", lambda p=p: set_b(p, args.jobs, memo)) for p in SSDIQ_POLICIES]
    if "A" in sets:
        runs += [(d, lambda d=d: set_a(d, args.jobs, memo)) for d in PREDICTED]
    if "C" in sets:
        runs.append(("set C", lambda: set_c(args.jobs, memo)))
    for name, run in runs:
        if name in done:
            continue
        cases = run()
        if args.out is not None:
            with args.out.open("a") as f:
                for c in cases:
                    f.write(json.dumps(c, default=str) + "\n")
    return 0


def _read(path: Path | None) -> list[dict[str, Any]]:
    return read_cases(path) if path is not None and path.exists() else []


if __name__ == "__main__":
    raise SystemExit(main())
