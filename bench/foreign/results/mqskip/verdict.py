"""RULE.md's conditions (S1–S3 on the stored drives; F1, F2 on the fresh ones) from the twin's
tables (``twin-u*.json`` by ``twin.py``) and MQSim's curves, written to verdict.md; mqsched's
errors and table rows reused.

    PYTHONPATH=python python bench/foreign/results/mqskip/verdict.py
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
_mqmid = load_script("mqmid_verdict", HERE.parent / "mqmid" / "verdict.py")
#: mqsched's verdict (errors, rows, fresh curves) and ``mqsim_pairing``, as mqmid loads them.
mqsched, m = _mqmid.mqsched, _mqmid.m

SEEN = mqsched.SEEN
FRESH = ("704x32", "1280x16")
BOTH = "two planes, one offset, plane pools, relocations at trigger, collections first"
CASES = (f"{BOTH}, QD32", f"{BOTH}, full victims skipped, QD32")


def page_error(case: dict, truth: dict, levels: range) -> float:
    """Mean over ``levels`` (indices of 0–40%) of |time per NAND page / MQSim's − 1|, points."""
    t, u = case["page_time_us"], truth["page_time_us"]
    return statistics.mean(abs(100 * (t[i] / u[i] - 1)) for i in levels)


def judged(drives: tuple[str, ...], truth_of) -> dict[str, dict]:
    """mqsched's per-drive figures (base as "off", skip as "on") with the 0% error of each and
    their middle levels' mean error."""
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
    form = {k: statistics.median(r[k][0] for r in seen.values()) if seen else float("nan")
            for k in ("e_off", "e_on")}  # fmt: skip
    return {
        "zero": [d for d, r in seen.items() if zero_ok(r)], "form": form,
        "S1": full and sum(zero_ok(r) for r in seen.values()) >= 5,
        "S2": full and all(mid_ok(r) for r in seen.values()),
        "S3": full and form["e_on"] <= form["e_off"],
        "F1": bool(fresh) and all(zero_ok(r) for r in fresh.values()),
        "F2": bool(fresh) and all(mid_ok(r) for r in fresh.values()),
    }  # fmt: skip


def rows(drives: dict) -> list[str]:
    out = ["| drive | time per NAND page at 0 / 10 / 20 / 30 / 40%, µs: MQSim ; base ; skip | "
           "0% error base → skip | 10–30% mean error base → skip | E_form base → skip |",
           "|---|---|---|---|---|"]  # fmt: skip
    for d, r in drives.items():
        pages = " ; ".join(" / ".join(f"{t:.0f}" for t in c["page_time_us"])
                           for c in (r["truth"], r["off"], r["on"]))  # fmt: skip
        out.append(f"| u{d} | {pages} | {r['zero']['off']:.1f} → {r['zero']['on']:.1f} | "
                   f"{r['mid']['off']:.1f} → {r['mid']['on']:.1f} | "
                   f"{r['e_off'][0]:.1f} → {r['e_on'][0]:.1f} |")  # fmt: skip
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
    met = all(c[k] for k in ("S1", "S2", "S3", "F1", "F2"))
    failed = ", ".join(k for k in ("S1", "S2", "S3", "F1", "F2") if not c[k])
    ran = ", ".join("u" + d for d in fresh) or "none"
    out = [
        "# RULE.md's verdict: a check whose victim has no invalid page starts no collection",
        "",
        "`verdict.py` on `twin-u*.json`, `fresh/u*.json` and "
        "`bench/foreign/results/mqsim-form/stored.json`. Base: mqmid's twin with both timing "
        "options; skip: the same with `ftl.gc_skip_full_victim`. Errors in points (RULE.md).",
        "",
        "## Seen: the stored drives",
        "",
        *rows(seen),
        "",
        f"- S1: 0% within 10% of MQSim on {len(c['zero'])} of {len(seen)} drives "
        f"({', '.join('u' + d for d in c['zero']) or 'none'}): **{yes[c['S1']]}**.",
        f"- S2: middle levels' mean error at most 2 points above base on each: **{yes[c['S2']]}**.",
        f"- S3: median E_form {c['form']['e_off']:.1f} → {c['form']['e_on']:.1f}: "
        f"**{yes[c['S3']]}**.",
        "",
        "## Held out: the fresh drives",
        "",
        *rows(fresh),
        "",
        f"- Fresh drives run: {ran} (of {', '.join('u' + d for d in FRESH)}).",
        f"- F1 (0% within 10% of MQSim on each): **{yes[c['F1']]}**.",
        f"- F2 (S2's condition on each): **{yes[c['F2']]}**.",
        "",
        f"**Verdict: {'a twin form exists' if met else 'no twin form'}**"
        + ("" if met else f" ({failed} failed)")
        + " (RULE.md; nothing changes in calibrate, the core's default stays off).",
    ]
    (HERE / "verdict.md").write_text(text := "\n".join(out) + "\n")
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
