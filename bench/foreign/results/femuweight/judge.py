"""The verdict's clauses of bench/foreign/results/femuweight/RULE.md from the stored cases.

    PYTHONPATH=python python bench/foreign/results/femuweight/judge.py > judged.txt

A case's figures, its targets and "worse" as bench/foreign/results/femutyped/judge.py reads them
(loaded: one implementation). Arm A: ``steep_pair.READ_AS_FLOOR``; arm B: the same and
``reserve_held_out.SAME_FORM_ONLY``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

TYPED = load_script("femutyped_judge", HERE.parent / "femutyped" / "judge.py")
FRESH_NEEDED = 3  # of the 4 fresh drives, meeting both targets in arm B


def case_name(folder: str, stem: str) -> str:
    return f"FEMU--{folder}--{stem}.json"


def main() -> None:
    print("## C1: fresh FEMU, arm B (A beside it)")
    met, refused = 0, []
    stems = [line.split(" ")[0] for line in (HERE / "drives.txt").read_text().splitlines() if line]
    for stem in stems:
        name = case_name("femuweight_fresh", stem)
        a = TYPED.figures(TYPED.load(HERE / "fresh-a" / name))
        b = TYPED.figures(TYPED.load(HERE / "fresh-b" / name))
        both = all(TYPED.targets(b).values())
        met += both
        refused += [stem] if a is not None and b is None else []
        print(f"{stem}: A {TYPED.text(a)}; B {TYPED.text(b)}; both met in B: {both}")
        for w in TYPED.worse(a, b):
            print(f"  worse in B than A: {w}")
    c1 = met >= FRESH_NEEDED and not refused
    print(
        f"C1: {met} of {len(stems)} meet both targets in B (needed {FRESH_NEEDED}); "
        f"refused in B where A answered: {refused or 'none'} -> {'HOLDS' if c1 else 'FAILS'}"
    )

    print("\n## C2: the 72, the cases the flag can change (READ_AS_FLOOR reads them)")
    lost = []
    for p in sorted((HERE / "seen-a").glob("*.json")):
        a = TYPED.figures(TYPED.load(p))
        b = TYPED.figures(TYPED.load(HERE / "seen-b" / p.name))
        ta, tb = TYPED.targets(a), TYPED.targets(b)
        lost += [f"{p.stem}: {k}" for k, ok in ta.items() if ok and not tb[k]]
        print(f"{p.stem}: A {TYPED.text(a)}; B {TYPED.text(b)}")
    c2 = not lost and len(list((HERE / "seen-b").glob("*.json"))) == 3
    print(f"C2: targets met in A lost in B: {lost or 'none'} -> {'HOLDS' if c2 else 'FAILS'}")
    print(f"\nRULE MET: {c1 and c2}")


if __name__ == "__main__":
    main()
