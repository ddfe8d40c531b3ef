"""The judging run of bench/foreign/results/scorenarrow/RULE.md: reading_mixture's interval
recomposed post-hoc on the scoreboard's stored cases (cases-final) from the flag-off reruns'
readings (runs-off/, rerun.py), with calibrate's own function (``reading_mixture.interval``);
coverage and width at the unfitted levels per family and pooled, the clauses; C5 from the
flag-on runs (runs-on/); the tally's rows classified and recomposed where they can be.
Writes verdict.md and results.json.

    PYTHONPATH=python python bench/foreign/results/scorenarrow/judge.py
"""

from __future__ import annotations

import datetime
import json
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scorecover"))
sys.path.insert(0, str(HERE.parents[2]))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import reading_mixture  # noqa: E402

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

#: bench/foreign/results/scorecover/judge.py (its coverage and pct), by path: its name is this
#: module's too.
_SCORECOVER = load_script("scorecover_judge", HERE.parent / "scorecover" / "judge.py")
coverage, pct = _SCORECOVER.coverage, _SCORECOVER.pct

SPAN_SHARE = 0.01  # spare_readings.SPAN_MIN_WEIGHT
CARRY = 0.1
C5_STEMS = (
    "SimpleSSD--top--simplessd-spare0125",
    "SSDsim--gctrigger-skew--ssdsim-m-uniform",
    "MQSim--mqsim-retry_unseen--u1024x32-op12",
)
REL_TOL = 1e-9
TALLY = levels.ROOT / "bench/intervals/tally-now/rows-now.jsonl"
FIG = {"iops": ("steady_iops", "steady_iops_low", "steady_iops_high"),
       "waf": ("waf", "waf_low", "waf_high")}  # fmt: skip


def spanned(run: dict) -> list[dict]:
    """The run's readings today's span holds (≥ SPAN_SHARE of the largest weight)."""
    rs = [r for r in run["readings"].values() if r.get("weight") is not None]
    top = max((r["weight"] for r in rs), default=0.0)
    return [r for r in rs if r["weight"] >= SPAN_SHARE * top]


def compose(run: dict) -> dict[tuple[float, str], tuple[float, float]]:
    """(level, figure) → the mixture's interval from a run's readings and combined figures."""
    rs = spanned(run)
    out = {}
    for i, lv in enumerate(run["levels"]):
        x = float(lv["extra_op_percent"])
        for f, (v, lo, hi) in FIG.items():
            rows = [(r["levels"][i].get(v), r["levels"][i].get(lo), r["levels"][i].get(hi))
                    for r in rs]  # fmt: skip
            low, high = reading_mixture.interval(rows, [r["weight"] for r in rs], lv.get(v))
            if low is not None:
                out[(x, f)] = (low, high)
    return out


def stored_diff(stored: dict, run: dict) -> float:
    """The largest relative difference of a rerun's combined figures from the stored case's."""
    worst = 0.0
    for a, b in zip(stored["levels"], run["levels"], strict=True):
        for f, keys in FIG.items():
            for mine, theirs in zip(("pred", "low", "high"), keys, strict=True):
                if a.get(f"{f}_{mine}") is not None and b.get(theirs):
                    worst = max(worst, abs(a[f"{f}_{mine}"] / b[theirs] - 1))
    return worst


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= REL_TOL * max(abs(a), abs(b))


def check_c5() -> dict:
    """Each C5 case's flag-on run against the composition of its flag-off run."""
    out = {}
    for stem in C5_STEMS:
        off_p, on_p = HERE / "runs-off" / f"{stem}.json", HERE / "runs-on" / f"{stem}.json"
        if not (off_p.exists() and on_p.exists()):
            out[stem] = {"equal": False, "differences": ["not run"]}
            continue
        off, on = json.loads(off_p.read_text()), json.loads(on_p.read_text())
        want = compose(off)
        bad = []
        for a, b in zip(off["levels"], on["levels"], strict=True):
            x = float(a["extra_op_percent"])
            for f, (v, lo, hi) in FIG.items():
                if a.get(v) != b.get(v):
                    bad.append(f"{x:g}% {v}: {a.get(v)} vs {b.get(v)}")
                if (x, f) in want:
                    for k, w in zip((lo, hi), want[(x, f)], strict=True):
                        if not close(w, b.get(k)):
                            bad.append(f"{x:g}% {k}: composed {w} vs run {b.get(k)}")
        w_off = {k: r["weight"] for k, r in off["readings"].items()}
        w_on = {k: r["weight"] for k, r in on["readings"].items()}
        if w_off != w_on:
            bad.append(f"weights {w_off} vs {w_on}")
        carry = sum(w >= CARRY for w in w_off.values())
        out[stem] = {"equal": not bad, "carry": carry, "differences": bad}
    return out


def tally_rows() -> dict:
    """The tally's rows (bench/intervals/tally-now/rows-now.jsonl) by what the candidate can do
    to them: unchanged by construction, or several readings spanned without their figures."""
    kinds: dict[str, int] = {}
    examples: dict[str, set] = {}
    for line in TALLY.read_text().splitlines():
        r = json.loads(line)
        kind = tally_kind(r)
        kinds[kind] = kinds.get(kind, 0) + 1
        examples.setdefault(kind, set()).add(r["source"])
    return {"rows": kinds, "sources": {k: sorted(v) for k, v in examples.items()}}


def _walk(doc: object):
    if isinstance(doc, dict):
        yield doc
        for v in doc.values():
            yield from _walk(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _walk(v)


def tally_kind(row: dict) -> str:
    if row["block"] != "plan":
        return f"{row['block']}: no readings combined (unchanged)"
    path = next(
        (p for p in (levels.ROOT / row["source"], levels.ROOT / "bench/foreign/results" /
                     row["source"]) if p.is_file()),
        None,
    )  # fmt: skip
    if path is None:
        return "plan: source not found (not recomposed)"
    doc = json.loads(path.read_text())
    if isinstance(doc, list):  # an evaluation file: the truth's entry
        doc = next((e for e in doc if Path(e.get("results", "")).stem == row["truth"]), doc)
    found = [d for d in _walk(doc) if d.get("case") == row["case"] and "readings" in d]
    if not found:  # calibrate's own JSON: a prediction without readings is one reading's
        preds = [d for d in _walk(doc) if "levels" in d and isinstance(d.get("interval"), str)]
        found = sorted(preds, key=lambda d: -len(d.get("readings") or {}))
    if not found:
        return "plan: readings not recorded (not recomposed)"
    weights = found[0].get("readings") or {}
    ws = [w["weight"] if isinstance(w, dict) else w for w in weights.values()]
    ws = [w for w in ws if w is not None]
    top = max(ws, default=0.0)
    if sum(w >= SPAN_SHARE * top for w in ws) < 2:
        return "plan: one reading spanned (unchanged)"
    has_own = all(isinstance(w, dict) and "levels" in w for w in weights.values())
    return (
        "plan: several readings, their figures stored (recomposable)"
        if has_own
        else "plan: several readings, their figures not stored (not recomposed)"
    )


def main() -> int:
    c0 = cpu_s()
    rows, refused = levels.load()
    unfitted = [r for r in rows if not r.fitted]
    runs = {p.stem: json.loads(p.read_text()) for p in sorted((HERE / "runs-off").glob("*.json"))}
    stored = {s: json.loads((levels.CASES / f"{s}.json").read_text()) for s in runs}
    composed = {s: compose(run) for s, run in runs.items() if len(spanned(run)) >= 2}
    diffs = {s: stored_diff(stored[s], runs[s]) for s in runs}
    judged = []
    for r in unfitted:
        got = composed.get(r.case, {}).get((r.level, r.figure))
        if got is None:
            judged.append(r)
            continue
        lo, hi = got
        judged.append(replace(r, low=lo, high=hi, inside=lo <= r.truth <= hi))
    families = sorted({r.family for r in unfitted})

    def table(rs: list[levels.Row]) -> dict:
        out = {"all": coverage(rs)}
        for f in levels.FIGURES:
            out[f] = coverage([r for r in rs if r.figure == f])
            for fam in families:
                out[f"{fam} {f}"] = coverage([r for r in rs if r.figure == f and r.family == fam])
        return out

    today, now = table(unfitted), table(judged)
    recomposed = [r for r in judged if r.case in composed]
    today_rec = [r for r in unfitted if r.case in composed]
    c5 = check_c5()
    clauses = {
        "C1 pooled coverage (IOPS+WAF) within 70-90%": 0.70 <= now["all"]["coverage"] <= 0.90,
        "C2 WAF coverage <= 93.9% (200/213)": now["waf"]["inside"] <= 200,
        "C3 no family >= 70% today below 70%": all(
            now[k]["coverage"] >= 0.70
            for k in today
            if " " in k and today[k]["n"] and today[k]["coverage"] >= 0.70
        ),
        "C4 pooled median width falls": now["all"]["median_rel_width"]
        < today["all"]["median_rel_width"],
        "C5 calibrate's output equals the composition (3 cases)": all(
            c["equal"] for c in c5.values()
        ),
    }
    adopted = all(clauses.values())
    spanned_all = set(levels_spanned_stems())
    not_reached = sorted(spanned_all - set(runs))
    tally = tally_rows()
    used = cpu_s() - c0
    doc = {
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "adopted": adopted,
        "clauses": clauses,
        "today": today,
        "judged": now,
        "recomposed_cases": sorted(composed),
        "not_reached": not_reached,
        "rerun_vs_stored_max_rel_diff": diffs,
        "recomposed_rows_today": coverage(today_rec),
        "recomposed_rows_judged": coverage(recomposed),
        "c5": c5,
        "tally": tally,
        "cpu_s_judge": used,
    }
    (HERE / "results.json").write_text(json.dumps(doc, indent=1) + "\n")
    write_verdict(doc, families, refused)
    print((HERE / "verdict.md").read_text())
    return 0


def levels_spanned_stems() -> list[str]:
    sys.path.insert(0, str(HERE))
    import rerun

    return rerun.spanned_stems()


def run_cpu(log: str) -> float:
    """The CPU s the runs' log records (each invocation's runs summed)."""
    path = HERE / log
    if not path.exists():
        return 0.0
    return sum(
        float(line.split(": ")[1].split(" CPU s")[0]) for line in path.read_text().splitlines()
    )


def write_verdict(doc: dict, families: list[str], refused: list[str]) -> None:
    t, j = doc["today"], doc["judged"]
    word = "**Adopted**" if doc["adopted"] else "**Not adopted**"
    state = "set to True (on by default)" if doc["adopted"] else "stays False"
    failed = [k for k, v in doc["clauses"].items() if not v]
    off_cpu, on_cpu = run_cpu("runs-off.log"), run_cpu("runs-on.log")
    worst = max(doc["rerun_vs_stored_max_rel_diff"].values(), default=0.0)
    lines = [
        "# Verdict: reading_mixture.ON (bench/foreign/results/scorenarrow/RULE.md)",
        "",
        f"{word}: reading_mixture.ON {state}"
        + (f" (failed: {'; '.join(failed)})" if failed else "")
        + f". Made by `PYTHONPATH=python python bench/foreign/results/scorenarrow/judge.py` "
        f"({doc['made']}, {doc['cpu_s_judge']:.1f} CPU s), post-hoc on the 71 answered cases of "
        f"bench/foreign/results/scoreboard/cases-final (refused: {', '.join(refused)}). Runs "
        f"(rerun.py, bench/cpu_clock.py): flag off {off_cpu:.0f} CPU s (runs-off.log), flag "
        f"on {on_cpu:.0f} CPU s (runs-on.log).",
        "",
        f"Recomposed: {len(doc['recomposed_cases'])} of the 57 cases with ≥ 2 readings spanned; "
        f"not reached by the rerun's CPU cap (kept as stored): {len(doc['not_reached'])}"
        + (f" ({', '.join(doc['not_reached'])})" if doc["not_reached"] else "")
        + f". The reruns' combined figures and intervals against the stored cases: largest "
        f"relative difference {worst:.2g}.",
        "",
        "| clause | holds |",
        "|---|---|",
        *(f"| {k} | {'yes' if v else '**no**'} |" for k, v in doc["clauses"].items()),
        "",
        "| unfitted levels | IOPS today | IOPS judged | IOPS width today → judged | WAF today "
        "| WAF judged | WAF width today → judged |",
        "|---|---|---|---|---|---|---|",
    ]

    def w(c: dict) -> str:
        return f"{100 * c['median_rel_width']:.1f}%"

    for key in ["", *(f"{fam} " for fam in families)]:
        i, f = f"{key}iops", f"{key}waf"
        lines.append(
            f"| {key.strip() or 'all'} | {pct(t[i])} | {pct(j[i])} | {w(t[i])} → {w(j[i])} | "
            f"{pct(t[f])} | {pct(j[f])} | {w(t[f])} → {w(j[f])} |"
        )
    lines += [
        "",
        f"Pooled, IOPS and WAF together: today {pct(t['all'])} at median width "
        f"{w(t['all'])}, judged {pct(j['all'])} at {w(j['all'])}. The recomposed cases' rows: "
        f"today {pct(doc['recomposed_rows_today'])} at {w(doc['recomposed_rows_today'])}, "
        f"judged {pct(doc['recomposed_rows_judged'])} at {w(doc['recomposed_rows_judged'])}.",
        "",
        "C5, calibrate run for real with the flag on (rerun.py on, runs-on/):",
        "",
    ]
    for stem, c in doc["c5"].items():
        say = "equal to the composition" if c["equal"] else "; ".join(c["differences"][:3])
        lines.append(f"- {stem} ({c.get('carry', '?')} readings carry): {say}")
    lines += ["", "The tally (bench/intervals/tally-now/rows-now.jsonl, reported, not judged):", ""]
    for kind, n in sorted(doc["tally"]["rows"].items()):
        lines.append(f"- {kind}: {n} rows")
    (HERE / "verdict.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
