"""Judge own_erase_residual.ON (bench/foreign/results/formterm/RULE.md) post-hoc on the 71
answered cases of bench/foreign/results/scoreboard/cases-final.

Each case with an erase-cost reading in today's span is recomposed from its rerun's readings
(runs-off/ here, else bench/foreign/results/scorenarrow/runs-off/: each reading's figures and
80% interval as calibrate gives them with the flag off): every erase-cost reading's interval at
every level has its model-form term (``uncertainty.Z80`` × the greedy-residual relative sd,
``uncertainty.model_form_for``) taken out in quadrature and the flag's term (the same form with
the reading's own residual, ``own_erase_residual.erase_reading_form``) put in; the readings are
then mixed as calibrate mixes them today (``reading_mixture.interval``, through
bench/foreign/results/scorenarrow/judge.py's ``compose``). "Today" is that composition of the
unchanged readings (the mixture, on by default, for every case rerun), the stored interval
elsewhere. The check: runs-on/ (calibrate run for real with the flag on) against the
composition. Writes results.json and verdict.md. ≈ 1 CPU s.

    PYTHONPATH=python python bench/foreign/results/formterm/judge.py
"""

from __future__ import annotations

import copy
import datetime
import importlib.util
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scorecover"))
sys.path.insert(0, str(HERE.parents[2]))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import (  # noqa: E402
    erase_reading,
    evidence,
    gc_designs,
    own_erase_residual,
    uncertainty,  # noqa: E402
)
from overprov.calibrate import fit as fitmod  # noqa: E402


def _by_path(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


NARROW = _by_path("scorenarrow_judge", HERE.parent / "scorenarrow" / "judge.py")
coverage, pct, compose, spanned, FIG = (
    NARROW.coverage,
    NARROW.pct,
    NARROW.compose,
    NARROW.spanned,
    NARROW.FIG,
)
RUN_DIRS = (HERE / "runs-off", HERE.parent / "scorenarrow" / "runs-off")
STEEP_ON = HERE.parent / "steephull" / "on"
CHECK_STEMS = (
    "NVMeVirt--erasecost--nvmevirt-c",
    "MQSim--mqsim-retry_unseen--u768x32",
    "WiscSim--wiscgc--wiscsee-f",
)
#: the check's tolerance on each interval end: taking a term out in quadrature and putting
#: another in rounds at about 1e-8 of the half-width
REL_TOL = 1e-6


def load_runs() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for d in RUN_DIRS:
        for p in sorted(d.glob("*.json")):
            out.setdefault(p.stem, json.loads(p.read_text()))
    return out


def is_erase(key: str) -> bool:
    return key.endswith(erase_reading.SUFFIX)


def erase_sd(points: list[fitmod.Point], key: str) -> tuple[float, float]:
    """(today's model-form relative sd, the flag's) for the erase-cost reading ``key``."""
    form = uncertainty.model_form_for(points, simulated=False)
    design = key.split(":", 1)[1].removesuffix(erase_reading.SUFFIX)
    curve = fitmod.waf_at if design == "greedy" else gc_designs.curve(design)
    pts = [p for p in points if p.queue_depth is None]
    with erase_reading.fitting():
        central = fitmod.fit(pts, curve=curve)
    n = evidence.n_parameters(central, evidence.ReadingForm(curve, None, False))
    n += central.erase_us_per_page > 0
    was = own_erase_residual.ON
    own_erase_residual.ON = True
    try:
        new = own_erase_residual.erase_reading_form(form, central, points, n)
    finally:
        own_erase_residual.ON = was
    return form.at(None), new.at(None)


def reband(v: float, end: float, m_old: float, m_new: float, floor: float | None) -> float:
    """An interval end ``end`` around ``v`` with its model-form term m_old (log, in quadrature)
    replaced by m_new."""
    h = abs(math.log(end / v))
    b = math.sqrt(max(h * h - m_old * m_old, 0.0))
    out = v * math.exp(math.copysign(math.hypot(b, m_new), end - v or -1.0))
    return max(floor, out) if floor is not None else out


def flagged(run: dict, points: list[fitmod.Point]) -> dict:
    """``run`` with its erase-cost readings' intervals as the flag gives them."""
    out = copy.deepcopy(run)
    for key, r in out["readings"].items():
        if not is_erase(key) or not r.get("levels"):
            continue
        sd_old, sd_new = erase_sd(points, key)
        m_old, m_new = uncertainty.Z80 * sd_old, uncertainty.Z80 * sd_new
        for lv in r["levels"]:
            for f, (v, lo, hi) in FIG.items():
                if lv.get(v) is None or lv.get(lo) is None:
                    continue
                floor = uncertainty.WAF_MIN if f == "waf" else None
                lv[lo] = reband(lv[v], lv[lo], m_old, m_new, floor)
                lv[hi] = reband(lv[v], lv[hi], m_old, m_new, floor)
    return out


def touched(run: dict) -> bool:
    return any(is_erase(k) for k, r in run["readings"].items() if r in spanned(run))


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= REL_TOL * max(abs(a), abs(b))


def check(points_of: dict[str, list[fitmod.Point]], runs: dict[str, dict]) -> dict:
    """Each check case's flag-on run against the composition of its flag-off run."""
    out = {}
    for stem in CHECK_STEMS:
        on_p = HERE / "runs-on" / f"{stem}.json"
        if not on_p.exists() or stem not in runs:
            out[stem] = {"equal": False, "differences": ["not run"]}
            continue
        on = json.loads(on_p.read_text())
        want = compose(flagged(runs[stem], points_of[stem]))
        bad = []
        for a, b in zip(runs[stem]["levels"], on["levels"], strict=True):
            x = float(a["extra_op_percent"])
            for f, (v, lo, hi) in FIG.items():
                if not close(a.get(v), b.get(v)):
                    bad.append(f"{x:g}% {v}: {a.get(v)} vs {b.get(v)}")
                for k, w in zip((lo, hi), want.get((x, f), (None, None)), strict=True):
                    if not close(w, b.get(k)):
                        bad.append(f"{x:g}% {k}: composed {w} vs run {b.get(k)}")
        w_off = {k: r["weight"] for k, r in runs[stem]["readings"].items()}
        w_on = {k: r["weight"] for k, r in on["readings"].items()}
        if w_off != w_on:
            bad.append(f"weights {w_off} vs {w_on}")
        out[stem] = {"equal": not bad, "differences": bad}
    return out


def judged_rows(rows: list[levels.Row], composed: dict) -> list[levels.Row]:
    out = []
    for r in rows:
        got = composed.get(r.case, {}).get((r.level, r.figure))
        if got is None:
            out.append(r)
            continue
        lo, hi = got
        out.append(replace(r, low=lo, high=hi, inside=lo <= r.truth <= hi))
    return out


def table(rs: list[levels.Row], families: list[str]) -> dict:
    out = {"all": coverage(rs)}
    for fam in families:
        out[fam] = coverage([r for r in rs if r.family == fam])
        for f in levels.FIGURES:
            out[f"{fam} {f}"] = coverage([r for r in rs if r.figure == f and r.family == fam])
    for f in levels.FIGURES:
        out[f] = coverage([r for r in rs if r.figure == f])
    return out


def main() -> int:
    c0 = cpu_s()
    rows, refused = levels.load()
    unfitted = [r for r in rows if not r.fitted]
    runs = load_runs()
    docs = {s: json.loads((levels.CASES / f"{s}.json").read_text()) for s in runs}
    points_of = {s: levels.case_points(d["command"]) for s, d in docs.items()}
    several = {s: run for s, run in runs.items() if len(spanned(run)) >= 2 or touched(run)}
    base = {s: compose(run) for s, run in several.items()}
    hit = sorted(s for s, run in runs.items() if touched(run))
    cand = dict(base)
    for s in hit:
        cand[s] = compose(flagged(runs[s], points_of[s]))
    families = sorted({r.family for r in unfitted})
    today_rows, now_rows = judged_rows(unfitted, base), judged_rows(unfitted, cand)
    today, now = table(today_rows, families), table(now_rows, families)
    erase_stems = sorted(
        s
        for s, d in ((p.stem, json.loads(p.read_text())) for p in levels.CASES.glob("*.json"))
        if "levels" in d and any(is_erase(k) for k in d.get("readings") or {})
    )
    steep_rows, _ = levels.load(STEEP_ON)
    steep_cases = {r.case for r in steep_rows}
    steep = judged_rows([r for r in steep_rows if not r.fitted], {})
    with_steep = [r for r in now_rows if r.case not in steep_cases] + [
        r for r in steep if r.case in {u.case for u in unfitted}
    ]
    chk = check(points_of, runs)
    keys_today_70 = [k for k in today if k not in ("all", *levels.FIGURES)]
    clauses = {
        "C1 pooled unfitted coverage (IOPS+WAF) within 70-90%": 0.70
        <= now["all"]["coverage"]
        <= 0.90,
        "C2 no family (pooled, or one figure) >= 70% today below 70%": all(
            now[k]["coverage"] >= 0.70
            for k in keys_today_70
            if today[k]["n"] and today[k]["coverage"] >= 0.70
        ),
        "C3 pooled median width falls by >= 5% relative": now["all"]["median_rel_width"]
        <= 0.95 * today["all"]["median_rel_width"],
        "C4 calibrate's output equals the composition (3 cases)": all(
            c["equal"] for c in chk.values()
        ),
    }
    touched_today = [r for r in today_rows if r.case in hit]
    touched_now = [r for r in now_rows if r.case in hit]
    doc = {
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "adopted": all(clauses.values()),
        "clauses": clauses,
        "today": today,
        "judged": now,
        "touched_cases": hit,
        "erase_cases_not_rerun": sorted(set(erase_stems) - set(runs)),
        "touched_rows_today": coverage(touched_today),
        "touched_rows_judged": coverage(touched_now),
        "with_steephull_on_reported": coverage(with_steep),
        "steephull_cases_among_71": sorted(steep_cases & {u.case for u in unfitted}),
        "check": chk,
        "refused": refused,
        "cpu_s_judge": cpu_s() - c0,
    }
    doc["lost"] = [
        {"case": b.case, "level": b.level, "figure": b.figure, "log_error": b.log_error,
         "half_width": b.half_width, "half_width_today": a.half_width}
        for a, b in zip(today_rows, now_rows, strict=True)
        if a.inside and not b.inside
    ]  # fmt: skip
    (HERE / "results.json").write_text(json.dumps(doc, indent=1) + "\n")
    write_verdict(doc, families)
    print((HERE / "verdict.md").read_text())
    return 0


def log_cpu(name: str) -> float:
    """The CPU s a runs log records (its runs' own lines)."""
    lines = (HERE / name).read_text().splitlines()
    return sum(float(ln.split(": ")[1].split(" CPU")[0]) for ln in lines if " CPU s," in ln)


def write_verdict(doc: dict, families: list[str]) -> None:
    t, j = doc["today"], doc["judged"]
    verdict = "**Adopted**" if doc["adopted"] else "**Not met: the flag stays off**"
    lines = [
        "# Verdict: own_erase_residual.ON (bench/foreign/results/formterm/RULE.md)",
        "",
        f"{verdict}. Made by `PYTHONPATH=python python bench/foreign/results/formterm/judge.py` "
        f"({doc['made']}, {doc['cpu_s_judge']:.1f} CPU s), post-hoc on the 71 answered cases of "
        "bench/foreign/results/scoreboard/cases-final (refused: "
        f"{', '.join(doc['refused'])}). Reruns (runs.py, bench/cpu_clock.py): flag off "
        f"{log_cpu('runs-off.log'):.1f} CPU s (runs-off.log; the other erase cases' off runs are "
        "bench/foreign/results/scorenarrow/runs-off/), flag on "
        f"{log_cpu('runs-on.log'):.1f} CPU s (runs-on.log).",
        "",
        f"Recomposed with the flag: {len(doc['touched_cases'])} cases with an erase-cost reading "
        f"in the span ({', '.join(doc['touched_cases'])}); erase cases not rerun: "
        f"{len(doc['erase_cases_not_rerun'])}.",
        "",
        "| clause | holds |",
        "|---|---|",
        *(f"| {k} | {'yes' if v else '**no**'} |" for k, v in doc["clauses"].items()),
        "",
        "| unfitted levels | today | judged | median width today → judged |",
        "|---|---|---|---|",
    ]
    for k in ["all", *levels.FIGURES, *(f"{f} {g}" for f in families for g in ("", "iops", "waf"))]:
        k = k.strip()
        if t[k]["n"]:
            lines.append(
                f"| {k} | {pct(t[k])} | {pct(j[k])} | {100 * t[k]['median_rel_width']:.1f}% → "
                f"{100 * j[k]['median_rel_width']:.1f}% |"
            )
    a, b, st = (
        doc["touched_rows_today"],
        doc["touched_rows_judged"],
        doc["with_steephull_on_reported"],
    )
    lines += [
        "",
        f"The touched cases' rows: today {pct(a)} at {100 * a['median_rel_width']:.1f}%, judged "
        f"{pct(b)} at {100 * b['median_rel_width']:.1f}%.",
        "",
        "Figures inside today and outside judged (ln err: ln(truth/prediction); half: the log "
        "half-width on the truth's side):",
        "",
        "| case | level | figure | ln err | half judged | half today |",
        "|---|---|---|---|---|---|",
        *(
            f"| {r['case']} | {r['level']:g}% | {r['figure']} | {r['log_error']:+.3f} | "
            f"{r['half_width']:.3f} | {r['half_width_today']:.3f} |"
            for r in doc["lost"]
        ),
        "",
        "C4, calibrate run for real with the flag on (runs.py on, runs-on/), against the "
        "composition of its flag-off run:",
        "",
        *(
            f"- {s}: {'equal' if c['equal'] else 'NOT equal: ' + '; '.join(c['differences'])}"
            for s, c in doc["check"].items()
        ),
        "",
        "Reported, not judged: with steephull's flag on as well "
        "(bench/foreign/results/steephull/on "
        f"replacing {', '.join(doc['steephull_cases_among_71'])}), the pool is {pct(st)} at "
        f"median width {100 * st['median_rel_width']:.1f}%"
        f" ({'inside' if 0.70 <= st['coverage'] <= 0.90 else 'outside'} 70-90%).",
    ]
    (HERE / "verdict.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
