"""The judging run of bench/foreign/results/scorecover/RULE.md: distance_term's slope measured
leave-one-family-out on the scoreboard's stored cases (cases-final) and applied post-hoc with
calibrate's own function (``distance_term.iops_bounds``); coverage and width at the unfitted
levels per family and pooled, the clauses, verdict.md and results.json. C5 is read from
check.json (check.py: calibrate run for real). ``--record`` writes the slope measured on every
family into python/overprov/calibrate/model_form_error.json (``one_reading_distance``).

    PYTHONPATH=python python bench/foreign/results/scorecover/judge.py [--record]
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2]))
import levels  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import distance_term, uncertainty  # noqa: E402

MODEL_FORM = levels.ROOT / "python/overprov/calibrate/model_form_error.json"
WIDTH_POOLED_MAX = 1.10  # C3
WIDTH_WIDENED_MAX = 2.0  # C4


def case_docs() -> dict[str, dict]:
    return {
        p.stem: json.loads(p.read_text())
        for p in sorted(levels.CASES.glob("*.json"))
        if "levels" in json.loads(p.read_text())
    }


def one_reading(doc: dict) -> bool:
    """Whether one reading carries the stored case (its stored readings' weights)."""
    return distance_term.one_reading_carries((doc.get("readings") or {}).values() or [1.0])


def held_out(rows: list[levels.Row]) -> list[tuple[float, float, float]]:
    """(log error, σ on the truth's side, d) of unfitted IOPS rows."""
    return [(r.log_error, r.half_width / uncertainty.Z80, r.distance) for r in rows]


def widened(rows: list[levels.Row], docs: dict[str, dict], slope: float) -> list[levels.Row]:
    """``rows`` (one family's unfitted IOPS rows of one-reading cases) with the term."""
    out = []
    for r in rows:
        doc = docs[r.case]
        fitted = levels.fitted_levels(levels.case_points(doc["command"]))
        fit = doc["fit"]
        ((lo, hi),) = distance_term.iops_bounds(
            [(r.level, r.pred, r.low, r.high)],
            fitted,
            fit["native_op"],
            fit["spare_efficiency"] or 1.0,
            slope,
        )
        out.append(replace(r, low=lo, high=hi, inside=lo <= r.truth <= hi))
    return out


def coverage(rows: list[levels.Row]) -> dict:
    n_in = sum(r.inside for r in rows)
    return {
        "n": len(rows),
        "inside": n_in,
        "coverage": n_in / len(rows) if rows else None,
        "median_rel_width": statistics.median(r.rel_width for r in rows) if rows else None,
    }


def pct(c: dict) -> str:
    return f"{c['inside']}/{c['n']} ({100 * c['coverage']:.1f}%)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--record", action="store_true")
    args = ap.parse_args(argv)
    t0 = cpu_s()
    docs = case_docs()
    rows, refused = levels.load()
    unfitted = [r for r in rows if not r.fitted]
    gated = {c for c, d in docs.items() if one_reading(d)}
    term_rows = [r for r in unfitted if r.figure == "iops" and r.case in gated]
    families = sorted({r.family for r in rows})
    slopes = {}
    new_by_key = {}
    for f in families:
        mine = [r for r in term_rows if r.family == f]
        if not mine:
            continue
        slopes[f] = distance_term.max_likelihood_slope(
            held_out([r for r in term_rows if r.family != f])
        )
        for old, new in zip(mine, widened(mine, docs, slopes[f]), strict=True):
            new_by_key[(old.case, old.level, old.figure)] = new
    slope_all = distance_term.max_likelihood_slope(held_out(term_rows))
    after = [new_by_key.get((r.case, r.level, r.figure), r) for r in unfitted]

    def groups(rs: list[levels.Row]) -> dict:
        out = {}
        for fig in levels.FIGURES:
            out[f"all {fig}"] = coverage([r for r in rs if r.figure == fig])
            for f in families:
                out[f"{f} {fig}"] = coverage([r for r in rs if r.figure == fig and r.family == f])
        return out

    today, judged = groups(unfitted), groups(after)
    per_family = {}
    for f in slopes:
        old = [r for r in term_rows if r.family == f]
        new = [new_by_key[(r.case, r.level, r.figure)] for r in old]
        per_family[f] = {
            "rows_widened": len(old),
            "inside_before": sum(r.inside for r in old),
            "inside_after": sum(r.inside for r in new),
            "median_rel_width_before": statistics.median(r.rel_width for r in old),
            "median_rel_width_after": statistics.median(r.rel_width for r in new),
        }
    before_changed = [r for r in unfitted if (r.case, r.level, r.figure) in new_by_key]
    after_changed = list(new_by_key.values())
    w_before = statistics.median(r.rel_width for r in before_changed)
    w_after = statistics.median(r.rel_width for r in after_changed)
    clauses = {}
    c1 = {f: 0.70 <= judged[f"all {f}"]["coverage"] <= 0.90 for f in levels.FIGURES}
    clauses["C1 pooled coverage 70-90% (IOPS, WAF)"] = c1["iops"] and c1["waf"]
    falls = [
        k for k in today if not k.startswith("all") and judged[k]["inside"] < today[k]["inside"]
    ]
    clauses["C2 no family's coverage falls"] = not falls
    clauses["C3 pooled median width <= 1.10x (IOPS, WAF)"] = all(
        judged[f"all {f}"]["median_rel_width"]
        <= WIDTH_POOLED_MAX * today[f"all {f}"]["median_rel_width"]
        for f in levels.FIGURES
    )
    clauses["C4 widened rows' median width <= 2x"] = w_after <= WIDTH_WIDENED_MAX * w_before
    check_path = HERE / "check.json"
    check = json.loads(check_path.read_text()) if check_path.exists() else None
    clauses["C5 calibrate's output equals the composition (>= 3 cases)"] = bool(
        check and check["equal_cases"] >= 3 and check["all_equal"]
    )
    adopted = all(clauses.values())
    reading_b = c1["iops"] and all(v for k, v in clauses.items() if not k.startswith("C1"))
    doc = {
        "rule": "bench/foreign/results/scorecover/RULE.md",
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "cases": len(docs),
        "refused": refused,
        "one_reading_cases": sorted(gated),
        "term_rows": len(term_rows),
        "slope_without_family": slopes,
        "slope_all_families": slope_all,
        "today": today,
        "judged": judged,
        "widened_rows_median_rel_width": {"today": w_before, "judged": w_after},
        "families_falling": falls,
        "widened_by_family": per_family,
        "clauses": clauses,
        "adopted": adopted,
        "reading_b_informative": reading_b,
        "check": check,
        "cpu_s": None,
    }
    doc["cpu_s"] = cpu_s() - t0
    (HERE / "results.json").write_text(json.dumps(doc, indent=1) + "\n")
    if args.record:
        record(slope_all, slopes, doc, len(term_rows), len(gated))
    (HERE / "verdict.md").write_text(verdict(doc, families))
    print((HERE / "verdict.md").read_text())
    return 0


def record(slope: float, without: dict, doc: dict, n_rows: int, n_cases: int) -> None:
    mf = json.loads(MODEL_FORM.read_text())
    mf["one_reading_distance"] = {
        "per_log_spare": slope,
        "carry_weight": distance_term.CARRY_WEIGHT,
        "rule": "with distance_term.ON, a prediction one reading carries (no second reading with "
        "weight >= carry_weight): its IOPS interval at a level off the fitted ones widened in "
        "quadrature by per_log_spare * d, d the log spare distance from the nearest fitted "
        "level; per_log_spare the maximum-likelihood one beyond the intervals given "
        "(bench/foreign/results/scorecover/RULE.md)",
        "source": f"bench/foreign/results/scorecover/judge.py, {n_rows} held-out QD32 IOPS figures "
        f"at 10/20/30% of {n_cases} one-reading cases of "
        "bench/foreign/results/scoreboard/cases-final, " + doc["date"][:10],
        "leave_out": "family",
        "per_log_spare_without_family": without,
        "adopted": doc["adopted"],
    }
    MODEL_FORM.write_text(json.dumps(mf, indent=2) + "\n")


def verdict(doc: dict, families: list[str]) -> str:
    t, j = doc["today"], doc["judged"]
    lines = [
        "# Verdict: distance_term.ON (bench/foreign/results/scorecover/RULE.md)",
        "",
        f"**{'Adopted' if doc['adopted'] else 'Not adopted'}**"
        + ("" if doc["adopted"] else ": distance_term.ON stays False")
        + f". Made by `PYTHONPATH=python python bench/foreign/results/scorecover/judge.py` "
        f"({doc['date']}, {doc['cpu_s']:.1f} CPU s, bench/cpu_clock.py), post-hoc on the "
        f"{doc['cases']} answered cases of bench/foreign/results/scoreboard/cases-final; "
        f"{len(doc['one_reading_cases'])} of them one reading carries ({doc['term_rows']} "
        "unfitted IOPS rows the term can widen).",
        "",
        "| clause | holds |",
        "|---|---|",
        *(f"| {k} | {'yes' if v else '**no**'} |" for k, v in doc["clauses"].items()),
        "",
        "Slope (relative sd per unit of log spare distance), measured without each family: "
        + ", ".join(f"{f} {s:.3f}" for f, s in doc["slope_without_family"].items())
        + f"; on all families {doc['slope_all_families']:.3f}.",
        "",
        "| unfitted levels | IOPS today | IOPS judged | IOPS width today → judged "
        "| WAF today | WAF judged | WAF width today → judged |",
        "|---|---|---|---|---|---|---|",
    ]
    for g in ["all", *families]:
        i0, i1, w0, w1 = t[f"{g} iops"], j[f"{g} iops"], t[f"{g} waf"], j[f"{g} waf"]
        lines.append(
            f"| {g} | {pct(i0)} | {pct(i1)} | {100 * i0['median_rel_width']:.0f}% → "
            f"{100 * i1['median_rel_width']:.0f}% | {pct(w0)} | {pct(w1)} | "
            f"{100 * w0['median_rel_width']:.0f}% → {100 * w1['median_rel_width']:.0f}% |"
        )
    w = doc["widened_rows_median_rel_width"]
    lines += [
        "",
        "| family (one-reading cases) | slope without it | IOPS rows widened | inside before "
        "→ after | their median width before → after |",
        "|---|---|---|---|---|",
        *(
            f"| {f} | {doc['slope_without_family'][f]:.3f} | {v['rows_widened']} "
            f"| {v['inside_before']} → {v['inside_after']} "
            f"| {100 * v['median_rel_width_before']:.0f}% → "
            f"{100 * v['median_rel_width_after']:.0f}% |"
            for f, v in doc["widened_by_family"].items()
        ),
    ]
    lines += [
        "",
        f"The rows the term widens: median relative width {100 * w['today']:.0f}% today, "
        f"{100 * w['judged']:.0f}% judged.",
        "",
        f"Reading B (informative, adopts nothing; RULE.md): C1 with WAF read as unchanged, the "
        f"rest as written: {'all hold' if doc['reading_b_informative'] else 'does not hold'}.",
        "",
    ]
    wf = doc["widened_by_family"]
    full = {f: v for f, v in wf.items() if v["inside_before"] == v["rows_widened"]}
    gains = {f: v["inside_after"] - v["inside_before"] for f, v in wf.items()}
    rise = j["all iops"]["median_rel_width"] / t["all iops"]["median_rel_width"]
    lines += [
        "What it says: the term widens "
        f"{sum(v['rows_widened'] for v in full.values())} rows of "
        f"{', '.join(full)} whose truths were all inside already (their median width "
        + ", ".join(
            f"{f} {100 * v['median_rel_width_before']:.0f}% → "
            f"{100 * v['median_rel_width_after']:.0f}%"
            for f, v in full.items()
        )
        + "), and the truths it brings inside are "
        + ", ".join(f"{f} {g}" for f, g in gains.items() if g)
        + ": one reading carrying a prediction marks where the misses sit, but not only them. "
        f"Pooled IOPS coverage ends at {100 * j['all iops']['coverage']:.1f}% and the pooled "
        f"IOPS median width rises {100 * (rise - 1):.0f}%.",
        "",
    ]
    c = doc["check"]
    if c:
        lines += [
            f"C5, calibrate run for real (check.py, check.json): {c['summary']}",
            "",
        ]
    else:
        lines += ["C5: check.json not made yet.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
