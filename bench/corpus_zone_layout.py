"""The zones' layout over the LBAs: the twin's zones scattered as the truth's are, predicting
SSDsim's zones figures from uniform figures alone (the rule:
bench/foreign/results/zonescatter/RULE.md).

    PYTHONPATH=python python bench/corpus_zone_layout.py --out CASES.jsonl [--parts judged,...]
    PYTHONPATH=python python bench/corpus_zone_layout.py --judge CASES.jsonl

Parts, run in this order (each appends its cases to ``--out``; a part already there is skipped):

- ``judged``: ssdsim-j and ssdsim-k (bench/foreign/results/zonescatter/), fit "iops+waf" as
  set C of bench/corpus_workload_victim.py fits it; every zones 0.9/0.1 and zones-ro 0.5 figure
  held out, predicted by the greedy-gc-mixed reading's twin alone (P1) and by calibrate's
  uniform weights (P2), each with the zones scattered and in LBA order;
- ``seen-c``: the same predictions, zones scattered, of set C's drives (ssdsim-h, ssdsim-i);
- ``seen-7450``: set A's static-data (zones-ro) figures of the Micron 7450s, set A's prediction
  (its readings weighed by its one skewed figure) with the zones scattered, as SSD-iq's
  ``zones-shuffle`` runs lay them;
- ``others``: every other reading of the judged drives alone, both layouts (reported only).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from overprov.calibrate import victim_selection as vs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_bench import CORPUS, load, read_cases  # noqa: E402  (bench/)
from corpus_workload_runs import overprov_workload  # noqa: E402
from corpus_workload_victim import (  # noqa: E402
    SKEWED_FIGURE,
    SKEWFTL,
    SKEWFTL_DRIVES,
    append_cases,
    skewftl_readings,
    skewftl_truths,
)
from corpus_workloads import held_out_cases, uniform_prediction, workload_figures  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "foreign" / "results" / "zonescatter"
FRESH_DRIVES = ("ssdsim-j", "ssdsim-k")
ZONES = ("zones 0.9/0.1", "zones-ro 0.5")
P1 = "greedy-gc-mixed"
PARTS = ("judged", "seen-c", "seen-7450", "others")
#: The rule's targets on the judged IOPS figures: |error| median and worst.
IOPS_MEDIAN, IOPS_WORST = 0.10, 0.20


def laid_out(workload: dict[str, Any], scattered: bool) -> dict[str, Any]:
    """``workload`` with its zones scattered over the span or laid in LBA order."""
    w = {k: v for k, v in workload.items() if k != "zones_scattered"}
    if scattered:
        w["zones_scattered"] = True
    return w


def _say(c: dict[str, Any]) -> None:
    print(f"{c['part']} {c['drive']} {c['workload']} {c['extra_op_percent']:g}% {c['kind']} "
          f"{c['layout']} {c['prediction']}: {c['predicted']:.4g} vs {c['measured']:.4g} "
          f"({100 * c['rel_error']:+.1f}%)", file=sys.stderr, flush=True)  # fmt: skip


def ssdsim_cases(
    part: str, drive: str, folder: Path, names: tuple[str, ...] | None, layouts: tuple[bool, ...],
    jobs: int | None,
) -> list[dict[str, Any]]:  # fmt: skip
    """A drive's zones figures by each named reading alone (None: P1 and P2; ``()`` with
    ``names`` None is never asked) under each layout."""
    t0 = time.process_time()
    truths = skewftl_truths(drive, folder)
    readings = skewftl_readings(drive, "iops+waf", jobs, folder)
    by_name = {r.name: r for r in readings}
    fit_cpu = time.process_time() - t0
    memo: dict = {}
    out = []
    for label in ZONES:
        t = truths[label]
        for x, lv in sorted(t["levels"].items()):
            for scattered in layouts:
                wl = laid_out(t["workload"], scattered)
                for kind in ("iops", "waf"):
                    t1 = time.process_time()
                    got: dict[str, tuple[float, float | None, float | None]] = {}
                    if names is None:
                        if P1 in by_name:
                            (v,) = vs.simulate(by_name[P1], wl, [x], kind, jobs, memo)
                            got["P1"] = (v, None, None)
                        w_uni = vs.uniform_weights(readings)
                        (m,) = vs.predict(readings, w_uni, wl, [x], kind, jobs, memo)
                        got["P2"] = (m["value"], m["low"], m["high"])
                    else:
                        for n in names:
                            if n in by_name and n != P1:
                                (v,) = vs.simulate(by_name[n], wl, [x], kind, jobs, memo)
                                got[n] = (v, None, None)
                    measured = float(lv[f"steady_{kind}"])
                    for pred, (v, low, high) in got.items():
                        c = {"part": part, "drive": drive, "workload": label,
                             "extra_op_percent": x, "kind": kind,
                             "layout": "scattered" if scattered else "in order",
                             "prediction": pred, "measured": measured, "predicted": v,
                             "low": low, "high": high, "rel_error": v / measured - 1.0,
                             "settled": lv["steady_window"]["settled"],
                             "readings": sorted(by_name), "fit_cpu_s": fit_cpu,
                             "cpu_s": time.process_time() - t1}  # fmt: skip
                        _say(c)
                        out.append(c)
    return out


def seen_7450(drive: str, jobs: int | None) -> list[dict[str, Any]]:
    """Set A's static-data figures of one 7450, its prediction with the zones scattered (the
    skewed figure that weighs the readings scattered too: it is a ``zones-shuffle`` run)."""
    t0 = time.process_time()
    figures = workload_figures()
    d = {x["id"]: x for x in load(CORPUS)}[drive]
    readings = vs.readings_of(uniform_prediction(d, jobs))
    mine = held_out_cases(figures, drive)

    def scattered(h: dict[str, Any]) -> dict[str, Any]:
        run = h["runs"][0]
        return overprov_workload(run["pattern"], run["details"])

    (f,) = [h for h in mine if h["workload"] == SKEWED_FIGURE[drive]]
    memo: dict = {}
    fig = vs.SkewedFigure(scattered(f), 0.0, float(f["value"]), "iops", f["rel_sd"])
    weights = vs.weigh(readings, fig, 0.0, jobs, memo)
    w_fig = {k: g["weight"] for k, g in weights.items()}
    fit_cpu = time.process_time() - t0
    out = []
    for h in mine:
        if h is f or not h["steady_state"] or h["kind"] != "zones-ro":
            continue
        t1 = time.process_time()
        (got,) = vs.predict(readings, w_fig, scattered(h), [0.0], "iops", jobs, memo)
        value = float(h["value"])
        c = {"part": "seen-7450", "drive": drive, "workload": h["workload"],
             "extra_op_percent": 0.0, "kind": "iops", "layout": "scattered",
             "prediction": "set A", "measured": value, "predicted": got["value"],
             "low": got["low"], "high": got["high"], "rel_error": got["value"] / value - 1.0,
             "weights": w_fig, "fit_cpu_s": fit_cpu,
             "cpu_s": time.process_time() - t1}  # fmt: skip
        _say(c)
        out.append(c)
    return out


def summary(cases: list[dict[str, Any]]) -> dict[str, Any]:
    errs = [abs(c["rel_error"]) for c in cases]
    return {"n": len(errs), "median": statistics.median(errs), "worst": max(errs)}


def judge(cases: list[dict[str, Any]]) -> str:
    """Per part, prediction and layout: IOPS and WAF |error| median and worst; the judged part's
    verdict by the rule's targets; then every case."""
    groups: dict[tuple[str, str, str], dict[str, list]] = {}
    for c in cases:
        g = groups.setdefault((c["part"], c["prediction"], c["layout"]), {"iops": [], "waf": []})
        g[c["kind"]].append(c)
    lines = ["| part | prediction | layout | IOPS cases | IOPS median / worst | WAF median / worst "
             "| verdict |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for (part, pred, layout), g in groups.items():
        i = summary(g["iops"])
        w = summary(g["waf"]) if g["waf"] else None
        verdict = "—"
        if part == "judged":
            met = i["median"] <= IOPS_MEDIAN and i["worst"] <= IOPS_WORST
            verdict = "**met**" if met else "**not met**"
            if layout != "scattered":
                verdict = f"({verdict[2:-2]}; the layout before)"
        wtxt = f"{100 * w['median']:.1f}% / {100 * w['worst']:.1f}%" if w else "—"
        lines.append(f"| {part} | {pred} | {layout} | {i['n']} | {100 * i['median']:.1f}% / "
                     f"{100 * i['worst']:.1f}% | {wtxt} | {verdict} |")  # fmt: skip
    lines += ["", "| part | drive | figure | layout | prediction | measured | predicted | error |",
              "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for c in cases:
        lines.append(f"| {c['part']} | {c['drive']} | {c['workload']} {c['extra_op_percent']:g}% "
                     f"{c['kind']} | {c['layout']} | {c['prediction']} | {c['measured']:.4g} | "
                     f"{c['predicted']:.4g} | {100 * c['rel_error']:+.1f}% |")  # fmt: skip
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="JSON lines the cases go to")
    ap.add_argument("--parts", default=",".join(PARTS), help=f"of {','.join(PARTS)}")
    ap.add_argument("--judge", type=Path, default=None, help="judge these cases (JSON lines)")
    args = ap.parse_args()
    if args.judge is not None:
        print(judge(read_cases(args.judge)))
        return 0
    done = set()
    if args.out is not None and args.out.exists():
        done = {(c["part"], c["drive"]) for c in read_cases(args.out)}
    both = (True, False)
    runs = {
        "judged": [(d, lambda d: ssdsim_cases("judged", d, RESULTS, None, both, args.jobs))
                   for d in FRESH_DRIVES],
        "seen-c": [(d, lambda d: ssdsim_cases("seen-c", d, SKEWFTL, None, (True,), args.jobs))
                   for d in SKEWFTL_DRIVES],
        "seen-7450": [(d, lambda d: seen_7450(d, args.jobs)) for d in SKEWED_FIGURE],
        "others": [(d, lambda d: ssdsim_cases("others", d, RESULTS, tuple(vs.VICTIM_SELECTIONS),
                                              both, args.jobs)) for d in FRESH_DRIVES],
    }  # fmt: skip
    for part in args.parts.split(","):
        for drive, run in runs[part]:
            if (part, drive) in done:
                continue
            append_cases(args.out, run(drive))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
