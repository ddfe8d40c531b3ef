"""RULE.md's conditions (S1, S2 on the stored drives; F1, F2 on the fresh ones) from the twin's
tables (``twin-u*.json`` by ``twin.py``) and MQSim's curves, written to verdict.md; mqsched's
curves and errors and mqskip's page error reused.

    PYTHONPATH=python python bench/foreign/results/mqlockstep/verdict.py
"""

from __future__ import annotations

import importlib.util
import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location(
    "mqskip_verdict", HERE.parent / "mqskip" / "verdict.py"
)
_mqskip = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mqskip)
#: mqsched's verdict (curves, errors, judged) and ``mqsim_pairing``; mqskip's page error.
mqsched, m, page_error = _mqskip.mqsched, _mqskip.m, _mqskip.page_error

SEEN = mqsched.SEEN
FRESH = ("832x32", "1408x16")
CASES = ("base", "in flight 2, paired reads")
PAIRING = ("programs_paired", "both_collecting")


def judged(drives: tuple[str, ...], truth_of) -> dict[str, dict]:
    """mqsched's per-drive figures (base as "off", the case as "on"), each one's 0% error and
    its middle levels' mean error."""
    out = mqsched.judged(drives, truth_of, HERE, CASES)
    for r in out.values():
        r["zero"] = {k: page_error(r[k], r["truth"], range(0, 1)) for k in ("off", "on")}
        r["mid"] = {k: page_error(r[k], r["truth"], range(1, 4)) for k in ("off", "on")}
    return out


def conditions(seen: dict, fresh: dict) -> dict:
    def zero_ok(r: dict) -> bool:
        return r["zero"]["on"] <= 10

    def mid_ok(r: dict) -> bool:
        return r["mid"]["on"] <= r["mid"]["off"] + 2

    full = len(seen) == len(SEEN)
    return {
        "zero": [d for d, r in seen.items() if zero_ok(r)],
        "S1": full and sum(zero_ok(r) for r in seen.values()) >= 5,
        "S2": full and all(mid_ok(r) for r in seen.values()),
        "F1": bool(fresh) and all(zero_ok(r) for r in fresh.values()),
        "F2": bool(fresh) and all(mid_ok(r) for r in fresh.values()),
        "form": {k: statistics.median(r[k][0] for r in seen.values()) if seen else float("nan")
                 for k in ("e_off", "e_on")},
    }  # fmt: skip


def rows(drives: dict) -> list[str]:
    out = ["| drive | time per NAND page at 0 / 10 / 20 / 30 / 40%, µs: MQSim ; base ; on | "
           "0% error base → on | 10–30% mean error base → on | E_form base → on | at 0%: "
           "programs paired, both planes collecting, base → on |",
           "|---|---|---|---|---|---|"]  # fmt: skip
    for d, r in drives.items():
        pages = " ; ".join(" / ".join(f"{t:.0f}" for t in c["page_time_us"])
                           for c in (r["truth"], r["off"], r["on"]))  # fmt: skip
        lock = ", ".join(f"{r['off'][k][0]:.2f} → {r['on'][k][0]:.2f}" for k in PAIRING)
        zero = [100 * (r[k]["page_time_us"][0] / r["truth"]["page_time_us"][0] - 1)
                for k in ("off", "on")]  # fmt: skip
        out.append(f"| u{d} | {pages} | {zero[0]:+.1f} → {zero[1]:+.1f} | "
                   f"{r['mid']['off']:.1f} → {r['mid']['on']:.1f} | "
                   f"{r['e_off'][0]:.1f} → {r['e_on'][0]:.1f} | {lock} |")  # fmt: skip
    return out


def main() -> int:
    stored = json.loads(mqsched.STORED.read_text())

    def stored_truth(d: str) -> dict | None:
        return m.stored_case(stored, *map(int, d.split("x")))

    def fresh_truth(d: str) -> dict | None:
        return mqsched.fresh_truth(d, HERE / "fresh")

    seen, fresh = judged(SEEN, stored_truth), judged(FRESH, fresh_truth)
    c = conditions(seen, fresh)
    yes = {True: "holds", False: "fails"}
    keys = ("S1", "S2", "F1", "F2")
    met = all(c[k] for k in keys)
    failed = ", ".join(k for k in keys if not c[k])
    ran = ", ".join("u" + d for d in fresh) or "none"
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
        f"- S1: 0% within 10% of MQSim on {len(c['zero'])} of {len(seen)} drives "
        f"({', '.join('u' + d for d in c['zero']) or 'none'}): **{yes[c['S1']]}**.",
        f"- S2: middle levels' mean error at most 2 points above base on each: **{yes[c['S2']]}**.",
        f"- Beside them (not judged): median E_form {c['form']['e_off']:.1f} → "
        f"{c['form']['e_on']:.1f}.",
        "",
        "## Held out: the fresh drives",
        "",
        *rows(fresh),
        "",
        f"- Fresh drives run: {ran} (of {', '.join('u' + d for d in FRESH)}).",
        f"- F1 (0% within 10% of MQSim on each): **{yes[c['F1']]}**.",
        f"- F2 (S2's condition on each): **{yes[c['F2']]}**.",
        "",
        f"**Verdict: {'a twin form for MQSim' + chr(39) + 's 0%' if met else 'no twin form'}**"
        + ("" if met else f" ({failed} failed)")
        + " (RULE.md; nothing changes in calibrate, the core's defaults stay off).",
    ]
    (HERE / "verdict.md").write_text(text := "\n".join(out) + "\n")
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
