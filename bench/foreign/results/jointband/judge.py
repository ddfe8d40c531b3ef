"""Judge bench/foreign/results/jointband/RULE.md: today's calibrate against the joint arm
(own_erase_residual.ON, steep_pair.HULL_WHERE_AMBIGUOUS and bend_between.SPAN_TO_LINE on).

On the 72 (bench/foreign/results/scoreboard/cases-mix) the joint arm is composed post-hoc as
RULE.md says: formterm's recomposition of the erase-cost readings
(bench/foreign/results/formterm/judge.py's ``flagged`` and ``compose``), steephull's on cases
(bench/foreign/results/steephull/on/), then the span to the FOB–highest line
(``span``, the same arithmetic as ``bend_between.span_to_line``). C4 sets that against
calibrate run for real with the three flags (check-joint/). On the fresh truths both arms were
run for real (fresh-defaults/, fresh-joint/). Writes results.json and verdict.md. ≈ 1 CPU s.

    PYTHONPATH=python python bench/foreign/results/jointband/judge.py
"""

from __future__ import annotations

import datetime
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scorecover"))
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[1]))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import bend_between  # noqa: E402

FT = load_script("formterm_judge", HERE.parent / "formterm" / "judge.py")
TARGETS = load_script("femutyped_judge", HERE.parent / "femutyped" / "judge.py")
MIX = HERE.parent / "scoreboard" / "cases-mix"
STEEP_ON = HERE.parent / "steephull" / "on"
UNFITTED = (10.0, 20.0, 30.0)
BAND = (0.70, 0.90)
FLOOR = 0.70
REL_TOL = 1e-6  # C4: each interval end
CENTRE_TOL = 1e-9  # C4: each centre
CHECKS = {  # C4's cases: stem -> what its composition is made of
    "MQSim--mqsim-retry_unseen--u768x32": "erase reading + span",
    "NVMeVirt--erasecost--nvmevirt-c": "erase reading",
    "FEMU--byfig5_unseen--femu-6lun-240blk-thres68": "steephull on",
    "SSDsim--ssdsim--ssdsim-a": "none (cases-mix)",
}
FAMILY_OF_FRESH = {"nvmevirt": "NVMeVirt", "u": "MQSim", "femu": "FEMU"}


def span(doc: dict, got: dict[tuple[float, str], tuple[float, float]]) -> list[float]:
    """``got`` (level, figure) → interval, with the IOPS interval strictly between the typed
    levels reaching the line where ``bend_between.fires`` on the case's typed figures (as
    ``bend_between.span_to_line``); returns the levels it widened."""
    points = levels.case_points(doc["command"])
    fob = next((p.iops for p in points if p.fresh), None)
    if not bend_between.fires(points, fob):
        return []
    steady = bend_between._steady(points)
    low_x, high = steady[0].extra_op_percent, steady[-1]
    out = []
    for lv in doc["levels"]:
        x = float(lv["extra_op_percent"])
        if not low_x < x < high.extra_op_percent or (x, "iops") not in got:
            continue
        line = bend_between.line_iops(fob, high, lv["waf_pred"])
        lo, hi = got[(x, "iops")]
        new = (min(lo, line), max(hi, line))
        if new != (lo, hi):
            out.append(x)
        got[(x, "iops")] = new
    return out


def stored(doc: dict) -> dict[tuple[float, str], tuple[float, float]]:
    """A stored case's intervals, (level, figure) → (low, high)."""
    return {(float(lv["extra_op_percent"]), f): (lv[f"{f}_low"], lv[f"{f}_high"])
            for lv in doc.get("levels", []) for f in levels.FIGURES
            if lv.get(f"{f}_low") is not None}  # fmt: skip


def compose_joint(docs: dict[str, dict]) -> tuple[dict, dict]:
    """stem → the joint arm's intervals for every answered case of the 72, and what made each."""
    runs = FT.load_runs()
    out, how = {}, {}
    for stem, doc in docs.items():
        if "levels" not in doc:
            continue
        steep = STEEP_ON / f"{stem}.json"
        if steep.exists():
            got, made = stored(json.loads(steep.read_text())), ["steephull on"]
        elif stem in runs and FT.touched(runs[stem]):
            points = levels.case_points(doc["command"])
            got, made = FT.compose(FT.flagged(runs[stem], points)), ["erase reading"]
        else:
            got, made = stored(doc), []
        if span(doc, got):
            made.append("span")
        out[stem], how[stem] = got, made
    return out, how


def rows_of(rows: list[levels.Row], got: dict) -> list[levels.Row]:
    out = []
    for r in rows:
        lo, hi = got.get(r.case, {}).get((r.level, r.figure), (r.low, r.high))
        out.append(replace(r, low=lo, high=hi, inside=lo <= r.truth <= hi))
    return out


def cover(rs: list[levels.Row]) -> dict:
    n = len(rs)
    k = sum(r.inside for r in rs)
    w = statistics.median(r.rel_width for r in rs) if rs else 0.0
    return {"inside": k, "n": n, "coverage": k / n if n else 0.0, "median_rel_width": w}


def by_family(rs: list[levels.Row]) -> dict[str, dict]:
    out = {"all": cover(rs)}
    for fam in sorted({r.family for r in rs}):
        out[fam] = cover([r for r in rs if r.family == fam])
        for f in levels.FIGURES:
            out[f"{fam} {f}"] = cover([r for r in rs if r.family == fam and r.figure == f])
    for f in levels.FIGURES:
        out[f] = cover([r for r in rs if r.figure == f])
    return out


def close(a: float | None, b: float | None, tol: float) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= tol * max(abs(a), abs(b))


def check(docs: dict[str, dict], joint: dict) -> dict:
    """C4: each check case run for real with the three flags against the composition."""
    out = {}
    for stem, what in CHECKS.items():
        p = HERE / "check-joint" / f"{stem}.json"
        if not p.exists():
            out[stem] = {"what": what, "equal": False, "differences": ["not run"]}
            continue
        run = json.loads(p.read_text())
        base = STEEP_ON / f"{stem}.json"
        centre_from = json.loads(base.read_text()) if base.exists() else docs[stem]
        bad = []
        if "levels" not in run:
            bad.append("refused")
        for a, b in zip(centre_from.get("levels", []), run.get("levels", []), strict=False):
            x = float(a["extra_op_percent"])
            for f in levels.FIGURES:
                if not close(a[f"{f}_pred"], b[f"{f}_pred"], CENTRE_TOL):
                    bad.append(f"{x:g}% {f}_pred {a[f'{f}_pred']} vs {b[f'{f}_pred']}")
                want = joint[stem].get((x, f))
                if want is None:
                    continue
                for end, w in zip(("low", "high"), want, strict=True):
                    if not close(w, b[f"{f}_{end}"], REL_TOL):
                        got = b[f"{f}_{end}"]
                        bad.append(f"{x:g}% {f}_{end}: composed {w:.6g} vs run {got:.6g}")
        out[stem] = {"what": what, "equal": not bad, "differences": bad}
    return out


def fresh_rows(folder: Path) -> tuple[dict[str, list[levels.Row]], dict[str, dict]]:
    rows, docs = {}, {}
    for p in sorted(folder.glob("*.json")):
        doc = json.loads(p.read_text())
        doc["_stem"] = p.stem
        docs[p.stem] = doc
        rows[p.stem] = [r for r in levels.case_rows(doc) if r.level in UNFITTED]
    return rows, docs


def targets(doc: dict | None) -> dict[str, bool]:
    return TARGETS.targets(TARGETS.figures(doc))


def main() -> int:
    c0 = cpu_s()
    rows, refused = levels.load(MIX)
    unfitted = [r for r in rows if not r.fitted]
    docs = {p.stem: json.loads(p.read_text()) for p in sorted(MIX.glob("*.json"))}
    joint, how = compose_joint(docs)
    today, now = by_family(unfitted), by_family(rows_of(unfitted, joint))
    fam_keys = [k for k in today if k not in ("all", *levels.FIGURES)]
    dropped = [k for k in fam_keys if today[k]["coverage"] >= FLOOR > now[k]["coverage"]]
    chk = check(docs, joint)

    d_rows, d_docs = fresh_rows(HERE / "fresh-defaults")
    j_rows, j_docs = fresh_rows(HERE / "fresh-joint")
    stems = sorted(set(d_docs) | set(j_docs))
    fd = [r for s in stems for r in d_rows.get(s, [])]
    fj = [r for s in stems for r in j_rows.get(s, [])]
    n_fresh = 6 * 5
    fam = {s: next(v for k, v in FAMILY_OF_FRESH.items() if s.split("--")[-1].startswith(k))
           for s in stems}  # fmt: skip
    fresh_fam = {}
    for f in sorted(set(fam.values())):
        a = [r for s in stems if fam[s] == f for r in d_rows.get(s, [])]
        b = [r for s in stems if fam[s] == f for r in j_rows.get(s, [])]
        fresh_fam[f] = {"defaults": cover(a), "joint": cover(b)}
    lost = []
    for s in [*stems, *CHECKS]:
        a = d_docs.get(s) if s in stems else docs.get(s)
        b = j_docs.get(s) if s in stems else (
            json.loads((HERE / "check-joint" / f"{s}.json").read_text())
            if (HERE / "check-joint" / f"{s}.json").exists() else None)  # fmt: skip
        ta, tb = targets(a), targets(b)
        lost += [f"{s}: {k}" for k in ta if ta[k] and not tb[k]]
    fj_cov = sum(r.inside for r in fj) / n_fresh
    clauses = {
        "C1 pooled coverage of the 426 within 70-90%": BAND[0] <= now["all"]["coverage"] <= BAND[1],
        "C2 no family (or family x figure) >= 70% today below 70%": not dropped,
        "C3 pooled median width <= 0.95 x today's": now["all"]["median_rel_width"]
        <= 0.95 * today["all"]["median_rel_width"],
        "C4 calibrate's joint output equals the composition (4 cases)": all(
            c["equal"] for c in chk.values()
        ),
        "F1 fresh joint coverage >= 70% of 30": fj_cov >= FLOOR and len(stems) == 5,
        "F2 fresh joint median width <= the defaults'": bool(fj)
        and bool(fd)
        and cover(fj)["median_rel_width"] <= cover(fd)["median_rel_width"],
        "F3 no fresh family >= 70% in the defaults below 70% joint": all(
            not (v["defaults"]["coverage"] >= FLOOR > v["joint"]["coverage"])
            for v in fresh_fam.values()
        ),
        "F4 no met target lost (fresh and C4 cases)": not lost,
    }
    fresh_cases = {
        s: {"family": fam[s],
            "defaults": cover(d_rows.get(s, [])), "joint": cover(j_rows.get(s, [])),
            "targets_defaults": targets(d_docs.get(s)), "targets_joint": targets(j_docs.get(s)),
            "rows": [{"level": a.level, "figure": a.figure, "truth": a.truth, "pred": a.pred,
                      "defaults": [a.low, a.high, a.inside], "joint": [b.low, b.high, b.inside]}
                     for a, b in zip(d_rows.get(s, []), j_rows.get(s, []), strict=False)]}
        for s in stems
    }  # fmt: skip
    span_rows = [
        {"case": a.case, "level": a.level, "truth": a.truth, "pred": a.pred,
         "today": [a.low, a.high, a.inside], "joint": [b.low, b.high, b.inside]}
        for a, b in zip(unfitted, rows_of(unfitted, joint), strict=True)
        if "span" in how.get(a.case, []) and a.figure == "iops"
    ]  # fmt: skip
    doc = {
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "adopted": all(clauses.values()),
        "clauses": clauses,
        "today": today,
        "joint": now,
        "dropped_families": dropped,
        "composed_how": {s: m for s, m in how.items() if m},
        "span_rows": span_rows,
        "check": chk,
        "fresh_pooled": {"defaults": cover(fd), "joint": cover(fj), "n_expected": n_fresh},
        "fresh_families": fresh_fam,
        "fresh_cases": fresh_cases,
        "targets_lost": lost,
        "refused": refused,
        "cpu_s_judge": cpu_s() - c0,
    }
    (HERE / "results.json").write_text(json.dumps(doc, indent=1) + "\n")
    write_verdict(doc)
    for k, v in clauses.items():
        print(f"{k}: {'holds' if v else 'FAILS'}")
    print(f"adopted: {doc['adopted']}")
    return 0


def pct(c: dict) -> str:
    return f"{c['inside']}/{c['n']} ({100 * c['coverage']:.1f}%)"


def log_cpu() -> tuple[float, float]:
    """CPU s of runs.log's lines (/usr/bin/time) and of fresh/runs.log's MQSim driver."""
    main_s = sum(
        sum(float(x) for x in ln.split(" CPU s")[0].split("+"))
        for ln in (HERE / "runs.log").read_text().splitlines()
        if " CPU s, " in ln
    )
    mq = HERE / "fresh" / "runs.log"
    mq_s = sum(float(ln.split("CPU ")[-1]) for ln in mq.read_text().splitlines()
               if ln.startswith("== end"))  # fmt: skip
    return main_s, mq_s


def write_verdict(doc: dict) -> None:
    t, j = doc["today"], doc["joint"]
    verdict = ("**Adopted**" if doc["adopted"]
               else "**Not met: the three flags stay off**")  # fmt: skip
    main_s, mq_s = log_cpu()
    lines = [
        "# Verdict: the 80% intervals judged jointly (bench/foreign/results/jointband/RULE.md)",
        "",
        f"{verdict}. Made by `PYTHONPATH=python python bench/foreign/results/jointband/judge.py` "
        f"({doc['made']}, {doc['cpu_s_judge']:.1f} CPU s). Runs: runs.sh (`truths`, `check`, "
        f"`arms`), {main_s:.1f} CPU s in runs.log (/usr/bin/time, user + system; the MQSim "
        f"truths' driver counted there as its parent) of which the MQSim levels' own "
        f"{mq_s:.1f} CPU s are in fresh/runs.log (bench/cpu_clock.py).",
        "",
        "| clause | holds |",
        "|---|---|",
        *(f"| {k} | {'yes' if v else '**no**'} |" for k, v in doc["clauses"].items()),
        "",
        "## The 72 (bench/foreign/results/scoreboard/cases-mix; 71 answered, 426 unfitted figures)",
        "",
        "| unfitted levels | today | joint | median width today → joint |",
        "|---|---|---|---|",
    ]
    for k in t:
        if t[k]["n"]:
            lines.append(
                f"| {k} | {pct(t[k])} | {pct(j[k])} | {100 * t[k]['median_rel_width']:.1f}% → "
                f"{100 * j[k]['median_rel_width']:.1f}% |"
            )
    lines += [
        "",
        f"Families at ≥ 70% today below 70% joint: {doc['dropped_families'] or 'none'}.",
        "",
        "The span on the six MQSim drives where `bend_between.fires` (IOPS, QD32; low–high, "
        "inside):",
        "",
        "| case | level | truth | centre | today | joint |",
        "|---|---|---|---|---|---|",
        *(
            f"| {r['case'].split('--')[-1]} | {r['level']:g}% | {r['truth']:.0f} | "
            f"{r['pred']:.0f} | {r['today'][0]:.0f}–{r['today'][1]:.0f} "
            f"{'in' if r['today'][2] else '**out**'} | {r['joint'][0]:.0f}–{r['joint'][1]:.0f} "
            f"{'in' if r['joint'][2] else '**out**'} |"
            for r in doc["span_rows"]
        ),
        "",
        "C4, calibrate run for real with the three flags (check-joint/) against the composition:",
        "",
        *(
            f"- {s} ({c['what']}): "
            f"{'equal' if c['equal'] else 'NOT equal: ' + '; '.join(c['differences'][:6])}"
            for s, c in doc["check"].items()
        ),
        "",
        "## Fresh truths (fresh/; both arms run for real: fresh-defaults/, fresh-joint/)",
        "",
        "| drive | family | defaults inside, median width | joint inside, median width | "
        "targets met defaults → joint |",
        "|---|---|---|---|---|",
    ]
    for s, c in doc["fresh_cases"].items():
        d, jj = c["defaults"], c["joint"]
        td, tj = c["targets_defaults"], c["targets_joint"]
        lines.append(
            f"| {s.split('--')[-1]} | {c['family']} | {pct(d)}, "
            f"{100 * d['median_rel_width']:.1f}% | {pct(jj)}, "
            f"{100 * jj['median_rel_width']:.1f}% | "
            f"{sum(td.values())}/2 → {sum(tj.values())}/2 |"
        )
    fp = doc["fresh_pooled"]
    lines += [
        f"| **pooled** | | {pct(fp['defaults'])}, "
        f"{100 * fp['defaults']['median_rel_width']:.1f}% | {pct(fp['joint'])}, "
        f"{100 * fp['joint']['median_rel_width']:.1f}% | |",
        "",
        *(
            f"- {f}: defaults {pct(v['defaults'])}, joint {pct(v['joint'])}"
            for f, v in doc["fresh_families"].items()
        ),
        f"- targets lost: {doc['targets_lost'] or 'none'}",
        "",
        "Each fresh figure (10–30%, QD32; low–high, inside):",
        "",
        "| drive | level | figure | truth | centre | defaults | joint |",
        "|---|---|---|---|---|---|---|",
        *(
            f"| {s.split('--')[-1]} | {r['level']:g}% | {r['figure']} | {r['truth']:.4g} | "
            f"{r['pred']:.4g} | {r['defaults'][0]:.4g}–{r['defaults'][1]:.4g} "
            f"{'in' if r['defaults'][2] else '**out**'} | {r['joint'][0]:.4g}–"
            f"{r['joint'][1]:.4g} {'in' if r['joint'][2] else '**out**'} |"
            for s, c in doc["fresh_cases"].items()
            for r in c["rows"]
        ),
    ]
    reading = HERE / "reading.md"  # written after the verdict, by hand
    tail = reading.read_text() if reading.exists() else ""
    (HERE / "verdict.md").write_text("\n".join(lines) + "\n" + tail)


if __name__ == "__main__":
    sys.exit(main())
