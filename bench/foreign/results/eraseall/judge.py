"""bench/foreign/results/eraseall/RULE.md's clauses C1–C5 from the stored case files: the off arm
(bench/foreign/results/scoreboard/cases-final/) against the on arm (``cases-on/``) on the 72
truths, and ``fresh-off/`` against ``fresh-on/`` on the fresh drives. Reads files only.

    python bench/foreign/results/eraseall/judge.py > bench/foreign/results/eraseall/judge.txt
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
OFF72 = HERE.parent / "scoreboard" / "cases-final"
FIGURES = ("iops_median", "iops_worst", "waf_worst")
RISE_MAX_PTS = 1.0
FRESH_NVMEVIRT = ("nvmevirt-w", "nvmevirt-x")


def load(path: Path) -> dict | None:
    return json.loads(path.read_text())["summary"] if path.exists() else None


def answered(s: dict | None) -> bool:
    return bool(s) and all(s.get(k) is not None for k in FIGURES)


def text(s: dict | None) -> str:
    if s is None:
        return "not run"
    if not answered(s):
        return "refused" if s.get("refused") else f"skipped ({s.get('skipped', '?')})"
    figs = " / ".join(f"{100 * s[k]:.1f}" for k in FIGURES)
    return f"{figs}{' met' if s['met'] else ''}"


def rises(off: dict | None, on: dict | None) -> list[str]:
    """The figures more than RISE_MAX_PTS larger on than off ("refused on" if answered off and
    not on); [] when neither is answered or nothing rose."""
    if not answered(off):
        return []
    if not answered(on):
        return ["answered off, not on"]
    return [
        f"{k} +{100 * (on[k] - off[k]):.1f} pts"
        for k in FIGURES
        if 100 * (on[k] - off[k]) > RISE_MAX_PTS
    ]


def clause(name: str, fails: list[str]) -> str:
    return f"{name}: {'holds' if not fails else 'FAILS: ' + '; '.join(fails)}"


def main() -> None:
    names = sorted(p.name for p in OFF72.glob("*.json"))
    c1, c2, c5, changed = [], [], [], []
    for n in names:
        off, on = load(OFF72 / n), load(HERE / "cases-on" / n)
        if on is None or on.get("skipped"):
            c5.append(n)
        if on is None:  # not run: C5's alone
            continue
        if off and off.get("met") and not (on and on.get("met")):
            c1.append(n)
        if r := rises(off, on):
            c2.append(f"{n}: {', '.join(r)}")
        if {k: off.get(k) for k in (*FIGURES, "met", "carry")} != {
            k: on.get(k) for k in (*FIGURES, "met", "carry")
        }:
            changed.append(f"| {n.removesuffix('.json')} | {text(off)} | {text(on)} | "
                           f"{'; '.join(off.get('carry') or [])} | "
                           f"{'; '.join(on.get('carry') or [])} |")  # fmt: skip
    print(f"## The 72 (off: scoreboard/cases-final; on: cases-on) — {len(names)} truths\n")
    print("Cases whose figures or readings differ (IOPS median / worst / WAF worst, %):\n")
    print("| case | off | on | off carries | on carries |\n|---|---|---|---|---|")
    print("\n".join(changed) or "| none | | | | |")
    print("\n" + clause("C1 (no met target lost)", c1))
    print(clause("C2 (no figure up > 1 pt)", c2))
    fresh = sorted({p.name for d in ("fresh-off", "fresh-on") for p in (HERE / d).glob("*.json")})
    print("\n## Fresh drives (off: fresh-off; on: fresh-on)\n")
    print("| case | off | on | on carries |\n|---|---|---|---|")
    c3, c4 = [], []
    for n in fresh:
        off, on = load(HERE / "fresh-off" / n), load(HERE / "fresh-on" / n)
        print(f"| {n.removesuffix('.json')} | {text(off)} | {text(on)} | "
              f"{'; '.join((on or {}).get('carry') or [])} |")  # fmt: skip
        if off is None or on is None or on.get("skipped") or off.get("skipped"):
            c5.append(n)
        if any(s in n for s in FRESH_NVMEVIRT):
            if not (on and on.get("met")):
                c3.append(n)
        elif r := rises(off, on):
            c4.append(f"{n}: {', '.join(r)}")
    nv = [n for n in fresh if any(s in n for s in FRESH_NVMEVIRT)]
    if len(nv) < len(FRESH_NVMEVIRT):
        c5.append("a fresh NVMeVirt drive not run")
    print("\n" + clause("C3 (fresh NVMeVirt met on)", c3))
    print(clause("C4 (fresh MQSim no figure up > 1 pt)", c4))
    print(clause("C5 (every case ran)", c5))
    ok = not (c1 or c2 or c3 or c4 or c5)
    print(f"\nVerdict: {'ADOPT (all hold)' if ok else 'NOT ADOPTED (a clause fails)'}")


if __name__ == "__main__":
    main()
