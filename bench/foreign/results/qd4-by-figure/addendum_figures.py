"""The figures ADDENDUM.md promises for each case kept by ``by_figure_rule.py run``: QD32 IOPS
and WAF errors |prediction/truth − 1| (held-out median over 10–30%, fitted median / worst over
0 and 40%, median / worst over 0–40%), mode off and on, the heaviest reading's blocking-GC
weight, the readings' weights, and what the heaviest reading's blocking twin records of the
fitted QD4 figures (its miss, its domains, the figures each reading reproduces one by one).

    PYTHONPATH=python python bench/foreign/results/qd4-by-figure/addendum_figures.py FILE...

Nothing is fitted or run here: the figures are the kept predictions' and the truths'.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))
import by_figure_rule  # noqa: E402

HELD_OUT = (10, 20, 30)
FITTED = (0, 40)


def errors(pred: dict, truth: dict, pred_key: str, truth_key: str) -> dict[int, float]:
    t = {
        int(r["extra_op_percent"]): r[truth_key] for r in truth["levels"] if r["queue_depth"] == 32
    }
    return {
        int(lv["extra_op_percent"]): abs(lv[pred_key] / t[int(lv["extra_op_percent"])] - 1)
        for lv in pred["levels"]
    }


def summary(e: dict[int, float]) -> str:
    fit = [e[x] for x in FITTED]
    return (
        f"{100 * statistics.median(e[x] for x in HELD_OUT):.1f}% | "
        f"{100 * statistics.median(fit):.1f}% / {100 * max(fit):.1f}% | "
        f"{100 * statistics.median(e.values()):.1f}% / {100 * max(e.values()):.1f}%"
    )


def heaviest_mechanism(pred: dict) -> str:
    docs = [
        d
        for d in (pred.get("readings") or {}).values() or [pred]
        if d.get("fit", {}).get("gc_mechanism")
    ]
    if not docs:
        return "–"
    m = max(docs, key=lambda d: d.get("weight", 1.0))["fit"]["gc_mechanism"]
    qd4 = [
        f"QD4 {r['extra_op_percent']:.0f}% {100 * math.expm1(r['log_error']):+.0f}%"
        for r in m.get("residuals", [])
        if r.get("queue_depth") == 4 and r["figure"] == "iops"
    ]
    n = m.get("figures_reproduced") or {}
    return (
        f"{', '.join(qd4)}; {m['domains']} domains of {m['dies']} dies; figures reproduced "
        f"analytic {n.get('analytic', '–')}, blocking {n.get('blocking', '–')}"
    )


def readings(pred: dict) -> str:
    r = sorted((pred.get("readings") or {}).items(), key=lambda kv: -kv[1].get("weight", 0.0))
    return "; ".join(
        f"{name} {doc.get('weight', 0.0):.2f}" for name, doc in r if doc.get("weight", 0) >= 0.05
    )


def main(paths: list[str]) -> int:
    print(
        "| truth | case | mode | IOPS held-out median | IOPS fitted median / worst | IOPS "
        "median / worst (0–40%) | WAF held-out median | WAF fitted median / worst | WAF "
        "median / worst "
        "(0–40%) | blocking-GC weight | readings ≥ 0.05 | heaviest reading's blocking twin | "
        "CPU s (on + off) |"
    )
    print("|---" * 13 + "|")
    for path in paths:
        kept = json.loads(Path(path).read_text())
        truth = json.loads((ROOT / kept["truth"]).read_text())
        for mode in ("off", "on"):
            pred = kept.get(mode) or kept["on"]
            iops = errors(pred, truth, "steady_iops", "steady_iops")
            waf = errors(pred, truth, "waf", "steady_waf")
            fired = "" if kept["fired"] else " (no change)"
            print(
                f"| {Path(path).name.split('--')[0]} | {kept['case']} | {mode}{fired} | "
                f"{summary(iops)} | {summary(waf)} | "
                f"{by_figure_rule.heaviest_blocking_weight(pred):.2f} | {readings(pred)} | "
                f"{heaviest_mechanism(pred)} | {kept['cpu_s']:.0f} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
