"""Judge bench/foreign/results/narrowsix/RULE.md: today's defaults (femucarry's six reserve
flags on) against the arm (conformal_scale.ON with the scale measured without the case's family,
steep_pair.HULL_WHERE_AMBIGUOUS as redefined for the six on), both run for real: status72's
cases (bench/foreign/results/status72/cases/) against arm-72/ on the 72, with the rule's one
fallback (a case not run: feasible.py's estimate, the verdict then provisional); fresh-defaults/
against fresh-arm/ on the five fresh truths; G on the d-choices-2 drive of
tests/calibrate/test_gc_designs.py with the arm's flags (its twins simulated, ≈ 3 CPU s).
Counting as narrowtwo's judge (bench/foreign/results/narrowtwo/judge.py, narrowband's and
jointband's ``cover``, ``by_family``, ``targets``, ``fresh_rows``). Writes results.json and
verdict.md (with reading.md appended when it exists). ≈ 5 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowsix/judge.py
"""

from __future__ import annotations

import datetime
import json
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
NB = RESULTS / "narrowband"
sys.path.insert(0, str(RESULTS / "scorecover"))
sys.path.insert(0, str(RESULTS.parents[1]))
sys.path.insert(0, str(RESULTS.parent))
sys.path.insert(0, str(NB))
sys.path.insert(0, str(RESULTS.parents[2] / "tests" / "calibrate"))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
import today  # noqa: E402  (bench/foreign/results/narrowband/today.py)
from common import load_script, write_results  # noqa: E402  (bench/foreign/common.py)
from cpu_clock import cpu_s  # noqa: E402

NBJ = load_script("narrowband_judge", NB / "judge.py")
FEAS = load_script("narrowsix_feasible", HERE / "feasible.py")
cover, by_family, pct, targets, fresh_rows = (
    NBJ.cover, NBJ.by_family, NBJ.pct, NBJ.targets, NBJ.fresh_rows)  # fmt: skip
BAND, FLOOR, WIDTH_RATIO, FRESH_FLOOR = (0.70, 0.90), 0.70, 0.8, 0.70
FRESH = {  # stem in fresh/ -> family
    "nvmevirt-ag": "NVMeVirt", "nvmevirt-ah": "NVMeVirt", "femu-68lun-39blk-thres65": "FEMU",
    "femu-70lun-44blk-thres62": "FEMU", "u800x32": "MQSim",
}  # fmt: skip
TOL = 1e-9


def load(p: Path, stem: str) -> dict | None:
    if not p.exists():
        return None
    doc = json.loads(p.read_text())
    doc["_stem"] = stem
    return doc


def moved(a: dict | None, b: dict | None, stem: str) -> list[str]:
    """Each level whose centre (``*_pred``) differs between cases ``a`` and ``b`` by > TOL."""
    out = []
    for la, lb in zip((a or {}).get("levels", []), (b or {}).get("levels", []), strict=False):
        for f in levels.FIGURES:
            x, y = la.get(f"{f}_pred"), lb.get(f"{f}_pred")
            if (x is None) != (y is None) or (
                x is not None and abs(x - y) > TOL * max(abs(x), abs(y))
            ):
                out.append(f"{stem} {la['extra_op_percent']}% {f}: {x} -> {y}")
    return out


def met(doc: dict | None) -> bool:
    """The scoreboard's ``summary.met`` of a case (False when absent)."""
    return bool((doc or {}).get("summary", {}).get("met"))


def arm_docs(docs: dict[str, dict]) -> tuple[dict[str, dict | None], dict[str, list]]:
    """stem → the arm's case run here (None where not run), and the cases not run, each with
    feasible.py's estimate of its rows (the rule's fallback)."""
    got: dict[str, dict | None] = {}
    book: dict[str, list] = {"fallback": [], "estimated_rows": []}
    old = today.docs()
    for stem, doc in docs.items():
        got[stem] = load(HERE / "arm-72" / f"{stem}.json", stem)
        if got[stem] is None and any(not r.fitted for r in levels.case_rows(doc)):
            book["fallback"].append(stem)
            _, est = FEAS.estimate(stem, doc, old)
            book["estimated_rows"] += [replace(r, inside=ins) for r, ins, _ in est]
    return got, book


def g_clause() -> dict:
    """G: the d-choices-2 drive's WAF band at 10% and 20% with the arm's flags."""
    from overprov.calibrate import conformal_scale, spare_readings, steep_pair
    from overprov.calibrate import predict as predmod
    from test_gc_designs import D_CHOICES_2, truth, two_levels

    was = conformal_scale.ON, steep_pair.HULL_WHERE_AMBIGUOUS
    conformal_scale.ON, steep_pair.HULL_WHERE_AMBIGUOUS = True, True
    try:
        fig = predmod.PredictionInput(
            two_levels(D_CHOICES_2), [0.0, 10.0, 20.0, 40.0], typed=True, jobs=1
        )
        pred = spare_readings.read_all(fig)
    finally:
        conformal_scale.ON, steep_pair.HULL_WHERE_AMBIGUOUS = was
    out = {}
    for lv in pred.levels:
        if lv.extra_op_percent in (10.0, 20.0):
            t = truth(D_CHOICES_2, lv.extra_op_percent)
            out[f"{lv.extra_op_percent:g}%"] = {
                "truth": t, "waf": lv.waf, "low": lv.waf_low, "high": lv.waf_high,
                "inside": lv.waf_low <= t <= lv.waf_high,
            }  # fmt: skip
    out["says_spans_both"] = steep_pair.WARNING_SPANNED in pred.prediction_source
    return out


def arm_rows(
    docs: dict[str, dict], got: dict[str, dict | None], fallback: list[str]
) -> tuple[list, list[str]]:
    """The arm's unfitted rows (the fallback's cases left to the caller); a case answered today
    that the arm refused or failed counts outside on all today's rows (RULE.md)."""
    out, failed = [], []
    for stem, doc in docs.items():
        mine = [r for r in levels.case_rows(doc) if not r.fitted]
        if not mine or stem in fallback:
            continue
        g = got.get(stem)
        theirs = [r for r in levels.case_rows(g) if not r.fitted] if g and "levels" in g else []
        if len(theirs) != len(mine):
            failed.append(stem)
            out += [replace(r, inside=False) for r in mine]
        else:
            out += theirs
    return out, failed


def fresh_arm(folder: str) -> tuple[dict, dict, list[levels.Row]]:
    rows, fdocs = fresh_rows(HERE / folder)
    rs = [r for s in rows for r in rows[s]]
    c = cover(rs)
    c["coverage"] = c["inside"] / (6 * len(FRESH))  # a truth or case that failed counts outside
    return c, {"rows": rows, "docs": fdocs}, rs


def main() -> int:
    c0 = cpu_s()
    docs = FEAS.status_docs()
    rows_today = [r for d in docs.values() for r in levels.case_rows(d) if not r.fitted]
    got, book = arm_docs(docs)
    rows_arm, failed = arm_rows(docs, got, book["fallback"])
    rows_arm += book.pop("estimated_rows")
    g = g_clause()
    t, j = by_family(rows_today), by_family(rows_arm)
    fam_keys = [k for k in t if k not in ("all", *levels.FIGURES)]
    dropped = [k for k in fam_keys if t[k]["coverage"] >= FLOOR > j[k]["coverage"]]
    lost = [
        s for s, d in docs.items() if met(d) and not met(got.get(s)) and s not in book["fallback"]
    ]
    centres = [m for s, d in docs.items() for m in moved(d, got.get(s), s)]
    fd, fdd, _ = fresh_arm("fresh-defaults")
    fa, fad, fa_rows = fresh_arm("fresh-arm")
    n_fresh = 6 * len(FRESH)
    fresh_lost = []
    for s in sorted(set(fdd["docs"]) | set(fad["docs"])):
        ta, tb = targets(fdd["docs"].get(s)), targets(fad["docs"].get(s))
        fresh_lost += [f"{s}: {k}" for k in ta if ta[k] and not tb[k]]
    fresh_moved = [m for s, d in fdd["docs"].items() for m in moved(d, fad["docs"].get(s), s)]
    pooled_in = j["all"]["inside"] + fa["inside"]
    pooled_n = j["all"]["n"] + n_fresh
    clauses = {
        "C1 pooled coverage of the 432 within 70-90%": BAND[0] <= j["all"]["coverage"] <= BAND[1],
        "C2 no family (or family x figure) >= 70% today below 70%": not dropped,
        "C3 pooled median width <= 0.8 x today's": j["all"]["median_rel_width"]
        <= WIDTH_RATIO * t["all"]["median_rel_width"],
        "C4 no target met today lost": not lost,
        "F1 fresh arm coverage >= 70% of the 30": fa["coverage"] >= FRESH_FLOOR,
        "F2 fresh arm median width <= the defaults'": fa["n"] > 0
        and fa["median_rel_width"] <= fd["median_rel_width"],
        "F3 no fresh target met in the defaults lost": not fresh_lost,
        "F4 the 72 and the fresh pooled within 70-90%": BAND[0] <= pooled_in / pooled_n <= BAND[1],
        "G the d-choices-2 drive's WAF band holds its truth at 10% and 20%": all(
            g[k]["inside"] for k in ("10%", "20%")
        ),
    }
    per_case = {}
    for a, d in (("defaults", fdd), ("arm", fad)):
        for s, rs in d["rows"].items():
            per_case.setdefault(s, {})[a] = {
                "cover": cover(rs),
                "rows": [[r.level, r.figure, r.truth, r.pred, r.low, r.high, r.inside] for r in rs],
            }
    doc = {
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "adopted": all(clauses.values()),
        "clauses": clauses,
        "today": t,
        "arm": j,
        "arm_failed_cases": failed,
        "fallback": book,
        "provisional": bool(book["fallback"]),
        "g": g,
        "dropped": dropped,
        "targets_lost": lost,
        "centres_moved": centres,
        "fresh": {"defaults": fd, "arm": fa},
        "fresh_n_expected": n_fresh,
        "pooled": {"inside": pooled_in, "n": pooled_n, "coverage": pooled_in / pooled_n},
        "fresh_targets_lost": fresh_lost,
        "fresh_centres_moved": fresh_moved,
        "fresh_cases": per_case,
        "fresh_targets": {
            s: {"defaults": targets(fdd["docs"].get(s)), "arm": targets(fad["docs"].get(s))}
            for s in sorted(per_case)
        },
        "cpu_s_judge": cpu_s() - c0,
    }
    write_results(HERE / "results.json", doc)
    write_verdict(doc)
    print("\n".join(f"{k}: {'holds' if v else 'FAILS'}" for k, v in clauses.items()))
    print(f"adopted: {doc['adopted']}")
    return 0


def write_verdict(doc: dict) -> None:
    t, j, b = doc["today"], doc["arm"], doc["fallback"]
    verdict = "**Adopted**" if doc["adopted"] else "**Not met: the flags stay off**"
    log_s = sum(
        sum(float(x) for x in ln.split(" CPU s")[0].split("+"))
        for ln in (HERE / "runs.log").read_text().splitlines()
        if " CPU s, " in ln
    )
    lines = [
        "# Verdict: the model-form scale and the hull with the six reserve flags on "
        "(bench/foreign/results/narrowsix/RULE.md)",
        "",
        f"{verdict}. Made by `PYTHONPATH=python python bench/foreign/results/narrowsix/judge.py` "
        f"({doc['made']}, {doc['cpu_s_judge']:.1f} CPU s). Runs: runs.sh (`truths`, `fresh`, "
        f"`erase72`, `rest72`), {log_s:.1f} CPU s in runs.log (/usr/bin/time, user + system).",
        "",
        "| clause | holds |",
        "|---|---|",
        *(f"| {k} | {'yes' if v else '**no**'} |" for k, v in doc["clauses"].items()),
        "",
        "## The 72 (today: bench/foreign/results/status72/cases/; arm: arm-72/, each family "
        "with the scale measured without it)",
        "",
        f"- run here: {72 - len(b['fallback'])} of 72; the rule's fallback (feasible.py's "
        f"estimate) for {len(b['fallback'])}: "
        f"{', '.join(s.split('--')[-1] for s in b['fallback']) or 'none'}"
        + (" (**provisional**)" if b["fallback"] else ""),
        "",
        "| unfitted levels | today | arm | median width today → arm |",
        "|---|---|---|---|",
        *(
            f"| {k} | {pct(t[k])} | {pct(j[k])} | {100 * t[k]['median_rel_width']:.1f}% → "
            f"{100 * j[k]['median_rel_width']:.1f}% |"
            for k in t
            if t[k]["n"]
        ),
        "",
        f"- families (or family × figure) at ≥ 70% today below 70% in the arm: "
        f"{doc['dropped'] or 'none'}",
        f"- cases the arm failed, refused or never ran (counted outside): "
        f"{doc['arm_failed_cases'] or 'none'}",
        f"- targets met today lost: {doc['targets_lost'] or 'none'}",
        f"- levels whose centre moved (> 1e-9 relative): {len(doc['centres_moved'])}"
        + "".join(f"\n  - {m}" for m in doc["centres_moved"][:20]),
        "",
        "## Fresh truths (fresh/; defaults and the arm run for real)",
        "",
        "| arm | inside (of the 30 expected) | median width |",
        "|---|---|---|",
        *(
            f"| {a} | {c['inside']}/{doc['fresh_n_expected']} "
            f"({100 * c['coverage']:.1f}%) | {100 * c['median_rel_width']:.1f}% |"
            for a, c in doc["fresh"].items()
        ),
        f"| the 72 and the fresh pooled (arm) | {doc['pooled']['inside']}/{doc['pooled']['n']} "
        f"({100 * doc['pooled']['coverage']:.1f}%) | |",
        "",
        f"- targets met in the defaults lost in the arm: {doc['fresh_targets_lost'] or 'none'}",
        f"- levels whose centre moved from the defaults' in the arm: "
        f"{len(doc['fresh_centres_moved'])}"
        + "".join(f"\n  - {m}" for m in doc["fresh_centres_moved"][:20]),
        "",
        "| drive | level | figure | truth | centre (defaults) | defaults | arm |",
        "|---|---|---|---|---|---|---|",
    ]
    for s, arms in doc["fresh_cases"].items():
        for i, r in enumerate(arms.get("defaults", {}).get("rows", [])):
            cells = []
            for a in ("defaults", "arm"):
                rr = arms.get(a, {}).get("rows", [])
                cells.append(
                    f"{rr[i][4]:.4g}–{rr[i][5]:.4g} {'in' if rr[i][6] else '**out**'}"
                    if i < len(rr)
                    else "—"
                )
            lines.append(f"| {s.split('--')[-1]} | {r[0]:g}% | {r[1]} | {r[2]:.4g} | "
                         f"{r[3]:.4g} | " + " | ".join(cells) + " |")  # fmt: skip
    g = doc["g"]
    lines += [
        "",
        "## G: the d-choices-2 drive of tests/calibrate/test_gc_designs.py with the arm's flags",
        "",
        *(
            f"- WAF at {k}: truth {g[k]['truth']:.4g}, centre {g[k]['waf']:.4g}, band "
            f"{g[k]['low']:.4g}–{g[k]['high']:.4g} {'in' if g[k]['inside'] else '**out**'}"
            for k in ("10%", "20%")
        ),
        f"- the answer says the interval spans both readings: {g['says_spans_both']}",
    ]
    lines += [
        "",
        "Targets met (IOPS, WAF) per fresh drive and arm: "
        + "; ".join(
            f"{s.split('--')[-1]}: "
            + ", ".join(f"{a} {sum(v.values())}/2" for a, v in arms.items())
            for s, arms in doc["fresh_targets"].items()
        ),
        "",
    ]
    reading = HERE / "reading.md"
    tail = reading.read_text() if reading.exists() else ""
    (HERE / "verdict.md").write_text("\n".join(lines) + "\n" + tail)


if __name__ == "__main__":
    sys.exit(main())
