"""bench/foreign/results/wafrefine/RULE.md's cases: evaluate.py's "WAF 0+40" on a WAF-only
truth as newftl2's case.py runs it (``evaluate.evaluate_case``, summary by newftl2's
``summary``), under arm "today" (the defaults) or "refine" (``twin.WAF_REFINE`` on), and the
verdict's table.

    PYTHONPATH=python python bench/foreign/results/wafrefine/case.py run ARM TRUTH.json
    PYTHONPATH=python python bench/foreign/results/wafrefine/case.py table

`run` writes ARM/STEM.json; `table` prints both arms per truth, the counts met and tally.py's
80% coverage of the unfitted levels. Run from the worktree root.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

newftl2 = load_script("wafrefine_newftl2_case", HERE.parent / "newftl2" / "case.py")
os.environ["TALLY_DIR"] = str(HERE)
evaluate, tally = newftl2.evaluate, newftl2.tally
ARMS = {"today": "", "refine": "twin.WAF_REFINE=True"}
CASE_NAME = "WAF 0+40"


def run(arm: str, truth: Path) -> None:
    newftl2.scoreboard.cap()
    os.environ[evaluate.FLAGS_ENV] = ARMS[arm]
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, doc["levels"][0]["queue_depth"])
    case = {c[0]: c for c in evaluate.WAF_CASES}[CASE_NAME]
    res = evaluate.evaluate_case(doc, curve, case, 1, [])
    out = {"truth": str(truth), "arm": arm, "flags": ARMS[arm], "case": CASE_NAME,
           "result": res | {"summary": newftl2.summary(res)}}  # fmt: skip
    path = HERE / arm / f"{truth.stem}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=1) + "\n")


def _cell(s: dict) -> str:
    if s.get("refused"):
        return "refused"
    worst = f"{100 * s['waf_worst_signed']:+.1f}% ({s['waf_worst_level']}%)"
    return f"{worst} {'**met**' if s['met'] else 'not met'}; {', '.join(s['carry'])}"


def _fitted_misses(res: dict) -> dict[float, float]:
    return {r["extra_op_percent"]: r["waf_err"] for r in res.get("levels", [])
            if r.get("fitted_waf")}  # fmt: skip


def table() -> None:
    got = {a: {p.stem: json.loads(p.read_text()) for p in sorted((HERE / a).glob("*.json"))}
           for a in ARMS}  # fmt: skip
    print("| truth | " + " | ".join(f"{a}: worst (level), met; carrying" for a in ARMS)
          + " | fitted levels' WAF error, today → refine |")  # fmt: skip
    print("|---|" + "---|" * (len(ARMS) + 1))
    for s in sorted({s for a in ARMS for s in got[a]}):
        cells = [_cell(got[a][s]["result"]["summary"]) if s in got[a] else "-" for a in ARMS]
        fit = {a: _fitted_misses(got[a][s]["result"]) if s in got[a] else {} for a in ARMS}
        after = fit["refine"]
        moves = ", ".join(
            f"{x:g}%: {100 * e:+.1f}% → {100 * after.get(x, float('nan')):+.1f}%"
            for x, e in sorted(fit["today"].items())
        )
        print(f"| {s} | {' | '.join(cells)} | {moves} |")
    for a in ARMS:
        cs = [d["result"] for d in got[a].values()]
        dh = [d["result"] for s, d in got[a].items() if s.startswith("dhara")]
        met = sum(c["summary"]["met"] for c in dh)
        print(
            f"\n{a}: Dhara met {met} of {len(dh)}; all met {sum(c['summary']['met'] for c in cs)}"
            f" of {len(cs)}; unfitted Dhara levels {tally.cover_text(tally.unfitted(dh))}"
        )


if __name__ == "__main__":
    ARGS = sys.argv[1:]
    if ARGS == ["table"]:
        table()
    elif len(ARGS) == 3 and ARGS[0] == "run" and ARGS[1] in ARMS:
        run(ARGS[1], Path(ARGS[2]))
    else:
        raise SystemExit(__doc__)
