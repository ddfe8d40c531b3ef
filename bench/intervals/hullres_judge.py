"""The GC-reserve reading offered to typed figures without an onset, with the interval the hull of
the readings that reproduce the figures (``reserve_hull.OFFERED``), judged by
bench/intervals/RULE-hullres.md.

``gen NAME...``: a fresh generated drive of :data:`FRESH` as a truth file
(``iops_only_guard.generate``, the form of tcmd-bound2's generated truths) into
``bench/intervals/hullres/generated/``. ``run --arm on|off TRUTH[::CASE]...``: calibrate's
command for the case (default :data:`PLAN_CASE`, as ``tcmd_bound_rule.run`` gives it:
``evaluate.command`` on the truth's QD32 curve and its QD4 figure) with the flag set in its
process, into ``bench/intervals/hullres/runs/<stem>--<case>--<arm>.json`` with its CPU seconds.
``judge``: the rule's criteria, ``bench/intervals/hullres/verdict.{md,json}``.

    PYTHONPATH=python python bench/intervals/hullres_judge.py gen NAME...
    PYTHONPATH=python python bench/intervals/hullres_judge.py run --arm on TRUTH[::CASE]...
    PYTHONPATH=python python bench/intervals/hullres_judge.py judge
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "foreign"))
import evaluate  # noqa: E402  (bench/foreign/)
import iops_only_guard  # noqa: E402  (bench/foreign/)
import tally  # noqa: E402  (bench/intervals/; puts bench/ and bench/foreign/ on the path)
from iops_form_rule import _case as run_case  # noqa: E402  (bench/foreign/: rows, CPU s)

ROOT = tally.ROOT
OUT = HERE / "hullres"
RUNS = OUT / "runs"
GEN = OUT / "generated"
PLAN_CASE = "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"
#: the rule judged and this script's name, as the verdict names them (hullres2_judge.py: its own)
RULE = "RULE-hullres.md"
JUDGE = "hullres_judge.py"
#: the rule's fresh drives (bench/intervals/RULE-hullres.md), as ``iops_only_guard.GENERATED``:
#: name -> (a reserve's spare factor and floor WAF, or a greedy drive's native OP; t_page µs;
#: t_cmd µs). None of these parameters was used by a generated drive before.
FRESH: dict[str, tuple[dict[str, float], float, float]] = {
    "gen-R5-reserve-sf090-floor9": ({"spare_factor": 0.90, "floor_waf": 9.0}, 4.5, 2.0),
    "gen-R6-reserve-sf082-floor5.5": ({"spare_factor": 0.82, "floor_waf": 5.5}, 6.5, 1.0),
    "gen-R7-reserve-sf076-floor4.5": ({"spare_factor": 0.76, "floor_waf": 4.5}, 5.5, 3.0),
    "gen-R8-reserve-sf086-floor8": ({"spare_factor": 0.86, "floor_waf": 8.0}, 3.5, 1.5),
    "gen-N5-greedy-op013": ({"native_op": 0.13}, 5.5, 2.5),
    "gen-N6-greedy-op024": ({"native_op": 0.24}, 4.5, 1.5),
}
#: ``overprov`` with the flag set first in its process
FLAG_MAIN = (
    "import sys; from overprov.calibrate import reserve_hull; reserve_hull.OFFERED = {on}; "
    "from overprov.cli import main; sys.exit(main(sys.argv[1:]))"
)


def gen(args: argparse.Namespace) -> int:
    GEN.mkdir(parents=True, exist_ok=True)
    iops_only_guard.GENERATED.update(FRESH)
    for name in args.names:
        doc = iops_only_guard.generate(name)
        (GEN / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n")
        print(f"{name}: {doc['cpu_s']:.1f} CPU s", flush=True)
    return 0


def stem_of(truth: Path) -> str:
    return f"{truth.parent.name}-{truth.stem}"


def run_one(truth: Path, case_name: str, arm: str) -> Path:
    """calibrate's command for ``case_name`` on ``truth`` with the flag ``arm`` (on, off)."""
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, 32)
    case = next(c for c in evaluate.CASES if c[0] == case_name)
    cmd = evaluate.command(
        doc, curve, case, 1, [r for r in doc["levels"] if r["queue_depth"] != 32]
    )
    at = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    res, cpu = run_case([sys.executable, "-c", FLAG_MAIN.format(on=arm == "on"), *cmd[3:]],
                        curve, case)  # fmt: skip
    path = run_path(str(truth.resolve().relative_to(ROOT)), case_name, arm)
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = {"truth": str(truth.resolve().relative_to(ROOT)), "case": case_name,
            "reserve_hull": arm, "date": at, "cpu_s": cpu, "result": res}  # fmt: skip
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{path.name}: {cpu:.1f} CPU s", flush=True)
    return path


def run(args: argparse.Namespace) -> int:
    for spec in args.truths:
        truth, _, case = spec.partition("::")
        run_one(ROOT / truth, case or PLAN_CASE, args.arm)
    return 0


#: the 11 stored plan cases the flag reaches (hullres/offered_plan.txt): (the tally row's source
#: as it ends, the truth file, the case); each replaced by its flag-on run for criterion C
REACHED = (
    ("gen-R1-reserve-sf084-floor6--IOPSWAF040QD3240QD4FOB--waf0.9.json",
     "bench/foreign/results/iops-only2/generated/gen-R1-reserve-sf084-floor6.json", PLAN_CASE),
    ("gen-R3-reserve-sf088-floor7--IOPSWAF040QD3240QD4FOB--waf0.9.json",
     "bench/intervals/iops-only/generated/gen-R3-reserve-sf088-floor7.json", PLAN_CASE),
    ("gen-R4-reserve-sf080-floor5--IOPSWAF040QD3240QD4FOB--waf0.9.json",
     "bench/intervals/iops-only/generated/gen-R4-reserve-sf080-floor5.json", PLAN_CASE),
    ("runs/mqsim--IOPSWAF040QD3240QD4FOB--waf0.9.json", "bench/foreign/results/mqsim.json",
     PLAN_CASE),
    ("runs/patched-mqsim--IOPSWAF040QD3240QD4FOB--waf0.9.json",
     "bench/foreign/results/patched/mqsim.json", PLAN_CASE),
    ("unseen-femu-26lun-84blk-thres70--IOPSWAF040QD3240QD4FOB--waf0.9.json",
     "bench/foreign/results/iops-only/unseen/femu-26lun-84blk-thres70.json", PLAN_CASE),
    ("retally/femu/evaluation.json", "bench/foreign/results/femu.json", "IOPS+WAF 0+40, FOB"),
    ("retally/femu/evaluation.json", "bench/foreign/results/femu.json",
     "IOPS+WAF 0+40, FOB, raw NAND"),
    ("retally/femu/evaluation.json", "bench/foreign/results/femu.json", PLAN_CASE),
    ("tally-now/femu-units/evaluation.json", "bench/foreign/results/femu-units/femu-16luns.json",
     PLAN_CASE),
    ("tally-now/femu-units/evaluation.json",
     "bench/foreign/results/femu-units/femu-32luns-400us.json", PLAN_CASE),
)  # fmt: skip
RESERVES = [n for n in FRESH if "-R" in n]
GUARDS = [n for n in FRESH if "-N" in n]
HELD_OUT = 6  # QD32 IOPS and WAF at 10, 20, 30%


def run_path(truth: str, case: str, arm: str) -> Path:
    name = "".join(ch for ch in case if ch.isalnum())
    return RUNS / f"{stem_of(ROOT / truth)}--{name}--{arm}.json"


def run_rows(path: Path, fam: str | None = None) -> list[dict[str, Any]] | None:
    """A run's held-out figures as tally rows; None when calibrate refused the case."""
    doc = json.loads(path.read_text())
    if "levels" not in doc["result"]:
        return None
    src = str(path.relative_to(ROOT))
    return list(tally.evaluate_rows(doc["result"], doc["truth"], src, fam))


def on_targets(res: dict[str, Any]) -> tuple[bool, str]:
    """The foreign-FTL targets (bench/README.md) over 0-40%: QD32 IOPS within 10% median and 20%
    worst, WAF within 5% at every level."""
    if "levels" not in res:
        return False, "refused"
    iops = [abs(r["iops_err"]) for r in res["levels"] if "iops_err" in r]
    waf = [abs(r["waf_err"]) for r in res["levels"]]
    ok = statistics.median(iops) <= 0.10 and max(iops) <= 0.20 and max(waf) <= 0.05
    return ok, (f"IOPS median {statistics.median(iops):.1%}, worst {max(iops):.1%}; "
                f"WAF worst {max(waf):.1%}")  # fmt: skip


def unchanged(off: dict[str, Any], on: dict[str, Any]) -> bool:
    """Every predicted figure and bound the same to 0.1% (flag off and on)."""
    keys = ("iops_pred", "iops_low", "iops_high", "waf_pred", "waf_low", "waf_high")
    if "levels" not in off or "levels" not in on:
        return "levels" not in off and "levels" not in on
    return all(
        (a.get(k) is None and b.get(k) is None) or abs(b[k] / a[k] - 1) <= 1e-3
        for a, b in zip(off["levels"], on["levels"], strict=True) for k in keys if a.get(k)
    )  # fmt: skip


def fresh_summary() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in FRESH:
        truth = str((GEN / f"{name}.json").relative_to(ROOT))
        arms = {}
        for arm in ("off", "on"):
            path = run_path(truth, PLAN_CASE, arm)
            rows = run_rows(path)
            res = json.loads(path.read_text())["result"]
            ok, said = on_targets(res)
            arms[arm] = {
                "inside": sum(r["inside"] for r in rows) if rows is not None else 0,
                "figures": HELD_OUT,
                "refused": rows is None,
                "median_width": statistics.median(r["width"] for r in rows) if rows else None,
                "median_abs_log_error": statistics.median(
                    abs(math.log(r["predicted"] / r["true"])) for r in rows) if rows else None,
                "targets": ok, "targets_said": said,
                "error": res.get("error"),
            }  # fmt: skip
        arms["unchanged"] = unchanged(*(json.loads(run_path(truth, PLAN_CASE, a).read_text())
                                        ["result"] for a in ("off", "on")))  # fmt: skip
        out[name] = arms
    return out


def tally_with_flag() -> dict[str, Any]:
    """Criterion C: tally-now's rows with the reached cases' rows replaced by their flag-on runs."""
    base = tally.all_rows(now=True)
    rows, refused, replaced = list(base), [], []
    for src_end, truth, case in REACHED:
        stem = Path(truth).stem
        old = [r for r in rows if r["block"] == "plan" and r["source"].endswith(src_end)
               and r["truth"] == stem and r["case"] == case]  # fmt: skip
        new = run_rows(run_path(truth, case, "on"), old[0]["family"] if old else None)
        if new is None:
            refused.append(f"{stem}: {case}")
            new = []
        stale = old[0]["stale"] if old else None
        for r in new:
            r["stale"] = stale
        rows = [r for r in rows if not any(r is o for o in old)] + new
        off_path = run_path(truth, case, "off")  # beside the rule: the code as it is, flag off
        off = run_rows(off_path) if off_path.is_file() else None
        replaced.append({"truth": stem, "case": case, "old": len(old), "new": len(new),
                         "inside_old": sum(r["inside"] for r in old),
                         "inside_new": sum(r["inside"] for r in new),
                         "inside_off_now": None if off is None
                         else sum(r["inside"] for r in off)})  # fmt: skip
    before, after = tally.tally(base), tally.tally(rows)
    fams = sorted({r["family"] for r in base if any(r["truth"] == Path(t).stem for _, t, _ in
                                                     REACHED)})  # fmt: skip
    changed = {f: {"before": before["families"][f]["current"],
                   "after": after["families"][f]["current"]} for f in fams}  # fmt: skip
    breaks = []
    for f, ba in changed.items():
        b, a = ba["before"].get("inside"), ba["after"].get("inside")
        if b is None or a is None:
            continue
        if (b >= 0.70 > a) or (b < 0.70 and a < b - 0.10):
            breaks.append(f)
    pooled = after["pooled"]["current"]
    return {"pooled_before": before["pooled"]["current"], "pooled_after": pooled,
            "families": changed, "breaks": breaks, "refused": refused, "replaced": replaced,
            "met": 0.75 <= pooled["inside"] <= 0.90 and not breaks and not refused}  # fmt: skip


def guards_met(guards: dict[str, dict[str, Any]]) -> bool:
    """RULE-hullres.md's B: every guard on its targets, and either all unchanged by the flag or
    at most 90% of their figures inside."""
    g_inside = sum(g["on"]["inside"] for g in guards.values())
    return all(g["on"]["targets"] for g in guards.values()) and (
        all(g["unchanged"] for g in guards.values()) or g_inside <= 0.90 * HELD_OUT * len(GUARDS)
    )


#: criterion B as the rule judged states it (hullres2_judge.py sets its own)
GUARDS_MET = guards_met
#: criterion D's recorded pytest run (None: D reported by hand, as RULE-hullres.md's was)
TESTS_D: Path | None = None


def judge(_: argparse.Namespace) -> int:
    fresh = fresh_summary()
    inside = sum(fresh[n]["on"]["inside"] for n in RESERVES)
    n_fig = HELD_OUT * len(RESERVES)
    a = inside / n_fig >= 0.70
    guards = {n: fresh[n] for n in GUARDS}
    g_inside = sum(g["on"]["inside"] for g in guards.values())
    b = GUARDS_MET(guards)
    c = tally_with_flag()
    doc = {"A": {"inside": inside, "figures": n_fig, "met": a},
           "B": {"inside": g_inside, "figures": HELD_OUT * len(GUARDS), "met": b},
           "C": c, "fresh": fresh,
           "met": a and b and c["met"]}  # fmt: skip
    if TESTS_D is not None:  # criterion D as recorded (the pytest run's summary line)
        said = [ln for ln in TESTS_D.read_text().splitlines() if ln and not ln.startswith("#")]
        doc["D"] = {"said": said[-1], "met": "failed" not in said[-1] and "error" not in said[-1]}
        doc["met"] = doc["met"] and doc["D"]["met"]
    (OUT / "verdict.json").write_text(json.dumps(doc, indent=1) + "\n")
    reading = OUT / "reading" ".md"  # the verdict read by hand, after the judge's output
    (OUT / "verdict" ".md").write_text(markdown(doc) + (f"\n{reading.read_text()}" if
                                                    reading.is_file() else ""))  # fmt: skip
    print(markdown(doc))
    return 0


def _pct(s: dict[str, Any]) -> str:
    return f"{s['n']}: {s['inside']:.0%} at {s['median_width']:.0%}" if s.get("n") else "-"


def markdown(doc: dict[str, Any]) -> str:
    out = [f"# Verdict: bench/intervals/{RULE}", "",
           f"Written by `bench/intervals/{JUDGE} judge` from the runs in `runs/`.", "",
           "| fresh drive | off: inside, median width, median abs log error | on | targets (on) "
           "| flag changed nothing |", "|---|---|---|---|---|"]  # fmt: skip
    for n, f in doc["fresh"].items():
        cells = []
        for arm in ("off", "on"):
            x = f[arm]
            cells.append("refused" if x["refused"] else
                         f"{x['inside']}/{x['figures']}, {x['median_width']:.0%}, "
                         f"{x['median_abs_log_error']:.3f}")  # fmt: skip
        out.append(
            f"| {n} | {cells[0]} | {cells[1]} | {f['on']['targets_said']} "
            f"({'met' if f['on']['targets'] else 'not met'}) | {f['unchanged']} |"
        )
    a, b, c = doc["A"], doc["B"], doc["C"]
    out += ["", f"- **A** (fresh reserve drives, on): {a['inside']}/{a['figures']} inside "
            f"({a['inside'] / a['figures']:.0%}; at least 70%): {'met' if a['met'] else 'NOT met'}",
            f"- **B** (guards): {b['inside']}/{b['figures']} inside with the flag on: "
            f"{'met' if b['met'] else 'NOT met'}",
            f"- **C** (pooled tally, reached cases on): {_pct(c['pooled_before'])} -> "
            f"{_pct(c['pooled_after'])} (75-90%); families broken: {c['breaks'] or 'none'}; "
            f"refused: {c['refused'] or 'none'}: {'met' if c['met'] else 'NOT met'}",
            *([f"- **D** (tests, flag on; {TESTS_D.name}): {doc['D']['said']}: "
               f"{'met' if doc['D']['met'] else 'NOT met'}"] if "D" in doc else []),
            "", "| family (current rows) | before | after |", "|---|---|---|"]  # fmt: skip
    out += [f"| {f} | {_pct(x['before'])} | {_pct(x['after'])} |" for f, x in c["families"].items()]
    out += ["", "| reached case | rows before: inside | after (on) | flag off, this code (beside "
            "the rule) |", "|---|---|---|---|"]  # fmt: skip
    out += [f"| {r['truth']}: {r['case']} | {r['old']}: {r['inside_old']} | "
            f"{r['new']}: {r['inside_new']} | "
            f"{'-' if r.get('inside_off_now') is None else r['inside_off_now']} |"
            for r in c["replaced"]]  # fmt: skip
    out += [
        "",
        f"**Verdict: {'met' if doc['met'] else 'not met'}**; `reserve_hull.OFFERED` "
        f"{'on' if doc['met'] else 'stays off'}.",
        "",
    ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("names", nargs="+", choices=sorted(FRESH))
    g.set_defaults(func=gen)
    r = sub.add_parser("run")
    r.add_argument("--arm", choices=("on", "off"), required=True)
    r.add_argument("truths", nargs="+")
    r.set_defaults(func=run)
    j = sub.add_parser("judge")
    j.set_defaults(func=judge)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
