"""bench/foreign/results/fifogc/RULE.md's cases: evaluate.py's "WAF 0+40" on a WAF-only truth
(Dhara, sssl-ftlsim LRU) under one arm, and the verdict's tables.

    PYTHONPATH=python python bench/foreign/results/fifogc/case.py run ARM TRUTH.json
    PYTHONPATH=python python bench/foreign/results/fifogc/case.py table

ARM "today" (the defaults) or "fifo" (``EVALUATE_FLAGS="fifo_gc.OFFERED=True"``: calibrate with
the FIFO design offered, python/overprov/calibrate/fifo_gc.py). `run` writes ARM/STEM.json: the
case's result and its summary against the target (bench/foreign/results/newftl2/case.py's
``summary``: WAF within 5% at every level 0–40%). `table` prints per truth both arms and the
pooled counts with the unfitted levels' 80% coverage
(bench/foreign/results/freshtally/tally.py). Run from the worktree root.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parent.parent
sys.path.insert(0, str(FOREIGN))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

os.environ["TALLY_DIR"] = str(HERE)
newftl2 = load_script("fifogc_newftl2_case", HERE.parent / "newftl2" / "case.py")
evaluate, tally = newftl2.evaluate, newftl2.tally

CASE_NAME = "WAF 0+40"
ARMS = {"today": "", "fifo": "fifo_gc.OFFERED=True"}


def run(arm: str, truth: Path) -> None:
    newftl2.scoreboard.cap()
    os.environ[evaluate.FLAGS_ENV] = ARMS[arm]
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, doc["levels"][0]["queue_depth"])
    case = next(c for c in evaluate.WAF_CASES if c[0] == CASE_NAME)
    res = evaluate.evaluate_case(doc, curve, case, 1, [])
    out = {"truth": str(truth), "arm": arm, "flags": ARMS[arm], "case": CASE_NAME,
           "result": res | {"summary": newftl2.summary(res)}}  # fmt: skip
    path = HERE / arm / f"{truth.stem}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=1) + "\n")


def cell(s: dict) -> str:
    if s.get("refused"):
        return f"refused: {' '.join(s['error'] or [])[:90]}"
    worst = f"({s['waf_worst_level']}%, {100 * s['waf_worst_signed']:+.1f}%)"
    met = "**met**" if s["met"] else "not met"
    return f"{100 * s['waf_worst']:.1f}% {worst} {met}; {'; '.join(s['carry'])}"


def table() -> None:
    stems = sorted({p.stem for arm in ARMS for p in (HERE / arm).glob("*.json")})
    got = {a: {s: json.loads((HERE / a / f"{s}.json").read_text()) for s in stems
               if (HERE / a / f"{s}.json").exists()} for a in ARMS}  # fmt: skip
    print("| truth | today: worst (level) met; carrying | fifo: worst (level) met; carrying |")
    print("|---|---|---|")
    for s in stems:
        cells = [cell(got[a][s]["result"]["summary"]) if s in got[a] else "-" for a in ARMS]
        print(f"| {s} | {' | '.join(cells)} |")
    print("\n| arm | truths | met | unfitted levels in the 80% interval, median width |")
    print("|---|---|---|---|")
    for group, pick in (("Dhara fresh", "dhara-"), ("LRU", "sssl-")):
        for a in ARMS:
            cs = [d["result"] for s, d in got[a].items() if s.startswith(pick)]
            met = sum(c["summary"]["met"] for c in cs)
            print(f"| {group}, {a} | {len(cs)} | {met} of {len(cs)} | "
                  f"{tally.cover_text(tally.unfitted(cs))} |")  # fmt: skip


if __name__ == "__main__":
    ARGS = sys.argv[1:]
    if ARGS == ["table"]:
        table()
    elif len(ARGS) == 3 and ARGS[0] == "run" and ARGS[1] in ARMS:
        run(ARGS[1], Path(ARGS[2]))
    else:
        raise SystemExit(__doc__)
