"""Check bench/foreign/results/gctrigger-skew/RULE.md on its cases: does the per-host-write GC
trigger's reading ("greedy-per-write") earn its flag? (``--rule skew2``:
bench/foreign/results/gctrigger-skew2/RULE.md, its judged drives, workloads and guards;
``--rule pwrule3``: bench/foreign/results/pwrule3/RULE.md, (a) on each drive's weighed prediction
against the same without the reading, (c) the calibrate suite with the flag on.)

    python bench/foreign/gctrigger_skew_rule.py [--cases .../gctrigger-skew/cases.jsonl]
    python bench/foreign/gctrigger_skew_rule.py --rule skew2 [--cases .../cases.jsonl]
    python bench/foreign/gctrigger_skew_rule.py --rule pwrule3 --suite-log LOG [--old-default ID..]

The cases are `bench/corpus_workload_victim.py --per-write`'s (sets E, C, B, A): each carries
its prediction with the reading among the readings (``rel_error``) and, when the reading was
read, the one without it from the same simulations (``without_per_write_rel_error``; absent:
the reading was not read, and the two are one). Prints the conditions (a), (b), (c), the
figures reported beside them and every judged case. Nothing is fitted or simulated here.
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "gctrigger-skew"
PER_WRITE = "greedy-per-write"
JUDGED_DRIVES = ("ssdsim-l", "ssdsim-m")
JUDGED_WORKLOADS = ("zones 0.9/0.1", "zipf 0.8")
JUDGED_FIT = "iops+waf"
#: (a): IOPS |error| median and worst, WAF |error| median.
IOPS_MEDIAN, IOPS_WORST, WAF_MEDIAN = 0.10, 0.20, 0.05
#: pwrule3's (a), on each drive: the foreign-FTL WAF target (its worst) and how far each median
#: may be above the same drive's without the reading.
WAF_WORST, MEDIAN_ABOVE_WITHOUT = 0.05, 0.01
#: (b): no guard case's |error| more than this above its |error| without the reading.
WORSE_BY_AT_MOST = 0.02
#: (b)'s guards, each (set, drive as the cases name it) with its case count.
GUARDS: dict[tuple[str, str], int] = {
    ("E", "ssdsim-l (iops+waf)"): 6, ("E", "ssdsim-m (iops+waf)"): 6,  # their zones-ro
    ("C", "ssdsim-h (iops+waf)"): 16, ("C", "ssdsim-i (iops+waf)"): 16,
    ("E", "ssdsim-j (iops+waf)"): 10, ("E", "ssdsim-k (iops+waf)"): 10,
    ("B", "ssdiq-sim greedy"): 4, ("B", "ssdiq-sim 2r-greedy"): 4, ("B", "ssdiq-sim 2r-fifo"): 4,
    ("A", "micron-7450-pro-960"): 10, ("A", "micron-7450-max-800"): 14,
    ("E", "ssdsim-l (iops)"): 16, ("E", "ssdsim-m (iops)"): 16,
    ("C", "ssdsim-h (iops)"): 16, ("C", "ssdsim-i (iops)"): 16,
}  # fmt: skip


@dataclass(frozen=True)
class Rule:
    """A rule's judged figures (fit :data:`JUDGED_FIT`, set E) and its guards, each (set, drive
    as the cases name it) with its case count; the thresholds are this module's."""

    results: Path
    judged_drives: tuple[str, ...]
    judged_workloads: tuple[str, ...]
    guards: dict[tuple[str, str], int]
    judged_each_kind: int  # judged IOPS figures (and WAF figures) in all
    per_drive: bool = False  # pwrule3: (a) on each drive against "without", (c) the suite


SKEW = Rule(RESULTS, JUDGED_DRIVES, JUDGED_WORKLOADS, GUARDS, 10)
#: bench/foreign/results/gctrigger-skew2/RULE.md: drives n, o judged, static data among their
#: figures; the guards every stored case whose twin is laid out as its truth.
SKEW2 = Rule(
    HERE / "results" / "gctrigger-skew2", ("ssdsim-n", "ssdsim-o"),
    JUDGED_WORKLOADS + ("zones-ro 0.5",),
    {("E", "ssdsim-n (iops)"): 16, ("E", "ssdsim-o (iops)"): 16,
     **{("C-scattered", f"ssdsim-{d} ({f})"): 16 for d in "hi" for f in ("iops+waf", "iops")},
     **{("E", f"ssdsim-{d} ({f})"): 16 for d in "lm" for f in ("iops+waf", "iops")},
     ("E", "ssdsim-j (iops+waf)"): 10, ("E", "ssdsim-k (iops+waf)"): 10,
     **{g: n for g, n in GUARDS.items() if g[0] in ("A", "B")}},
    16,
)  # fmt: skip
#: bench/foreign/results/pwrule3/RULE.md: fresh drives p, q judged by the weighed prediction;
#: the guards rule 2's and n, o's fit "iops+waf" cases.
PWRULE3 = Rule(
    HERE / "results" / "pwrule3", ("ssdsim-p", "ssdsim-q"), SKEW2.judged_workloads,
    {**SKEW2.guards, ("E", "ssdsim-n (iops+waf)"): 16, ("E", "ssdsim-o (iops+waf)"): 16},
    16, per_drive=True,
)  # fmt: skip
RULES = {"skew": SKEW, "skew2": SKEW2, "pwrule3": PWRULE3}


def without(c: dict[str, Any]) -> float:
    """A case's error without the reading (its own when the reading was not read)."""
    return c.get("without_per_write_rel_error", c["rel_error"])


def base_drive(c: dict[str, Any]) -> str:
    return c["drive"].split(" (")[0]


def is_judged(c: dict[str, Any], r: Rule = SKEW) -> bool:
    return (c["set"] == "E" and base_drive(c) in r.judged_drives and c.get("fit") == JUDGED_FIT
            and c["workload"] in r.judged_workloads)  # fmt: skip


def is_guard(c: dict[str, Any], r: Rule = SKEW) -> bool:
    return (c["set"], c["drive"]) in r.guards and not is_judged(c, r)


def med_worst(errs: list[float]) -> tuple[float, float] | None:
    a = [abs(e) for e in errs]
    return (statistics.median(a), max(a)) if a else None


def pct(mw: tuple[float, float] | None) -> str:
    return f"{100 * mw[0]:.1f}% / {100 * mw[1]:.1f}%" if mw else "–"


def accuracy(cases: list[dict[str, Any]], key: str = "rel_error") -> dict[str, Any]:
    """(a)'s figures on the judged cases, errors read from ``key``."""
    err = {k: med_worst([c[key] for c in cases if c["kind"] == k and c.get(key) is not None])
           for k in ("iops", "waf")}  # fmt: skip
    i, w = err["iops"], err["waf"]
    met = bool(i and w and i[0] <= IOPS_MEDIAN and i[1] <= IOPS_WORST and w[0] <= WAF_MEDIAN)
    return {"iops": i, "waf": w, "met": met,
            "n": {k: sum(c["kind"] == k for c in cases) for k in ("iops", "waf")}}  # fmt: skip


def accuracy_each_drive(judged: list[dict[str, Any]], r: Rule) -> dict[str, dict[str, Any]]:
    """pwrule3's (a) on each judged drive: with the reading, IOPS median and worst, WAF worst
    against the targets, and each median no more than the margin above without it."""
    out = {}
    for d in r.judged_drives:
        mine = [c for c in judged if base_drive(c) == d]
        on, off = accuracy(mine), accuracy(mine, "without_per_write_rel_error")
        i, w, i0, w0 = on["iops"], on["waf"], off["iops"], off["waf"]
        met = bool(i and w and i0 and w0 and i[0] <= IOPS_MEDIAN and i[1] <= IOPS_WORST
                   and w[1] <= WAF_WORST and i[0] <= i0[0] + MEDIAN_ABOVE_WITHOUT + 1e-12
                   and w[0] <= w0[0] + MEDIAN_ABOVE_WITHOUT + 1e-12)  # fmt: skip
        out[d] = {"with": on, "without": off, "met": met}
    return out


def failed_tests(log: str) -> list[str]:
    """pytest's ``-rf`` summary: the ids of the failed tests."""
    return [x.split()[1] for x in log.splitlines() if x.startswith(("FAILED ", "ERROR "))]


def worse(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """(b): the guard cases worse with the reading by more than the margin."""
    return [c for c in cases
            if abs(c["rel_error"]) > abs(without(c)) + WORSE_BY_AT_MOST + 1e-12]  # fmt: skip


def top_reading(c: dict[str, Any]) -> str:
    w = c["figure_weights"]
    return max(w, key=lambda k: w[k]["weight"])


def check(
    cases: list[dict[str, Any]], r: Rule = SKEW, suite_log: str | None = None,
    old_default: tuple[str, ...] = (),
) -> dict[str, Any]:  # fmt: skip
    """Rule ``r``'s verdict on ``cases`` (pwrule3: ``suite_log``, pytest's output on
    tests/calibrate with the flag on; ``old_default``, the failures that assert the old default)."""
    judged = [c for c in cases if is_judged(c, r)]
    guards = [c for c in cases if is_guard(c, r)]
    counts = {g: sum((c["set"], c["drive"]) == g for c in guards) for g in r.guards}
    missing = [f"{s} {d} ({counts[s, d]} of {n})" for (s, d), n in r.guards.items()
               if counts[s, d] < n]  # fmt: skip
    a = accuracy(judged)
    b_worse = worse(guards)
    tops = {}
    for d in r.judged_drives:
        mine = [c for c in judged if base_drive(c) == d]
        if mine:
            tops[d] = top_reading(mine[0])
    c_met = PER_WRITE in tops.values()
    n = r.judged_each_kind
    complete = not missing and len(tops) == len(r.judged_drives) and a["n"] == {"iops": n, "waf": n}
    each, failed = {}, []
    if r.per_drive:
        each = accuracy_each_drive(judged, r)
        a = {**a, "met": all(e["met"] for e in each.values())}
        failed = failed_tests(suite_log) if suite_log is not None else []
        c_met = suite_log is not None and set(failed) <= set(old_default)
        complete = complete and suite_log is not None
    adopted = complete and a["met"] and not b_worse and c_met
    return {"a": a, "b_worse": b_worse, "b_met": not b_worse, "c_tops": tops, "c_met": c_met,
            "missing": missing, "complete": complete, "adopted": adopted, "each": each,
            "failed": failed, "old_default": old_default,
            "judged": judged, "guards": guards, "rule": r}  # fmt: skip


def report(v: dict[str, Any], cases: list[dict[str, Any]]) -> str:
    judged, guards, r = v["judged"], v["guards"], v["rule"]
    a = v["a"]
    ds = [d.removeprefix("ssdsim-") for d in r.judged_drives]
    lines = (conditions_each_drive(v) if r.per_drive else [
        "| condition | figures | verdict |", "|---|---|---|",
        f"| (a) judged {', '.join(ds)} (fit {JUDGED_FIT}), with the reading | IOPS median / worst "
        f"{pct(a['iops'])} ({a['n']['iops']} figures), WAF median / worst {pct(a['waf'])} "
        f"({a['n']['waf']}) | **{'met' if a['met'] else 'not met'}** |",
        f"| (b) guards: no case worse by > {100 * WORSE_BY_AT_MOST:g} points | {len(guards)} cases"
        f", {len(v['b_worse'])} worse | **{'met' if v['b_met'] else 'not met'}** |",
        f"| (c) the weighing picks it on {' or '.join(ds)} | largest weight: "
        + "; ".join(f"{d} {t}" for d, t in v["c_tops"].items())
        + f" | **{'met' if v['c_met'] else 'not met'}** |",
    ])  # fmt: skip
    if v["missing"]:
        lines.append(f"| guards not run | {'; '.join(v['missing'])} | not judged in full |")
    verdict = "adopted" if v["adopted"] else "not adopted"
    if not v["complete"]:
        verdict += ": not judged in full"
    lines += ["", f"**Verdict: {verdict}.**", ""]
    wo = accuracy(judged, "without_per_write_rel_error")
    uni = accuracy(judged, "uniform_only_rel_error")
    alone = accuracy(judged, "per_write_alone_rel_error")
    inside = [c["inside"] for c in judged]
    lines += [
        f"| judged figures ({', '.join(ds)}; reported) | IOPS median / worst | "
        "WAF median / worst |",
        "|---|---|---|",
        f"| with the reading | {pct(a['iops'])} | {pct(a['waf'])} |",
        f"| without it (the same simulations) | {pct(wo['iops'])} | {pct(wo['waf'])} |",
        f"| uniform weights alone | {pct(uni['iops'])} | {pct(uni['waf'])} |",
        f"| {PER_WRITE} alone | {pct(alone['iops'])} | {pct(alone['waf'])} |",
        "",
        f"Inside their 80% interval (with the reading): {sum(inside)} of {len(inside)}.",
        "",
        "| guard set | drive | cases | with: median / worst | without: median / worst | "
        "worse |", "|---|---|---|---|---|---|",
    ]  # fmt: skip
    for s, d in r.guards:
        mine = [c for c in guards if (c["set"], c["drive"]) == (s, d)]
        if not mine:
            lines.append(f"| {s} | {d} | not run | | | |")
            continue
        w_on = pct(med_worst([c["rel_error"] for c in mine]))
        w_off = pct(med_worst([without(c) for c in mine]))
        lines.append(f"| {s} | {d} | {len(mine)} | {w_on} | {w_off} | {len(worse(mine))} |")
    lines += ["", "| case | measured | with | without | uniform only | alone | largest weight |",
              "|---|---|---|---|---|---|---|"]  # fmt: skip
    lines += [case_row(c) for c in judged + v["b_worse"]]
    lines += ["", "| drive | each reading: predicted weighing figure (weight with; without) |",
              "|---|---|"]  # fmt: skip
    first = {c["drive"]: c for c in reversed(cases)}  # each drive's first case
    lines += [weights_row(first[d]) for d in dict.fromkeys(c["drive"] for c in cases)]
    return "\n".join(lines)


def conditions_each_drive(v: dict[str, Any]) -> list[str]:
    """pwrule3's conditions table: (a) on each drive, (b), (c) the suite."""
    lines = ["| condition | figures | verdict |", "|---|---|---|"]
    for d, e in v["each"].items():
        on, off = e["with"], e["without"]
        lines.append(
            f"| (a) {d} (fit {JUDGED_FIT}), with the reading | IOPS median / worst "
            f"{pct(on['iops'])}, WAF median / worst {pct(on['waf'])} ({on['n']['iops']} + "
            f"{on['n']['waf']} figures); without: IOPS {pct(off['iops'])}, WAF {pct(off['waf'])}"
            f" | **{'met' if e['met'] else 'not met'}** |")  # fmt: skip
    lines.append(f"| (b) guards: no case worse by > {100 * WORSE_BY_AT_MOST:g} points | "
                 f"{len(v['guards'])} cases, {len(v['b_worse'])} worse | "
                 f"**{'met' if v['b_met'] else 'not met'}** |")  # fmt: skip
    other = [t for t in v["failed"] if t not in v["old_default"]]
    lines.append(
        f"| (c) tests/calibrate with the flag on | failed: {len(v['failed'])} (of the old "
        f"default: {', '.join(v['old_default']) or 'none'}; others: {', '.join(other) or 'none'})"
        f" | **{'met' if v['c_met'] else 'not met'}** |")  # fmt: skip
    lines.append("| weights (reported, not judged) | largest weight: "
                 + "; ".join(f"{d} {t}" for d, t in v["c_tops"].items()) + " | – |")  # fmt: skip
    return lines


def case_row(c: dict[str, Any]) -> str:
    """A case: measured, its error with the reading, without it, by the uniform weights, by the
    reading alone, and the reading its weighing figure weighed most."""
    alone = c.get("per_write_alone_rel_error")
    cells = [f"{c['set']} {c['drive']} {c['workload']} {c['extra_op_percent']:g}% {c['kind']}",
             f"{c['measured']:.4g}", f"{100 * c['rel_error']:+.1f}%", f"{100 * without(c):+.1f}%",
             f"{100 * c['uniform_only_rel_error']:+.1f}%",
             "–" if alone is None else f"{100 * alone:+.1f}%", top_reading(c)]  # fmt: skip
    return "| " + " | ".join(cells) + " |"


def weights_row(c: dict[str, Any]) -> str:
    """A drive's readings: each one's figure at the weighing figure, its weight with the reading
    and without it."""
    w = c["figure_weights"]
    off = c.get("without_per_write_weights") or {k: g["weight"] for k, g in w.items()}
    each = [f"{k} {g['predicted']:.4g} ({g['weight']:.2f}; {off.get(k, 0.0):.2f})"
            for k, g in w.items()]  # fmt: skip
    return f"| {c['set']} {c['drive']} | " + "; ".join(each) + " |"


#: Stored cases' set names as this module's cases name the same set.
SAME_SET = {"C, zones scattered": "C-scattered"}


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def agreement(cases: list[dict[str, Any]], stored: list[dict[str, Any]]) -> dict[str, int]:
    """Reported beside: the cases also in ``stored`` (the same set, drive, workload, level and
    kind), and how many give the stored error with and without the reading (within 1e-12)."""

    def key(c: dict[str, Any]) -> tuple:
        return (SAME_SET.get(c["set"], c["set"]), c["drive"], c["workload"],
                c["extra_op_percent"], c["kind"])  # fmt: skip

    old = {key(c): c for c in stored}
    both = [(c, old[key(c)]) for c in cases if key(c) in old]
    return {"cases": len(both),
            "same_with": sum(abs(c["rel_error"] - o["rel_error"]) < 1e-12 for c, o in both),
            "same_without": sum(abs(without(c) - without(o)) < 1e-12 for c, o in both)}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rule", choices=tuple(RULES), default="skew")
    ap.add_argument("--cases", type=Path, default=None, help="default: the rule's cases.jsonl")
    ap.add_argument("--against", type=Path, nargs="*", default=[],
                    help="stored cases: how many of ours give their errors")  # fmt: skip
    ap.add_argument("--suite-log", type=Path, default=None,
                    help="pwrule3 (c): pytest -rf output, tests/calibrate, flag on")  # fmt: skip
    ap.add_argument("--old-default", nargs="*", default=[],
                    help="pwrule3 (c): failed test ids that assert the old default")  # fmt: skip
    args = ap.parse_args()
    r = RULES[args.rule]
    path = args.cases or r.results / "cases.jsonl"
    cases = read(path)
    log = args.suite_log.read_text() if args.suite_log else None
    print(report(check(cases, r, log, tuple(args.old_default)), cases))
    for f in args.against:
        print(f"\nAgainst {f}: {agreement(cases, read(f))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
