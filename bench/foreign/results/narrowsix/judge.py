"""Judge bench/foreign/results/narrowsix/RULE.md: today's defaults (femucarry's six reserve
flags on) against the arm (conformal_scale.ON with the scale measured without the case's family,
steep_pair.HULL_WHERE_AMBIGUOUS as redefined for the six on), both run for real: status72's
cases (bench/foreign/results/status72/cases/) against arm-72/ on the 72; fresh-defaults/ against
fresh-arm/ on the five fresh truths; G on the d-choices-2 drive of
tests/calibrate/test_gc_designs.py with the arm's flags (its twins simulated, ≈ 3 CPU s).

The counting, clauses C1–C4 and F1–F4 and the verdict's tables are narrowtwo's judge's
(bench/foreign/results/narrowtwo/judge.py, loaded and pointed at this folder and status72's
cases: the clauses are the same in narrowtwo's terms); this script adds G, names C1's 432 and
says how the 72 were run. The rule's one fallback (a case of the 72 not run: feasible.py's
estimate) was not needed: every case ran, which this script checks (it stops otherwise). Writes
results.json and verdict.md (with reading.md appended when it exists). ≈ 8 CPU s.

    PYTHONPATH=python python bench/foreign/results/narrowsix/judge.py
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path.insert(0, str(RESULTS.parent))
sys.path.insert(0, str(RESULTS.parents[2] / "tests" / "calibrate"))
from common import load_script, write_results  # noqa: E402  (bench/foreign/common.py)

NTJ = load_script("narrowtwo_judge", RESULTS / "narrowtwo" / "judge.py")
FEAS = load_script("narrowsix_feasible", HERE / "feasible.py")
FRESH = {  # stem in fresh/ -> family
    "nvmevirt-ag": "NVMeVirt", "nvmevirt-ah": "NVMeVirt", "femu-68lun-39blk-thres65": "FEMU",
    "femu-70lun-44blk-thres62": "FEMU", "u800x32": "MQSim",
}  # fmt: skip
C1_THEIRS = "C1 pooled coverage of the 426 within 70-90%"
C1_OURS = "C1 pooled coverage of the 432 within 70-90%"
G = "G the d-choices-2 drive's WAF band holds its truth at 10% and 20%"


def arm_docs(docs: dict[str, dict]) -> tuple[dict[str, dict | None], dict[str, list[str]]]:
    """stem → the arm's case run here; stops where one of the 72 was not run (the rule's
    fallback would apply: not implemented, as every case ran)."""
    got = {s: NTJ.load(HERE / "arm-72" / f"{s}.json", s) for s in docs}
    missing = [s for s, g in got.items() if g is None]
    if missing:
        raise SystemExit(f"not run: {missing}; the rule's fallback (feasible.py) is needed")
    return got, {"fallback": [], "checked_same": [], "checked_differ": []}


def g_clause() -> dict:
    """G: the d-choices-2 drive's WAF band at 10% and 20% with the arm's flags."""
    from overprov.calibrate import conformal_scale, spare_readings, steep_pair
    from overprov.calibrate import predict as predmod
    from test_gc_designs import D_CHOICES_2, truth, two_levels

    was = conformal_scale.ON, steep_pair.HULL_WHERE_AMBIGUOUS
    conformal_scale.ON, steep_pair.HULL_WHERE_AMBIGUOUS = True, True
    try:
        fig = predmod.PredictionInput(
            two_levels(D_CHOICES_2), [0.0, 10.0, 20.0, 40.0], typed=True, jobs=1
        )
        pred = spare_readings.read_all(fig)
    finally:
        conformal_scale.ON, steep_pair.HULL_WHERE_AMBIGUOUS = was
    out: dict = {}
    for lv in pred.levels:
        if lv.extra_op_percent in (10.0, 20.0):
            t = truth(D_CHOICES_2, lv.extra_op_percent)
            out[f"{lv.extra_op_percent:g}%"] = {
                "truth": t, "waf": lv.waf, "low": lv.waf_low, "high": lv.waf_high,
                "inside": lv.waf_low <= t <= lv.waf_high,
            }  # fmt: skip
    out["says_spans_both"] = steep_pair.WARNING_SPANNED in pred.prediction_source
    return out


def g_lines(g: dict) -> list[str]:
    return [
        "## G: the d-choices-2 drive of tests/calibrate/test_gc_designs.py with the arm's flags",
        "",
        *(
            f"- WAF at {k}: truth {g[k]['truth']:.4g}, centre {g[k]['waf']:.4g}, band "
            f"{g[k]['low']:.4g}–{g[k]['high']:.4g} {'in' if g[k]['inside'] else '**out**'}"
            for k in ("10%", "20%")
        ),
        f"- the answer says the interval spans both readings: {g['says_spans_both']}",
        "",
    ]


def retitled(text: str) -> str:
    """narrowtwo's verdict text named for this rule and its 72."""
    out = []
    for line in text.splitlines():
        if line.startswith("# Verdict:"):
            line = ("# Verdict: the model-form scale and the hull with the six reserve flags on "
                    "(bench/foreign/results/narrowsix/RULE.md)")  # fmt: skip
        elif line.startswith("## The 72 (today:"):
            line = ("## The 72 (today: bench/foreign/results/status72/cases/; arm: arm-72/, each "
                    "family with the scale measured without it)")  # fmt: skip
        elif line.startswith("- run here:"):
            line = "- run here: 72 of 72 (the rule's fallback, feasible.py's estimate, not needed)"
        out.append(line.replace("narrowtwo", "narrowsix").replace(C1_THEIRS, C1_OURS))
    return "\n".join(out) + "\n"


def main() -> int:
    captured: dict = {}
    NTJ.HERE, NTJ.FRESH, NTJ.arm_docs = HERE, FRESH, arm_docs
    NTJ.today = SimpleNamespace(docs=FEAS.status_docs)
    write_verdict = NTJ.write_verdict  # narrowtwo's writer, reading this folder (NTJ.HERE)
    NTJ.write_results = lambda path, doc: captured.update(doc)
    NTJ.write_verdict = lambda doc: None
    with contextlib.redirect_stdout(io.StringIO()):
        NTJ.main()
    doc = captured
    doc["clauses"] = {(C1_OURS if k == C1_THEIRS else k): v for k, v in doc["clauses"].items()}
    doc["g"] = g_clause()
    doc["clauses"][G] = all(doc["g"][k]["inside"] for k in ("10%", "20%"))
    doc["adopted"] = all(doc["clauses"].values())
    doc["provisional"] = False  # every case of the 72 ran (arm_docs)
    write_results(HERE / "results.json", doc)
    reading = HERE / "reading.md"
    reading_text = reading.read_text() if reading.exists() else ""
    aside = HERE / "reading.md.aside"
    if reading_text:  # narrowtwo's writer appends it: G goes before it
        reading.rename(aside)
    try:
        write_verdict(doc)
    finally:
        if reading_text:
            aside.rename(reading)
    verdict = HERE / "verdict.md"
    text = retitled(verdict.read_text()) + "\n".join(g_lines(doc["g"])) + reading_text
    verdict.write_text(text)
    print("\n".join(f"{k}: {'holds' if v else 'FAILS'}" for k, v in doc["clauses"].items()))
    print(f"adopted: {doc['adopted']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
