"""RULE.md's conditions (S1, S2 on the stored drives; F1, F2 on the fresh ones) from the twin's
tables (``twin-u*.json`` by ``twin.py``) and MQSim's curves, written to verdict.md; mqsched's
curves and errors and mqskip's page error reused.

    PYTHONPATH=python python bench/foreign/results/mqlockstep/verdict.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
_mqskip = load_script("mqskip_verdict", HERE.parent / "mqskip" / "verdict.py")
#: mqsched's verdict (curves, errors, judged) and ``mqsim_pairing``; mqskip's page error.
mqsched, m, page_error = _mqskip.mqsched, _mqskip.m, _mqskip.page_error

SEEN = mqsched.SEEN
FRESH = ("832x32", "1408x16")
CASES = ("base", "in flight 2, paired reads")
PAIRING = ("programs_paired", "both_collecting")


def judged(drives: tuple[str, ...], truth_of) -> dict[str, dict]:
    """mqskip's per-drive figures (mqsched's, base as "off", the case as "on", each one's 0%
    error and its middle levels' mean error) on this folder's tables."""
    _mqskip.HERE, _mqskip.CASES = HERE, CASES
    return _mqskip.judged(drives, truth_of)


def zero_error(case: dict, truth: dict) -> float:
    """The 0% time per NAND page's signed error, in points."""
    return 100 * (case["page_time_us"][0] / truth["page_time_us"][0] - 1)


#: The table's columns after the drive: a header and a cell from a drive's figures.
COLUMNS = (
    ("time per NAND page at 0 / 10 / 20 / 30 / 40%, µs: MQSim ; base ; on",
     lambda r: " ; ".join(" / ".join(f"{t:.0f}" for t in r[k]["page_time_us"])
                          for k in ("truth", "off", "on"))),
    ("0% error base → on",
     lambda r: " → ".join(f"{zero_error(r[k], r['truth']):+.1f}" for k in ("off", "on"))),
    ("10–30% mean error base → on", lambda r: f"{r['mid']['off']:.1f} → {r['mid']['on']:.1f}"),
    ("E_form base → on", lambda r: f"{r['e_off'][0]:.1f} → {r['e_on'][0]:.1f}"),
    ("at 0%: programs paired, both planes collecting, base → on",
     lambda r: ", ".join(f"{r['off'][k][0]:.2f} → {r['on'][k][0]:.2f}" for k in PAIRING)),
)  # fmt: skip


def rows(drives: dict) -> list[str]:
    """The markdown table of ``drives``' figures."""
    head = "| drive | " + " | ".join(h for h, _ in COLUMNS) + " |"
    rule = "|---" * (len(COLUMNS) + 1) + "|"
    cells = ("| u" + " | ".join([d, *(f(r) for _, f in COLUMNS)]) + " |"
             for d, r in drives.items())  # fmt: skip
    return [head, rule, *cells]


def seed_lines(fresh: dict) -> list[str]:
    """Beside the verdict, not judged: the case's 0% error with the seeds of ``seeds.json``
    (run after the verdict by ``seeds.py``), on the fresh drives that ran."""
    path = HERE / "seeds.json"
    if not path.exists():
        return []
    doc = json.loads(path.read_text())
    out = []
    for d, r in fresh.items():
        times = doc["page_time_us"].get(f"u{d}, {CASES[1]}", [])
        truth = r["truth"]["page_time_us"][0]
        errs = " / ".join(f"{100 * (t / truth - 1):+.2f}" for t in times)
        out.append(f"- Beside the verdict (not judged, `seeds.py`): u{d}'s 0% error with seeds "
                   f"{', '.join(map(str, doc['seeds']))}: {errs}%.")  # fmt: skip
    return [*out, ""] if out else []


def main() -> int:
    stored = json.loads(mqsched.STORED.read_text())
    seen = judged(SEEN, lambda d: m.stored_case(stored, *map(int, d.split("x"))))
    fresh = judged(FRESH, lambda d: mqsched.fresh_truth(d, HERE / "fresh"))
    # RULE.md's S1, S2, F1, F2 are mqskip's (its S3 is not judged here)
    c = _mqskip.conditions(seen, fresh)
    said = {
        "S1": f"0% within 10% of MQSim on {len(c['zero'])} of {len(seen)} drives "
        f"({', '.join('u' + d for d in c['zero']) or 'none'})",
        "S2": "middle levels' mean error at most 2 points above base on each",
        "F1": "0% within 10% of MQSim on each",
        "F2": "S2's condition on each",
    }
    state = {k: f"- {k}: {v}: **{'holds' if c[k] else 'fails'}**." for k, v in said.items()}
    failed = [k for k in said if not c[k]]
    verdict = "no twin form" if failed else "a twin form for MQSim's 0%"
    out = [
        "# bench/foreign/results/mqlockstep/RULE.md's verdict: two collections in flight a "
        "plane, reads shared by paired relocations",
        "",
        "`bench/foreign/results/mqlockstep/verdict.py` on `twin-u*.json`, `fresh/u*.json` and "
        "`bench/foreign/results/mqsim-form/stored.json`. Base: mqmid's twin with both timing "
        "options; on: the same with `timing.gc.collections_in_flight = 2` and "
        "`timing.gc.paired_reads`. Errors in points of |time per NAND page / MQSim's − 1| "
        "(signed at 0%); E_form: mqsched's line-bend error, not judged.",
        "",
        "## Seen: the stored drives (the case was chosen on them: not evidence)",
        "",
        *rows(seen),
        "",
        state["S1"],
        state["S2"],
        f"- Beside them (not judged): median E_form {c['form']['e_off']:.1f} → "
        f"{c['form']['e_on']:.1f}.",
        "",
        "## Held out: the fresh drives",
        "",
        *rows(fresh),
        "",
        f"- Fresh drives run: {', '.join('u' + d for d in fresh) or 'none'} "
        f"(of {', '.join('u' + d for d in FRESH)}).",
        state["F1"],
        state["F2"],
        "",
        *seed_lines(fresh),
        f"**Verdict: {verdict}**"
        + (f" ({', '.join(failed)} failed)" if failed else "")
        + " (RULE.md; nothing changes in calibrate, the core's defaults stay off).",
    ]
    (HERE / "verdict.md").write_text(text := "\n".join(out) + "\n")
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
