"""The conditioned model-form error with and without its 2% floor, judged by
bench/intervals/RULE-2.md on the held-out cases of the corpus bench and SSD-iq's GC simulator.

The current rule (bench/intervals/RULE.md) widens a prediction whose figures outnumber the
surrogate's parameters by a · hypot(0.02, R), R the fit's residual sd; the new one by a · R.
Both fit a leave one FTL family out (``bench/conditioned_intervals.py``, ``run`` with the floor
as a parameter) on the same cases; cases with nothing to miss keep the distance rule in both.
Prints the comparison by case group and the six criteria's verdicts.

    PYTHONPATH=python python bench/intervals/no_floor.py CASES.jsonl [MORE.jsonl ...] \\
        --unseen-drives ID,ID,... [--out bench/intervals]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import conditioned_intervals as ci  # noqa: E402  (bench/)
from corpus_bench import read_cases  # noqa: E402
from corpus_report import family_of  # noqa: E402
from width_terms import RESERVE_DRIVES  # noqa: E402  (bench/intervals/)

#: The floor of the current rule (bench/intervals/RULE.md) and of the new one.
FLOORS = {"current": ci.FLOOR, "new": 0.0}


def group_of(c: dict[str, Any]) -> str:
    """A family, FEMU's reserve-holding drives a group of their own."""
    f = family_of(c)
    return f + ", collector holding a reserve" if c["drive"] in RESERVE_DRIVES else f


def compare(all_cases: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every predicted case with its interval under each rule; each rule's scales."""
    scales = {}
    done: list[dict[str, Any]] = []
    for name, floor in FLOORS.items():
        s = ci.run(all_cases, set(), floor)
        scales[name] = {"all": s["scale_all"], "without": s["scale_without"]}
        done = [c for c in all_cases if "log_error" in c]
        for c in done:
            c[name] = c["conditioned"]
    return done, scales


def stats(cases: list[dict[str, Any]], key: str) -> dict[str, float] | None:
    if not cases:
        return None
    inside = [c[key][0] <= float(c["held_out"]["value"]) <= c[key][1] for c in cases]
    return {
        "n": len(cases),
        "coverage": sum(inside) / len(cases),
        "median_width": statistics.median(c[key][1] / c[key][0] - 1 for c in cases),
    }


def verdict(done: list[dict[str, Any]], unseen: set[str]) -> dict[str, Any]:
    """The six criteria of bench/intervals/RULE-2.md."""
    every = {k: stats(done, k) for k in FLOORS}
    groups: dict[str, list[dict[str, Any]]] = {}
    for c in done:
        groups.setdefault(group_of(c), []).append(c)
    by_group = {g: {k: stats(cs, k) for k in FLOORS} for g, cs in groups.items()}
    c1 = 0.70 <= every["new"]["coverage"] <= 0.90
    worse = {
        g: v
        for g, v in by_group.items()
        if v["new"]["n"] >= 10 and v["new"]["coverage"] < v["current"]["coverage"] - 0.15
    }
    reserve = [c for c in done if c["drive"] in RESERVE_DRIVES]
    reserve_cov = stats(reserve, "new")["coverage"] if reserve else None
    over: list[dict[str, Any]] = []  # the over-covered groups' cases with R
    over_groups = []
    for g, cs in groups.items():
        with_r = [c for c in cs if c["residual_sd"] is not None]
        cur = stats(with_r, "current")
        if cur and cur["n"] >= 10 and cur["coverage"] >= 0.95:
            over += with_r
            over_groups.append(g)
    over_w = {k: stats(over, k)["median_width"] for k in FLOORS} if over else None
    fresh = [c for c in done if c["drive"] in unseen]
    fresh_s = {k: stats(fresh, k) for k in FLOORS}
    fresh_et = [c for c in fresh if family_of(c) == "EagleTree"]
    fresh_femu = [c for c in fresh if family_of(c) == "FEMU"]
    et = {k: stats(fresh_et, k) for k in FLOORS}
    femu = {k: stats(fresh_femu, k) for k in FLOORS}
    crit = {
        "1 coverage 70-90%": c1,
        "2 no group >15 points worse": not worse,
        "3 reserve drives >= 70%": reserve_cov is not None and reserve_cov >= 0.70,
        "4 over-covered groups' median width -25%": bool(
            over_w and over_w["new"] <= 0.75 * over_w["current"]
        ),
        "5 median width not +1 point": every["new"]["median_width"]
        <= every["current"]["median_width"] + 0.01,
        "6 unseen drives": bool(
            fresh_s["new"]
            and fresh_s["new"]["coverage"] >= 0.70
            and (not fresh_et or et["new"]["median_width"] <= 0.75 * et["current"]["median_width"])
            and (not fresh_femu or femu["new"]["coverage"] >= femu["current"]["coverage"])
        ),
    }
    return {
        "criteria": crit,
        "passed": all(crit.values()),
        "all": every,
        "groups": by_group,
        "worse_groups": sorted(worse),
        "reserve_coverage_new": reserve_cov,
        "over_covered_groups": sorted(over_groups),
        "over_covered_median_width": over_w,
        "unseen": fresh_s,
        "unseen_eagletree": et,
        "unseen_femu": femu,
        "unseen_drives": sorted({c["drive"] for c in fresh}),
    }


def pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.0f}%"


def markdown(v: dict[str, Any], scales: dict[str, Any]) -> str:
    def row(name: str, s: dict[str, Any]) -> str:
        cur, new = s["current"], s["new"]
        if cur is None:
            return f"| {name} | 0 | – | – |"
        return (
            f"| {name} | {cur['n']} | {pct(cur['coverage'])} / {pct(new['coverage'])} | "
            f"{pct(cur['median_width'])} / {pct(new['median_width'])} |"
        )

    lines = [
        "| cases | n | inside 80%: current / new | median width: current / new |",
        "|---|---|---|---|",
        row("**all**", v["all"]),
        row("unseen drives", v["unseen"]),
        row("unseen EagleTree drives", v["unseen_eagletree"]),
        row("unseen FEMU drives", v["unseen_femu"]),
    ]
    lines += [row(g, s) for g, s in sorted(v["groups"].items())]
    ow = v["over_covered_median_width"]
    lines += [
        "",
        f"Over-covered groups (criterion 4): {', '.join(v['over_covered_groups'])}; their median "
        f"width {pct(ow and ow['current'])} / {pct(ow and ow['new'])}.",
        f"Scale a on every case with R: current {scales['current']['all']:.2f}, new "
        f"{scales['new']['all']:.2f}; without FEMU "
        f"{scales['current']['without'].get('FEMU', 0):.2f} / "
        f"{scales['new']['without'].get('FEMU', 0):.2f}.",
        "",
        "| criterion | met |",
        "|---|---|",
    ]
    lines += [f"| {k} | {'yes' if ok else 'no'} |" for k, ok in v["criteria"].items()]
    lines.append(f"\n**Verdict: {'all met' if v['passed'] else 'not met'}.**")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", type=Path, nargs="+", help="held-out cases (JSON lines)")
    ap.add_argument("--unseen-drives", default="", help="drive ids the rule names unseen")
    ap.add_argument(
        "--out", type=Path, default=None, help="folder for the results, in markdown and JSON"
    )
    args = ap.parse_args()
    done, scales = compare([c for p in args.cases for c in read_cases(p)])
    v = verdict(done, set(filter(None, args.unseen_drives.split(","))))
    text = markdown(v, scales)
    print(text)
    if args.out is not None:
        (args.out / "results-2").with_suffix(".md").write_text(text + "\n")
        (args.out / "results-2").with_suffix(".json").write_text(
            json.dumps({"verdict": v, "scales": scales}, indent=2) + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
