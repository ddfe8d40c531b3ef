"""Judge bench/foreign/results/narrowband/RULE.md: today's defaults against the joint arm
(conformal_scale.ON with the scale measured without the case's family, own_erase_residual.ON,
steep_pair.HULL_WHERE_AMBIGUOUS), both run for real: today's cases (today.py) against joint-72/
on the 72; fresh-defaults/ against fresh-joint/ on the fresh truths (fresh-alone/, the flag
alone, reported only). Counting as bench/foreign/results/jointband/judge.py counts (its
``cover``, ``by_family``, ``targets``, ``fresh_rows``). Writes results.json and verdict.md (with
reading.md appended when it exists). ≈ 1 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowband/judge.py
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
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
import today  # noqa: E402  (bench/foreign/results/narrowband/today.py)
from common import load_script, write_results  # noqa: E402  (bench/foreign/common.py)
from cpu_clock import cpu_s  # noqa: E402

JB = load_script("jointband_judge", HERE.parent / "jointband" / "judge.py")
cover, by_family, pct, targets, fresh_rows = (
    JB.cover, JB.by_family, JB.pct, JB.targets, JB.fresh_rows)  # fmt: skip
BAND, FLOOR, WIDTH_RATIO = (0.70, 0.90), 0.70, 0.8
FRESH_BAND = (0.70, 0.95)
FRESH = {  # stem in fresh/ -> family
    "nvmevirt-ae": "NVMeVirt", "ssdsim-nb-t": "SSDsim",
    "femu-58lun-40blk-thres66": "FEMU", "femu-62lun-38blk-thres63": "FEMU",
}  # fmt: skip
CENTRE_TOL = 1e-9


def joint_rows(docs: dict[str, dict]) -> tuple[list[levels.Row], list[str]]:
    """The joint arm's unfitted rows; a case answered today that the arm refused or never ran
    counts outside on all today's rows (RULE.md)."""
    out, failed = [], []
    for stem, doc in docs.items():
        mine = [r for r in levels.case_rows(doc) if not r.fitted]
        if not mine:
            continue
        p = HERE / "joint-72" / f"{stem}.json"
        got = json.loads(p.read_text()) if p.exists() else {}
        got["_stem"] = stem
        theirs = [r for r in levels.case_rows(got) if not r.fitted] if "levels" in got else []
        if len(theirs) != len(mine):
            failed.append(stem)
            out += [replace(r, inside=False) for r in mine]
        else:
            out += theirs
    return out, failed


def centres_moved(docs: dict[str, dict], folder: str = "joint-72") -> list[str]:
    """Each level of ``docs`` whose centre in ``folder``'s case of the same stem moved."""
    moved = []
    for stem, doc in docs.items():
        p = HERE / folder / f"{stem}.json"
        if "levels" not in doc or not p.exists():
            continue
        got = json.loads(p.read_text())
        for a, b in zip(doc["levels"], got.get("levels", []), strict=False):
            for f in levels.FIGURES:
                x, y = a.get(f"{f}_pred"), b.get(f"{f}_pred")
                if (x is None) != (y is None) or (
                    x is not None and abs(x - y) > CENTRE_TOL * max(abs(x), abs(y))
                ):
                    moved.append(f"{stem} {a['extra_op_percent']}% {f}: {x} -> {y}")
    return moved


def main() -> int:
    c0 = cpu_s()
    docs = today.docs()
    rows_today = [r for d in docs.values() for r in levels.case_rows(d) if not r.fitted]
    rows_joint, failed = joint_rows(docs)
    t, j = by_family(rows_today), by_family(rows_joint)
    fam_keys = [k for k in t if k not in ("all", *levels.FIGURES)]
    dropped = [k for k in fam_keys if t[k]["coverage"] >= FLOOR > j[k]["coverage"]]
    lost = []
    for stem, doc in docs.items():
        p = HERE / "joint-72" / f"{stem}.json"
        got = json.loads(p.read_text()) if p.exists() else None
        if doc.get("summary", {}).get("met") and not (got or {}).get("summary", {}).get("met"):
            lost.append(stem)
    moved = centres_moved(docs)
    arms = {a: fresh_rows(HERE / f"fresh-{a}") for a in ("defaults", "joint", "alone")}
    n_fresh = 6 * len(FRESH)
    fresh = {}
    for a, (rows, _) in arms.items():
        rs = [r for s in rows for r in rows[s]]
        c = cover(rs)
        c["coverage"] = c["inside"] / n_fresh  # a truth or case that failed counts outside
        fresh[a] = c
    fresh_lost = []
    d_docs, j_docs = arms["defaults"][1], arms["joint"][1]
    for s in sorted(set(d_docs) | set(j_docs)):
        ta, tb = targets(d_docs.get(s)), targets(j_docs.get(s))
        fresh_lost += [f"{s}: {k}" for k in ta if ta[k] and not tb[k]]
    clauses = {
        "C1 pooled coverage of the 426 within 70-90%": BAND[0] <= j["all"]["coverage"] <= BAND[1],
        "C2 no family (or family x figure) >= 70% today below 70%": not dropped,
        "C3 pooled median width <= 0.8 x today's": j["all"]["median_rel_width"]
        <= WIDTH_RATIO * t["all"]["median_rel_width"],
        "C4 no target met today lost": not lost,
        "F1 fresh joint coverage within 70-95% of the 24": FRESH_BAND[0]
        <= fresh["joint"]["coverage"]
        <= FRESH_BAND[1],
        "F2 fresh joint median width below the defaults'": fresh["joint"]["n"] > 0
        and fresh["joint"]["median_rel_width"] < fresh["defaults"]["median_rel_width"],
        "F3 no fresh target met in the defaults lost": not fresh_lost,
    }
    per_case = {}
    for a, (rows, _) in arms.items():
        for s, rs in rows.items():
            per_case.setdefault(s, {})[a] = {
                "cover": cover(rs),
                "rows": [[r.level, r.figure, r.truth, r.pred, r.low, r.high, r.inside] for r in rs],
            }
    fresh_moved = {a: centres_moved(d_docs, f"fresh-{a}") for a in ("joint", "alone")}
    doc = {
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "adopted": all(clauses.values()),
        "clauses": clauses,
        "today": t,
        "joint": j,
        "joint_failed_cases": failed,
        "dropped": dropped,
        "targets_lost": lost,
        "centres_moved": moved,
        "fresh": fresh,
        "fresh_n_expected": n_fresh,
        "fresh_targets_lost": fresh_lost,
        "fresh_centres_moved": fresh_moved,
        "fresh_cases": per_case,
        "fresh_targets": {
            s: {a: targets(arms[a][1].get(s)) for a in arms} for s in sorted(per_case)
        },
        "cpu_s_judge": cpu_s() - c0,
    }
    write_results(HERE / "results.json", doc)
    write_verdict(doc)
    print("\n".join(f"{k}: {'holds' if v else 'FAILS'}" for k, v in clauses.items()))
    print(f"adopted: {doc['adopted']}")
    return 0


def log_cpu() -> float:
    return sum(
        sum(float(x) for x in ln.split(" CPU s")[0].split("+"))
        for ln in (HERE / "runs.log").read_text().splitlines()
        if " CPU s, " in ln
    )


def write_verdict(doc: dict) -> None:
    t, j = doc["today"], doc["joint"]
    verdict = "**Adopted**" if doc["adopted"] else "**Not met: the flags stay off**"
    lines = [
        "# Verdict: conformal_scale judged jointly (bench/foreign/results/narrowband/RULE.md)",
        "",
        f"{verdict}. Made by `PYTHONPATH=python python bench/foreign/results/narrowband/judge.py` "
        f"({doc['made']}, {doc['cpu_s_judge']:.1f} CPU s). Runs: runs.sh (`joint72`, `truths`, "
        f"`fresh`, `alone`), {log_cpu():.1f} CPU s in runs.log (/usr/bin/time, user + system).",
        "",
        "| clause | holds |",
        "|---|---|",
        *(f"| {k} | {'yes' if v else '**no**'} |" for k, v in doc["clauses"].items()),
        "",
        "## The 72 (today: bench/foreign/results/narrowband/today.py; joint: joint-72/, each "
        "family with the scale measured without it)",
        "",
        "| unfitted levels | today | joint | median width today → joint |",
        "|---|---|---|---|",
        *(
            f"| {k} | {pct(t[k])} | {pct(j[k])} | {100 * t[k]['median_rel_width']:.1f}% → "
            f"{100 * j[k]['median_rel_width']:.1f}% |"
            for k in t
            if t[k]["n"]
        ),
        "",
        f"- families (or family × figure) at ≥ 70% today below 70% joint: "
        f"{doc['dropped'] or 'none'}",
        f"- cases the joint arm failed or refused (counted outside): "
        f"{doc['joint_failed_cases'] or 'none'}",
        f"- targets met today lost: {doc['targets_lost'] or 'none'}",
        f"- levels whose centre moved (> 1e-9 relative): {len(doc['centres_moved'])}"
        + "".join(f"\n  - {m}" for m in doc["centres_moved"][:20]),
        "",
        "## Fresh truths (fresh/; defaults, joint and the flag alone run for real)",
        "",
        "| arm | inside (of the 24 expected) | median width |",
        "|---|---|---|",
        *(
            f"| {a} | {c['inside']}/{doc['fresh_n_expected']} "
            f"({100 * c['coverage']:.1f}%) | {100 * c['median_rel_width']:.1f}% |"
            for a, c in doc["fresh"].items()
        ),
        "",
        f"- targets met in the defaults lost in the joint arm: "
        f"{doc['fresh_targets_lost'] or 'none'}",
        *(
            f"- levels whose centre moved from the defaults' in the {a} arm: {len(m)}"
            + (f" ({', '.join(sorted({x.split(' ')[0].split('--')[-1] for x in m}))})" if m else "")
            for a, m in doc["fresh_centres_moved"].items()
        ),
        "",
        "| drive | level | figure | truth | centre (defaults) | defaults | joint | alone |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s, arms in doc["fresh_cases"].items():
        base = arms.get("defaults", {}).get("rows", [])
        for i, r in enumerate(base):
            cells = []
            for a in ("defaults", "joint", "alone"):
                rr = arms.get(a, {}).get("rows", [])
                if i < len(rr):
                    lo, hi, ins = rr[i][4], rr[i][5], rr[i][6]
                    cells.append(f"{lo:.4g}–{hi:.4g} {'in' if ins else '**out**'}")
                else:
                    cells.append("—")
            lines.append(
                f"| {s.split('--')[-1]} | {r[0]:g}% | {r[1]} | {r[2]:.4g} | {r[3]:.4g} | "
                + " | ".join(cells)
                + " |"
            )
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
