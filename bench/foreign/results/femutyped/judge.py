"""The verdict's clauses of bench/foreign/results/femutyped/RULE.md from the stored cases.

PYTHONPATH=python python bench/foreign/results/femutyped/judge.py > judged.txt
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
FINAL = HERE.parent / "scoreboard" / "cases-final"
LEVELS = (0, 10, 20, 30, 40)
POINT = 0.01  # a figure is worse when its |error| is more than 1 point above off's


def load(path: Path) -> dict | None:
    return json.loads(path.read_text()) if path.exists() else None


def figures(case: dict | None) -> dict[tuple[str, int], float] | None:
    """|error| of QD32 IOPS and WAF at each level; None for a refused or missing case."""
    if case is None or "levels" not in case:
        return None
    out = {}
    for lv in case["levels"]:
        x = int(lv["extra_op_percent"])
        for key in ("iops", "waf"):
            if f"{key}_err" in lv:
                out[(key, x)] = abs(lv[f"{key}_err"])
    return out


def targets(figs: dict | None) -> dict[str, bool]:
    if not figs:
        return {"iops": False, "waf": False}
    iops = [v for (k, _), v in figs.items() if k == "iops"]
    waf = [v for (k, _), v in figs.items() if k == "waf"]
    return {
        "iops": bool(iops) and statistics.median(iops) <= 0.10 and max(iops) <= 0.20,
        "waf": bool(waf) and max(waf) <= 0.05,
    }


def worse(off: dict | None, on: dict | None) -> list[str]:
    """The figures on is worse at than off (RULE.md)."""
    if off is None:
        return []
    if on is None:
        return ["refused (answered off)"]
    return [f"{k} {x}%: {100 * off[(k, x)]:.1f} -> {100 * on.get((k, x), 9.99):.1f}%"
            for (k, x) in off if on.get((k, x), 9.99) > off[(k, x)] + POINT]  # fmt: skip


def text(figs: dict | None) -> str:
    if figs is None:
        return "refused"
    t = targets(figs)
    iops = [v for (k, _), v in figs.items() if k == "iops"]
    waf = [v for (k, _), v in figs.items() if k == "waf"]
    return (f"IOPS med {100 * statistics.median(iops):.1f}% worst {100 * max(iops):.1f}%, "
            f"WAF worst {100 * max(waf):.1f}%, targets {sum(t.values())}/2")  # fmt: skip


def identical(a: dict | None, b: dict | None) -> bool:
    if a is None or b is None or "levels" not in a or "levels" not in b:
        return a is not None and b is not None and a.get("error") == b.get("error")
    keys = ("iops_pred", "waf_pred")
    return [[lv.get(k) for k in keys] for lv in a["levels"]] == [
        [lv.get(k) for k in keys] for lv in b["levels"]
    ]


def main() -> None:
    print("## off-arm check (re-run off against cases-final)")
    for p in sorted((HERE / "check-off").glob("*.json")):
        same = identical(load(p), load(FINAL / p.name))
        print(f"{p.stem}: {'bit-identical' if same else 'DIFFERS'}")

    print("\n## C1: fresh FEMU")
    met, bad = 0, []
    for p in sorted((HERE / "fresh").glob("*.json")):
        off = figures(load(HERE / "fresh-off" / f"FEMU--femutyped_fresh--{p.stem}.json"))
        on = figures(load(HERE / "fresh-on" / f"FEMU--femutyped_fresh--{p.stem}.json"))
        t = targets(on)
        met += all(t.values())
        w = worse(off, on)
        bad += w
        print(f"{p.stem}: off {text(off)}; on {text(on)}; worse: {w or 'none'}")
    c1 = met >= 2 and not bad
    print(
        f"C1: {met} of 3 meet both targets on, {len(bad)} figures worse: "
        f"{'holds' if c1 else 'FAILS'}"
    )

    print("\n## C2, C3: the 72")
    lost, worse_out, changed, n = [], [], [], 0
    for p in sorted(FINAL.glob("*.json")):
        n += 1
        on_doc = load(HERE / "cases-on" / p.name)
        off, on = figures(load(p)), figures(on_doc)
        if on_doc is None:
            lost.append(f"{p.stem}: not run on")
            continue
        t_off, t_on = targets(off), targets(on)
        lost += [f"{p.stem}: {k}" for k in t_off if t_off[k] and not t_on[k]]
        if off != on:
            changed.append(f"{p.stem}: off {text(off)}; on {text(on)}")
        if not p.stem.startswith("FEMU--"):
            worse_out += [f"{p.stem}: {w}" for w in worse(off, on)]
    print(f"{n} truths; changed by the flag: {len(changed)}")
    for c in changed:
        print("  " + c)
    print(f"C2: targets lost: {lost or 'none'}: {'holds' if not lost else 'FAILS'}")
    print(
        f"C3: non-FEMU figures worse: {worse_out or 'none'}: "
        f"{'holds' if not worse_out else 'FAILS'}"
    )
    ok = c1 and not lost and not worse_out
    print(f"\nthe rule: {'MET: adopt' if ok else 'NOT MET: the flag stays off'}")


if __name__ == "__main__":
    main()
