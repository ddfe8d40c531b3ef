"""80% intervals whose model-form error is what the fit itself shows, evaluated leave one FTL
family out on the corpus bench's held-out cases (bench/intervals/RULE.md).

Today's rule (``model_form_error.json``, "real_distance") widens every held-out prediction by a
model-form error that grows with the log spare distance from the fitted levels, its slope the
posterior predictive over FTL families (``uncertainty.predictive_slopes``). The rule tried here
sets it from the figures the prediction was fitted to: the surrogate's residual sd on them
(``uncertainty.fit_residual_sd``) times a scale ``a``; a case whose figures leave the fit
nothing to miss (as many figures as parameters) keeps today's rule. ``a`` is the maximum-
likelihood scale of log error ~ N(0, noise² + (a · hypot(floor, R))²) over the *other*
families' cases (each case a replicate), so a family's intervals never use its own errors.

No prediction is made here: the cases are the corpus bench's (``bench/corpus_bench.py
--partial``: each reading's figure, noise interval, weight and distance), and each interval is
rebuilt as ``corpus_bench.interval`` builds it.

    PYTHONPATH=python python bench/conditioned_intervals.py CASES.jsonl [MORE.jsonl ...] \\
        [--out bench/intervals/results]

Prints the tables of bench/intervals/results.md and writes them there with a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from overprov.calibrate import uncertainty

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_bench import CORPUS, evaluate, interval, load, read_cases  # noqa: E402  (bench/)
from corpus_foreign import FOREIGN_REL_SD, foreign_drives, point  # noqa: E402
from corpus_report import family_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FLOOR = uncertainty.AT_FITTED_REL_SD
#: The grid the scale a is searched on.
SCALE_GRID = [i * 0.01 for i in range(1, 401)]


def figures_by_drive() -> dict[str, dict[tuple[str, float], dict[str, Any]]]:
    """Every drive's figures (with their relative sd) by kind and level, as the bench read
    them."""
    drives = load(CORPUS) + foreign_drives(ROOT / "bench" / "foreign" / "results")
    return {
        d["id"]: {(f["kind"], float(f["extra_op_percent"])): f for f in d["figure"]} for d in drives
    }


def residual_of(c: dict[str, Any], figures: dict[str, dict[tuple[str, float], dict[str, Any]]]):
    """The fit's residual sd on a case's fitted figures (None: nothing to miss, or a workload
    other than uniform random writes, where calibrate keeps the distance rule); a case made
    outside the corpus bench carries its own (``residual_sd``)."""
    if c.get("workload", "uniform") != "uniform":
        return None
    if "residual_sd" in c:
        return c["residual_sd"]
    mine = figures.get(c["drive"])
    if mine is None:  # a curve read from another folder (corpus_bench.py --foreign DIR)
        pts = [point({**f, "rel_sd": FOREIGN_REL_SD}) for f in c["fitted"]]
    else:
        pts = [point(mine[(f["kind"], float(f["extra_op_percent"]))]) for f in c["fitted"]]
    return uncertainty.fit_residual_sd(pts)


def noise_sd(c: dict[str, Any]) -> float:
    lo, hi = interval(c["parts"], uncertainty.NO_MODEL_FORM)
    return math.log(hi / lo) / (2 * uncertainty.Z80)


def fit_scale(cases: list[dict[str, Any]], floor: float = FLOOR) -> float:
    """Maximum-likelihood a over ``cases`` (each with a residual): log error ~ N(0, noise² +
    (a · hypot(floor, R))²), every case a replicate."""

    def nll(a: float) -> float:
        total = 0.0
        for c in cases:
            var = c["noise_sd"] ** 2 + (a * math.hypot(floor, c["residual_sd"])) ** 2
            total += 0.5 * math.log(var) + c["log_error"] ** 2 / (2 * var)
        return total

    return min(SCALE_GRID, key=nll)


def judge(done: list[dict[str, Any]], floor: float = FLOOR) -> dict[str, float]:
    """Per family left out: the scale the other families' cases give."""
    with_r = [c for c in done if c["residual_sd"] is not None]
    return {
        f: fit_scale([c for c in with_r if family_of(c) != f], floor)
        for f in sorted({family_of(c) for c in done})
    }


def summary(done: list[dict[str, Any]], key: str) -> dict[str, Any] | None:
    if not done:
        return None
    widths = [c[key][1] / c[key][0] - 1 for c in done]
    inside = [c[key][0] <= float(c["held_out"]["value"]) <= c[key][1] for c in done]
    return {
        "predicted": len(done),
        "coverage": sum(inside) / len(done),
        "median_rel_width": statistics.median(widths),
        "median_abs_rel_error": statistics.median(abs(c["rel_error"]) for c in done),
    }


def run(all_cases: list[dict[str, Any]], unseen: set[str], floor: float = FLOOR) -> dict[str, Any]:
    """Today's intervals and the conditioned ones (model-form sd a · hypot(``floor``, R)) for
    every predicted case; the summaries."""
    figures = figures_by_drive()
    done = [c for c in all_cases if "log_error" in c]
    evaluate(all_cases, "families", leave_out="family")  # today's, leave one family out
    for c in done:
        c["today"] = c["interval_nested"]
        c["residual_sd"] = residual_of(c, figures)
        c["noise_sd"] = noise_sd(c)
    scales = judge(done, floor)
    for c in done:
        if c["residual_sd"] is None:
            c["conditioned"] = c["today"]
            continue
        mf = uncertainty.ModelForm(
            floor=floor, residual_sd=c["residual_sd"], residual_scale=scales[family_of(c)]
        )
        c["conditioned"] = list(interval(c["parts"], mf))
    groups: dict[str, list[dict[str, Any]]] = {
        "all": done,
        "seen (development)": [c for c in done if family_of(c) not in unseen],
        "unseen families": [c for c in done if family_of(c) in unseen],
        "published": [c for c in done if not c["foreign"]],
        "foreign": [c for c in done if c["foreign"]],
        "residual shown": [c for c in done if c["residual_sd"] is not None],
        "nothing to miss (today's rule)": [c for c in done if c["residual_sd"] is None],
    }
    fams = sorted({family_of(c) for c in done}, key=lambda f: (f in unseen, f))
    return {
        "floor": floor,
        "scale_all": fit_scale([c for c in done if c["residual_sd"] is not None], floor),
        "scale_without": scales,
        "unseen": sorted(unseen),
        "groups": {
            g: {"today": summary(cs, "today"), "conditioned": summary(cs, "conditioned")}
            for g, cs in groups.items()
        },
        "families": {
            f: {
                "cases": sum(1 for c in all_cases if family_of(c) == f),
                "residual_sd_median": statistics.median(
                    [c["residual_sd"] for c in done if family_of(c) == f]
                )
                if all(c["residual_sd"] is not None for c in done if family_of(c) == f)
                else None,
                "today": summary([c for c in done if family_of(c) == f], "today"),
                "conditioned": summary([c for c in done if family_of(c) == f], "conditioned"),
            }
            for f in fams
        },
    }


def pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.0f}%"


def markdown(s: dict[str, Any]) -> str:
    lines = [
        "| cases | predicted | median error | inside 80%, today / conditioned | median width, "
        "today / conditioned |",
        "|---|---|---|---|---|",
    ]
    for g, v in s["groups"].items():
        t, c = v["today"], v["conditioned"]
        if t is None:
            lines.append(f"| {g} | 0 | – | – | – |")
            continue
        lines.append(
            f"| {g} | {t['predicted']} | {pct(t['median_abs_rel_error'])} | "
            f"{pct(t['coverage'])} / {pct(c['coverage'])} | "
            f"{pct(t['median_rel_width'])} / {pct(c['median_rel_width'])} |"
        )
    lines += [
        "",
        "| family | predicted of cases | residual sd (median) | scale a without it | inside 80%, "
        "today / conditioned | median width, today / conditioned |",
        "|---|---|---|---|---|---|",
    ]
    for f, v in s["families"].items():
        t, c = v["today"], v["conditioned"]
        name = f + (" (unseen)" if f in s["unseen"] else "")
        r = v["residual_sd_median"]
        if t is None:
            lines.append(f"| {name} | 0 of {v['cases']} | – | – | – | – |")
            continue
        lines.append(
            f"| {name} | {t['predicted']} of {v['cases']} | "
            f"{'none (today’s rule)' if r is None else f'{r:.3f}'} | "
            f"{s['scale_without'][f]:.2f} | {pct(t['coverage'])} / {pct(c['coverage'])} | "
            f"{pct(t['median_rel_width'])} / {pct(c['median_rel_width'])} |"
        )
    lines += ["", f"Scale a on every case with a residual: {s['scale_all']:.2f}."]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", type=Path, nargs="+", help="corpus_bench.py cases (JSON lines)")
    ap.add_argument(
        "--unseen", default="", help="families whose cases the rule's development never saw"
    )
    ap.add_argument(
        "--out", type=Path, default=None, help="folder for the results, in markdown and JSON"
    )
    ap.add_argument(
        "--record",
        action="store_true",
        help="write the scale fitted on every case into model_form_error.json (fit_residual)",
    )
    args = ap.parse_args()
    all_cases = [c for path in args.cases for c in read_cases(path)]
    s = run(all_cases, set(filter(None, args.unseen.split(","))))
    text = markdown(s)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "results").with_suffix(".md").write_text(text + "\n")
        (args.out / "results.json").write_text(json.dumps(s, indent=2) + "\n")
    if args.record:
        record(s, args.cases)
    return 0


def record(s: dict[str, Any], paths: list[Path]) -> None:
    """The scale a fitted on every case with a residual, for calibrate's intervals
    (``uncertainty.model_form_for``), with what it was measured on and how it held."""
    path = ROOT / "python" / "overprov" / "calibrate" / "model_form_error.json"
    doc = json.loads(path.read_text())
    every = s["groups"]["all"]["conditioned"]
    files = ", ".join(str(p.resolve().relative_to(ROOT)) for p in paths)
    doc["fit_residual"] = {
        "scale": s["scale_all"],
        "floor": s["floor"],
        "rule": "model-form relative sd = scale * hypot(floor, R), R the surrogate's residual "
        "sd on the fitted figures (uncertainty.fit_residual_sd); scale the maximum-likelihood "
        "one over held-out cases (bench/intervals/RULE.md)",
        "source": f"bench/conditioned_intervals.py, {every['predicted']} held-out figures of "
        f"{len(s['families'])} FTL families and published drives ({files}), "
        f"{datetime.now(UTC).date().isoformat()}",
        "leave_out": "family",
        "coverage_nested": every["coverage"],
        "median_rel_width_nested": every["median_rel_width"],
        "coverage_nested_by_family": {
            f: v["conditioned"] and v["conditioned"]["coverage"] for f, v in s["families"].items()
        },
    }
    path.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"recorded {path}")


if __name__ == "__main__":
    sys.exit(main())
