"""The verdict's clauses of bench/foreign/results/femucarry/RULE.md from the stored cases.

    PYTHONPATH=python python bench/foreign/results/femucarry/judge.py > judged.txt

A case's figures, its targets and "worse" as bench/foreign/results/femutyped/judge.py reads them
(loaded: one implementation). Arm A: today's defaults; arm B: the candidate (runs.sh).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

TYPED = load_script("femutyped_judge", HERE.parent / "femutyped" / "judge.py")
FRESH_NEEDED = 3  # of the 4 fresh drives, meeting both targets in arm B


def rows(listing: str) -> list[tuple[str, str]]:
    """(truth folder's case prefix, stem) of drives.txt (fresh) or stored.txt."""
    out = []
    for line in (HERE / listing).read_text().splitlines():
        if not line:
            continue
        if listing == "drives.txt":
            out.append(("femucarry_fresh", line.split(" ")[0]))
        else:
            folder, stem = line.split(" ")
            sub = folder.split("bench/foreign/results/", 1)[1].replace("/", "_")
            out.append((sub, stem))
    return out


def arms(prefix: str, sub: str, stem: str):
    name = f"FEMU--{sub}--{stem}.json"
    return (TYPED.figures(TYPED.load(HERE / f"{prefix}-a" / name)),
            TYPED.figures(TYPED.load(HERE / f"{prefix}-b" / name)))  # fmt: skip


def main() -> None:
    print("## C1: fresh FEMU, arm B (A beside it)")
    met = 0
    fresh = rows("drives.txt")
    for sub, stem in fresh:
        a, b = arms("fresh", sub, stem)
        both = all(TYPED.targets(b).values())
        met += both
        print(f"{stem}: A {TYPED.text(a)}; B {TYPED.text(b)}; both met in B: {both}")
    c1 = met >= FRESH_NEEDED
    print(f"C1: {met} of {len(fresh)} meet both targets in B (needed {FRESH_NEEDED}) -> "
          f"{'HOLDS' if c1 else 'FAILS'}")  # fmt: skip

    print("\n## C2: the stored cases the flags can change (fires.txt), A against B")
    bad = []
    for sub, stem in rows("stored.txt"):
        a, b = arms("stored", sub, stem)
        ta, tb = TYPED.targets(a), TYPED.targets(b)
        bad += [f"{stem}: {k} target lost" for k, ok in ta.items() if ok and not tb[k]]
        bad += [f"{stem}: {w}" for w in TYPED.worse(a, b)]
        print(f"{stem}: A {TYPED.text(a)}; B {TYPED.text(b)}")
    print(f"C2: targets lost or figures worse by > 1 point: {bad or 'none'} -> "
          f"{'HOLDS' if not bad else 'FAILS'}")  # fmt: skip
    print(f"\nRULE MET: {c1 and not bad}")


if __name__ == "__main__":
    main()
