"""The erase reading's two flags, on against off, at a measured plan's spread
(bench/foreign/results/erasecheck/RULE.md).

``run ARM CASE...``: one case of :data:`TYPED` or :data:`MEASURED` with the flags of ``ARM``
(:data:`ARMS`) set first in calibrate's process, into ``runs/ARM/CASE.json`` (evaluate.py's
rows, held-out figures at other queue depths, CPU seconds). Typed cases: evaluate.py's command
for the plan case with ``cli.USER_POINT_REL_SD`` set to :data:`TYPED_REL_SD`; measured cases:
``overprov calibrate --from`` the stored measurement (its own spreads). ``judge``: the rule's
decision, ``judge.txt``.

    PYTHONPATH=python python bench/foreign/results/erasecheck/run.py run ARM CASE...
    PYTHONPATH=python python bench/foreign/results/erasecheck/run.py judge
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parent.parent
sys.path.insert(0, str(FOREIGN))
sys.path.insert(0, str(FOREIGN.parent))
import erase_cost_rule  # noqa: E402
import evaluate  # noqa: E402
import ssdsim_rule  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402  (bench/)
from iops_form_rule import _case as run_case  # noqa: E402  (rows, CPU s)

ROOT = evaluate.ROOT
RUNS = HERE / "runs"
PLAN_CASE = "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"
#: a measured plan's spread a figure, given to typed figures (the RULE's 2%)
TYPED_REL_SD = 0.02
#: arm -> (erase_reading.OFFERED, erase_reading.WHEN_IMPLIED_FAILS); all else the code's
ARMS = {"both-on": (True, True), "offered-only": (True, False), "both-off": (False, False)}
#: the flag each comparison judges: (flag, arm on, arm off)
COMPARISONS = (("OFFERED", "offered-only", "both-off"),
               ("WHEN_IMPLIED_FAILS", "both-on", "offered-only"))  # fmt: skip
GEN = "bench/intervals/hullres/generated"
#: case -> its truth (typed figures at TYPED_REL_SD)
TYPED = {
    "gen-R6": f"{GEN}/gen-R6-reserve-sf082-floor5.5.json",
    "gen-R7": f"{GEN}/gen-R7-reserve-sf076-floor4.5.json",
    "gen-R8": f"{GEN}/gen-R8-reserve-sf086-floor8.json",
    "mqsim": "bench/foreign/results/mqsim.json",
    "patched-mqsim": "bench/foreign/results/patched/mqsim.json",
    "gen-N5": f"{GEN}/gen-N5-greedy-op013.json",
    "gen-N6": f"{GEN}/gen-N6-greedy-op024.json",
    "gen-R5": f"{GEN}/gen-R5-reserve-sf090-floor9.json",
}
E2E = "bench/foreign/results/femu-end-to-end"
#: case -> (its stored measurement's folder, its truth): the plan calibrate measured on FEMU
#: with plan.ONSET_FROM_EMPTY on (the default now)
MEASURED = {
    f"femu-{n}": (f"{E2E}/femu-{n}-on", f"{E2E}/femu-{n}.json")
    for n in ("6lun-372blk-thres68-3ms", "9lun-448blk-thres88-2500us",
              "14lun-224blk-thres60-5ms-ns80")
}  # fmt: skip
#: the rule's thresholds
MAX_WORSE = 0.01
MAX_OUTSIDE = 0.30


def prelude(arm: str, typed: bool) -> str:
    offered, implied = ARMS[arm]
    sets = "from overprov.calibrate import erase_reading; "
    sets += f"erase_reading.OFFERED = {offered}; erase_reading.WHEN_IMPLIED_FAILS = {implied}; "
    if typed:
        sets += f"from overprov.calibrate import cli; cli.USER_POINT_REL_SD = {TYPED_REL_SD}; "
    return f"import sys; {sets}from overprov.cli import main; sys.exit(main())"


def run_one(arm: str, name: str) -> Path:
    case = next(c for c in evaluate.CASES if c[0] == PLAN_CASE)
    if name in TYPED:
        truth = ROOT / TYPED[name]
        doc = json.loads(truth.read_text())
        curve = evaluate.truth_curve(doc, 32)
        others = [r for r in doc["levels"] if r["queue_depth"] != 32]
        cmd = evaluate.command(doc, curve, case, 1, others)
        cmd = [sys.executable, "-c", prelude(arm, True), *cmd[3:]]
        source = TYPED[name]
    else:
        folder, truth_path = MEASURED[name]
        truth = ROOT / truth_path
        doc = json.loads(truth.read_text())
        curve = evaluate.truth_curve(doc, 32)
        others = [r for r in doc["levels"] if r["queue_depth"] != 32]
        with tempfile.TemporaryDirectory() as tmp:  # --from reads measurement.json only
            (Path(tmp) / "measurement.json").write_text((ROOT / folder / "measurement.json")
                                                        .read_text())  # fmt: skip
            cmd = [sys.executable, "-c", prelude(arm, False), "calibrate", "--from", tmp,
                   "--json", "-", "--jobs", "1", "--no-progress",
                   "--extra-op", ",".join(str(x) for x in evaluate.LEVELS)]  # fmt: skip
            res, cpu = run_case(cmd, curve, case)
        source = f"{folder}/measurement.json"
    if name in TYPED:
        res, cpu = run_case(cmd, curve, case)
    if "levels" in res and others:
        res["qd"] = curve[0]["queue_depth"]  # as evaluate.evaluate_case
        res["other_qd"] = evaluate.other_queue_depths(res, others, 1)
        for r in res["other_qd"]:
            r["fitted"] = (r["extra_op_percent"], r["queue_depth"]) in evaluate.qd_figures(case)
    path = RUNS / arm / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    kept = {"case": name, "source": source, "truth": str(truth.relative_to(ROOT)), "arm": arm,
            "flags": dict(zip(("OFFERED", "WHEN_IMPLIED_FAILS"), ARMS[arm], strict=True)),
            "typed_rel_sd": TYPED_REL_SD if name in TYPED else None,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpu_s": cpu,
            "result": res}  # fmt: skip
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{arm}/{name}: {cpu:.1f} CPU s", flush=True)
    return path


def outside_share(res: dict) -> float | None:
    """Share of the held-out QD32 figures with an 80% interval that lie outside it."""
    got = [r[f"{k}_in_80"] for r in res.get("levels", [])
           for k, fitted in (("iops", "fitted_iops"), ("waf", "fitted_waf"))
           if not r.get(fitted) and f"{k}_in_80" in r]  # fmt: skip
    return None if not got else sum(not x for x in got) / len(got)


def compare(off: dict, on: dict) -> tuple[str, bool]:
    """(what changed, harm) for one case, the flag off against on (RULE.md's decision)."""
    if "levels" not in on:
        return ("refused on and off", False) if "levels" not in off else ("refused on", True)
    if "levels" not in off:
        share = outside_share(on)
        bad = share is None or share > MAX_OUTSIDE
        text = "no interval" if share is None else f"{share:.0%} outside"
        return f"refused off, answered on: held-out figures {text} their 80% intervals", bad
    a, b = ssdsim_rule.judge_case(off), ssdsim_rule.judge_case(on)
    lost = [t for t in ("iops_ok", "waf_ok") if a[t] and not b[t]]
    ea, eb = erase_cost_rule.held_out(off), erase_cost_rule.held_out(on)
    deltas = {k: eb[k] - ea[k] for k in sorted(ea.keys() & eb.keys())}
    worst = max(deltas, key=lambda k: deltas[k]) if deltas else None
    text = (f"targets off/on: IOPS {a['iops_ok']}/{b['iops_ok']}, WAF {a['waf_ok']}/{b['waf_ok']}"
            f" (on: IOPS {b['iops_median']:.1%} / {b['iops_worst']:.1%}, WAF "
            f"{b['waf_worst']:.1%})")  # fmt: skip
    if worst is not None:
        text += f"; largest rise {100 * deltas[worst]:+.1f} pts ({worst}: {ea[worst]:.1%} → "
        text += f"{eb[worst]:.1%})"
    return text, bool(lost) or (worst is not None and deltas[worst] > MAX_WORSE)


def weights(res: dict) -> str:
    got = {k: v for k, v in (res.get("readings") or {}).items() if v >= 0.005}
    return ", ".join(f"{k} {v:.2f}" for k, v in sorted(got.items(), key=lambda kv: -kv[1]))


def judge(_: argparse.Namespace) -> int:
    names = [*TYPED, *MEASURED]
    lines = ["| case | arm | IOPS median / worst, WAF worst (QD32, 0-40%) | held-out worst | "
             "weights |", "|---|---|---|---|---|"]  # fmt: skip
    got: dict[tuple[str, str], dict] = {}
    for name in names:
        for arm in ARMS:
            path = RUNS / arm / f"{name}.json"
            if not path.exists():
                lines.append(f"| {name} | {arm} | not run | | |")
                continue
            res = json.loads(path.read_text())["result"]
            got[(name, arm)] = res
            if "levels" not in res:
                lines.append(f"| {name} | {arm} | refused: {' '.join(res.get('error', []))} | | |")
                continue
            j, h = ssdsim_rule.judge_case(res), erase_cost_rule.held_out(res)
            w = max(h, key=lambda k: h[k]) if h else None
            held = f"{h[w]:.1%} ({w})" if w else "-"
            lines.append(f"| {name} | {arm} | {j['iops_median']:.1%} / {j['iops_worst']:.1%}, "
                         f"{j['waf_worst']:.1%} ({j['waf_worst_at']}%) | {held} | "
                         f"{weights(res)} |")  # fmt: skip
    harmed, unjudged = {}, {}
    for flag, on, off in COMPARISONS:
        lines += ["", f"**{flag}** ({on} against {off})", "", "| case | on against off | harm |",
                  "|---|---|---|"]  # fmt: skip
        harmed[flag], unjudged[flag] = False, []
        for name in names:
            if (name, on) not in got or (name, off) not in got:
                lines.append(f"| {name} | not run in both arms | unjudged |")
                unjudged[flag].append(name)
                continue
            text, bad = compare(got[(name, off)], got[(name, on)])
            harmed[flag] |= bad
            lines.append(f"| {name} | {text} | {'yes' if bad else 'no'} |")
    if harmed["OFFERED"]:
        decision = "harm traced to OFFERED: both flags off"
    elif harmed["WHEN_IMPLIED_FAILS"]:
        decision = "harm traced to WHEN_IMPLIED_FAILS only: it goes off, OFFERED stays on"
    elif unjudged["OFFERED"] or unjudged["WHEN_IMPLIED_FAILS"]:
        decision = f"no harm over the cases run; unjudged: {unjudged} (check incomplete)"
    else:
        decision = "no harm: both flags stay on"
    lines += ["", f"decision: {decision}"]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    (HERE / "judge.txt").write_text(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run")
    r.add_argument("arm", choices=list(ARMS))
    r.add_argument("cases", nargs="+", choices=[*TYPED, *MEASURED])
    sub.add_parser("judge")
    args = ap.parse_args(argv)
    if args.what == "run":
        t0 = cpu_s()
        for name in args.cases:
            run_one(args.arm, name)
        print(f"{args.arm} {' '.join(args.cases)}: {cpu_s() - t0:.1f} CPU s in all (cpu_clock)")
        return 0
    return judge(args)


if __name__ == "__main__":
    raise SystemExit(main())
