"""The verdict's clauses of bench/foreign/results/femumedian/RULE.md from the stored cases.

    PYTHONPATH=python python bench/foreign/results/femumedian/judge.py > judged.txt

A case's figures, its targets and "worse" as bench/foreign/results/femutyped/judge.py reads them
(loaded: one implementation). Arm B: femucarry's six flags; B+M: with mixture_centre.ON too;
defaults and defaults + M (composed post-hoc, compose.py) on the 72's cases several readings carry.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

TYPED = load_script("femutyped_judge", HERE.parent / "femutyped" / "judge.py")
CARRY = HERE.parent / "femucarry"
FRESH_NEEDED = 3  # of the 4 fresh drives, meeting both targets in arm B + M
SAME_REL = 1e-9  # the composed median equals calibrate's own output to this (relative)
_KEYS = ("iops_pred", "iops_low", "iops_high", "waf_pred", "waf_low", "waf_high")


def _case(folder: Path, stem: str) -> Path:
    return folder / f"FEMU--femumedian_fresh--{stem}.json"


def same(real: dict, composed: dict) -> float:
    """The largest relative difference between two case files' figures and intervals."""
    d = 0.0
    for a, b in zip(real["levels"], composed["levels"], strict=True):
        for k in _KEYS:
            if k in a or k in b:
                d = max(d, abs(a[k] / b[k] - 1))
    return d


def cases(folder: Path) -> list[Path]:
    """The case files of a folder (not the readings or the composed cases beside them)."""
    return [f for f in sorted(folder.glob("*.json")) if "." not in f.stem]


def verified() -> list[str]:
    """Where the composition differs from calibrate's real output with the flag on."""
    bad = []
    pairs = [(f, (HERE / "stored" / f.name).with_suffix(".median.json"))
             for f in cases(HERE / "verify")]  # fmt: skip
    stems = [ln.split(" ")[0] for ln in (HERE / "drives.txt").read_text().splitlines() if ln]
    pairs += [(_case(HERE / "fresh-bm", s), _case(HERE / "fresh-b", s).with_suffix(".median.json"))
              for s in stems]  # fmt: skip
    for real, composed in pairs:
        d = same(TYPED.load(real), TYPED.load(composed))
        print(f"  verify {real.name}: largest relative difference {d:.2e}")
        bad += [real.name] if d > SAME_REL else []
    return bad


def main() -> None:
    print("## C1: fresh FEMU, arm B + M (B beside it)")
    met = 0
    stems = [ln.split(" ")[0] for ln in (HERE / "drives.txt").read_text().splitlines() if ln]
    for stem in stems:
        b = TYPED.figures(TYPED.load(_case(HERE / "fresh-b", stem)))
        bm = TYPED.figures(TYPED.load(_case(HERE / "fresh-bm", stem)))
        both = all(TYPED.targets(bm).values())
        met += both
        print(f"{stem}: B {TYPED.text(b)}; B+M {TYPED.text(bm)}; both met in B+M: {both}")
    c1 = met >= FRESH_NEEDED
    print(f"C1: {met} of {len(stems)} meet both targets in B+M (needed {FRESH_NEEDED}) -> "
          f"{'HOLDS' if c1 else 'FAILS'}")  # fmt: skip

    print("\n## C2: the 72's cases two readings or more carry, defaults against defaults + M")
    bad, moved = [], 0
    for real in cases(HERE / "stored"):
        composed = real.with_suffix(".median.json")
        a = TYPED.figures(TYPED.load(real))
        m = TYPED.figures(TYPED.load(composed)) if composed.exists() else a
        ta, tm = TYPED.targets(a), TYPED.targets(m)
        bad += [f"{real.stem}: {k} target lost" for k, ok in ta.items() if ok and not tm[k]]
        bad += [f"{real.stem}: {w}" for w in TYPED.worse(a, m)]
        moved += a != m
        print(f"{real.stem}: defaults {TYPED.text(a)}; +M {TYPED.text(m)}")
    print(f"({moved} of {len(cases(HERE / 'stored'))} cases' figures moved)")
    unverified = verified()
    c2 = not bad and not unverified
    print(f"C2: targets lost or figures worse by > 1 point: {bad or 'none'}; composition not "
          f"matching calibrate's output: {unverified or 'none'} -> {'HOLDS' if c2 else 'FAILS'}")

    print("\n## C3: femucarry's 3 stored FEMU cases, defaults (femucarry/stored-a) against B + M")
    bad3 = []
    for a_file in sorted((CARRY / "stored-a").glob("*.json")):
        a = TYPED.figures(TYPED.load(a_file))
        bm = TYPED.figures(TYPED.load(HERE / "stored-bm" / a_file.name))
        ta, tm = TYPED.targets(a), TYPED.targets(bm)
        bad3 += [f"{a_file.stem}: {k} target lost" for k, ok in ta.items() if ok and not tm[k]]
        bad3 += [f"{a_file.stem}: {w}" for w in TYPED.worse(a, bm)]
        print(f"{a_file.stem}: defaults {TYPED.text(a)}; B+M {TYPED.text(bm)}")
    c3 = not bad3
    print(f"C3: {bad3 or 'none'} -> {'HOLDS' if c3 else 'FAILS'}")
    print(f"\nRULE MET: {c1 and c2 and c3}")


if __name__ == "__main__":
    main()
