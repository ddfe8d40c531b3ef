"""The verdict's clauses of bench/foreign/results/femunext/RULE.md from the stored cases.

PYTHONPATH=python python bench/foreign/results/femunext/judge.py > judged.txt

A case's figures, its targets and "worse" as bench/foreign/results/femutyped/judge.py reads them
(imported: one implementation); the off arm of the 72 is scoreboard/cases-mix.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
_SPEC = importlib.util.spec_from_file_location(
    "femutyped_judge", HERE.parent / "femutyped" / "judge.py"
)
typed = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(typed)
figures, identical, load = typed.figures, typed.identical, typed.load
targets, text, worse = typed.targets, typed.text, typed.worse

MIX = HERE.parent / "scoreboard" / "cases-mix"
FRESH_NEEDED = 3  # of the 4 fresh drives, meeting both targets on


def the_72() -> tuple[list[str], list[str], list[str]]:
    """C2's lost targets, C3's worse non-FEMU figures, and every case the flags changed."""
    lost, worse_out, changed = [], [], []
    for p in sorted(MIX.glob("*.json")):
        on_doc = load(HERE / "cases-on" / p.name)
        if on_doc is None:
            lost.append(f"{p.stem}: not run on")
            continue
        off, on = figures(load(p)), figures(on_doc)
        t_off, t_on = targets(off), targets(on)
        lost += [f"{p.stem}: {k}" for k, met in t_off.items() if met and not t_on[k]]
        changed += [f"{p.stem}: off {text(off)}; on {text(on)}"] if off != on else []
        femu = p.stem.startswith("FEMU--")
        worse_out += [] if femu else [f"{p.stem}: {w}" for w in worse(off, on)]
    return lost, worse_out, changed


def main() -> None:
    print("## off-arm check (re-run off against scoreboard/cases-mix)")
    for p in sorted((HERE / "check-off").glob("*.json")):
        same = identical(load(p), load(MIX / p.name))
        print(f"{p.stem}: {'bit-identical' if same else 'DIFFERS'}")

    print("\n## C1: fresh FEMU")
    met, bad, n = 0, [], 0
    for stem in (HERE / "drives.txt").read_text().split("\n"):
        stem = stem.split(" ")[0]
        if not stem:
            continue
        n += 1
        name = f"FEMU--femunext_fresh--{stem}.json"
        off, on = figures(load(HERE / "fresh-off" / name)), figures(load(HERE / "fresh-on" / name))
        t = targets(on)
        met += all(t.values())
        w = worse(off, on)  # nothing where off refused: a refusal on then meets no target
        bad += w
        print(f"{stem}: off {text(off)}; on {text(on)}; worse: {w or 'none'}")
    c1 = met >= FRESH_NEEDED and not bad
    print(
        f"C1: {met} of {n} meet both targets on (needed {FRESH_NEEDED}), {len(bad)} figures "
        f"worse: {'holds' if c1 else 'FAILS'}"
    )

    print("\n## C2, C3: the 72")
    lost, worse_out, changed = the_72()
    print(f"changed by the flags: {len(changed)}")
    print("".join(f"  {c}\n" for c in changed), end="")
    print(f"C2: targets lost: {lost or 'none'}: {'holds' if not lost else 'FAILS'}")
    c3 = "holds" if not worse_out else "FAILS"
    print(f"C3: non-FEMU figures worse: {worse_out or 'none'}: {c3}")
    ok = c1 and not lost and not worse_out
    print(f"\nthe rule: {'MET: adopt both flags' if ok else 'NOT MET: both flags stay off'}")


if __name__ == "__main__":
    main()
