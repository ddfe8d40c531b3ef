"""RULE.md's conditions (S1, S2 on the stored drives; F1, F2 on the fresh ones) from the twin's
tables and MQSim's curves, written to verdict.md; mqsched's errors and table rows reused.

    PYTHONPATH=python python bench/foreign/results/mqmid/verdict.py

``twin-u*.json``: ``mqsim_pairing.py twin --drive BxP --collections-first``; ``fresh/u*.json``:
the fresh MQSim drives (``mqsim.py`` runs merged by ``merge.py``).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
import mqsim_pairing as m  # noqa: E402
from common import load_script  # noqa: E402

mqsched = load_script("mqsched_verdict", HERE.parent / "mqsched" / "verdict.py")

SEEN = mqsched.SEEN
FRESH = ("576x32", "1152x16")
POOLS = "two planes, one offset, plane pools"
OFF, AT_TRIGGER = f"{POOLS}, QD32", f"{POOLS}, relocations at trigger, QD32"
ON = f"{POOLS}, relocations at trigger, collections first, QD32"


def fresh_truth(drive: str) -> dict | None:
    """MQSim's QD32 curve of a fresh drive of this rule (``fresh/``), as mqsched's."""
    return mqsched.fresh_truth(drive, HERE / "fresh")


def judged(drives: tuple[str, ...], truth_of, base: str = OFF) -> dict[str, dict]:
    """Per drive that ran: MQSim's curve, the twin without (``base``) and with both options,
    and their (E_form, E_page)."""
    return mqsched.judged(drives, truth_of, HERE, (base, ON))


def conditions(seen: dict, fresh: dict) -> dict[str, bool]:
    better = [d for d, r in seen.items() if r["e_on"][0] < r["e_off"][0]]

    def median(k: str, i: int) -> float:
        return statistics.median(r[k][i] for r in seen.values()) if seen else float("nan")

    form = {k: median(k, 0) for k in ("e_off", "e_on")}
    page = {k: median(k, 1) for k in ("e_off", "e_on")}
    full = len(seen) == len(SEEN)
    return {
        "better": better, "form": form, "page": page,
        "S1": full and len(better) >= 5 and form["e_on"] <= form["e_off"] * 2 / 3,
        "S2": full and page["e_on"] <= page["e_off"] + 2,
        "F1": bool(fresh) and all(r["e_on"][0] < r["e_off"][0] for r in fresh.values()),
        "F2": bool(fresh) and all(r["e_on"][1] <= r["e_off"][1] + 2 for r in fresh.values()),
    }  # fmt: skip


def main() -> int:
    stored = json.loads(mqsched.STORED.read_text())

    def stored_truth(d: str) -> dict | None:
        return m.stored_case(stored, *map(int, d.split("x")))

    seen, fresh = judged(SEEN, stored_truth), judged(FRESH, fresh_truth)
    c = conditions(seen, fresh)
    head = ("| drive | time per NAND page at 0 / 10 / 20 / 30 / 40%, µs: MQSim ; off ; on | "
            "line error at 10 / 20 / 30%: MQSim ; off ; on | E_form off → on | "
            "E_page off → on |\n|---|---|---|---|---|")  # fmt: skip
    yes = {True: "holds", False: "fails"}
    verdict = "adopted as MQSim's model form" if all(c[k] for k in ("S1", "S2", "F1", "F2")) \
        else "not adopted"  # fmt: skip
    form, page = c["form"], c["page"]
    ran = ", ".join("u" + d for d in fresh) or "none"
    sections = {
        "Seen: the stored drives": (seen, [
            f"S1: E_form lower with the options on {len(c['better'])} of {len(seen)} drives; "
            f"median {form['e_off']:.1f} → {form['e_on']:.1f} (a third lower: "
            f"{form['e_on'] <= form['e_off'] * 2 / 3}): **{yes[c['S1']]}**.",
            f"S2: median E_page {page['e_off']:.1f} → {page['e_on']:.1f}: **{yes[c['S2']]}**.",
        ]),
        "Held out: the fresh drives": (fresh, [
            f"Fresh drives run: {ran} (of {', '.join('u' + d for d in FRESH)}).",
            f"F1 (E_form lower on each): **{yes[c['F1']]}**.",
            f"F2 (E_page at most 2 points higher on each): **{yes[c['F2']]}**.",
        ]),
    }  # fmt: skip
    out = [
        "# RULE.md's verdict: collections ahead of the queued writes",
        "",
        "`verdict.py` on `twin-u*.json`, `fresh/u*.json` and "
        "`bench/foreign/results/mqsim-form/stored.json`. Case: the two-plane, one-offset twin "
        "with per-plane pools at QD32; off: neither option; on: `relocations_at_trigger` and "
        "`collections_first`. Errors in points (RULE.md).",
        "",
    ]
    for title, (drives, lines) in sections.items():
        out += [f"## {title}", "", head, *(mqsched.row(d, r) for d, r in drives.items()), ""]
        out += [f"- {line}" for line in lines] + [""]
    out += [
        f"**Verdict: {verdict}** (RULE.md; the core's defaults stay off either way).",
        "",
        "## Beside the verdict (not judged): against `relocations_at_trigger` alone",
        "",
        "| drive | E_form at trigger → both | E_page at trigger → both |",
        "|---|---|---|",
    ]
    for d, r in {**judged(SEEN, stored_truth, AT_TRIGGER),
                 **judged(FRESH, fresh_truth, AT_TRIGGER)}.items():  # fmt: skip
        out.append(f"| u{d} | {r['e_off'][0]:.1f} → {r['e_on'][0]:.1f} | "
                   f"{r['e_off'][1]:.1f} → {r['e_on'][1]:.1f} |")  # fmt: skip
    text = "\n".join(out) + "\n"
    (HERE / "verdict.md").write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
