"""bench/foreign/results/metafactor/RULE.md's cases: evaluate.py's "WAF 0+40" with the truth's
FOB WAF typed (``--fob-waf``) on a Dhara truth under one arm, and the verdict's tables.

    PYTHONPATH=python python bench/foreign/results/metafactor/case.py run ARM TRUTH.json [seen]
    PYTHONPATH=python python bench/foreign/results/metafactor/case.py table [seen]

ARM "today" (the defaults: the figure typed, not applied) or "factor"
(``EVALUATE_FLAGS="metadata_factor.ENABLED=True"``, python/overprov/calibrate/
metadata_factor.py). The FOB WAF typed is the truth's 0% level's ``fob.waf`` (the run from
empty, before any page is copied) to 4 decimals. `run` writes ARM/STEM.json: the case's result
and its summary against the target (bench/foreign/results/newftl2/case.py's ``summary``: WAF
within 5% at every level 0–40%); `table` prints per truth both arms (fifogc's ``cell``) and
the pooled counts with the unfitted levels' 80% coverage
(bench/foreign/results/freshtally/tally.py). With ``seen`` both write and read seen/ARM/ (the
diagnosis after the verdict on the nine seen Dhara drives, newftl2 A–E and fifogc F–I; no
clause reads them). Run from the worktree root.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parent.parent
sys.path.insert(0, str(FOREIGN))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

os.environ["TALLY_DIR"] = str(HERE)
fifogc = load_script("metafactor_fifogc_case", HERE.parent / "fifogc" / "case.py")
newftl2, evaluate, tally = fifogc.newftl2, fifogc.evaluate, fifogc.tally

ARMS = {"today": "", "factor": "metadata_factor.ENABLED=True"}


def fob_waf(doc: dict) -> float:
    """The truth's FOB WAF as typed: its 0% level's ``fob.waf``, 4 decimals."""
    level = next(lv for lv in doc["levels"] if lv["extra_op_percent"] == 0)
    return round(level["fob"]["waf"], 4)


def run(arm: str, truth: Path, root: Path = HERE) -> None:
    newftl2.scoreboard.cap()
    os.environ[evaluate.FLAGS_ENV] = ARMS[arm]
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, doc["levels"][0]["queue_depth"])
    case = next(c for c in evaluate.WAF_CASES if c[0] == fifogc.CASE_NAME)
    cmd = [*evaluate.command(doc, curve, case, 1, []), "--fob-waf", f"{fob_waf(doc):.4f}"]
    with tempfile.TemporaryDirectory() as tmp:
        res = evaluate.run_case(cmd, curve, case, Path(tmp))
    out = {"truth": str(truth), "arm": arm, "flags": ARMS[arm], "case": fifogc.CASE_NAME,
           "fob_waf": fob_waf(doc), "result": res | {"summary": newftl2.summary(res)}}  # fmt: skip
    path = root / arm / f"{truth.stem}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1) + "\n")


def table(root: Path = HERE) -> None:
    got = {a: {p.stem: json.loads(p.read_text()) for p in sorted((root / a).glob("*.json"))}
           for a in ARMS}  # fmt: skip
    stems = sorted(set().union(*got.values()))
    print(f"| truth (FOB WAF) | {' | '.join(f'{a}: worst (level) met; carrying' for a in ARMS)} |")
    print("|---|" + "---|" * len(ARMS))
    for s in stems:
        m = next(got[a][s]["fob_waf"] for a in ARMS if s in got[a])
        cells = [fifogc.cell(got[a][s]["result"]["summary"]) if s in got[a] else "-" for a in ARMS]
        print(f"| {s} ({m:.4f}) | {' | '.join(cells)} |")
    print("\n| arm | truths | met | unfitted levels in the 80% interval, median width |")
    print("|---|---|---|---|")
    for a in ARMS:
        cs = [d["result"] for d in got[a].values()]
        met = sum(c["summary"]["met"] for c in cs)
        print(f"| {a} | {len(cs)} | {met} of {len(cs)} | {tally.cover_text(tally.unfitted(cs))} |")


if __name__ == "__main__":
    ARGS = sys.argv[1:]
    ROOT = HERE / "seen" if ARGS[-1:] == ["seen"] else HERE
    ARGS = ARGS[:-1] if ROOT != HERE else ARGS
    if ARGS == ["table"]:
        table(ROOT)
    elif len(ARGS) == 3 and ARGS[0] == "run" and ARGS[1] in ARMS:
        run(ARGS[1], Path(ARGS[2]), ROOT)
    else:
        raise SystemExit(__doc__)
