"""bench/foreign/results/wafrefine/RULE.md's cases: evaluate.py's "WAF 0+40" on a WAF-only
truth as newftl2's case.py runs it (fifogc's ``run``: ``evaluate.evaluate_case``, newftl2's
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

fifogc = load_script("wafrefine_fifogc_case", HERE.parent / "fifogc" / "case.py")
os.environ["TALLY_DIR"] = str(HERE)
tally = fifogc.tally
ARMS = {"today": "", "refine": "twin.WAF_REFINE=True"}
fifogc.ARMS.clear()
fifogc.ARMS.update(ARMS)
fifogc.HERE = HERE  # its run() writes ARM/STEM.json here


def run(arm: str, truth: Path) -> None:
    """fifogc's ``run`` (newftl2's case and summary) under this rule's arms, into this folder."""
    fifogc.run(arm, truth)


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
        cells = [fifogc.cell(got[a][s]["result"]["summary"]) if s in got[a] else "-" for a in ARMS]
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


def main(argv: list[str]) -> None:
    if argv == ["table"]:
        return table()
    if len(argv) != 3 or argv[0] != "run" or argv[1] not in ARMS:
        raise SystemExit(__doc__)
    run(argv[1], Path(argv[2]))


if __name__ == "__main__":
    main(sys.argv[1:])
