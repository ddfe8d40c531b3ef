"""Check the rules of results/femu-units/RULE.md on the evaluations it names.

    python bench/foreign/closed_loop_rule.py [--dir bench/foreign/results/femu-units]

Reads `evaluation.json` of `off/`, `on/`, `b/` and `off-u2/`, `on-u2/`, `b-u2/` (the unseen
FEMU drives, evaluate.py's "QD" cases) and of `seen-{off,on,b}/<results>-<name>/` (the seen
truths, one case each), prints each drive's figures per mode (QD32 IOPS median / worst over
0-40%, other queue depths not fitted: median / worst, the blocking-GC reading's weight, the
closed-loop N) and each condition's verdict. Nothing is fitted here: the figures are the
evaluations'.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
UNSEEN = ("femu-16luns.json", "femu-32luns-400us.json")
POINT = 0.01  # "no more than 1 point above off's"


def cases(path: Path) -> dict[tuple[str, str], dict]:
    """(results file, case name) -> the case, from one evaluation.json (absent: empty)."""
    if not path.exists():
        return {}
    return {(ev["results"], c["case"]): c for ev in json.loads(path.read_text())
            for c in ev["cases"] if "levels" in c}  # fmt: skip


def qd32(c: dict) -> list[float]:
    return [abs(r["iops_err"]) for r in c["levels"] if "iops_err" in r]


def other(c: dict) -> list[float]:
    return [abs(r["iops_err"]) for r in c.get("other_qd") or [] if not r.get("fitted")]


def med_worst(errs: list[float]) -> tuple[float, float] | None:
    return (statistics.median(errs), max(errs)) if errs else None


def text(mw: tuple[float, float] | None) -> str:
    return f"{100 * mw[0]:.1f}% / {100 * mw[1]:.1f}%" if mw else "–"


def units(c: dict) -> str:
    cl = (c.get("gc_mechanism") or {}).get("closed_loop")
    return f"{cl['units']:.1f}" if cl else "–"


def no_worse(new: tuple[float, float] | None, old: tuple[float, float] | None) -> bool:
    return (
        new is not None
        and old is not None
        and all(n <= o + POINT + 1e-12 for n, o in zip(new, old, strict=True))
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=HERE / "results" / "femu-units")
    args = ap.parse_args(argv)
    d = args.dir
    # U2 was evaluated into `<mode>-u2/` (at the same time as U1 into `<mode>/`)
    unseen = {m: cases(d / m / "evaluation.json") | cases(d / f"{m}-u2" / "evaluation.json")
              for m in ("off", "on", "b")}  # fmt: skip
    seen = {m: {} for m in ("off", "on", "b")}
    for m in seen:
        for f in sorted((d / f"seen-{m}").glob("*/evaluation.json")):
            seen[m] |= {(f.parent.name, k[1]): c for k, c in cases(f).items()}
    verdict: dict[str, list[bool]] = {"A": [], "B": []}
    print("| truth | case | mode | QD32 IOPS median / worst | other QDs (not fitted) | "
          "blocking weight | N |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for pool in (unseen, seen):
        for key in sorted(set(pool["off"]) | set(pool["on"]) | set(pool["b"])):
            for m in ("off", "on", "b"):
                c = pool[m].get(key)
                if c:
                    w = (c.get("gc_mechanism") or {}).get("weight")
                    print(f"| {key[0]} | {key[1]} | {m} | {text(med_worst(qd32(c)))} | "
                          f"{text(med_worst(other(c)))} | "
                          f"{'–' if w is None else f'{w:.2f}'} | {units(c)} |")  # fmt: skip
    print()
    for name in UNSEEN:  # conditions 1 (B1) and 2, 3; B2 and B3 on the unseen truths
        for m, rule in (("on", "A"), ("b", "B")):
            got = [c for k, c in unseen[m].items() if k[0] == name]
            pooled = med_worst([e for c in got for e in other(c)])
            ok1 = len(got) == 3 and pooled is not None and pooled[0] <= 0.10 and pooled[1] <= 0.20
            print(f"{name} {m}: other QDs pooled {text(pooled)} over {len(got)} cases -> "
                  f"condition 1/B1 {'holds' if ok1 else 'fails'}")  # fmt: skip
            verdict[rule].append(ok1)
            for c in got:
                off = unseen["off"].get((name, c["case"]))
                same = off is not None and no_worse(med_worst(qd32(c)), med_worst(qd32(off)))
                verdict[rule].append(same)
                print(f"  {c['case']}: QD32 {text(med_worst(qd32(c)))} vs off "
                      f"{text(med_worst(qd32(off))) if off else 'missing'} -> "
                      f"{'no worse' if same else 'worse or missing'}")  # fmt: skip
            if m == "b":
                offs = [c for k, c in unseen["off"].items() if k[0] == name]
                b3 = no_worse(pooled, med_worst([e for c in offs for e in other(c)]))
                verdict["B"].append(b3)
                print(f"  B3 pooled other QDs vs off: {'no worse' if b3 else 'worse or missing'}")
            if m == "on" and name == UNSEEN[0]:
                wc = [c for k, c in unseen["on"].items() if k[0] == name and "WAF" in k[1]]
                n = (wc[0].get("gc_mechanism") or {}).get("closed_loop") if wc else None
                ok3 = n is not None and abs(n["units"] / 16 - 1) <= 0.25
                verdict["A"].append(ok3)
                print(f"  condition 3: N {n['units'] if n else None} -> "
                      f"{'holds' if ok3 else 'fails'}")  # fmt: skip
    for key, off in seen["off"].items():  # condition 4 and B3 on the seen truths
        for m, rule in (("on", "A"), ("b", "B")):
            c = seen[m].get(key)
            ok = c is not None and no_worse(med_worst(qd32(c)), med_worst(qd32(off)))
            ok = ok and no_worse(med_worst(other(c)), med_worst(other(off)))
            verdict[rule].append(ok)
            print(f"seen {key[0]} {m}: QD32 and other QDs no worse than off: {ok}")
    for rule, oks in verdict.items():
        print(f"rule {rule}: {'passes' if oks and all(oks) else 'fails'} "
              f"({sum(oks)} of {len(oks)} conditions hold)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
