"""The corpus bench's report (bench/corpus_bench.py): its held-out cases summarised by subset,
family and drive (coverage of the nested 80% intervals, median width, errors, raw NAND no
worse) and printed as the markdown tables of bench/corpus/results.md and
docs/calibrate-validation.md."""

from __future__ import annotations

import statistics
from typing import Any


def family_of(c: dict[str, Any]) -> str:
    """The FTL family a case's drive belongs to (the unit of replication of the model-form
    error): a foreign simulator's name (one FTL at several spares is one family), a published
    drive's own name."""
    return c.get("family") or c["name"]


def _figure_key(c: dict[str, Any]) -> tuple[str, str, float]:
    h = c["held_out"]
    return c["drive"], h["kind"], float(h["extra_op_percent"])


def raw_pairs(cases: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The predicted cases in pairs, one held-out figure predicted with the raw NAND given and
    without it: (given, without)."""
    done = [c for c in cases if "log_error" in c]
    without = {_figure_key(c): c for c in done if not c["raw_nand_given"]}
    return [(c, without[_figure_key(c)]) for c in done
            if c["raw_nand_given"] and _figure_key(c) in without]  # fmt: skip


def raw_worse_markdown(cases: list[dict[str, Any]]) -> str:
    """The pairs where the raw NAND given made the prediction worse, the most first: the two
    errors, how much worse (points of |log error|), the raw-spare readings' share of the weight
    and the readings that took the most of it."""
    lines = ["| drive | family | held out | error, raw NAND given / not | worse by | raw-spare "
             "share | readings with the most weight |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    rows = []
    for a, b in raw_pairs(cases):
        worse = abs(a["log_error"]) - abs(b["log_error"])
        if worse <= 1e-9:
            continue
        total = sum(p["weight"] for p in a["parts"]) or 1.0
        share = sum(p["weight"] for p in a["parts"] if p["reading"].startswith("raw")) / total
        top = sorted(a["parts"], key=lambda p: -p["weight"])[:3]
        h = a["held_out"]
        rows.append((worse, f"| {a['drive']} | {family_of(a)} | {h['kind'].upper()} at "
                     f"{h['extra_op_percent']:g}% | {100 * a['rel_error']:+.1f}% / "
                     f"{100 * b['rel_error']:+.1f}% | {100 * worse:.2f} | {share:.2f} | "
                     + "; ".join(f"{p['reading']} {p['weight'] / total:.2f}" for p in top)
                     + " |"))  # fmt: skip
    lines += [r for _, r in sorted(rows, key=lambda t: -t[0])]
    return "\n".join(lines)


def position(x: float, levels: list[float]) -> str:
    """Where a held-out level lies against the fitted steady levels: between two (interpolated)
    or beyond them (extrapolated), and from how many."""
    if not levels:
        return "no steady level fitted"
    n = f"{len(levels)} level{'s' if len(levels) > 1 else ''}"
    if min(levels) < x < max(levels):
        return f"interpolated ({n})"
    return f"extrapolated {'below' if x < min(levels) else 'above'} ({n})"


def diagnosis_markdown(cases: list[dict[str, Any]]) -> str:
    """Per published case predicted: where its level lies against the fitted steady levels, the
    published ratio of the held-out figure to the nearest fitted figure of its kind against the
    readings' range of that ratio (is the figure inside the readings' span, or does no reading
    reach it), the reading with the most weight, and the figures' ``steady_state``."""
    lines = ["| drive | raw NAND | held out | steady state (held out; fitted) | position | "
             "published ratio | readings' ratios | within the readings | top reading (weight) "
             "| error |", "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for c in cases:
        if c["foreign"] or "log_error" not in c:
            continue
        h = c["held_out"]
        x, v = float(h["extra_op_percent"]), float(h["value"])
        same = [f for f in c["fitted"] if f["kind"] == h["kind"]]
        if not same:
            continue
        near = min(same, key=lambda f: abs(float(f["extra_op_percent"]) - x))
        base = float(near["value"])
        values = [p["value"] for p in c["parts"]]
        top = max(c["parts"], key=lambda p: p["weight"])
        total = sum(p["weight"] for p in c["parts"]) or 1.0
        within = "yes" if min(values) <= v <= max(values) else (
            "no, all above" if min(values) > v else "no, all below")  # fmt: skip
        fitted_steady = ", ".join(str(f.get("steady_state", "–")) for f in c["fitted"]
                                  if f["kind"] != "fob_iops")  # fmt: skip
        levels = sorted({float(f["extra_op_percent"]) for f in same})
        lines.append(
            f"| {c['drive']} | {'given' if c['raw_nand_given'] else 'not given'} | "
            f"{h['kind'].upper()} {fmt(v)} at {x:g}% | "
            f"{h.get('steady_state', h.get('steady'))}; {fitted_steady} | "
            f"{position(x, levels)} | {v / base:.2f} (÷ {fmt(base)} at "
            f"{float(near['extra_op_percent']):g}%) | {min(values) / base:.2f}–"
            f"{max(values) / base:.2f} | {within} | {top['reading']} "
            f"({top['weight'] / total:.2f}) | {100 * c['rel_error']:+.1f}% |"
        )
    return "\n".join(lines)


def subset_summary(done: list[dict[str, Any]], n_cases: int) -> dict[str, Any] | None:
    if not done:
        return None
    errs = [abs(c["rel_error"]) for c in done]
    widths = [c["interval_nested"][1] / c["interval_nested"][0] - 1 for c in done]
    errors = [(abs(a["log_error"]), abs(b["log_error"])) for a, b in raw_pairs(done)]
    return {
        "cases": n_cases,
        "predicted": len(done),
        "median_abs_rel_error": statistics.median(errs),
        "worst_abs_rel_error": max(errs),
        "coverage_nested": sum(c["inside_nested"] for c in done) / len(done),
        "coverage_noise_only": sum(c["inside_noise_only"] for c in done) / len(done),
        "median_rel_width_nested": statistics.median(widths),
        "raw_nand_not_worse": sum(a <= b + 1e-9 for a, b in errors),
        "raw_nand_pairs": len(errors),
    }


SUBSETS = {
    "all": lambda c: True,
    "published": lambda c: not c["foreign"],
    "published, method stated": lambda c: not c["foreign"] and c.get("method_known", True),
    # the published accuracy target's cases: every steady figure's source shows a steady state
    "published, steady state shown": lambda c: not c["foreign"] and c.get("steady_shown", False),
    "published, steady state not shown": lambda c: (
        not c["foreign"] and not c.get("steady_shown", False)
    ),
    "foreign FTLs": lambda c: c["foreign"],
    "foreign, QD32 curves": lambda c: c["foreign"] and not c.get("waf_only", False),
    "foreign, WAF only": lambda c: c.get("waf_only", False),
    "foreign, FEMU": lambda c: family_of(c) == "FEMU",
    "all but FEMU": lambda c: family_of(c) != "FEMU",
}


def fmt(v: float) -> str:
    return f"{v:,.0f}" if v > 100 else f"{v:.2f}"


def markdown(all_cases: list[dict[str, Any]], summary: dict[str, Any]) -> str:
    lines = [
        "| drive | workload | fitted | raw NAND | held out | predicted | error | 80% interval "
        "(nested) | inside | noise-only interval | readings (weight) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in all_cases:
        h = c["held_out"]
        fitted = "; ".join(
            f"{'FOB' if f['kind'] == 'fob_iops' else f['kind'].upper()} "
            f"{fmt(f['value'])} at {f['extra_op_percent']:g}%"
            for f in c["fitted"]
        )
        held = f"{h['kind'].upper()} {fmt(h['value'])} at {h['extra_op_percent']:g}%"
        given = "given" if c["raw_nand_given"] else "not given"
        flag = "" if c.get("source_located", True) else " ‡"
        if "log_error" not in c:
            lines.append(f"| {c['name']}{flag} | {c['workload']} | {fitted} | {given} | {held} "
                         f"| cannot fit: {c['error_text']} | | | | | |")  # fmt: skip
            continue
        lo, hi = c["interval_nested"]
        nlo, nhi = c["noise_interval"]
        readings = ", ".join(
            f"{p['reading']} {fmt(p['value'])} ({p['weight']:.2f})" for p in c["parts"]
        )
        lines.append(
            f"| {c['name']}{flag} | {c['workload']} | {fitted} | {given} | {held} | "
            f"{fmt(c['predicted'])} | {100 * c['rel_error']:+.0f}% | {fmt(lo)}–{fmt(hi)} | "
            f"{'yes' if c['inside_nested'] else 'no'} | {fmt(nlo)}–{fmt(nhi)} | {readings} |"
        )
    beside = summary.get("beside", {"leave_out": "family", "coverage_nested": {}})
    lines += ["", "| cases | predicted | median error | worst error | inside 80% (nested by "
              f"{summary['leave_out']}) | by {beside['leave_out']} | inside, noise and readings "
              "only | median width | raw NAND no worse |",
              "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, s in summary["subsets"].items():
        if s is None:  # said, not left out: the published target's subset may be empty
            n = sum(1 for c in all_cases if SUBSETS[name](c)) if name in SUBSETS else 0
            lines.append(f"| {name} | 0 of {n} | – | – | – | – | – | – | – |")
            continue
        b = beside["coverage_nested"].get(name)
        lines.append(
            f"| {name} | {s['predicted']} of {s['cases']} | "
            f"{100 * s['median_abs_rel_error']:.1f}% | {100 * s['worst_abs_rel_error']:.1f}% | "
            f"{100 * s['coverage_nested']:.0f}% | {'–' if b is None else f'{100 * b:.0f}%'} | "
            f"{100 * s['coverage_noise_only']:.0f}% | "
            f"{100 * s['median_rel_width_nested']:.0f}% | "
            f"{s['raw_nand_not_worse']} of {s['raw_nand_pairs']} |"
        )
    for unit, key in (("family", family_of), ("drive", lambda c: c["drive"])):
        lines += ["", f"| {unit} | predicted | median error | worst error | inside 80% "
                  "(nested) | median width | raw NAND no worse |",
                  "|---|---|---|---|---|---|---|"]  # fmt: skip
        for name in dict.fromkeys(key(c) for c in all_cases):
            mine = [c for c in all_cases if key(c) == name]
            s = subset_summary([c for c in mine if "log_error" in c], len(mine))
            if s is None:
                lines.append(f"| {name} | 0 of {len(mine)} | | | | | |")
                continue
            lines.append(
                f"| {name} | {s['predicted']} of {s['cases']} | "
                f"{100 * s['median_abs_rel_error']:.1f}% | {100 * s['worst_abs_rel_error']:.1f}% "
                f"| {100 * s['coverage_nested']:.0f}% | {100 * s['median_rel_width_nested']:.0f}% "
                f"| {s['raw_nand_not_worse']} of {s['raw_nand_pairs']} |"
            )
    how = ("posterior predictive over FTL families" if summary["rule"] == "families"
           else "one maximum-likelihood slope")  # fmt: skip
    lines += ["", f"Model-form slope ({how}) on all cases: {summary['slope_text']} per unit "
              f"of log spare distance; per drive, without its {summary['leave_out']}: "
              + "; ".join(f"{k} {v}" for k, v in summary["nested_slope_text"].items())]  # fmt: skip
    return "\n".join(lines)
