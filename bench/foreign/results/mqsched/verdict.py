"""RULE.md's conditions (S1, S2 on the stored drives; F1, F2 on the fresh ones) from the twin's
tables and MQSim's curves, and the counter's lines beside them, written to verdict.md.

    PYTHONPATH=python python bench/foreign/results/mqsched/verdict.py

``twin-u*.json``: ``mqsim_pairing.py twin --drive BxP --plane-pools --at-trigger``;
``fresh/u*.json``: the fresh MQSim drives (``mqsim.py`` runs merged by ``merge.py``);
``diag-u*.txt``: the stderr lines (``MQLOCK_DIAG ...``) of the 512 × 32 and 640 × 16 twin runs,
one per run in ``twin``'s order, from a build carrying ``diag-counter.patch`` (not committed:
it only reads the timing's state).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
import mqsim_pairing as m  # noqa: E402

SEEN = ("320x32", "640x16", "512x32", "768x32", "384x64", "1536x16")
FRESH = ("448x32", "896x16")
OFF = "two planes, one offset, plane pools"
ON = "two planes, one offset, plane pools, relocations at trigger"
ADOPTED = "adopted as MQSim's model form"
STORED = HERE.parents[0] / "mqsim-form" / "stored.json"


def curve(pts: list[tuple[float, float]]) -> dict:
    """A QD32 curve in ``twin``'s form from its (IOPS, WAF) points at 0–40%."""
    return {"iops": [p[0] for p in pts], "waf": [p[1] for p in pts],
            "page_time_us": [1e6 / (i * w) for i, w in pts],
            "line_iops_error": m.line_errors(pts)}  # fmt: skip


def fresh_truth(drive: str, folder: Path = HERE / "fresh") -> dict | None:
    """MQSim's QD32 curve of a fresh drive (``folder/uBxP.json``), None if not every level
    ran."""
    path = folder / f"u{drive}.json"
    if not path.exists():
        return None
    lv = {r["extra_op_percent"]: r for r in json.loads(path.read_text())["levels"]
          if r["queue_depth"] == 32}  # fmt: skip
    if any(x not in lv for x in m.LEVELS):
        return None
    return curve([(lv[x]["steady_iops"], lv[x]["steady_waf"]) for x in m.LEVELS])


def errors(case: dict, truth: dict) -> tuple[float, float]:
    """(E_form, E_page) in points: RULE.md's bend and level errors."""
    form = statistics.mean(
        abs(100 * (a - b))
        for a, b in zip(case["line_iops_error"], truth["line_iops_error"], strict=True)
    )
    page = statistics.median(
        abs(100 * (a / b - 1))
        for a, b in zip(case["page_time_us"], truth["page_time_us"], strict=True)
    )
    return form, page


def judged(
    drives: tuple[str, ...],
    truth_of,
    folder: Path = HERE,
    cases_off_on: tuple[str, str] = (f"{OFF}, QD32", f"{ON}, QD32"),
) -> dict[str, dict]:
    """Per drive whose truth and ``folder/twin-uBxP.json`` exist: MQSim's curve, the twin's
    two cases (``cases_off_on``) and their (E_form, E_page)."""
    out = {}
    for d in drives:
        truth, path = truth_of(d), folder / f"twin-u{d}.json"
        if truth is None or not path.exists():
            continue
        cases = json.loads(path.read_text())["cases"]
        off, on = (cases[k] for k in cases_off_on)
        out[d] = {"truth": truth, "off": off, "on": on,
                  "e_off": errors(off, truth), "e_on": errors(on, truth)}  # fmt: skip
    return out


def diag(drive: str) -> dict[tuple[str, int, int], dict] | None:
    path = HERE / f"diag-u{drive}.txt"
    if not path.exists():
        return None
    return m.counter_lines(path.read_text(), m.AT_TRIGGER_VARIANTS, drive)


def row(d: str, r: dict) -> str:
    def f(xs: list[float]) -> str:
        return " / ".join(f"{100 * x:+.1f}" for x in xs)

    def p(xs: list[float]) -> str:
        return " / ".join(f"{x:.0f}" for x in xs)

    t, off, on = r["truth"], r["off"], r["on"]
    return (f"| u{d} | {p(t['page_time_us'])} ; {p(off['page_time_us'])} ; "
            f"{p(on['page_time_us'])} | {f(t['line_iops_error'])} ; {f(off['line_iops_error'])}"
            f" ; {f(on['line_iops_error'])} | {r['e_off'][0]:.1f} → {r['e_on'][0]:.1f} | "
            f"{r['e_off'][1]:.1f} → {r['e_on'][1]:.1f} |")  # fmt: skip


def main() -> int:
    stored = json.loads(STORED.read_text())

    def stored_truth(d: str) -> dict | None:
        return m.stored_case(stored, *map(int, d.split("x")))

    seen, fresh = judged(SEEN, stored_truth), judged(FRESH, fresh_truth)
    better = [d for d, r in seen.items() if r["e_on"][0] < r["e_off"][0]]
    med = {k: statistics.median(r[k][0] for r in seen.values()) for k in ("e_off", "e_on")}
    page = {k: statistics.median(r[k][1] for r in seen.values()) for k in ("e_off", "e_on")}
    s1 = len(seen) == len(SEEN) and len(better) >= 5 and med["e_on"] <= med["e_off"] * 2 / 3
    s2 = len(seen) == len(SEEN) and page["e_on"] <= page["e_off"] + 2
    f1 = bool(fresh) and all(r["e_on"][0] < r["e_off"][0] for r in fresh.values())
    f2 = bool(fresh) and all(r["e_on"][1] <= r["e_off"][1] + 2 for r in fresh.values())
    head = ("| drive | time per NAND page at 0 / 10 / 20 / 30 / 40%, µs: MQSim ; off ; on | "
            "line error at 10 / 20 / 30%: MQSim ; off ; on | E_form off → on | "
            "E_page off → on |\n|---|---|---|---|---|")  # fmt: skip
    yes = {True: "holds", False: "fails"}
    out = [
        "# RULE.md's verdict: relocations queued at the trigger",
        "",
        "`verdict.py` on `twin-u*.json`, `fresh/u*.json`, `diag-u*.txt` and",
        "`bench/foreign/results/mqsim-form/stored.json`. Case: the two-plane, one-offset twin "
        "with per-plane pools at QD32, `timing.gc.relocations_at_trigger` off and on. Errors in "
        "points (RULE.md).",
        "",
        "## Seen: the stored drives",
        "",
        head,
        *(row(d, r) for d, r in seen.items()),
        "",
        f"- S1: E_form lower with the option on {len(better)} of {len(seen)} drives "
        f"({', '.join('u' + d for d in better) or 'none'}); median {med['e_off']:.1f} → "
        f"{med['e_on']:.1f} (a third lower: {med['e_on'] <= med['e_off'] * 2 / 3}): "
        f"**{yes[s1]}**.",
        f"- S2: median E_page {page['e_off']:.1f} → {page['e_on']:.1f}: **{yes[s2]}**.",
        "",
        "## Held out: the fresh drives",
        "",
        head,
        *(row(d, r) for d, r in fresh.items()),
        "",
        f"- Fresh drives run: {', '.join('u' + d for d in fresh) or 'none'}"
        f" (of {', '.join('u' + d for d in FRESH)}).",
        f"- F1 (E_form lower on each): **{yes[f1]}**.",
        f"- F2 (E_page at most 2 points higher on each): **{yes[f2]}**.",
        "",
        f"**Verdict: {ADOPTED if s1 and s2 and f1 and f2 else 'not adopted'}** (RULE.md; the "
        "core's default stays off either way).",
    ]
    counted = {d: diag(d) for d in ("512x32", "640x16")}
    if any(counted.values()):
        out += ["", "## Beside the verdict: the counter (not judged)", "",
                "Programs paired: programs booked under the page-offset rule that end with two "
                "planes. Relocations joining at 0%: the share that joined another plane's "
                "program at their offset (the rest: none waiting at it / every one waiting "
                "started before they were ready / those after it had the plane taken). Both "
                "collecting: the share of the measured time both planes' domains hold a "
                "collection.", "",
                "| drive | case | both collecting at 0 / 10 / 20 / 30 / 40% | programs paired "
                "at 0 / 10 / 20 / 30 / 40% (MQSim at 0%) | relocations joining at 0% |",
                "|---|---|---|---|---|"]  # fmt: skip
        for d, c in counted.items():
            if not c:
                continue
            mq = stored_truth(d)
            for v in list(m.AT_TRIGGER_VARIANTS)[1:]:
                both, paired, joining = m.counter_cells([c[(v, 32, x)] for x in m.LEVELS])
                out.append(f"| u{d} | {v}, QD32 | {both} | {paired} "
                           f"({mq['share_programs'][0]:.2f}) | {joining} |")  # fmt: skip
    (HERE / "verdict.md").write_text("\n".join(out) + "\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
