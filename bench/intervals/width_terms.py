"""Which term sets an 80% interval's width: the refit spread, the model-form error, or the span
of several readings (bench/intervals/RULE-2.md, "Why").

An interval calibrate gives a level (``spare_readings.combine``; rebuilt here as
``corpus_bench.interval`` rebuilds it) is the union, over the readings that keep a share of the
largest weight, of each reading's figure and its band: the refit spread of the bootstrap (the
figures redrawn from their stated noise and refitted, ``uncertainty.bootstrap``) widened in
quadrature by the model-form error (``uncertainty.band``). Per held-out case, in log width
ln(high / low):

- **refit**: the heaviest reading's bootstrap band alone;
- **form**: 2 · z80 · the model-form sd at the heaviest reading's distance — the fit's own
  residual (``uncertainty.fit_residual_sd`` times the scale fitted on the other families'
  cases, ``bench/conditioned_intervals.py``) when its figures leave it something to miss, the
  distance rule (``corpus_bench.evaluate``, leave one family out) when not;
- **span**: the whole interval's log width less the heaviest reading's (refit and form
  together): what the other readings add.

    PYTHONPATH=python python bench/intervals/width_terms.py CASES.jsonl [MORE.jsonl ...]

Prints one row per group (a family; FEMU's two drives whose collector holds a reserve, and a
case family's one-figure fits, apart) with the median of each term, the median |log error|,
the coverage and the median width (high ÷ low − 1).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path
from typing import Any

from overprov.calibrate import uncertainty

BENCH = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCH))
import conditioned_intervals as ci  # noqa: E402  (bench/)
from corpus_bench import evaluate, interval, model_form, read_cases  # noqa: E402
from corpus_report import family_of  # noqa: E402

#: FEMU's drives whose collector holds a reserve (bench/foreign/results/gc-reserve/, the
#: conditioned rule's "reserve-holding drives"): one family's cases, reported apart.
RESERVE_DRIVES = ("femu-thres60", "femu-ns14g")


def group_of(c: dict[str, Any]) -> str:
    """A case's row: its family, FEMU's reserve-holding drives apart, and a family's fits with
    nothing to miss (no residual) apart from those with one."""
    f = family_of(c)
    if c["drive"] in RESERVE_DRIVES:
        f += ", collector holding a reserve"
    if c["residual_sd"] is None and c.get("foreign"):
        f += ", nothing to miss (distance rule)"
    return f


def residual(c: dict[str, Any], figures: dict[str, Any]) -> float | None:
    """The case's stored residual (cases made outside the corpus bench carry it), or the one
    its fitted figures give."""
    if "residual_sd" in c:
        return c["residual_sd"]
    return ci.residual_of(c, figures)


def terms(all_cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per predicted case: its terms, its interval under the rule calibrate uses (the
    conditioned form where the fit leaves a residual, the distance rule elsewhere), and
    whether it holds the held-out figure."""
    figures = ci.figures_by_drive()
    done = [c for c in all_cases if "log_error" in c]
    evaluate(all_cases, "families", leave_out="family")  # the distance rule's intervals, nested
    for c in done:
        c["residual_sd"] = residual(c, figures)
        c["noise_sd"] = ci.noise_sd(c)
    scales = ci.judge(done)
    distance_rule = {  # the distance rule's form for each family, fitted without it
        f: model_form([c for c in done if family_of(c) != f], "families")
        for f in sorted({family_of(c) for c in done if c["residual_sd"] is None})
    }
    rows = []
    for c in done:
        top = max(c["parts"], key=lambda p: p["weight"])
        v = top["value"]
        if c["residual_sd"] is None:
            lo, hi = c["interval_nested"]
            sd = distance_rule[family_of(c)].at(top["distance"])
        else:
            sd = scales[family_of(c)] * math.hypot(ci.FLOOR, c["residual_sd"])
            lo, hi = interval(c["parts"], uncertainty.ModelForm(floor=0.0, residual_sd=sd))
        lo1, hi1 = uncertainty.band(v, [top["low"] / v, top["high"] / v], sd or None)
        held = float(c["held_out"]["value"])
        rows.append(
            {
                "group": group_of(c),
                "log_error": abs(c["log_error"]),
                "residual_sd": c["residual_sd"],
                "refit": math.log(top["high"] / top["low"]),
                "form": 2 * uncertainty.Z80 * (sd or 0.0),
                "span": max(0.0, math.log(hi / lo) - math.log(hi1 / lo1)),
                "total": math.log(hi / lo),
                "width": hi / lo - 1,
                "inside": lo <= held <= hi,
            }
        )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| cases | n | median \\|log error\\| | median R | refit | form | span | total (log) "
        "| dominant term (cases) | inside 80% | median width |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r["group"], []).append(r)
    for g, rs in sorted(groups.items()):
        rr = [r["residual_sd"] for r in rs if r["residual_sd"] is not None]
        dom: dict[str, int] = {}
        for r in rs:
            k = max(("refit", "form", "span"), key=lambda t: r[t])
            dom[k] = dom.get(k, 0) + 1
        med = {k: statistics.median(r[k] for r in rs) for k in ("refit", "form", "span", "total")}
        out.append(
            f"| {g} | {len(rs)} | {statistics.median(r['log_error'] for r in rs):.3f} | "
            + (f"{statistics.median(rr):.3f}" if rr else "none")
            + f" | {med['refit']:.3f} | {med['form']:.3f} | {med['span']:.3f} | "
            f"{med['total']:.3f} | "
            + ", ".join(f"{k} {n}" for k, n in sorted(dom.items(), key=lambda kv: -kv[1]))
            + f" | {100 * sum(r['inside'] for r in rs) / len(rs):.0f}% | "
            f"{100 * statistics.median(r['width'] for r in rs):.0f}% |"
        )
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", type=Path, nargs="+", help="corpus_bench.py cases (JSON lines)")
    args = ap.parse_args()
    rows = terms([c for p in args.cases for c in read_cases(p)])
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
