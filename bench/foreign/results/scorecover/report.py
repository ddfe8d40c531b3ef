"""REPORT.md: calibrate's 80% intervals on the scoreboard's stored foreign truths
(bench/foreign/results/scoreboard/cases-final): coverage and median width per family, level
and figure, fitted and unfitted levels apart, and where the misses sit. No calibrate run (the
stored cases and calibrate's own functions on their figures, levels.py): ≈ 0 CPU s.

    PYTHONPATH=python python bench/foreign/results/scorecover/report.py
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2]))
import levels  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402

#: a reading "carries" a prediction at this weight (the scoreboard's run.py, ``summary``)
CARRY_WEIGHT = 0.1


def carried_by(stem: str) -> list[str]:
    """The readings of a stored case with weight ≥ :data:`CARRY_WEIGHT`, heaviest first."""
    doc = json.loads((levels.CASES / f"{stem}.json").read_text())
    ws = sorted(((w, k) for k, w in (doc.get("readings") or {}).items() if w >= CARRY_WEIGHT))
    return [f"{k} {w:.2f}" for w, k in reversed(ws)]


def cov(rows: list[levels.Row]) -> str:
    if not rows:
        return "—"
    n_in = sum(r.inside for r in rows)
    return f"{n_in}/{len(rows)} ({100 * n_in / len(rows):.0f}%)"


def width(rows: list[levels.Row]) -> str:
    return f"{100 * statistics.median(r.rel_width for r in rows):.0f}%" if rows else "—"


def used(rows: list[levels.Row]) -> str:
    """The median of |log error| / log half-width on the truth's side: how much of the
    interval the truth uses (1: at its edge)."""
    if not rows:
        return "—"
    return f"{statistics.median(abs(r.log_error) / r.half_width for r in rows):.2f}"


def table(
    rows: list[levels.Row], key: Callable[[levels.Row], str], keys: Iterable[str], title: str
) -> list[str]:
    out = [
        f"| {title} | IOPS unfitted: inside | median width | truth uses | WAF unfitted: inside "
        "| median width | truth uses | IOPS fitted: inside | WAF fitted: inside |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for k in keys:
        sel = [r for r in rows if key(r) == k]
        unf = {f: [r for r in sel if r.figure == f and not r.fitted] for f in levels.FIGURES}
        fit = {f: [r for r in sel if r.figure == f and r.fitted] for f in levels.FIGURES}
        out.append(
            f"| {k} | {cov(unf['iops'])} | {width(unf['iops'])} | {used(unf['iops'])} "
            f"| {cov(unf['waf'])} | {width(unf['waf'])} | {used(unf['waf'])} "
            f"| {cov(fit['iops'])} | {cov(fit['waf'])} |"
        )
    return out


def main() -> None:
    t0 = cpu_s()
    rows, refused = levels.load()
    unfitted = [r for r in rows if not r.fitted]
    carry = {r.case: carried_by(r.case) for r in rows}
    one = {c for c, k in carry.items() if len(k) <= 1}
    families = sorted({r.family for r in rows})
    lines = [
        "# scorecover: calibrate's 80% intervals on the foreign truths (report, no rule)",
        "",
        "Made by `PYTHONPATH=python python bench/foreign/results/scorecover/report.py` from the "
        "stored cases in bench/foreign/results/scoreboard/cases-final (every foreign truth's plan "
        "case with the scoreboard's defaults; bench/foreign/results/scoreboard/PLAN.md): "
        f"{len({r.case for r in rows})} cases with levels, {len(refused)} refused "
        f"({', '.join(refused)}). No calibrate run. Per level: the QD32 truth, calibrate's "
        "prediction and its 80% interval as stored; beside them what calibrate computes from the "
        "case's own figures: today's model-form relative sd at the level "
        "(`uncertainty.model_sd_at`: for these typed IOPS+WAF figures 0.82 × hypot(0.02, the "
        "greedy fit's residual sd), the same at every level) and the log spare distance d from "
        "the nearest fitted level (`uncertainty.spare_distance`, the case's fitted spare).",
        "",
        'Width: (high − low) / prediction. "Truth uses": the median of |ln(truth/prediction)| '
        "over the interval's log half-width on the truth's side (1 = at the edge; well below 1 "
        "= wider than that truth needed). Fitted levels: 0% and 40% in every case.",
        "",
        "## Per family",
        "",
        *table(rows, lambda r: r.family, families, "family"),
        *table(rows, lambda r: "all", ["all"], "pooled")[2:],
        "",
        "## Per level (pooled over families)",
        "",
        *table(rows, lambda r: f"{r.level:g}%", [f"{x:g}%" for x in levels.LEVELS], "level"),
        "",
        "Median log spare distance d at the unfitted levels: "
        + ", ".join(
            f"{x}% {statistics.median(r.distance for r in unfitted if r.level == x):.2f}"
            for x in (10, 20, 30)
        )
        + ".",
        "",
        "## By how many readings carry the prediction",
        "",
        "A reading carries a prediction at weight ≥ 0.1 (the scoreboard's `carry`); the "
        "combined interval spans every reading with ≥ 1% of the largest weight "
        '(`spare_readings.combine`). "one": no second reading carries.',
        "",
        *table(
            rows,
            lambda r: "one reading carries" if r.case in one else "several carry",
            ["one reading carries", "several carry"],
            "readings",
        ),
        "",
        "Families of the cases one reading carries: "
        + ", ".join(
            f"{f} {len({r.case for r in rows if r.case in one and r.family == f})}"
            for f in families
            if any(r.case in one and r.family == f for r in rows)
        )
        + ".",
        "",
        "## By distance from the fitted levels (unfitted levels)",
        "",
        "| d | IOPS inside | IOPS width | IOPS truth uses | WAF inside | WAF width "
        "| WAF truth uses |",
        "|---|---|---|---|---|---|---|",
    ]
    for lo, hi in ((0.0, 0.5), (0.5, 0.9), (0.9, 1.2), (1.2, 9.0)):
        sel = [r for r in unfitted if lo <= r.distance < hi]
        i = [r for r in sel if r.figure == "iops"]
        w = [r for r in sel if r.figure == "waf"]
        lines.append(
            f"| {lo:g}–{hi:g} | {cov(i)} | {width(i)} | {used(i)} | {cov(w)} | {width(w)} "
            f"| {used(w)} |"
        )
    misses = sorted(
        (r for r in unfitted if not r.inside), key=lambda r: (r.family, r.case, r.figure, r.level)
    )
    lines += [
        "",
        "## Every miss at an unfitted level",
        "",
        "ln err: ln(truth/prediction); half: the interval's log half-width on that side; "
        "model sd: today's model-form relative sd; carry: readings with weight ≥ 0.1.",
        "",
        "| family | case | level | figure | d | ln err | half | model sd | carry |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in misses:
        lines.append(
            f"| {r.family} | {r.case.split('--', 1)[1]} | {r.level:g}% | {r.figure} "
            f"| {r.distance:.2f} | {r.log_error:+.3f} | {r.half_width:.3f} | {r.model_sd:.3f} "
            f"| {'; '.join(carry[r.case]) or 'one reading'} |"
        )
    n_miss = {f: [r for r in misses if r.figure == f] for f in levels.FIGURES}
    in_one = {f: sum(r.case in one for r in n_miss[f]) for f in levels.FIGURES}
    lines += [
        "",
        "## What it shows",
        "",
        f"- Misses at unfitted levels: IOPS {len(n_miss['iops'])}, WAF {len(n_miss['waf'])}; "
        f"in cases one reading carries: IOPS {in_one['iops']}, WAF {in_one['waf']}; at d ≥ 0.5: "
        f"IOPS {sum(r.distance >= 0.5 for r in n_miss['iops'])}, "
        f"WAF {sum(r.distance >= 0.5 for r in n_miss['waf'])}; families: "
        + ", ".join(
            f"{f} {sum(r.family == f for r in misses)}"
            for f in families
            if any(r.family == f for r in misses)
        )
        + ".",
        "- Today's model-form term is the fit's own residual, the same at every level: it does "
        "not widen with the distance from the fitted levels (10% and 20% lie at d ≈ 0.8–1.7, "
        "30% at ≈ 0.4), and the misses sit at 10% and 20%.",
        "- Where several readings carry, the interval spans their figures: the truth stays "
        f"inside in all but {sum(r.case not in one for r in n_miss['iops'])} IOPS and "
        f"{sum(r.case not in one for r in n_miss['waf'])} WAF rows. Where one reading carries, "
        "nothing but the bootstrap and the residual widens it.",
        f"- WAF pooled is above 90% already. To reach 90% or below it needs at least "
        f"{len(unfitted) // 2 - int(0.9 * len(unfitted) // 2)} of the {len(unfitted) // 2} WAF "
        f"truths outside, {len(n_miss['waf'])} today, all FEMU's and MQSim's: every other family "
        "holds all its WAF truths, so a change that got there would lower some family's WAF "
        "coverage.",
        "",
        f"CPU: {cpu_s() - t0:.1f} s (bench/cpu_clock.py).",
        "",
    ]
    (HERE / "REPORT.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
