"""Evaluate ``overprov calibrate`` on the foreign FTLs' measured curves (bench/foreign/results).

    PYTHONPATH=python python bench/foreign/evaluate.py [--results bench/foreign/results]
        [--qd 32] [--jobs 1] [--only mqsim]

For each results file (one simulator's curve), calibrate is run as a user would run it with
figures (`overprov calibrate --points ... --waf-points ... --fob-iops ... [--advertised
--physical] --extra-op 0,10,20,30,40 --json -`) in each CASE below, fitted on some levels of the
QD curve and predicting every level. Per level: the prediction's error in IOPS and WAF against
the simulator's steady figure and whether the truth lies inside calibrate's 80% interval.
Writes results/evaluation.json and results/evaluation.md (the table for bench/README.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LEVELS = (0, 10, 20, 30, 40)

# (name, IOPS levels fitted, WAF levels fitted, FOB given, raw NAND given)
CASES = (
    ("IOPS 0+40, FOB", (0, 40), (), True, False),
    ("IOPS 0+40, FOB, raw NAND", (0, 40), (), True, True),
    ("IOPS+WAF 0+40, FOB", (0, 40), (0, 40), True, False),
    ("IOPS+WAF 0+40, FOB, raw NAND", (0, 40), (0, 40), True, True),
    ("IOPS 20, FOB", (20,), (), True, False),
    ("IOPS 20, FOB, raw NAND", (20,), (), True, True),
    ("IOPS+WAF 20, FOB", (20,), (20,), True, False),
    ("WAF 0 only", (), (0,), False, False),
    ("WAF 0 only, raw NAND", (), (0,), False, True),
)


def truth_curve(doc: dict, qd: int) -> dict[int, dict]:
    return {
        int(r["extra_op_percent"]): r
        for r in doc["levels"]
        if r["queue_depth"] == qd and int(r["extra_op_percent"]) in LEVELS
    }


def command(doc: dict, curve: dict[int, dict], case: tuple, jobs: int) -> list[str]:
    _, iops_at, waf_at, fob, raw = case
    cmd = [sys.executable, "-m", "overprov", "calibrate", "--json", "-", "--jobs", str(jobs)]
    cmd += ["--extra-op", ",".join(str(x) for x in LEVELS)]
    if iops_at:
        cmd += ["--points", ",".join(f"{x}:{curve[x]['steady_iops']:.0f}" for x in iops_at)]
    if waf_at:
        cmd += ["--waf-points", ",".join(f"{x}:{curve[x]['steady_waf']:.3f}" for x in waf_at)]
    if fob:
        # the FOB of the whole drive: the 0% level's run from empty
        cmd += ["--fob-iops", f"{curve[0]['fob_iops']:.0f}"]
    if raw:
        cmd += [
            "--advertised",
            f"{doc['advertised_bytes']}B",  # a bare number is read as GB
            "--physical",
            f"{doc['physical_bytes']}B",
        ]
    return cmd


def evaluate_case(doc: dict, curve: dict[int, dict], case: tuple, jobs: int) -> dict:
    cmd = command(doc, curve, case, jobs)
    with tempfile.TemporaryDirectory() as tmp:
        return run_case(cmd, curve, case, Path(tmp))


def run_case(cmd: list[str], curve: dict[int, dict], case: tuple, out: Path) -> dict:
    cmd = [*cmd, "--out", str(out)]
    t0 = time.monotonic()
    env = {"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"}
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if res.returncode != 0:
        return {"case": case[0], "error": res.stderr.strip().splitlines()[-1:], "command": cmd[2:]}
    pred = json.loads(res.stdout)
    rows = []
    for lv in pred["levels"]:
        x = int(lv["extra_op_percent"])
        t = curve[x]
        row = {"extra_op_percent": x, "fitted_iops": x in case[1], "fitted_waf": x in case[2]}
        if lv.get("steady_iops"):
            row |= {
                "iops_true": t["steady_iops"],
                "iops_pred": lv["steady_iops"],
                "iops_err": lv["steady_iops"] / t["steady_iops"] - 1,
                "iops_in_80": lv["steady_iops_low"] <= t["steady_iops"] <= lv["steady_iops_high"],
                "iops_low": lv["steady_iops_low"],
                "iops_high": lv["steady_iops_high"],
            }
        row |= {
            "waf_true": t["steady_waf"],
            "waf_pred": lv["waf"],
            "waf_err": lv["waf"] / t["steady_waf"] - 1,
        }
        if "waf_low" in lv:
            row |= {
                "waf_in_80": lv["waf_low"] <= t["steady_waf"] <= lv["waf_high"],
                "waf_low": lv["waf_low"],
                "waf_high": lv["waf_high"],
            }
        rows.append(row)
    fit = pred["fit"]
    return {
        "case": case[0],
        "command": "overprov " + " ".join(cmd[3:-2]),
        "fit": {k: fit.get(k) for k in ("native_op", "t_page_us", "t_cmd_us", "spare_efficiency")},
        "levels": rows,
        "wall_s": time.monotonic() - t0,
    }


def summary(rows: list[dict], key: str, held_out_only: bool) -> dict | None:
    fitted = "fitted_iops" if key == "iops" else "fitted_waf"
    errs = [
        abs(r[f"{key}_err"])
        for r in rows
        if f"{key}_err" in r and not (held_out_only and r[fitted])
    ]
    cover = [
        r[f"{key}_in_80"] for r in rows if f"{key}_in_80" in r and not (held_out_only and r[fitted])
    ]
    if not errs:
        return None
    return {
        "median_abs_err": statistics.median(errs),
        "worst_abs_err": max(errs),
        "n": len(errs),
        "in_80": sum(cover),
        "n_interval": len(cover),
    }


def pct(v: float) -> str:
    return f"{100 * v:+.0f}%"


def markdown(evals: list[dict]) -> str:
    out = []
    for ev in evals:
        out.append(f"\n**{ev['simulator']}** (QD{ev['qd']}; truth: {ev['truth']})\n")
        out.append(
            "| fitted on | IOPS error at 0 / 10 / 20 / 30 / 40% "
            "| WAF error at 0 / 10 / 20 / 30 / 40%"
            " | IOPS median / worst | WAF median / worst | fit |"
        )
        out.append("|---|---|---|---|---|---|")
        for c in ev["cases"]:
            if "error" in c:
                out.append(f"| {c['case']} | refused: {' '.join(c['error'])} | | | | |")
                continue
            cells_i, cells_w = [], []
            for r in c["levels"]:
                mark = "*" if r["fitted_iops"] else ""
                cells_i.append(
                    f"{mark}{pct(r['iops_err'])}{'' if r.get('iops_in_80') else ' (out)'}"
                    if "iops_err" in r
                    else "–"
                )
                markw = "*" if r["fitted_waf"] else ""
                cells_w.append(
                    f"{markw}{pct(r['waf_err'])}{'' if r.get('waf_in_80', True) else ' (out)'}"
                )
            si, sw = c["summary"]["iops"], c["summary"]["waf"]
            f = c["fit"]
            fit = (
                f"ρ₀ {100 * f['native_op']:.1f}%, t_page {f['t_page_us']:.0f} µs, "
                f"t_cmd {f['t_cmd_us']:.0f} µs"
            )
            if f.get("spare_efficiency") not in (None, 1, 1.0):
                fit += f", k {f['spare_efficiency']:.2f}"
            out.append(
                f"| {c['case']} | {' / '.join(cells_i)} | {' / '.join(cells_w)} | "
                + (
                    f"{100 * si['median_abs_err']:.0f}% / {100 * si['worst_abs_err']:.0f}%"
                    if si
                    else "–"
                )
                + " | "
                + f"{100 * sw['median_abs_err']:.0f}% / {100 * sw['worst_abs_err']:.0f}% | {fit} |"
            )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", type=Path, default=HERE / "results")
    ap.add_argument("--qd", type=int, default=32)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default=None, help="one results file's stem")
    ap.add_argument("--parallel", type=int, default=1, help="calibrate runs at once")
    ap.add_argument("--cases", default=None, help="only the cases whose name holds this text")
    args = ap.parse_args(argv)
    cases = [c for c in CASES if args.cases is None or args.cases in c[0]]
    evals = []
    for path in sorted(args.results.glob("*.json")):
        if path.stem == "evaluation" or (args.only and path.stem != args.only):
            continue
        doc = json.loads(path.read_text())
        curve = truth_curve(doc, args.qd)
        if set(curve) != set(LEVELS):
            print(f"{path.name}: levels {sorted(curve)} at QD{args.qd}, skipped", file=sys.stderr)
            continue
        ev = {
            "simulator": doc["simulator"],
            "results": path.name,
            "qd": args.qd,
            "truth": f"{doc['repository']} @ {str(doc.get('commit'))[:10]}, {doc['date'][:10]}",
            "cases": [],
        }
        with ThreadPoolExecutor(max_workers=args.parallel) as pool:
            # the one-level fits are the slow ones (a twin near zero native spare): first
            futs = {
                case: pool.submit(evaluate_case, doc, curve, case, args.jobs)
                for case in sorted(cases, key=lambda c: len(c[1]) + len(c[2]))
            }
            for case in cases:
                c = futs[case].result()
                if "levels" in c:
                    c["summary"] = {
                        "iops": summary(c["levels"], "iops", False),
                        "waf": summary(c["levels"], "waf", False),
                        "iops_held_out": summary(c["levels"], "iops", True),
                        "waf_held_out": summary(c["levels"], "waf", True),
                    }
                ev["cases"].append(c)
                print(f"{doc['simulator']}: {case[0]} done", file=sys.stderr, flush=True)
        evals.append(ev)
    prev = args.results / "evaluation.json"
    kept = []
    if args.only and prev.exists():
        kept = [e for e in json.loads(prev.read_text()) if e["results"] != f"{args.only}.json"]
    if args.cases and prev.exists():  # the other cases from the file before
        old = {e["results"]: e for e in json.loads(prev.read_text())}
        for ev in evals:
            new = {c["case"]: c for c in ev["cases"]}
            before = old.get(ev["results"], {"cases": []})["cases"]
            ev["cases"] = [new.get(c["case"], c) for c in before] or ev["cases"]
    evals = kept + evals
    prev.write_text(json.dumps(evals, indent=1) + "\n")
    md = markdown(evals)
    prev.with_suffix(".md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
