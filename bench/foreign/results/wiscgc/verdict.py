"""Check bench/foreign/results/wiscgc/RULE.md: the low-mark reading with and without, per case.

    python bench/foreign/results/wiscgc/verdict.py > bench/foreign/results/wiscgc/verdict.md

Reads `evaluation.json` in `on/` and `off/` (fresh drives F and G), `on-seen/` and `off-seen/`
(C and E) and `on-stored/` and `off-stored/` (the stored foreign cases) of this folder (and
`on-seen-fixed/`: C re-run with the reading after the schema fix, printed and not counted), as
bench/foreign/evaluate.py writes them, and prints each case's figures (QD32, 0-40%: IOPS median
and worst |error|, WAF worst |error| with fitted levels and over the held-out 10-30%) with and
without the reading, the criteria of RULE.md and the verdict. A case calibrate refused
meets nothing (as ssdsim_rule.py counts it).
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
HELD_OUT = (10, 20, 30)
FRESH_IOPS_MEDIAN, FRESH_IOPS_WORST, FRESH_WAF = 10.0, 20.0, 5.0
SEEN_SLACK, STORED_SLACK = 0.1, 1.0


def figures(case: dict) -> dict | None:
    """A case's errors in percent (None: refused)."""
    if "levels" not in case:
        return None
    levels = case["levels"]
    iops = [100 * abs(r["iops_err"]) for r in levels if r.get("iops_err") is not None]
    waf = [(r["extra_op_percent"], 100 * abs(r["waf_err"])) for r in levels
           if r.get("waf_err") is not None]  # fmt: skip
    held = [e for x, e in waf if x in HELD_OUT]
    return {
        "iops_median": statistics.median(iops) if iops else None,
        "iops_worst": max(iops) if iops else None,
        "waf_worst": max(e for _, e in waf) if waf else None,
        "waf_held_out_worst": max(held) if held else None,
        "weights": case.get("readings"),
    }


def load(folder: str) -> dict[tuple[str, str], dict | None]:
    path = HERE / folder / "evaluation.json"
    if not path.exists():
        return {}
    out = {}
    for drive in json.loads(path.read_text()):
        for case in drive["cases"]:
            out[(Path(drive["results"]).name, case["case"])] = figures(case)
    return out


def fmt(v: float | None) -> str:
    return "–" if v is None else f"{v:.2f}"


def row(key: tuple[str, str], on: dict | None, off: dict | None) -> str:
    names = ("iops_median", "iops_worst", "waf_worst", "waf_held_out_worst")

    def cells(f: dict | None) -> str:
        return "refused" if f is None else " / ".join(fmt(f[n]) for n in names)

    return f"| {key[0]} | {key[1]} | {cells(off)} | {cells(on)} |"


def main() -> int:
    print("# RULE.md checked: the low-mark reading with and without\n")
    print("Per case: IOPS median / IOPS worst / WAF worst (0-40%) / WAF worst held out (10-30%), "
          "|error| in %, QD32 (bench/foreign/results/wiscgc/verdict.py).\n")  # fmt: skip
    verdicts = []
    parts = (
        ("Fresh drives F and G", "on", "off"),
        ("Seen drives C and E", "on-seen", "off-seen"),
        ("Stored foreign cases", "on-stored", "off-stored"),
    )
    for title, on_dir, off_dir in parts:
        on, off = load(on_dir), load(off_dir)
        print(f"## {title}\n")
        print("| truth | case | without | with the reading |\n|---|---|---|---|")
        keys = sorted(set(on) | set(off))
        for k in keys:
            print(row(k, on.get(k), off.get(k)))
        if not keys:
            print("| (not run) | | | |")
        print()
        if on_dir == "on":
            ok = bool(keys) and len({k[0] for k in keys}) == 2
            for k in keys:
                f = on.get(k)
                ok = ok and f is not None and f["waf_held_out_worst"] is not None
                ok = ok and f["waf_held_out_worst"] <= FRESH_WAF
                ok = ok and f["iops_median"] <= FRESH_IOPS_MEDIAN
                ok = ok and f["iops_worst"] <= FRESH_IOPS_WORST
            verdicts.append(("fresh drives: held-out WAF within 5%, IOPS 10% / 20%", ok))
        else:
            slack = SEEN_SLACK if on_dir == "on-seen" else STORED_SLACK
            ok = bool(keys)
            for k in keys:
                a, b = on.get(k), off.get(k)
                if a is None or b is None:
                    ok = ok and a is not None  # refused with the reading: fails; without: no harm
                    continue
                for n in ("iops_median", "iops_worst", "waf_worst"):
                    if a[n] is None or b[n] is None:
                        continue
                    worse = a[n] - b[n]
                    ok = ok and (worse <= slack if on_dir == "on-seen" else abs(worse) <= slack)
            what = (
                "C and E no worse (each figure at most 0.1 point above)"
                if on_dir == "on-seen"
                else "stored cases within 1 point"
            )
            verdicts.append((what, ok))
    fixed = load("on-seen-fixed")
    if fixed:
        print("## After the verdict (not counted): C with the reading, the schema fixed\n")
        print("| truth | case | without | with the reading |\n|---|---|---|---|")
        off = load("off-seen")
        for k in sorted(fixed):
            print(row(k, fixed[k], off.get(k)))
        print()
    print("## Criteria\n")
    for what, ok in verdicts:
        print(f"- {what}: **{'met' if ok else 'not met'}**")
    adopted = all(ok for _, ok in verdicts)
    print(f"\nVerdict: {'adopted' if adopted else 'not adopted: low_mark.OFFERED stays False'}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
