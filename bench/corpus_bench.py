"""Leave-one-out over the corpus of published figures (bench/corpus/*.toml).

Each steady figure of a drive (IOPS or WAF at one extra-OP level) is held out in turn and
predicted by ``overprov calibrate``'s reading of the drive's other figures (its data-sheet FOB
figure included), as a user would type them: ``spare_readings.read_all``, with the raw NAND
given when a public source states it and again without it. Per case: the prediction, its
error, and its 80% interval. The foreign FTL simulators' curves (``--foreign``,
``corpus_foreign.py``) are held out the same way: QD32 curves with IOPS, and WAF-only curves
(a simulator that counts page writes) whose levels are each predicted from the other levels'
WAF figures.

The interval's model-form error is the part measured here. Predictions are made without it
(measurement noise and the readings' spread only), and the model-form error is then added as
``ModelForm`` does in ``predict.py`` (per reading, growing with the distance in log spare space
from the fitted levels, sd = hypot(floor, s · d)). Its slope s is fitted by maximum likelihood
on the held-out errors. Coverage is measured honestly: for each drive, s is fitted on the
*other* drives' cases only, and that drive's intervals are checked against its figures (nested
leave-one-drive-out). ``--record`` writes the slope fitted on every case into
``model_form_error.json`` (``real_distance``) for calibrate to use.

    PYTHONPATH=python python bench/corpus_bench.py [--jobs N] [--record] [--corpus DIR]

Prints markdown tables (for bench/README.md and docs/calibrate-validation.md) and writes
target/bench/corpus_bench.json.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import spare_readings, uncertainty, workload_curve
from overprov.errors import ConfigError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_foreign import foreign_drives, point, surrogate_forms  # noqa: E402  (bench/)
from corpus_report import (  # noqa: E402
    SUBSETS,
    diagnosis_markdown,
    family_of,
    markdown,
    subset_summary,
)

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "bench" / "corpus"
FLOOR = uncertainty.AT_FITTED_REL_SD


def load(folder: Path) -> list[dict[str, Any]]:
    drives = []
    for path in sorted(folder.glob("*.toml")):
        doc = tomllib.loads(path.read_text())
        for d in doc.get("drive", []):
            d["file"] = str(path.relative_to(ROOT))
            drives.append(d)
    return drives


def workload_of(d: dict[str, Any]) -> dict[str, Any] | None:
    return None if d["workload"] == "uniform" else {"pattern": d["workload"]}


def reading_parts(pred: dict[str, Any], fitted: list[float], what: str) -> list[dict[str, Any]]:
    """Per reading: its figure, noise interval, weight and distance from the fitted levels."""
    key = "steady_iops" if what == "iops" else "waf"
    lo_key, hi_key = (f"{key}_low", f"{key}_high")
    docs = pred.get("readings") or {"only": {**pred, "weight": 1.0}}
    parts = []
    for name, r in docs.items():
        row = r["levels"][0]
        fit = r["fit"]
        k = fit.get("spare_efficiency", 1.0)
        rho0 = fit["surrogate"]["native_op"]
        x = row["extra_op_percent"]
        parts.append({
            "reading": name,
            "value": row[key],
            "low": row[lo_key],
            "high": row[hi_key],
            "weight": r.get("weight", 1.0),
            "distance": uncertainty.spare_distance(x, fitted, rho0, k),
        })  # fmt: skip
    return parts


def interval(parts: list[dict[str, Any]], mf: uncertainty.ModelForm) -> tuple[float, float]:
    """The combined interval as ``spare_readings.combine`` makes it, each reading's widened by
    ``mf`` at its distance as ``predict.py`` does."""
    top = max(p["weight"] for p in parts)
    los, his = [], []
    for p in parts:
        if p["weight"] < spare_readings.SPAN_MIN_WEIGHT * top:
            continue
        v = p["value"]
        lo, hi = uncertainty.band(v, [p["low"] / v, p["high"] / v], mf.at(p["distance"]) or None)
        los += [lo, v]
        his += [hi, v]
    return min(los), max(his)


def held_out(h: dict[str, Any], fitted: list[dict[str, Any]]) -> dict[str, Any]:
    """A held-out figure and its provenance flags, for a case predicted or not (the subsets
    count both). ``steady_shown``: the held-out figure and every steady figure fitted
    (``fitted``; a FOB figure is fresh by definition) come from sources whose method shows a
    steady state (``steady_state = true``): the cases the published accuracy target counts
    (docs/calibrate-validation.md, "Published figures whose source shows no steady state")."""
    steady = [f for f in (h, *fitted) if f["kind"] != "fob_iops"]
    return {
        "held_out": h,
        "chart": h["read_from"] == "chart",
        "source_located": h.get("source_located", True),
        "method_known": h.get("steady_state", True) != "unknown",
        "steady_shown": all(f.get("steady_state", True) is True for f in steady),
    }


def read_cases(path: Path) -> list[dict[str, Any]]:
    """Stored cases: a run's JSON (its ``cases``) or JSON lines (``--partial``, ``--resume``)."""
    text = path.read_text()
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return json.loads(text)["cases"]


def prediction_key(c: dict[str, Any]) -> tuple[str, float, bool]:
    """The prediction a case came from: its drive, held-out level and whether the raw NAND was
    given (one prediction gives a level's IOPS and WAF cases)."""
    return c["drive"], float(c["held_out"]["extra_op_percent"]), bool(c["raw_nand_given"])


def cases(
    drives: list[dict[str, Any]],
    folder: Path,
    jobs: int | None,
    sink: Path | None = None,
    skip: frozenset[tuple[str, float, bool]] = frozenset(),
) -> list[dict[str, Any]]:
    """Each level's steady figures held out together (the figures at that level are not fitted),
    predicted from the drive's figures at its other levels and its FOB figure. With ``sink``
    each prediction's cases are appended to it as JSON lines when made (a long run's cases kept
    if it is stopped; ``--reuse`` reads them); predictions in ``skip`` (:func:`prediction_key`)
    are not made again."""
    curves: dict[str, dict[str, fitmod.WafCurve]] = {}
    out: list[dict[str, Any]] = []
    made = 0  # the cases already in ``sink``
    for d in drives:
        figs = d["figure"]
        steady = [f for f in figs if f["kind"] in ("iops", "waf")]
        fob = [f for f in figs if f["kind"] == "fob_iops"]
        wl = workload_of(d)
        if wl and d["workload"] not in curves:
            curves[d["workload"]] = {
                name: workload_curve.simulate_curve(wl, jobs=jobs, ftl=ftl)
                for name, ftl in spare_readings.GC_DESIGNS.items()
            }
        raw = d.get("raw_nand_bytes")
        raw_op = raw / d["advertised_bytes"] - 1 if raw else None
        for x in sorted({float(f["extra_op_percent"]) for f in steady}):
            held = [f for f in steady if float(f["extra_op_percent"]) == x]
            rest = [f for f in steady if float(f["extra_op_percent"]) != x] + fob
            fitted_levels = sorted({float(f["extra_op_percent"]) for f in rest
                                    if f["kind"] != "fob_iops"})  # fmt: skip
            if not fitted_levels:
                continue
            for given in (True, False) if raw_op is not None else (False,):
                if sink is not None and out:
                    with sink.open("a") as f:
                        f.writelines(json.dumps(c, default=str) + "\n" for c in out[made:])
                made = len(out)
                if (d["id"], x, given) in skip:
                    continue
                base = {
                    "drive": d["id"],
                    "name": d["name"],
                    "foreign": d.get("foreign", False),
                    "waf_only": d.get("waf_only", False),
                    "family": d.get("family") or d["name"],
                    "workload": d["workload"],
                    "fitted": [{k: f[k] for k in ("kind", "extra_op_percent", "value")}
                               | {"steady_state": f.get("steady_state", True)} for f in rest],
                    "raw_nand_given": given,
                }  # fmt: skip
                t0 = time.monotonic()
                try:
                    fig = predmod.PredictionInput(
                        [point(f) for f in rest], [x], typed=True,
                        raw_native_op=raw_op if given else None, source=d["name"],
                        workload=wl, jobs=jobs, model_form=uncertainty.NO_MODEL_FORM,
                    )  # fmt: skip
                    reading = spare_readings.read_all(fig, curves.get(d["workload"]))
                    pred = reading.document(folder / f"{d['id']}-{len(out)}")
                except ConfigError as e:
                    for h in held:
                        out.append({**base, **held_out(h, rest), "error_text": str(e)})
                    print(f"{d['id']} hold {x:g}% raw={given}: cannot fit ({e})", file=sys.stderr)
                    continue
                wall = time.monotonic() - t0
                for h in held:
                    what = h["kind"]
                    got = pred["levels"][0]["steady_iops" if what == "iops" else "waf"]
                    if not got:
                        out.append(
                            {**base, **held_out(h, rest), "error_text": f"no {what} predicted"}
                        )
                        continue
                    case = {
                        **base,
                        **held_out(h, rest),
                        "predicted": got,
                        "log_error": math.log(got / float(h["value"])),
                        "rel_error": got / float(h["value"]) - 1.0,
                        "parts": reading_parts(pred, fitted_levels, what),
                        "wall_s": wall,
                    }
                    out.append(case)
                    print(
                        f"{d['id']} hold {what} {x:g}% raw={given}: {got:.4g} vs {h['value']} "
                        f"({100 * case['rel_error']:+.1f}%), {wall:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
    if sink is not None and out:
        with sink.open("a") as f:
            f.writelines(json.dumps(c, default=str) + "\n" for c in out[made:])
    return out


def held_out_errors(done: list[dict[str, Any]]) -> list[uncertainty.HeldOutError]:
    """Per predicted case: its log error, its noise sd (its interval without model-form error),
    its readings' weighted mean distance from the fitted levels, and its family."""
    rows = []
    for c in done:
        lo, hi = interval(c["parts"], uncertainty.NO_MODEL_FORM)
        noise = math.log(hi / lo) / (2 * uncertainty.Z80)
        w = sum(p["weight"] for p in c["parts"])
        dist = sum(p["weight"] * (p["distance"] or 0.0) for p in c["parts"]) / w
        rows.append(uncertainty.HeldOutError(family_of(c), c["log_error"], noise, dist))
    return rows


def fit_slope(done: list[dict[str, Any]]) -> float:
    """Maximum-likelihood slope s of the model-form sd hypot(FLOOR, s·d) over held-out log
    errors, each case's own noise width (its interval without model-form error) in quadrature
    and every case a replicate (the rule before the families' posterior predictive). A case's d
    is its weighted readings' mean distance."""
    rows = held_out_errors(done)

    def nll(s: float) -> float:
        total = 0.0
        for r in rows:
            var = r.noise_sd**2 + FLOOR**2 + (s * r.distance) ** 2
            total += 0.5 * math.log(var) + r.log_error**2 / (2 * var)
        return total

    grid = [i * 0.005 for i in range(0, 401)]
    return min(grid, key=nll)


#: How the model-form slope is estimated from held-out cases: "pooled" (one maximum-likelihood
#: slope, every case a replicate; calibrate's rule) or "families" (the posterior predictive over
#: FTL families, uncertainty.predictive_slopes; evaluated against a pre-registered criterion in
#: docs/calibrate-model.md, "A slope from few FTL families", and not adopted).
RULES = ("pooled", "families")


def model_form(
    done: list[dict[str, Any]], rule: str, prior_scale: float = uncertainty.SLOPE_PRIOR_SCALE
) -> uncertainty.ModelForm:
    """The model-form error the cases ``done`` give under ``rule``."""
    if rule == "pooled":
        return uncertainty.ModelForm(per_log_spare=fit_slope(done) if done else 0.0, floor=FLOOR)
    slopes = uncertainty.predictive_slopes(
        held_out_errors(done), floor=FLOOR, prior_scale=prior_scale
    )
    return uncertainty.ModelForm(
        per_log_spare=statistics.median(slopes), floor=FLOOR, slopes=slopes
    )


def evaluate(
    all_cases: list[dict[str, Any]],
    rule: str = RULES[0],
    *,
    prior_scale: float = uncertainty.SLOPE_PRIOR_SCALE,
    leave_out: str = "drive",
    slope: float | None = None,
) -> dict[str, Any]:
    """Each predicted case's interval with the model-form error estimated under ``rule`` from
    the cases of the *other* drives (``leave_out="drive"``) or of the other FTL families
    (``"family"``), and the subsets' coverage and widths. ``slope`` given: every drive's
    intervals take that slope instead (a drive run alone, its nested slope being the one the
    other drives' stored cases give)."""
    done = [c for c in all_cases if "log_error" in c]
    unit = {"drive": lambda c: c["drive"], "family": family_of}[leave_out]
    nested: dict[str, uncertainty.ModelForm] = {}
    for drive in sorted({c["drive"] for c in done}):
        if slope is not None:
            nested[drive] = uncertainty.ModelForm(per_log_spare=slope, floor=FLOOR)
            continue
        mine = unit(next(c for c in done if c["drive"] == drive))
        others = [c for c in done if unit(c) != mine]
        nested[drive] = model_form(others, rule, prior_scale)
    for c in done:
        lo, hi = interval(c["parts"], nested[c["drive"]])
        c["interval_nested"] = [lo, hi]
        v = float(c["held_out"]["value"])
        c["inside_nested"] = lo <= v <= hi
        c["noise_interval"] = list(interval(c["parts"], uncertainty.NO_MODEL_FORM))
        c["inside_noise_only"] = c["noise_interval"][0] <= v <= c["noise_interval"][1]
    every = model_form(done, rule, prior_scale) if done else uncertainty.ModelForm(0.0, 0.0)
    return {
        "rule": rule,
        "prior_scale": prior_scale if rule == "families" else None,
        "leave_out": leave_out,
        "slope_per_log_spare": every.per_log_spare,
        "predictive_slopes": list(every.slopes),
        "slope_text": every.slope_text(),
        "nested_slopes": {k: v.per_log_spare for k, v in nested.items()},
        "nested_slope_text": {k: v.slope_text() for k, v in nested.items()},
        "subsets": {
            name: subset_summary([c for c in done if keep(c)], sum(1 for c in all_cases if keep(c)))
            for name, keep in SUBSETS.items()
        },  # fmt: skip
        "per_drive": {
            d: subset_summary([c for c in done if c["drive"] == d], 0)
            for d in sorted({c["drive"] for c in done})
        },
        "per_family": {
            f: subset_summary(
                [c for c in done if family_of(c) == f],
                sum(1 for c in all_cases if family_of(c) == f),
            )
            for f in sorted({family_of(c) for c in all_cases})
        },  # fmt: skip
    }


def compare(all_cases: list[dict[str, Any]]) -> str:
    """The rules side by side (docs/calibrate-model.md, "A slope from few FTL families"): the pooled
    slope, the families' posterior predictive (A = 0.5 pre-registered; 0.25 and 1 its prior's
    sensitivity), and both with leave-one-family-out."""
    variants = [("pooled", 0.5, "drive"), ("families", 0.5, "drive"), ("families", 0.25, "drive"),
                ("families", 1.0, "drive"), ("pooled", 0.5, "family"),
                ("families", 0.5, "family")]  # fmt: skip
    drives = sorted({c["drive"] for c in all_cases if "log_error" in c})
    lines = ["| rule | leave out | all | published | foreign | median width | "
             + " | ".join(drives) + " | slope (all cases) |",
             "|---|---|---|---|---|---|" + "---|" * len(drives) + "---|"]  # fmt: skip
    for rule, a, unit in variants:
        s = evaluate(all_cases, rule, prior_scale=a, leave_out=unit)
        sub = s["subsets"]
        cells = [f"{100 * sub[k]['coverage_nested']:.0f}%"
                 for k in ("all", "published", "foreign FTLs")]  # fmt: skip
        cells.append(f"{100 * sub['all']['median_rel_width_nested']:.0f}%")
        cells += [f"{100 * s['per_drive'][d]['coverage_nested']:.0f}% (width "
                  f"{100 * s['per_drive'][d]['median_rel_width_nested']:.0f}%)"
                  for d in drives]  # fmt: skip
        name = rule if rule == "pooled" else f"families, A = {a:g}"
        lines.append(f"| {name} | {unit} | " + " | ".join(cells) + f" | {s['slope_text']} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument(
        "--foreign", type=Path, default=ROOT / "bench" / "foreign" / "results",
        help="the foreign FTLs' results (bench/foreign/), held out level by level as well",
    )  # fmt: skip
    ap.add_argument(
        "--record", action="store_true", help="write the slope to model_form_error.json"
    )
    ap.add_argument(
        "--reuse",
        type=Path,
        default=None,
        help="an earlier run's corpus_bench.json: its cases of drives not named by --rerun are "
        "taken from it instead of predicted again",
    )
    ap.add_argument("--rerun", default="", help="drive ids to predict again with --reuse")
    ap.add_argument("--only", default="", help="drive ids to predict, in this order (a part)")
    ap.add_argument(
        "--partial", type=Path, default=None,
        help="a JSON-lines file each prediction's cases are appended to as made (for --reuse)",
    )  # fmt: skip
    ap.add_argument(
        "--resume", type=Path, default=None,
        help="a --partial file: its cases are kept, its predictions not made again, and the "
        "new ones appended to it (a stopped run continued)",
    )  # fmt: skip
    ap.add_argument(
        "--rule", choices=RULES, default=RULES[0],
        help="how the model-form slope is estimated from the held-out cases (and recorded)",
    )  # fmt: skip
    ap.add_argument(
        "--compare", action="store_true",
        help="print the model-form rules side by side (pooled slope, families' posterior "
        "predictive and its prior's sensitivity, leave one family out)",
    )  # fmt: skip
    ap.add_argument(
        "--diagnose", action="store_true",
        help="print, per published case, where its level lies against the fitted ones and the "
        "published ratio against the readings' (bench/corpus/results.md, \"Why the published "
        "cases miss\")",
    )  # fmt: skip
    ap.add_argument(
        "--leave-out", choices=("drive", "family"), default="drive",
        help="the unit held out of the slope's fit for the judged nested coverage (and "
        "recorded); the other is reported beside it",
    )  # fmt: skip
    ap.add_argument(
        "--slope", type=float, default=None,
        help="the model-form slope for every drive's intervals, instead of the one fitted on "
        "the other drives' cases (a drive run alone: the slope the other drives' cases give)",
    )  # fmt: skip
    ap.add_argument(
        "--out", type=Path, default=ROOT / "target" / "bench" / "corpus_bench.json",
        help="where the cases and the summary are written (one file per part run in parallel)",
    )  # fmt: skip
    ap.add_argument(
        "--forms-only", action="store_true",
        help="print the surrogate-form comparison on the foreign FTLs' curves and stop",
    )  # fmt: skip
    args = ap.parse_args()
    t0 = time.monotonic()
    drives = load(args.corpus)
    if args.foreign.is_dir():
        drives += foreign_drives(args.foreign)
    for d in drives:
        if d.get("foreign") and not d.get("waf_only"):  # the forms are fitted on IOPS too
            print(f"Surrogate forms on {d['name']}, fitted at 0% and 40% and FOB:\n")
            print(surrogate_forms(d) + "\n")
    if args.forms_only:
        return 0
    reused: list[dict[str, Any]] = []
    if args.reuse is not None:
        rerun = set(filter(None, args.rerun.split(",")))
        ids = {d["id"] for d in drives} - rerun
        reused = [c for c in read_cases(args.reuse) if c["drive"] in ids]
        drives_now = [d for d in drives if d["id"] not in ids]
    else:
        drives_now = drives
    skip: frozenset[tuple[str, float, bool]] = frozenset()
    if args.resume is not None:
        reused = read_cases(args.resume) if args.resume.exists() else []
        skip = frozenset(prediction_key(c) for c in reused)
        args.partial = args.resume
    if args.only:
        order = args.only.split(",")
        drives_now = sorted((d for d in drives_now if d["id"] in order),
                            key=lambda d: order.index(d["id"]))  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="overprov-corpus-") as tmp:
        all_cases = reused + cases(drives_now, Path(tmp), args.jobs, args.partial, skip)
    same: dict[tuple, dict[str, Any]] = {}  # one held-out figure, one object (raw pairs)
    for c in all_cases:
        h = c["held_out"]
        c["held_out"] = same.setdefault((c["drive"], h["kind"], h["extra_op_percent"]), h)
    if args.compare:
        print(compare(all_cases) + "\n")
    if args.diagnose:
        print(diagnosis_markdown(all_cases) + "\n")
    # the unit reported beside first (evaluate writes each case's interval; the judged stay)
    beside = "drive" if args.leave_out == "family" else "family"
    other = evaluate(all_cases, args.rule, leave_out=beside, slope=args.slope)["subsets"]
    summary = evaluate(all_cases, args.rule, leave_out=args.leave_out, slope=args.slope)
    summary["beside"] = {
        "leave_out": beside,
        "coverage_nested": {k: v and v["coverage_nested"] for k, v in other.items()},
    }
    doc = {
        "date": datetime.now(UTC).date().isoformat(),
        "corpus": [d["file"] for d in drives],
        "summary": summary,
        "cases": all_cases,
        "wall_s": time.monotonic() - t0,
    }
    out = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2, default=str) + "\n")
    print(markdown(all_cases, summary))
    if args.record:
        path = ROOT / "python" / "overprov" / "calibrate" / "model_form_error.json"
        rec = json.loads(path.read_text())
        every = summary["subsets"]["all"]
        files = sorted(set(doc["corpus"]))
        rec["real_distance"] = {
            "per_log_spare": summary["slope_per_log_spare"],
            "floor": FLOOR,
            **(
                {
                    "rule": "posterior predictive of the slope over FTL families: family "
                    f"slopes Half-Normal(tau), tau Half-Cauchy(0, {summary['prior_scale']})",
                    "predictive_slopes": summary["predictive_slopes"],
                }
                if summary["predictive_slopes"]
                else {}
            ),
            "source": f"bench/corpus_bench.py, {every['predicted']} held-out figures of "
            f"{len({c['drive'] for c in all_cases})} drives ({', '.join(files)}), {doc['date']}",
            "leave_out": summary["leave_out"],
            "coverage_nested": every["coverage_nested"],
            "median_rel_width_nested": every["median_rel_width_nested"],
            "coverage_nested_by_family": {
                f: v and v["coverage_nested"] for f, v in summary["per_family"].items()
            },
        }
        path.write_text(json.dumps(rec, indent=2) + "\n")
        print(f"recorded {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
