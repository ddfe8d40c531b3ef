"""The verdict's clauses of bench/foreign/results/femumedian/RULE.md from the stored cases.

    PYTHONPATH=python python bench/foreign/results/femumedian/judge.py > judged.txt

A case's figures, its targets and "worse" as bench/foreign/results/femutyped/judge.py reads them
(loaded: one implementation). Arm B: femucarry's six flags; B+M: with mixture_centre.ON too;
defaults and defaults + M (composed post-hoc, compose.py) on the 72's cases several readings carry.
"""

from __future__ import annotations

import json
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


def with_m(case: Path) -> Path:
    """A stored case's arm defaults + M: its run with the flag on (``real/``, RULE.md's
    amendment) where a figure could not be composed, else its composition."""
    real = HERE / "real" / case.name
    composed = case.with_suffix(".median.json")
    if composed.exists() and json.loads(composed.read_text()).get("not_composed"):
        return real
    return composed


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


def _figs(path: Path):
    return TYPED.figures(TYPED.load(path)) if path.exists() else None


def harm(pairs: list[tuple[str, Path, Path]], arms: tuple[str, str]) -> list[str]:
    """Targets lost and figures worse in the second of each (name, first, second) pair of case
    files, each pair printed (a second that is missing: the first's figures, nothing moved)."""
    bad = []
    for name, first, second in pairs:
        a = _figs(first)
        b = _figs(second) if second.exists() else a
        ta, tb = TYPED.targets(a), TYPED.targets(b)
        bad += [f"{name}: {k} target lost" for k, ok in ta.items() if ok and not tb[k]]
        bad += [f"{name}: {w}" for w in TYPED.worse(a, b)]
        print(f"{name}: {arms[0]} {TYPED.text(a)}; {arms[1]} {TYPED.text(b)}")
    return bad


def main() -> None:
    print("## C1: fresh FEMU, arm B + M (B beside it)")
    stems = [ln.split(" ")[0] for ln in (HERE / "drives.txt").read_text().splitlines() if ln]
    got = {s: tuple(_figs(_case(HERE / arm, s)) for arm in ("fresh-b", "fresh-bm")) for s in stems}
    met = sum(all(TYPED.targets(bm).values()) for _, bm in got.values())
    for stem, (b, bm) in got.items():
        print(f"{stem}: B {TYPED.text(b)}; B+M {TYPED.text(bm)}; "
              f"both met in B+M: {all(TYPED.targets(bm).values())}")  # fmt: skip
    c1 = met >= FRESH_NEEDED
    print(f"C1: {met} of {len(stems)} meet both targets in B+M (needed {FRESH_NEEDED}) -> "
          f"{'HOLDS' if c1 else 'FAILS'}")  # fmt: skip

    print("\n## C2: the 72's cases two readings or more carry, defaults against defaults + M")
    stored = cases(HERE / "stored")
    arm_m = {f: with_m(f) for f in stored}
    bad = harm([(f.stem, f, m) for f, m in arm_m.items()], ("defaults", "+M"))
    moved = sum(_figs(f) != _figs(m) for f, m in arm_m.items())
    real = [f.stem for f, m in arm_m.items() if "real" in m.parts]
    print(f"({moved} of {len(stored)} cases' figures moved; 49 listed by compose.py; run with "
          f"the flag on for real: {real or 'none'})")  # fmt: skip
    unverified = verified()
    c2 = not bad and not unverified and len(stored) == 49
    print(
        f"C2: targets lost or figures worse by > 1 point: {bad or 'none'}; composition not "
        f"matching calibrate's output: {unverified or 'none'} -> {'HOLDS' if c2 else 'FAILS'}"
    )

    print("\n## C3: femucarry's 3 stored FEMU cases, defaults (femucarry/stored-a) against B + M")
    pairs = [(f.stem, f, HERE / "stored-bm" / f.name) for f in cases(CARRY / "stored-a")]
    missing = [n for n, _, bm in pairs if not bm.exists()]
    bad3 = harm(pairs, ("defaults", "B+M")) + [f"{n}: not run" for n in missing]
    c3 = not bad3
    print(f"C3: {bad3 or 'none'} -> {'HOLDS' if c3 else 'FAILS'}")
    print(f"\nRULE MET: {c1 and c2 and c3}")


if __name__ == "__main__":
    main()
