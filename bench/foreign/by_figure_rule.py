"""Run and check the rule of results/qd4-by-figure/RULE.md: where neither the analytic nor the
blocking-GC reading reproduces its fitted figures, a reading that reproduces fewer of the shared
figures one by one than the other takes no weight (``evidence.REPRODUCED_BY_FIGURE``).

    python bench/foreign/by_figure_rule.py run --truth FILE --case NAME --out DIR
    python bench/foreign/by_figure_rule.py check --dir DIR [--dir DIR ...] [--unseen STEM,...]

``run`` runs ``overprov calibrate`` on one case of ``evaluate.py`` (the same command) with the
rule on and keeps its whole prediction in DIR/<truth stem>--<case>.json, beside the truth's
path and the CPU seconds; when the rule changed the blocking-GC weight of any reading (the
weight the likelihood alone gives, worked out from the χ² and reproduction flags the prediction
records, differs), the same case is run with it off too and kept beside (``"off"``); else off's
prediction is on's. ``check`` prints each kept case's QD32 IOPS errors against its truth (median
over the held-out levels 10-30%, and median / worst over 0-40%), on and off, the blocking-GC
weights, and each condition's verdict. Nothing is fitted here: the figures are calibrate's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "python"))
import evaluate  # noqa: E402
from overprov.calibrate import evidence  # noqa: E402

HELD_OUT = (10, 20, 30)
POINT = 0.01  # "no more than 1 point above off's"


def _calibrate(cmd: list[str], on: bool) -> tuple[dict, float]:
    """calibrate's prediction with the rule on or off, and the CPU seconds it took."""
    pre = f"from overprov.calibrate import evidence; evidence.REPRODUCED_BY_FIGURE = {on}; "
    wrapped = [sys.executable, "-c", f"import sys; {pre}from overprov.cli import main; "
               "sys.exit(main())", *cmd[3:]]  # fmt: skip
    before = os.times()
    with tempfile.TemporaryDirectory() as out:
        res = subprocess.run([*wrapped, "--out", out], capture_output=True, text=True,
                             env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"},
                             cwd=ROOT)  # fmt: skip
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    if res.returncode != 0:
        raise RuntimeError(res.stderr.strip().splitlines()[-1:])
    return json.loads(res.stdout), cpu


def mechanisms(pred: dict) -> list[dict]:
    """Every reading's blocking-GC record (the combined prediction's readings, or its own)."""
    docs = list((pred.get("readings") or {}).values()) or [pred]
    return [d["fit"]["gc_mechanism"] for d in docs if d.get("fit", {}).get("gc_mechanism")]


def likelihood_weight(m: dict) -> float:
    """The blocking-GC weight the likelihood alone gives from the record's χ² and flags."""
    chi2 = {"analytic": m["analytic_chi2"], "blocking": m["chi2"]}
    ok = {"analytic": m["analytic_reproduces_fitted_figures"],
          "blocking": m["reproduces_fitted_figures"]}  # fmt: skip
    kept = evidence.REPRODUCED_BY_FIGURE, evidence.REFUTED_WEIGHTS
    evidence.REPRODUCED_BY_FIGURE, evidence.REFUTED_WEIGHTS = False, "likelihood"
    try:
        return evidence.weights(chi2, ok)["blocking"]
    finally:
        evidence.REPRODUCED_BY_FIGURE, evidence.REFUTED_WEIGHTS = kept


def heaviest_blocking_weight(pred: dict) -> float:
    """The blocking-GC weight of the heaviest reading that has one (0 when none has)."""
    docs = [d for d in (pred.get("readings") or {}).values() or [pred]
            if d.get("fit", {}).get("gc_mechanism")]  # fmt: skip
    if not docs:
        return 0.0
    top = max(docs, key=lambda d: d.get("weight", 1.0))
    return top["fit"]["gc_mechanism"]["weight"]


def fired(pred: dict) -> bool:
    return any(abs(m["weight"] - likelihood_weight(m)) > 1e-9 for m in mechanisms(pred))


def case_command(truth: Path, case_name: str) -> tuple[list[str], dict]:
    """``evaluate.py``'s calibrate command for the case on the truth, and the kept file's head
    (the truth's path, the case, the command, the date)."""
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, 32)
    others = [r for r in doc["levels"] if r["queue_depth"] != 32]
    case = next(c for c in evaluate.CASES if c[0] == case_name)
    cmd = evaluate.command(doc, curve, case, 1, others)
    head = {"truth": str(truth.resolve().relative_to(ROOT)), "case": case_name,
            "command": "overprov " + " ".join(cmd[3:]),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}  # fmt: skip
    return cmd, head


def run(truth: Path, case_name: str, out: Path) -> Path:
    cmd, head = case_command(truth, case_name)
    on, cpu = _calibrate(cmd, True)
    kept = {**head, "on": on, "fired": fired(on), "cpu_s": cpu}
    if kept["fired"]:
        kept["off"], cpu_off = _calibrate(cmd, False)
        kept["cpu_s"] += cpu_off
    out.mkdir(parents=True, exist_ok=True)
    path = case_path(truth, case_name, out)
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{path.name}: fired {kept['fired']}, {kept['cpu_s']:.0f} CPU s", flush=True)
    return path


def case_path(truth: Path, case_name: str, out: Path) -> Path:
    """DIR/<truth stem>--<case>.json, the stem prefixed by its folder unless that is results/ or
    unseen/."""
    top = truth.parent.name in ("results", "unseen")
    stem = truth.stem if top else f"{truth.parent.name}-{truth.stem}"
    return out / f"{stem}--{''.join(ch for ch in case_name if ch.isalnum())}.json"


def qd32_errors(pred: dict, truth: dict) -> dict[int, float]:
    t = {int(r["extra_op_percent"]): r["steady_iops"] for r in truth["levels"]
         if r["queue_depth"] == 32}  # fmt: skip
    return {int(lv["extra_op_percent"]): abs(lv["steady_iops"] / t[int(lv["extra_op_percent"])]
                                            - 1) for lv in pred["levels"]}  # fmt: skip


def figures(pred: dict, truth: dict) -> dict[str, float]:
    e = qd32_errors(pred, truth)
    w = heaviest_blocking_weight(pred)
    return {"held_out_median": statistics.median(e[x] for x in HELD_OUT),
            "median": statistics.median(e.values()), "worst": max(e.values()),
            "blocking_weight": w}  # fmt: skip


def check(folders: list[Path], unseen: list[str]) -> bool:
    rows = []
    for f in sorted(f for folder in folders for f in folder.glob("*--*.json")):
        k = json.loads(f.read_text())
        truth = json.loads((ROOT / k["truth"]).read_text())
        on = figures(k["on"], truth)
        off = figures(k.get("off") or k["on"], truth)
        rows.append((f.name.split("--")[0], k["case"], on, off, k["fired"]))
    print(
        "| truth | case | rule | QD32 IOPS held-out median (10-30%), off → on | median / worst "
        "(0-40%), off → on | blocking-GC weight (heaviest reading's), off → on |"
    )
    print("|---|---|---|---|---|---|")
    for t, c, on, off, f in rows:
        print(f"| {t} | {c} | {'fired' if f else 'no change'} | "
              f"{100 * off['held_out_median']:.1f}% → {100 * on['held_out_median']:.1f}% | "
              f"{100 * off['median']:.1f}% / {100 * off['worst']:.1f}% → "
              f"{100 * on['median']:.1f}% / {100 * on['worst']:.1f}% | "
              f"{off['blocking_weight']:.2f} → {on['blocking_weight']:.2f} |")  # fmt: skip
    verdict = []
    for stem in unseen:  # R1: accuracy on each unseen truth
        mine = [r for r in rows if r[0] == stem]
        meds = [r[2]["median"] for r in mine]
        ok = len(mine) >= 2 and statistics.median(meds) <= 0.10
        verdict.append(ok)
        print(f"R1 {stem}: QD32 medians {[f'{100 * m:.1f}%' for m in meds]} -> "
              f"{'holds' if ok else 'fails'}")  # fmt: skip
    for t, c, on, off, _ in rows:  # R2 (unseen), R3 (MQSim), R4 (seen): no worse than off
        keys = ("held_out_median", "median") + (("worst",) if "mqsim" in t else ())
        why = [f"{k} worse by more than 1 point" for k in keys if on[k] > off[k] + POINT]
        if "mqsim" in t and abs(on["blocking_weight"] - off["blocking_weight"]) > 0.1:
            why.append("the blocking-GC weight moved by more than 0.1")
        verdict.append(not why)
        rule = "R2" if t in unseen else "R3" if "mqsim" in t else "R4"
        print(f"{rule} {t}, {c}: {'fails: ' + '; '.join(why) if why else 'holds'}")
    print(
        f"rule: {'passes' if verdict and all(verdict) else 'fails'} "
        f"({sum(verdict)} of {len(verdict)} conditions hold)"
    )
    return bool(verdict) and all(verdict)


def add_run_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """The ``run`` subcommand: a truth file, one or more ``evaluate.py`` case names, a folder."""
    r = sub.add_parser("run")
    r.add_argument("--truth", type=Path, required=True)
    r.add_argument("--case", action="append", required=True)
    r.add_argument("--out", type=Path, required=True)
    return r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    add_run_parser(sub)
    c = sub.add_parser("check")
    c.add_argument("--dir", type=Path, action="append", required=True)
    c.add_argument("--unseen", default="", help="truth stems that are unseen (R1, R2)")
    args = ap.parse_args(argv)
    if args.what == "run":
        for name in args.case:
            run(args.truth, name, args.out)
        return 0
    check(args.dir, [s for s in args.unseen.split(",") if s])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
