"""The model-form error from the readings' own residuals, by their evidence weights
(``reading_residual.WEIGHTED``), against the recorded rule (the greedy surrogate's residual):
bench/intervals/RULE-weighted-residual.md.

- ``run TRUTH CASE [--weighted]``: one of ``bench/foreign/evaluate.py``'s cases run as it runs
  them (``evaluate.command``, ``evaluate.run_case``), its ``prediction.json`` (every reading's
  figures and interval) kept beside the rows, with the CPU seconds (``cpu_clock``).
- ``judge``: every judged held-out figure under both rules, per family and pooled, and the
  rule's criteria. No calibrate run: the corpus cases' intervals are rebuilt from their stored
  readings (``corpus_bench.interval``), the plan cases' from their stored intervals: the
  model-form sd m enters each reading's band in quadrature (``uncertainty.band``; the
  blocking-GC spread too), so a reading's band under m' is ``v · exp(±sqrt(H² − z²(m² −
  m'²)))``, H its stored log half-width on that side; the combined interval is the span of the
  kept readings' figures and bands (``spare_readings.combine``).

    PYTHONPATH=python python bench/intervals/weighted_residual.py run \\
        bench/intervals/weighted-residual/truths/ssdsim-l-uniform.json \\
        "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"
    PYTHONPATH=python python bench/intervals/weighted_residual.py judge
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "foreign"))
import conditioned_intervals as ci  # noqa: E402
import evaluate  # noqa: E402
import tally  # noqa: E402  (bench/intervals/)
from corpus_bench import CORPUS, interval, load  # noqa: E402
from corpus_foreign import foreign_drives  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.calibrate import gc_designs, reading_residual, spare_readings, uncertainty  # noqa: E402
from overprov.prediction_file import RAW, _parse_key  # noqa: E402
from plan_width_terms import points_of  # noqa: E402

OUT = HERE / "weighted-residual"
Z80 = uncertainty.Z80
FLOOR = uncertainty.AT_FITTED_REL_SD
#: the cases the recorded greedy scale was fitted on (bench/intervals/RULE.md)
SCALE_CASES = ("bench/corpus/held-out-cases.jsonl", "bench/intervals/unseen-cases.jsonl")
#: the fresh truths (branch skewtruth, commit 86f314f5) and the cases run on them, in order
UNSEEN_DRIVES = ("ssdsim-l", "ssdsim-m")
UNSEEN_CASES = (
    "IOPS+WAF 0+40 QD32 + 40 QD4, FOB",
    "IOPS+WAF 0+40, FOB",
    "IOPS+WAF 0+40 QD32 + 0,40 QD4, FOB",
)
#: seen cases run again to keep every reading's interval (their stored files keep the weights)
RERUN = (("wiscsee-a", "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"),
         ("wiscsee-b", "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"))  # fmt: skip


def weighed(weights: dict[str, float], raw_op: float | None) -> list[Any]:
    """The readings of a prediction (name → weight) as ``reading_residual`` weighs them."""
    out = []
    for name, w in weights.items():
        spare, design = _parse_key(name)
        if design not in gc_designs.UNIFORM_DESIGNS:
            continue
        native = raw_op if spare == RAW else None
        out.append(reading_residual.WeighedReading(gc_designs.curve(design), native, w))
    return out


# ---------------------------------------------------------------- corpus cases


def raw_ops() -> dict[str, float]:
    drives = load(CORPUS) + foreign_drives(ROOT_RESULTS)
    return {
        d["id"]: d["raw_nand_bytes"] / d["advertised_bytes"] - 1
        for d in drives
        if d.get("raw_nand_bytes")
    }


ROOT_RESULTS = tally.RESULTS


def corpus_points(c: dict[str, Any], figures: dict) -> list[fitmod.Point]:
    mine = figures.get(c["drive"])
    if mine is None:
        from corpus_foreign import FOREIGN_REL_SD, point

        return [point({**f, "rel_sd": FOREIGN_REL_SD}) for f in c["fitted"]]
    from corpus_foreign import point

    return [point(mine[(f["kind"], float(f["extra_op_percent"]))]) for f in c["fitted"]]


def corpus_weighted(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Each case with a greedy residual gets ``weighted_sd`` (its readings', by their weights)
    and ``weighted`` (its interval with the scale fitted without its family); returns the
    scales."""
    figures = ci.figures_by_drive()
    raws = raw_ops()
    done = [c for c in cases if "log_error" in c]
    for c in done:
        c["weighted"] = c["conditioned"]
        c["weighted_sd"] = None
        if c["residual_sd"] is None:
            continue
        raw = raws.get(c["drive"]) if c.get("raw_nand_given") else None
        got = weighed({p["reading"]: p["weight"] for p in c["parts"]}, raw)
        c["weighted_sd"] = reading_residual.weighted_residual_sd(corpus_points(c, figures), got)
    as_w = [{**c, "residual_sd": c["weighted_sd"]} for c in done if c["weighted_sd"] is not None]
    scales = ci.judge(as_w)
    for c in done:
        if c["weighted_sd"] is None:
            continue
        mf = uncertainty.ModelForm(
            floor=FLOOR, residual_sd=c["weighted_sd"],
            residual_scale=scales[ci.family_of(c)],
        )  # fmt: skip
        c["weighted"] = list(interval(c["parts"], mf))
    on_rule = [c for c in as_w if c["_file"] in SCALE_CASES]
    greedy = [c for c in done if c["_file"] in SCALE_CASES and c["residual_sd"] is not None]
    return {
        "ratio_weighted_to_greedy_median": statistics.median(
            c["weighted_sd"] / c["residual_sd"] for c in done if c["weighted_sd"] is not None
        ),
        "min_nll_weighted": nll(on_rule, ci.fit_scale(on_rule)),
        "min_nll_greedy": nll(greedy, ci.fit_scale(greedy)),
        "scale_without_family": scales,
        "scale_all": ci.fit_scale(on_rule),
        "scale_all_cases": len(on_rule),
        "scale_greedy_same_cases": ci.fit_scale(greedy),
    }


def nll(cases: list[dict[str, Any]], a: float) -> float:
    """−ln likelihood of the cases' log errors ~ N(0, noise² + (a · hypot(floor, R))²): which
    residual says more of the held-out errors (lower is better, same cases)."""
    total = 0.0
    for c in cases:
        var = c["noise_sd"] ** 2 + (a * math.hypot(FLOOR, c["residual_sd"])) ** 2
        total += 0.5 * math.log(2 * math.pi * var) + c["log_error"] ** 2 / (2 * var)
    return total


# ---------------------------------------------------------------- plan cases


def rebanded(value: float, low: float, high: float, m_old: float, m_new: float, waf: bool):
    """A reading's [low, high] around ``value`` with its model-form sd ``m_old`` replaced by
    ``m_new`` (the module's text); a WAF low end held at ``uncertainty.WAF_MIN`` stays there."""
    d = Z80 * Z80 * (m_old * m_old - m_new * m_new)

    def end(h: float) -> float:
        return math.sqrt(max(h * h - d, 0.0))

    lo = value * math.exp(-end(math.log(value / low)))
    hi = value * math.exp(end(math.log(high / value)))
    if waf and low <= uncertainty.WAF_MIN * (1 + 1e-12):
        lo = uncertainty.WAF_MIN
    return lo, hi


def raw_op_of(command: str) -> float | None:
    """The raw spare a calibrate command states (``--advertised``, ``--physical``)."""
    a = re.search(r"--advertised (\d+)B", command)
    p = re.search(r"--physical (\d+)B", command)
    return int(p.group(1)) / int(a.group(1)) - 1 if a and p else None


def forms(command: str, weights: dict[str, float], scale: float):
    """(m under the recorded rule, m under the change) for a case's command and its readings'
    weights; None when the greedy fit leaves nothing to miss (the change does nothing)."""
    pts = points_of(command)
    form = uncertainty.model_form_for(pts, simulated=False)
    if form is None or form.residual_sd is None:
        return None
    got = reading_residual.weighted_residual_sd(pts, weighed(weights, raw_op_of(command)))
    if got is None:
        return None
    new = dataclasses.replace(form, residual_sd=got, residual_scale=scale)
    return form.at(None), new.at(None), form.residual_sd, got


def kept(weights: dict[str, float]) -> list[str]:
    top = max(weights.values())
    return [k for k, w in weights.items() if w >= spare_readings.SPAN_MIN_WEIGHT * top]


def stored_weights(row: dict[str, Any]) -> dict[str, float] | None:
    """The readings' weights of a stored plan row's case (None: calibrate's measured path)."""
    doc = json.loads((tally.RESULTS / row["source"]).read_text())
    if isinstance(doc, list):
        for e in doc:
            if Path(e["results"]).stem == row["truth"]:
                for c in e["cases"]:
                    if c["case"] == row["case"]:
                        return c.get("readings") or None
    elif "result" in doc:
        return doc["result"].get("readings") or None
    return None


KEYS = {"iops": ("steady_iops", "steady_iops_low", "steady_iops_high"),
        "waf": ("waf", "waf_low", "waf_high")}  # fmt: skip


def from_prediction(pred: dict, x: float, kind: str, m_old: float, m_new: float):
    """The combined interval at level x under the change, from every kept reading's stored
    figure and band; and whether their stored span is the stored combined interval."""
    v_key, lo_key, hi_key = KEYS[kind]
    docs = pred.get("readings") or {"only": {**pred, "weight": 1.0}}
    weights = {k: r.get("weight", 1.0) for k, r in docs.items()}
    old, new = [], []
    for k in kept(weights):
        lv = next(lv for lv in docs[k]["levels"] if lv["extra_op_percent"] == x)
        v, lo, hi = lv[v_key], lv[lo_key], lv[hi_key]
        old += [v, lo, hi]
        new += [v, *rebanded(v, lo, hi, m_old, m_new, kind == "waf")]
    comb = next(lv for lv in pred["levels"] if lv["extra_op_percent"] == x)
    same = math.isclose(min(old), comb[lo_key], rel_tol=1e-9) and math.isclose(
        max(old), comb[hi_key], rel_tol=1e-9
    )
    return (min(new), max(new)), same


def all_weights(pred: dict) -> dict[str, float]:
    got = {k: r.get("weight", 1.0) for k, r in (pred.get("readings") or {}).items()}
    return got | {
        k: r.get("weight", 0.0) for k, r in (pred.get("readings_set_aside") or {}).items()
    }


# ---------------------------------------------------------------- runs


def slug(case: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", case)


def run(truth: Path, case_name: str, weighted: bool) -> Path:
    """One evaluate.py case on ``truth`` (flag on: ``--weighted``), its prediction kept."""
    case = next(c for c in evaluate.CASES if c[0] == case_name)
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, 32)
    others = [r for r in doc["levels"] if r["queue_depth"] != 32]
    cmd = evaluate.command(doc, curve, case, 1, others)
    if weighted:  # the flag set in calibrate's process, as evaluate.py sets its own flags
        code = ("import sys; from overprov.calibrate import reading_residual; "
                "reading_residual.WEIGHTED = True; from overprov.cli import main; "
                "sys.exit(main())")  # fmt: skip
        cmd = [cmd[0], "-c", code, *cmd[3:]]
    stem = truth.stem.removesuffix("-uniform")
    name = f"{stem}--{slug(case_name)}--{'on' if weighted else 'off'}"
    out = OUT / "runs" / name
    before = cpu_s()
    res = evaluate.run_case(cmd, curve, case, out)
    used = cpu_s() - before
    pred_file = out / "prediction.json"
    pred = json.loads(pred_file.read_text()) if pred_file.exists() else None
    path = OUT / "runs" / f"{name}.json"
    doc_out = {"truth": str(truth.relative_to(tally.ROOT)), "drive": stem, "case": case_name,
               "weighted": weighted, "cpu_s": used, "result": res, "prediction": pred}  # fmt: skip
    path.write_text(json.dumps(doc_out, indent=1) + "\n")
    for f in sorted(out.glob("*")):  # the prediction is in the JSON; the twins are not needed
        f.unlink()
    out.rmdir()
    print(f"{path.name}: {used:.0f} CPU s", flush=True)
    return path


def run_rows(path: Path, scale: float, family: str) -> list[dict[str, Any]]:
    """The held-out figures of a kept run, under both rules (the change from its readings)."""
    d = json.loads(path.read_text())
    res, pred = d["result"], d["prediction"]
    if pred is None or "levels" not in res:
        return []
    cmd = res["command"]
    ms = forms(cmd, all_weights(pred), scale)
    out = []
    for r in tally.evaluate_rows(res, d["truth"], f"weighted-residual/runs/{path.name}", family):
        if ms is None:
            new, same, how = (r["low"], r["high"]), True, "unchanged: nothing to miss"
        else:
            new, same = from_prediction(pred, r["level"], r["kind"], ms[0], ms[1])
            how = "rebuilt from the kept readings"
        out.append(pair(r, new, how, same, ms))
    return out


def pair(r: dict, new: tuple[float, float], how: str, same: bool, ms) -> dict[str, Any]:
    lo, hi = new
    return {**r, "new_low": lo, "new_high": hi, "new_inside": lo <= r["true"] <= hi,
            "new_width": hi / lo - 1, "how": how, "reproduced": same,
            "m_old": ms[0] if ms else None, "m_new": ms[1] if ms else None,
            "r_greedy": ms[2] if ms else None, "r_weighted": ms[3] if ms else None}  # fmt: skip


# ---------------------------------------------------------------- judge

UNSEEN_FAMILY = "SSDsim, unseen drives (ssdsim-l, ssdsim-m)"


def judged_rows(scale_of: dict[str, Any]) -> list[dict[str, Any]]:
    """Every judged figure under both rules (the rule's list)."""
    cases = tally.corpus_cases()
    scale_of.update(corpus_weighted(cases))
    scale = reading_residual.recorded_scale(scale_of["scale_all"])
    scale_of["scale_used_in_plan_cases"] = scale
    rows = []
    cur, new = tally.corpus_rows(cases, "conditioned"), tally.corpus_rows(cases, "weighted")
    for a, b in zip(cur, new, strict=True):
        if not a["stale"]:
            same = (a["low"], a["high"]) == (b["low"], b["high"])
            how = "unchanged: nothing to miss" if same else "corpus: rebuilt from its readings"
            rows.append(pair(a, (b["low"], b["high"]), how, True, None))
    runs = sorted((OUT / "runs").glob("*--off.json"))
    rerun = {(p.name.split("--")[0], json.loads(p.read_text())["case"]) for p in runs}
    for r in tally.plan_rows():
        if r["stale"] or (r["truth"], r["case"]) in rerun:
            continue
        weights = stored_weights(r)
        ms = forms(r["command"], weights, scale) if weights and r.get("command") else None
        if weights is None:
            rows.append(pair(r, (r["low"], r["high"]), "unchanged: measured path", True, None))
        elif ms is None:
            rows.append(pair(r, (r["low"], r["high"]), "unchanged: nothing to miss", True, None))
        elif (
            sum(w for k, w in weights.items() if k not in kept(weights)) == 0
            and len(kept(weights)) == 1
        ):
            lo, hi = rebanded(r["predicted"], r["low"], r["high"], ms[0], ms[1], r["kind"] == "waf")
            how = "rebuilt: one reading"
            rows.append(pair(r, (min(lo, r["predicted"]), max(hi, r["predicted"])), how, True, ms))
        else:
            rows.append(pair(r, (r["low"], r["high"]), "not recomputed", True, ms))
    for p in runs:
        fam = UNSEEN_FAMILY if p.name.startswith(UNSEEN_DRIVES) else None
        rows += run_rows(p, scale, fam)
    return rows


def group_stats(rs: list[dict[str, Any]]) -> dict[str, Any]:
    """``tally.stats`` under the recorded rule, and the same under the change (``new_``)."""
    if not rs:
        return {"n": 0}
    new = tally.stats([{**r, "inside": r["new_inside"], "width": r["new_width"]} for r in rs])
    return {**tally.stats(rs), "new_inside": new["inside"],
            "new_median_width": new["median_width"],
            "changed": sum(r["how"] not in UNCHANGED for r in rs)}  # fmt: skip


UNCHANGED = ("unchanged: nothing to miss", "unchanged: measured path")


def verify() -> list[dict[str, Any]]:
    """Each flag-on run against the change rebuilt from its flag-off run: the largest relative
    difference of an interval end."""
    out = []
    for on in sorted((OUT / "runs").glob("*--on.json")):
        off = on.with_name(on.name.replace("--on.json", "--off.json"))
        if not off.exists():
            continue
        scale = reading_residual.recorded_scale(0.0)
        a = {(r["level"], r["kind"]): r for r in run_rows(off, scale, None)}
        b = {(r["level"], r["kind"]): r for r in run_rows(on, scale, None)}
        worst = max(
            max(abs(b[k]["low"] / a[k]["new_low"] - 1), abs(b[k]["high"] / a[k]["new_high"] - 1))
            for k in a
        )
        out.append({"run": on.name, "figures": len(a), "largest_end_difference": worst})
    return out


def criteria(rows: list[dict[str, Any]], checks: list[dict[str, Any]]) -> dict[str, Any]:
    """The rule's criteria (bench/intervals/RULE-weighted-residual.md)."""
    judged = [r for r in rows if r["how"] != "not recomputed"]
    fams: dict[str, list[dict[str, Any]]] = {}
    for r in judged:
        fams.setdefault(r["family"], []).append(r)
    big = {f: group_stats(rs) for f, rs in fams.items() if len(rs) >= 10}
    pooled = group_stats(judged)
    drops = [f for f, s in big.items() if s["inside"] >= 0.70 and s["new_inside"] < 0.70]
    over = [f for f, s in big.items() if s["inside"] >= 0.95 and f != UNSEEN_FAMILY]
    over_rows = [r for r in judged if r["family"] in over]
    moved = group_stats([r for r in over_rows if r["how"] not in UNCHANGED])
    over_all = group_stats(over_rows)
    unseen = group_stats([r for r in judged if r["family"] == UNSEEN_FAMILY])
    rebuilt = [r for r in judged if r["how"] == "rebuilt from the kept readings"]
    c = {
        "C1 pooled 70-90% inside": 0.70 <= pooled["new_inside"] <= 0.90,
        "C2 no family from >=70% to below": not drops,
        "C3 over-covered, moved: median width >=10% lower": bool(moved["n"])
        and moved["new_median_width"] <= 0.9 * moved["median_width"],
        "C4 over-covered, all: median width not up by >1 point": over_all["n"] > 0
        and over_all["new_median_width"] <= over_all["median_width"] + 0.01,
        "C5 unseen drives >=70% inside": unseen["n"] > 0 and unseen["new_inside"] >= 0.70,
        "C6 rebuilt as calibrate gives it": all(r["reproduced"] for r in rebuilt)
        and bool(checks)
        and all(v["largest_end_difference"] <= 0.005 for v in checks),
    }
    return {
        "criteria": c,
        "met": all(c.values()),
        "pooled": pooled,
        "families": {f: group_stats(rs) for f, rs in sorted(fams.items())},
        "families_dropping": drops,
        "over_covered": over,
        "over_covered_moved": moved,
        "over_covered_all": over_all,
        "unseen": unseen,
        "not_recomputed": group_stats([r for r in rows if r["how"] == "not recomputed"]),
        "not_recomputed_cases": sorted(
            {
                f"{r['family']}: {r['truth']}, {r['case']}"
                for r in rows
                if r["how"] == "not recomputed"
            }
        ),  # fmt: skip
        "verification": checks,
    }


def cell(s: dict[str, Any], new: bool) -> str:
    if not s["n"]:
        return "–"
    k = "new_" if new else ""
    return f"{tally.pct(s[k + 'inside'])} at {tally.pct(s[k + 'median_width'])}"


def markdown(v: dict[str, Any], scales: dict[str, Any]) -> str:
    lines = [
        "| cases | n (changed) | recorded rule: inside at median width | weighted residual |",
        "|---|---|---|---|",
        f"| **pooled** | {v['pooled']['n']} ({v['pooled']['changed']}) | "
        f"{cell(v['pooled'], False)} | {cell(v['pooled'], True)} |",
    ]
    for f, s in v["families"].items():
        lines.append(f"| {f} | {s['n']} ({s['changed']}) | {cell(s, False)} | {cell(s, True)} |")
    for name in ("over_covered_moved", "over_covered_all", "unseen", "not_recomputed"):
        s = v[name]
        new = cell(s, True) if name != "not_recomputed" else "not recomputed"
        lines.append(f"| {name.replace('_', ' ')} | {s['n']} | {cell(s, False)} | {new} |")
    lines += ["", "Criteria: " + "; ".join(f"{k}: {'met' if ok else 'NOT met'}"
                                         for k, ok in v["criteria"].items())]  # fmt: skip
    lines += [f"Verdict: {'all met' if v['met'] else 'not met'}."]
    lines += ["", f"Scales: {json.dumps(scales)}", f"Verification: {json.dumps(v['verification'])}"]
    lines += ["", "Not recomputed: " + "; ".join(v["not_recomputed_cases"])]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("truth", type=Path)
    r.add_argument("case")
    r.add_argument("--weighted", action="store_true")
    sub.add_parser("scale")
    sub.add_parser("judge")
    args = ap.parse_args(argv)
    if args.cmd == "run":
        run(args.truth.resolve(), args.case, args.weighted)
        return 0
    if args.cmd == "scale":
        cases = tally.corpus_cases()
        print(json.dumps(corpus_weighted(cases), indent=1))
        return 0
    scales: dict[str, Any] = {}
    rows = judged_rows(scales)
    v = criteria(rows, verify())
    text = markdown(v, scales)
    print(text)
    tally.write(OUT, "verdict", text, {**v, "scales": scales}, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
