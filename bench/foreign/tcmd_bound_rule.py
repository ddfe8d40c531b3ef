"""Run and check bench/foreign/results/tcmd-bound/RULE.md and
bench/foreign/results/tcmd-bound2/RULE.md: the fit's lower bound on t_cmd
(``fit.MAX_READ_SHARE``), 0.5 against 0.9, everywhere or only where a figure carries a WAF
(``fit.MAX_READ_SHARE_WITH_WAF``).

    python bench/foreign/tcmd_bound_rule.py run --truth FILE --case NAME --share S [--share S]
    python bench/foreign/tcmd_bound_rule.py run --with-waf --truth FILE --case NAME --share S|off
    python bench/foreign/tcmd_bound_rule.py check [--dir bench/foreign/results/tcmd-bound]
    python bench/foreign/tcmd_bound_rule.py check-with-waf [--dir .../tcmd-bound2]

``--with-waf`` sets ``fit.MAX_READ_SHARE_WITH_WAF`` instead (``off``: None, calibrate as it is)
and keeps runs in tcmd-bound2/runs/<stem>--<case>--waf<S>.json (``--off.json``).

``run`` runs ``evaluate.py``'s calibrate command for the case on the truth's QD32 figures (no
other queue depth is predicted) once per share, with ``fit.MAX_READ_SHARE`` set first, and keeps
``evaluate.run_case``'s rows and the CPU seconds in DIR/runs/<stem>--<case>--<share>.json.
``check`` prints each run's figures (``ssdsim_rule.judge_case``), the rule's conditions A
(fresh drives, plan case with WAF, at 0.9) and B (no harm: 0.9 against 0.5, medians within one
point) and the verdict. Nothing is fitted here: the figures are calibrate's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import evaluate  # noqa: E402
import ssdsim_rule  # noqa: E402

DIR = HERE / "results" / "tcmd-bound"
DIR2 = HERE / "results" / "tcmd-bound2"
NEW, OLD = 0.9, 0.5
PLAN_CASE = "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"
IOPS_CASE = "IOPS 0+40 QD32 + 40 QD4, FOB"
FRESH = ("ssdsim-c", "ssdsim-d", "ssdsim-e")
#: The rule's no-harm cases (batch 2): stored cases whose fits touched the old bound.
NO_HARM = (("eagletree", PLAN_CASE), ("mqsim", PLAN_CASE), ("eagletree", IOPS_CASE),
           ("unseen-femu-26lun-84blk-thres70", IOPS_CASE))  # fmt: skip
REFUSED = "overprov calibrate: the fit does not explain its inputs, so no twin is written: "
POINT = 0.01


def wrapped(cmd: list[str], share: float | None, with_waf: bool = False) -> list[str]:
    """``evaluate.command``'s calibrate command with ``fit.MAX_READ_SHARE`` (``with_waf``:
    ``fit.MAX_READ_SHARE_WITH_WAF``) set first."""
    name = "MAX_READ_SHARE_WITH_WAF" if with_waf else "MAX_READ_SHARE"
    pre = f"from overprov.calibrate import fit; fit.{name} = {share!r}; "
    return [sys.executable, "-c", f"import sys; {pre}from overprov.cli import main; "
            "sys.exit(main())", *cmd[3:]]  # fmt: skip


def stem_of(truth: Path) -> str:
    return truth.stem if truth.parent.name in ("results", "tcmd-bound", "tcmd-bound2") else (
        f"{truth.parent.name}-{truth.stem}")  # fmt: skip


def run(
    truth: Path, case_name: str, share: float | None, out: Path, with_waf: bool = False
) -> Path:
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, 32)
    case = next(c for c in evaluate.CASES if c[0] == case_name)
    others = [r for r in doc["levels"] if r["queue_depth"] != 32]
    cmd = wrapped(evaluate.command(doc, curve, case, 1, others), share, with_waf)
    before, t0 = os.times(), time.time()
    with tempfile.TemporaryDirectory() as tmp:
        res = evaluate.run_case(cmd, curve, case, Path(tmp))
    after = os.times()
    kept = {
        "truth": str(truth.resolve().relative_to(ROOT)),
        "case": case_name,
        **({"max_read_share_with_waf": share} if with_waf else {"max_read_share": share}),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t0)),
        "cpu_s": (after.children_user - before.children_user)
        + (after.children_system - before.children_system),
        "result": res,
    }
    out.mkdir(parents=True, exist_ok=True)
    name = "".join(ch for ch in case_name if ch.isalnum())
    tag = ("off" if share is None else f"waf{share:g}") if with_waf else f"{share:g}"
    path = out / f"{stem_of(truth)}--{name}--{tag}.json"
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{path.name}: {kept['cpu_s']:.0f} CPU s", flush=True)
    return path


def medians(res: dict) -> tuple[float, float] | None:
    """Median |IOPS error| and median |WAF error| over 0-40%, None if refused."""
    if "levels" not in res:
        return None
    lv = res["levels"]
    return (statistics.median(abs(r["iops_err"]) for r in lv if "iops_err" in r),
            statistics.median(abs(r["waf_err"]) for r in lv))  # fmt: skip


def no_harm(old_res: dict, new_res: dict, old_name: str) -> tuple[bool, str]:
    """The rules' no-harm test of one pair: medians no more than a point worse at 0.9, and
    nothing predicted before refused at 0.9; (holds, what it says)."""
    old, new = medians(old_res), medians(new_res)
    if old is None:
        return True, f"refused {old_name}"
    if new is None:
        return False, f"predicted {old_name}, refused at 0.9"
    ok = new[0] <= old[0] + POINT and new[1] <= old[1] + POINT
    return ok, (f"IOPS median {100 * old[0]:.1f}% → {100 * new[0]:.1f}%, WAF median "
                f"{100 * old[1]:.1f}% → {100 * new[1]:.1f}%")  # fmt: skip


def check(d: Path) -> list[str]:
    runs = [json.loads(p.read_text()) for p in sorted((d / "runs").glob("*.json"))]
    by = {(stem_of(Path(r["truth"])), r["case"], r["max_read_share"]): r for r in runs}
    head = "| truth | case | share | t_cmd/t_page | IOPS median / worst | WAF worst | met | CPU s |"
    lines = [head, "|---|---|---|---|---|---|---|---|"]
    for (stem, case, share), r in sorted(by.items()):
        j = ssdsim_rule.judge_case(r["result"])
        fit = r["result"].get("fit") or {}
        ratio = f"{fit['t_cmd_us'] / fit['t_page_us']:+.3f}" if fit.get("t_page_us") else "-"
        if "refused" in j:
            cells = f"refused: {j['refused'].replace(REFUSED, '')} | - | no"
        else:
            met = j["iops_ok"] and j["waf_ok"]
            cells = (f"{100 * j['iops_median']:.1f}% / {100 * j['iops_worst']:.1f}% | "
                     f"{100 * j['waf_worst']:.1f}% ({j['waf_worst_at']}%) | "
                     f"{'yes' if met else 'no'}")  # fmt: skip
        lines.append(f"| {stem} | {case} | {share:g} | {ratio} | {cells} | {r['cpu_s']:.0f} |")
    a = []
    for stem in FRESH:
        r = by.get((stem, PLAN_CASE, NEW))
        ok = (
            r is not None
            and ssdsim_rule.judge_case(r["result"])["iops_ok"]
            and ssdsim_rule.judge_case(r["result"])["waf_ok"]
        )
        a.append(ok)
        lines.append(f"A {stem}: {'not run' if r is None else ('met' if ok else 'missed')}")
    b = []
    pairs = sorted({(s, c) for s, c, sh in by if (s, c, OLD) in by and (s, c, NEW) in by})
    for s, c in sorted(pairs, key=lambda k: k not in NO_HARM):
        ok, text = no_harm(by[(s, c, OLD)]["result"], by[(s, c, NEW)]["result"], "at 0.5")
        if (s, c) in NO_HARM:
            b.append(ok)
            lines.append(f"B {s}, {c}: {text}: {'holds' if ok else 'fails'}")
        else:
            lines.append(f"beside the rule, 0.5 → 0.9: {s}, {c}: {text}")
    lines.append(
        f"A: {sum(a)} of {len(FRESH)} fresh drives met; B: {sum(b)} of {len(b)} "
        f"no-harm pairs run hold (the rule names {len(NO_HARM)})"
    )
    adopted = all(a) and len(b) == len(NO_HARM) and all(b)
    lines.append(
        "verdict: "
        + (
            "the rule passes on A and B (C: the tests)"
            if adopted
            else "the rule fails: MAX_READ_SHARE stays 0.5"
        )
    )
    return lines


#: bench/foreign/results/tcmd-bound2/RULE.md's truths and cases: fresh drives (A), the required
#: no-harm pairs, others judged if run (B), IOPS-only cases compared bit for bit (C)
FRESH2 = ("ssdsim-f", "ssdsim-g")
NO_HARM2 = (("eagletree", PLAN_CASE), ("mqsim", PLAN_CASE), ("patched-mqsim", PLAN_CASE),
            ("unseen-femu-26lun-84blk-thres70", PLAN_CASE))  # fmt: skip
UNCHANGED2 = (("unseen-femu-26lun-84blk-thres70", IOPS_CASE), ("patched-mqsim", IOPS_CASE))


def _judged(r: dict) -> str:
    j = ssdsim_rule.judge_case(r["result"])
    fit = r["result"].get("fit") or {}
    ratio = f"{fit['t_cmd_us'] / fit['t_page_us']:+.3f}" if fit.get("t_page_us") else "-"
    if "refused" in j:
        return f"{ratio} | refused: {j['refused'].replace(REFUSED, '')} | - | no"
    met = j["iops_ok"] and j["waf_ok"]
    waf = "-" if j["waf_worst"] is None else f"{100 * j['waf_worst']:.1f}% ({j['waf_worst_at']}%)"
    return (f"{ratio} | {100 * j['iops_median']:.1f}% / {100 * j['iops_worst']:.1f}% | {waf} | "
            f"{'yes' if met else 'no'}")  # fmt: skip


def check_with_waf(d: Path) -> list[str]:
    """tcmd-bound2's table, conditions A (fresh), B (no harm) and C (IOPS-only unchanged)."""
    runs = [json.loads(p.read_text()) for p in sorted((d / "runs").glob("*.json"))]
    by = {(stem_of(Path(r["truth"])), r["case"], r["max_read_share_with_waf"]): r for r in runs}
    lines = ["| truth | case | with WAF | t_cmd/t_page | IOPS median / worst | WAF worst | met "
             "| CPU s |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for (stem, case, share), r in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][1],
                                                                     kv[0][2] or 0.0)):  # fmt: skip
        tag = "off" if share is None else f"{share:g}"
        lines.append(f"| {stem} | {case} | {tag} | {_judged(r)} | {r['cpu_s']:.0f} |")
    a = []
    for stem in FRESH2:
        r = by.get((stem, PLAN_CASE, NEW))
        j = ssdsim_rule.judge_case(r["result"]) if r else None
        a.append(bool(j and j["iops_ok"] and j["waf_ok"]))
        lines.append(f"A {stem}: {'not run' if r is None else ('met' if a[-1] else 'missed')}")
    b, required = [], 0
    pairs = sorted({(s, c) for s, c, sh in by if (s, c, None) in by and (s, c, NEW) in by})
    for s, c in pairs:
        if (s, c) in UNCHANGED2:
            continue
        ok, text = no_harm(by[(s, c, None)]["result"], by[(s, c, NEW)]["result"], "off")
        b.append(ok)
        required += (s, c) in NO_HARM2
        lines.append(f"B {s}, {c}: {text}: {'holds' if ok else 'fails'}")
    c_ok = []
    for s, c in UNCHANGED2:
        old, new = by.get((s, c, None)), by.get((s, c, NEW))
        if old is None or new is None:
            c_ok.append(False)
            lines.append(f"C {s}, {c}: not run")
            continue
        same = {k: v for k, v in old["result"].items() if k != "wall_s"} == {
            k: v for k, v in new["result"].items() if k != "wall_s"}  # fmt: skip
        c_ok.append(same)
        lines.append(f"C {s}, {c}: {'the same to the bit' if same else 'DIFFERS'}")
    lines.append(f"A: {sum(a)} of {len(FRESH2)} fresh drives met; B: {sum(b)} of {len(b)} "
                 f"no-harm pairs hold ({required} of the {len(NO_HARM2)} required run); C: "
                 f"{sum(c_ok)} of {len(UNCHANGED2)} the same")  # fmt: skip
    passed = all(a) and required == len(NO_HARM2) and all(b) and all(c_ok)
    lines.append("verdict: " + ("the rule passes on A, B and C (D: the tests)" if passed else
                                "the rule fails: MAX_READ_SHARE_WITH_WAF stays None"))  # fmt: skip
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--truth", type=Path, required=True)
    r.add_argument("--case", required=True)
    r.add_argument("--share", action="append", required=True, help="a share, or off")
    r.add_argument("--with-waf", action="store_true", help="set fit.MAX_READ_SHARE_WITH_WAF")
    r.add_argument("--out", type=Path, default=None)
    c = sub.add_parser("check")
    c.add_argument("--dir", type=Path, default=DIR)
    c2 = sub.add_parser("check-with-waf")
    c2.add_argument("--dir", type=Path, default=DIR2)
    args = ap.parse_args(argv)
    if args.cmd == "run":
        out = args.out or ((DIR2 if args.with_waf else DIR) / "runs")
        for share in args.share:
            run(args.truth, args.case, None if share == "off" else float(share), out,
                args.with_waf)  # fmt: skip
    elif args.cmd == "check":
        print("\n".join(check(args.dir)))
    else:
        print("\n".join(check_with_waf(args.dir)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
