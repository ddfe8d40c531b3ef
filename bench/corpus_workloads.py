"""A drive's steady IOPS under skewed writes predicted from its uniform figures (SSD-iq's 7450s).

The rule is pre-registered in docs/calibrate-validation.md ("SSD-iq's other drives and
workloads"): a drive's uniform figures (bench/corpus/published.toml, every level) are read as
``overprov calibrate`` reads them (``spare_readings.read_all``, the level asked 0%); each reading
that keeps ``SPAN_MIN_WEIGHT`` of the largest weight has its fitted twin simulated at 0% under
the held-out workload (``twin_runs.simulate_levels``: calibrate's level config, timed, its seed
— what ``overprov simulate`` does with that twin file and the workload's flags); the readings'
IOPS are combined as ``spare_readings.combine`` combines a level's (the weighted geometric
mean). A case's parts carry each reading's relative interval at 0% under uniform writes and its
spare distance (0: a fitted level), so ``corpus_bench.evaluate`` gives its nested 80% interval.
The held-out figures are bench/corpus/workload-figures.toml's (bench/corpus_workload_runs.py).

    PYTHONPATH=python python bench/corpus_workloads.py [--jobs N] [--partial FILE.jsonl]
    PYTHONPATH=python python bench/corpus_workloads.py --judge FILE.jsonl
    PYTHONPATH=python python bench/corpus_workloads.py --policies [--jobs N]
    PYTHONPATH=python python bench/corpus_workloads.py --until-steady --partial FILE.jsonl
    PYTHONPATH=python python bench/corpus_workloads.py --judge FILE.jsonl --against STORED.jsonl

The first predicts (cases appended to ``--partial`` as made; cases already there are not made
again); ``--judge`` reports accuracy and coverage per drive and kind of workload, and the corpus
bench's tally over the stored cases (bench/corpus/*.jsonl) with and without the new ones;
``--policies`` is a diagnosis after the outcome (each drive's greedy twin with FIFO and random
victim selection). ``--until-steady``: each twin under the held-out workload is run until its
own window is steady (``twin_runs.simulate_levels(until_steady=True)``), the rule of
bench/corpus/RULE-skewed-steady-twin.md; ``--against``: that rule's verdict beside the judgement,
the stored uniform-only cases (bench/corpus/workload-held-out.jsonl) the comparison.
"""

from __future__ import annotations

import argparse
import ast
import copy
import dataclasses
import json
import math
import statistics
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

from overprov import engine, sweep
from overprov.calibrate import predict as predmod
from overprov.calibrate import spare_readings, twin_runs, twin_steady, uncertainty
from overprov.calibrate.twin import sim_config
from overprov.steady_window import steady_window

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_bench import CORPUS, evaluate, held_out, load, read_cases  # noqa: E402  (bench/)
from corpus_foreign import point  # noqa: E402

FIGURES = CORPUS / "workload-figures.toml"
#: The drives predicted (fitted on several uniform levels), in the pre-registered order.
PREDICTED = ("micron-7450-pro-960", "micron-7450-max-800")
KIND_ORDER = ("zipf", "zones-ro", "zones")
#: The stored cases the corpus bench's tally is judged on (bench/corpus/results.md, "Published
#: figures measured at steady state"): the foreign FTLs' of the first, all of the others.
FOREIGN_STORED = "held-out-cases.jsonl"
STORED = ("published-held-out.jsonl", "steady-held-out.jsonl")


def workload_figures(path: Path = FIGURES) -> list[dict[str, Any]]:
    rows = tomllib.loads(path.read_text())["figure"]
    for r in rows:
        r["overprov_workload"] = ast.literal_eval(r["overprov_workload"])
    return rows


def held_out_cases(rows: list[dict[str, Any]], drive: str) -> list[dict[str, Any]]:
    """The drive's figures to predict: every workload but uniform, in the pre-registered order."""
    mine = [r for r in rows if r["drive"] == drive and r["kind"] != "uniform"]
    return sorted(mine, key=lambda r: KIND_ORDER.index(r["kind"]))


def kept_readings(pred: Any) -> list[tuple[Any, float, Any]]:
    """(reading figures, weight, twin) of each reading keeping ``SPAN_MIN_WEIGHT`` of the
    largest weight; a prediction of one reading is its own."""
    if not pred.readings:
        return [(pred, 1.0, pred.twins[pred.twin])]
    top = max(r.weight for r in pred.readings)
    return [(r, r.weight, pred.twins[r.twin]) for r in pred.readings
            if r.weight >= spare_readings.SPAN_MIN_WEIGHT * top]  # fmt: skip


def uniform_prediction(d: dict[str, Any], jobs: int | None) -> Any:
    """The drive's uniform figures read as calibrate reads them, the level asked 0%."""
    steady = [f for f in d["figure"] if f["kind"] in ("iops", "waf")]
    fig = predmod.PredictionInput(
        [point(f) for f in steady], [0.0], typed=True, raw_native_op=None, source=d["name"],
        workload=None, jobs=jobs, model_form=uncertainty.NO_MODEL_FORM,
    )  # fmt: skip
    return spare_readings.read_all(fig)


def fitted_readings(d: dict[str, Any], jobs: int | None) -> list[tuple[Any, float, Any]]:
    """:func:`kept_readings` of :func:`uniform_prediction`."""
    return kept_readings(uniform_prediction(d, jobs))


#: Victim selections compared after the outcome (a diagnosis, not the rule's prediction).
POLICIES = ("greedy", "fifo", "random")


def policy_ratios(
    d: dict[str, Any], figures: list[dict[str, Any]], jobs: int | None
) -> list[dict[str, Any]]:
    """A diagnosis after the outcome: the drive's greedy-reading twin with each victim selection
    of :data:`POLICIES` (one write frontier), its IOPS under each workload over its IOPS under
    uniform writes, beside the drive's measured ratio (the workload's figure over the drive's
    uniform figure in workload-figures.toml)."""
    readings = fitted_readings(d, jobs)
    twin = next(t for r, _w, t in readings if getattr(r, "design", "greedy") == "greedy")
    uniform = next(f for f in figures if f["drive"] == d["id"] and f["kind"] == "uniform")
    rows = []
    for policy in POLICIES:
        p = dataclasses.replace(twin, ftl={"policy": policy, "host_streams": "single"})
        base = twin_runs.simulate_levels(p, [0.0], {"pattern": "uniform"}, jobs=jobs).levels[0]
        for h in held_out_cases(figures, d["id"]):
            m = twin_runs.simulate_levels(p, [0.0], h["overprov_workload"], jobs=jobs).levels[0]
            rows.append({
                "drive": d["id"], "policy": policy, "workload": h["workload"],
                "twin_ratio": m.steady_iops / base.steady_iops, "twin_waf": m.waf,
                "twin_uniform_waf": base.waf, "measured_ratio": h["value"] / uniform["value"],
                "steady_state": h["steady_state"],
            })  # fmt: skip
            print(f"{d['id']} {policy} {h['workload']}: twin x{rows[-1]['twin_ratio']:.2f} "
                  f"(WAF {m.waf:.2f}), measured x{rows[-1]['measured_ratio']:.2f}",
                  file=sys.stderr, flush=True)  # fmt: skip
    return rows


def policy_markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| drive | workload | measured: IOPS over uniform's | "
             + " | ".join(f"twin, {p}: ratio (WAF)" for p in POLICIES) + " |",
             "|---|---|---|" + "---|" * len(POLICIES)]  # fmt: skip
    by = {(r["drive"], r["workload"], r["policy"]): r for r in rows}
    for d, w in dict.fromkeys((r["drive"], r["workload"]) for r in rows):
        first = by[d, w, POLICIES[0]]
        steady = "" if first["steady_state"] else " (not steady)"
        cells = [f"{by[d, w, p]['twin_ratio']:.2f} ({by[d, w, p]['twin_waf']:.2f})"
                 for p in POLICIES]  # fmt: skip
        lines.append(f"| {d} | {w}{steady} | {first['measured_ratio']:.2f} | "
                     + " | ".join(cells) + " |")  # fmt: skip
    uni = {(r["drive"], r["policy"]): r["twin_uniform_waf"] for r in rows}
    lines.append("| (uniform WAF of each twin) | | | " + " | ".join(
        " / ".join(f"{uni[d, p]:.2f}" for d in dict.fromkeys(r["drive"] for r in rows))
        for p in POLICIES) + " |")  # fmt: skip
    return "\n".join(lines)


def fixed_warm_up_test(twin: Any, workload: dict[str, Any], jobs: int | None) -> dict[str, Any]:
    """A diagnosis beside bench/corpus/RULE-skewed-steady-twin.md: the twin's run as calibrate
    runs it today (2 drive writes of warm-up, 2 measured), in ``twin_steady.INTERVAL_S``
    intervals, its measured part tested as the rule tests a run (the last 5 of 20 rounds) and by
    the core's own steady window (rounds of ``timing.state_round_drive_writes``)."""
    cfg = twin_runs.level_config(sim_config(twin), 0.0, workload, True)
    cfg = engine.merge(cfg, {"timing": {"interval_s": twin_steady.INTERVAL_S}})
    rep = sweep.run_points([cfg], jobs=jobs, label="twin, fixed warm-up")[0]
    level = twin_steady.window_level(0.0, rep)
    core = steady_window(rep["timed"])
    return {
        "rounds_steady": level.settled,
        "rounds_iops": level.steady_iops,
        "core_steady": bool(core and core.steady),
        "core_iops": core.iops if core else None,
    }


def reading_name(r: Any) -> str:
    return f"{r.spare}-{r.design}" if hasattr(r, "design") else "only"


def predict_drive(
    d: dict[str, Any], figures: list[dict[str, Any]], jobs: int | None, sink: Path | None,
    done: set[tuple[str, str]], until_steady: bool = False,
) -> list[dict[str, Any]]:  # fmt: skip
    """The drive's held-out workload figures predicted from all its uniform figures
    (``until_steady``: :func:`twin_runs.simulate_levels`')."""
    steady = [f for f in d["figure"] if f["kind"] in ("iops", "waf")]
    todo = [h for h in held_out_cases(figures, d["id"]) if (d["id"], h["workload"]) not in done]
    if not todo:
        return []
    t0 = time.process_time()
    readings = fitted_readings(d, jobs)
    fit_cpu = time.process_time() - t0
    print(f"{d['id']}: {len(readings)} readings kept, fit {fit_cpu:.0f} CPU s", file=sys.stderr)
    memo: dict = {}
    # a diagnosis beside the rule: each twin's own IOPS at 0% under uniform writes
    twin_uniform = [
        twin_runs.simulate_levels(t, [0.0], {"pattern": "uniform"}, jobs=jobs, memo=memo)
        .levels[0]
        .steady_iops
        for _r, _w, t in readings
    ]
    out = []
    base = {
        "drive": d["id"], "name": d["name"], "foreign": False, "waf_only": False,
        "family": d.get("family") or d["name"], "raw_nand_given": False,
        "fitted": [{k: f[k] for k in ("kind", "extra_op_percent", "value")}
                   | {"steady_state": f.get("steady_state", True)} for f in steady],
    }  # fmt: skip
    for h in todo:
        t1 = time.process_time()
        parts, values, weights = [], [], []
        for (r, w, twin), tu in zip(readings, twin_uniform, strict=True):
            level = r.levels[0]
            u, lo, hi = level.steady_iops, level.steady_iops_low, level.steady_iops_high
            m = twin_runs.simulate_levels(
                twin, [0.0], h["overprov_workload"], jobs=jobs, memo=memo,
                until_steady=until_steady,
            )  # fmt: skip
            v = m.levels[0].steady_iops
            parts.append({
                "reading": reading_name(r), "value": v, "low": v * lo / u, "high": v * hi / u,
                "weight": w, "distance": 0.0, "uniform_iops": u, "twin_uniform_iops": tu,
                "workload_waf": m.levels[0].waf, "twin_drive_writes": m.levels[0].drive_writes,
                "twin_settled": m.levels[0].settled,
            })  # fmt: skip
            if until_steady:
                parts[-1]["fixed_warm_up"] = fixed_warm_up_test(twin, h["overprov_workload"], jobs)
            values.append(v)
            weights.append(w)
        got = math.exp(sum(w * math.log(v) for v, w in zip(values, weights, strict=True))
                       / sum(weights))  # fmt: skip
        held = {"kind": "iops", "extra_op_percent": 0, "value": h["value"], "rel_sd": h["rel_sd"],
                "read_from": "data", "steady_state": h["steady_state"],
                "workload": h["workload"], "workload_kind": h["kind"]}  # fmt: skip
        case = {
            **base, **held_out(held, steady), "workload": h["workload"],
            "workload_kind": h["kind"], "overprov_workload": h["overprov_workload"],
            "predicted": got, "log_error": math.log(got / h["value"]),
            "rel_error": got / h["value"] - 1.0, "parts": parts,
            "cpu_s": time.process_time() - t1 + (fit_cpu if not out else 0.0),
        }  # fmt: skip
        out.append(case)
        print(f"{d['id']} {h['workload']}: {got:,.0f} vs {h['value']:,} "
              f"({100 * case['rel_error']:+.1f}%)", file=sys.stderr, flush=True)  # fmt: skip
        if sink is not None:
            with sink.open("a") as f:
                f.write(json.dumps(case, default=str) + "\n")
    return out


def summary_row(name: str, cases: list[dict[str, Any]], of: int) -> str:
    if not cases:
        return f"| {name} | 0 of {of} | – | – | – | – |"
    errs = [abs(c["rel_error"]) for c in cases]
    inside = sum(c["inside_nested"] for c in cases) / len(cases)
    widths = [c["interval_nested"][1] / c["interval_nested"][0] - 1 for c in cases]
    return (f"| {name} | {len(cases)} of {of} | {100 * statistics.median(errs):.1f}% | "
            f"{100 * max(errs):.1f}% | {100 * inside:.0f}% | "
            f"{100 * statistics.median(widths):.0f}% |")  # fmt: skip


def judge(new: list[dict[str, Any]], corpus: Path = CORPUS) -> str:
    """The new cases' accuracy and nested coverage, and the corpus tally without and with them
    (families rule, leave one family out, as the corpus bench judges)."""
    stored = [c for c in read_cases(corpus / FOREIGN_STORED) if c["foreign"]]
    stored += [c for name in STORED for c in read_cases(corpus / name)]
    without = evaluate(copy.deepcopy(stored), "families", leave_out="family")
    both = copy.deepcopy(stored) + copy.deepcopy(new)
    with_new = evaluate(both, "families", leave_out="family")
    mine = [c for c in both if "workload_kind" in c]
    steady = [c for c in mine if c["steady_shown"]]
    lines = ["| cases | predicted | median error | worst error | inside 80% (nested) | "
             "median width |", "|---|---|---|---|---|---|"]  # fmt: skip
    lines.append(summary_row("all new cases, steady (the target's)", steady, len(mine)))
    for d in PREDICTED:
        of = sum(c["drive"] == d for c in mine)
        lines.append(summary_row(d, [c for c in steady if c["drive"] == d], of))
    for k in KIND_ORDER:
        of = sum(c["workload_kind"] == k for c in mine)
        lines.append(summary_row(k, [c for c in steady if c["workload_kind"] == k], of))
    lines += ["", "| case | held out | predicted | error | 80% interval (nested) | inside | "
              "readings: IOPS (weight), twin's WAF |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for c in mine:
        lo, hi = c["interval_nested"]
        parts = "; ".join(f"{p['reading']} {p['value']:,.0f} ({p['weight']:.2f}), WAF "
                          f"{p['workload_waf']:.2f}" for p in c["parts"])  # fmt: skip
        lines.append(
            f"| {c['drive']} {c['workload']} | {c['held_out']['value']:,} | "
            f"{c['predicted']:,.0f} | {100 * c['rel_error']:+.1f}% | {lo:,.0f}–{hi:,.0f} | "
            f"{'yes' if c['inside_nested'] else 'no'} | {parts} |"
        )
    lines += ["", "| corpus subset | without the new cases: coverage (width) | with them |",
              "|---|---|---|"]  # fmt: skip
    for name, s in without["subsets"].items():
        t = with_new["subsets"][name]
        if s is None and t is None:
            continue

        def cell(v: dict[str, Any] | None) -> str:
            if v is None:
                return "–"
            return (f"{v['predicted']} cases, {100 * v['coverage_nested']:.0f}% "
                    f"({100 * v['median_rel_width_nested']:.0f}%)")  # fmt: skip

        lines.append(f"| {name} | {cell(s)} | {cell(t)} |")
    lines.append(f"| model-form slope (all cases) | {without['slope_text']} | "
                 f"{with_new['slope_text']} |")  # fmt: skip
    return "\n".join(lines)


#: bench/corpus/RULE-skewed-steady-twin.md's targets: median and worst |error| at most these,
#: no case worse by more than ``WORSE_POINTS`` unless within ``WITHIN``.
STEADY_TWIN_MEDIAN, STEADY_TWIN_WORST, WORSE_POINTS, WITHIN = 0.113, 1.027, 0.02, 0.05


def fixed_warm_up_summary(cases: list[dict[str, Any]]) -> str:
    """How many readings' twins today's fixed warm-up left unsteady (:func:`fixed_warm_up_test`),
    and how many stopped at each length of the run until steady."""
    parts = [p for c in cases for p in c["parts"] if "fixed_warm_up" in p]
    if not parts:
        return "(no fixed warm-up test in these cases)"
    rounds = sum(p["fixed_warm_up"]["rounds_steady"] for p in parts)
    core = sum(p["fixed_warm_up"]["core_steady"] for p in parts)
    stops = {d: sum(abs(p["twin_drive_writes"] - d) < 0.05 * d for p in parts)
             for d in twin_steady.DRIVE_WRITES}  # fmt: skip
    unsettled = sum(not p["twin_settled"] for p in parts)
    return (
        f"Today's run (2 drive writes of warm-up, 2 measured), {len(parts)} readings' twins: "
        f"{rounds} steady by the rule's test (last 5 of 20 rounds), {core} by the core's steady "
        "window. Run until steady: "
        + ", ".join(f"{n} stopped at {d:g} drive writes" for d, n in stops.items())
        + f", {unsettled} not steady at the cap."
    )


def steady_twin_verdict(new: list[dict[str, Any]], stored: list[dict[str, Any]]) -> str:
    """bench/corpus/RULE-skewed-steady-twin.md's clauses 1–3 on the steady cases of ``new``
    against the same cases of ``stored`` (the fixed warm-up's), and every case beside its
    stored prediction with the drive writes each reading's twin ran."""
    old = {(c["drive"], c["workload"]): c for c in stored}
    steady = [c for c in new if c["steady_shown"]]
    errs = [abs(c["rel_error"]) for c in steady]
    olds = [abs(old[c["drive"], c["workload"]]["rel_error"]) for c in steady]
    worse = [c for c, e, o in zip(steady, errs, olds, strict=True)
             if e > WITHIN and e > o + WORSE_POINTS]  # fmt: skip
    median, worst = statistics.median(errs), max(errs)
    yes = ["yes" if m else "no" for m in (median <= STEADY_TWIN_MEDIAN,
                                          worst <= STEADY_TWIN_WORST, not worse)]  # fmt: skip
    lines = [
        "| clause | target | fixed warm-up (stored) | run until steady | met |",
        "|---|---|---|---|---|",
        f"| 1 median |error| ({len(steady)} steady cases) | ≤ {100 * STEADY_TWIN_MEDIAN:.1f}% | "
        f"{100 * statistics.median(olds):.1f}% | {100 * median:.1f}% | {yes[0]} |",
        f"| 2 worst |error| | ≤ {100 * STEADY_TWIN_WORST:.1f}% | {100 * max(olds):.1f}% | "
        f"{100 * worst:.1f}% | {yes[1]} |",
        f"| 3 cases worse by > {100 * WORSE_POINTS:g} points, not within {100 * WITHIN:g}% | "
        f"none | – | {len(worse)} | {yes[2]} |",
        "",
        f"Clauses 1–3: {'met' if yes == ['yes'] * 3 else 'NOT met'}.",
        "",
        fixed_warm_up_summary(new),
        "",
        "| case | held out | fixed warm-up: error | run until steady: error | readings: IOPS "
        "(drive writes run, steady) |",
        "|---|---|---|---|---|",
    ]
    for c in new:
        o = old[c["drive"], c["workload"]]
        parts = "; ".join(
            f"{p['reading']} {p['value']:,.0f} ({p['twin_drive_writes']:.0f}"
            f"{'' if p['twin_settled'] else ', NOT steady'})"
            for p in c["parts"]
        )
        flag = "" if c["steady_shown"] else " (not steady: not counted)"
        lines.append(
            f"| {c['drive']} {c['workload']}{flag} | {c['held_out']['value']:,} | "
            f"{100 * o['rel_error']:+.1f}% | {100 * c['rel_error']:+.1f}% | {parts} |"
        )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--partial", type=Path, default=None, help="JSON lines the cases go to")
    ap.add_argument("--only", default="", help="drive ids to predict (default: both)")
    ap.add_argument("--judge", type=Path, default=None, help="judge these cases (JSON lines)")
    ap.add_argument(
        "--until-steady",
        action="store_true",
        help="run each twin until its own window is steady "
        "(bench/corpus/RULE-skewed-steady-twin.md)",
    )
    ap.add_argument(
        "--against",
        type=Path,
        default=None,
        help="with --judge: that rule's verdict against these stored cases",
    )
    ap.add_argument(
        "--policies", action="store_true",
        help="a diagnosis after the outcome: each drive's greedy twin with FIFO and random "
        "victim selection, IOPS under each workload over uniform's, beside the measured ratio",
    )  # fmt: skip
    args = ap.parse_args()
    if args.policies:
        figures = workload_figures()
        drives = {d["id"]: d for d in load(CORPUS)}
        rows = [r for d in PREDICTED for r in policy_ratios(drives[d], figures, args.jobs)]
        print(policy_markdown(rows))
        return 0
    if args.judge is not None:
        print(judge(read_cases(args.judge)))
        if args.against is not None:
            print()
            print(steady_twin_verdict(read_cases(args.judge), read_cases(args.against)))
        return 0
    figures = workload_figures()
    drives = {d["id"]: d for d in load(CORPUS)}
    done: set[tuple[str, str]] = set()
    if args.partial is not None and args.partial.exists():
        done = {(c["drive"], c["workload"]) for c in read_cases(args.partial)}
    for drive in args.only.split(",") if args.only else PREDICTED:
        predict_drive(drives[drive], figures, args.jobs, args.partial, done, args.until_steady)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
