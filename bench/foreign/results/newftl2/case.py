"""bench/foreign/results/newftl2/PLAN.md's cases on a WAF-only truth (Dhara: no IOPS, so not
the scoreboard's plan case) and REPORT.md's tables from them.

    PYTHONPATH=python python bench/foreign/results/newftl2/case.py run TRUTH.json
    PYTHONPATH=python python bench/foreign/results/newftl2/case.py table

`run` runs calibrate (today's defaults) on evaluate.py's "WAF 0+40" and "WAF 0+40, raw NAND"
cases (`evaluate.evaluate_case`, each capped at the scoreboard's CPU seconds) and writes
cases/STEM.json: each case's result and its summary against PLAN.md's target (WAF within 5% at
every level 0–40%). `table` prints the per-truth rows and the pooled counts, with tally.py's
80% coverage and median width at the unfitted levels; CPU s from runs.log. Run from the
worktree root.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parent.parent
sys.path.insert(0, str(FOREIGN.parent))
sys.path.insert(0, str(FOREIGN))
import evaluate  # noqa: E402
from common import load_script  # noqa: E402

os.environ["TALLY_DIR"] = str(HERE)
tally = load_script("newftl2_tally", FOREIGN / "results" / "freshtally" / "tally.py")
scoreboard = load_script("newftl2_run", FOREIGN / "results" / "scoreboard" / "run.py")

CASE_NAMES = ("WAF 0+40", "WAF 0+40, raw NAND")
TARGET_WAF = 0.05


def summary(res: dict) -> dict:
    """WAF median / worst error over the levels 0–40% (fitted included), the worst level, met
    (every level within TARGET_WAF), the readings carrying ≥ 0.1."""
    if "levels" not in res:
        return {"refused": True, "met": False, "error": res.get("error")}
    errs = {r["extra_op_percent"]: r["waf_err"] for r in res["levels"]}
    worst = max(errs, key=lambda x: abs(errs[x]))
    carry = sorted(((w, k) for k, w in (res.get("readings") or {}).items() if w >= 0.1),
                   reverse=True)  # fmt: skip
    return {
        "waf_median": statistics.median(abs(e) for e in errs.values()),
        "waf_worst": abs(errs[worst]),
        "waf_worst_level": worst,
        "waf_worst_signed": errs[worst],
        "met": all(abs(e) <= TARGET_WAF for e in errs.values()),
        "carry": [f"{k} {w:.2f}" for w, k in carry] or ["one reading"],
    }


def run(truth: Path) -> None:
    scoreboard.cap()
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, doc["levels"][0]["queue_depth"])
    cases = {c[0]: c for c in evaluate.WAF_CASES}
    out = {"truth": str(truth), "cases": {}}
    for name in CASE_NAMES:
        res = evaluate.evaluate_case(doc, curve, cases[name], 1, [])
        out["cases"][name] = res | {"summary": summary(res)}
    path = HERE / "cases" / f"{truth.stem}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=1) + "\n")


def cpu_by_truth(log: Path) -> dict[str, float]:
    got = {}
    for line in log.read_text().splitlines() if log.exists() else []:
        m = re.match(r"\S+ cases (\S+): rc -?\d+, ([\d.]+) CPU s", line)
        if m:
            got[m.group(1)] = float(m.group(2))
    return got


def table() -> None:
    docs = {p.stem: json.loads(p.read_text()) for p in sorted((HERE / "cases").glob("*.json"))}
    cpu = cpu_by_truth(HERE / "runs.log")
    print("| truth | case | WAF median / worst (worst level) | met | readings carrying ≥ 0.1 "
          "| CPU s (both cases) |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for stem, d in docs.items():
        for name in CASE_NAMES:
            s = d["cases"][name]["summary"]
            if s.get("refused"):
                cell, met = f"refused: {' '.join(s['error'] or [])[:120]}", "no"
            else:
                worst = f"({s['waf_worst_level']}%, {100 * s['waf_worst_signed']:+.1f}%)"
                cell = f"{100 * s['waf_median']:.1f}% / {100 * s['waf_worst']:.1f}% {worst}"
                met = "**yes**" if s["met"] else "no"
            carry = "; ".join(s.get("carry", []))
            print(f"| newftl2/{stem}.json | {name} | {cell} | {met} | {carry} | "
                  f"{cpu.get(stem, float('nan')):.0f} |")  # fmt: skip
    print("\n| case | truths | met the target | refused | unfitted levels in the 80% interval, "
          "median width |")  # fmt: skip
    print("|---|---|---|---|---|")
    for name in CASE_NAMES:
        cs = [d["cases"][name] for d in docs.values()]
        met = sum(c["summary"]["met"] for c in cs)
        refused = sum(bool(c["summary"].get("refused")) for c in cs)
        print(f"| Dhara, {name} | {len(cs)} | {met} of {len(cs)} | {refused} | "
              f"{tally.cover_text(tally.unfitted(cs))} |")  # fmt: skip


def main(argv: list[str]) -> int:
    if argv[:1] == ["run"] and len(argv) == 2:
        run(Path(argv[1]))
    elif argv == ["table"]:
        table()
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
