"""The seen FEMU cases with both flags on (seen-on/, ``runs.sh seen``) beside off and beside
``steep_pair.READ_AS_FLOOR`` alone, where stored: what the fallback does before any rule.

PYTHONPATH=python python bench/foreign/results/femunext/seen.py > seen.txt

Off: scoreboard/cases-mix (the 8 of the 72), steephull/off/ (the 5 fresh). READ_AS_FLOOR alone:
femutyped/cases-on (the 8) and femutyped/fresh-on (its 3); none stored for steephull's 2.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
R = HERE.parent
_SPEC = importlib.util.spec_from_file_location("femutyped_judge", R / "femutyped" / "judge.py")
typed = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(typed)


def main() -> None:
    for p in sorted((HERE / "seen-on").glob("*.json")):
        off_at = [R / "scoreboard" / "cases-mix" / p.name, R / "steephull" / "off" / p.name]
        floor_at = [R / "femutyped" / "cases-on" / p.name, R / "femutyped" / "fresh-on" / p.name]
        off = next((typed.load(q) for q in off_at if q.exists()), None)
        floor = next((typed.load(q) for q in floor_at if q.exists()), None)
        both = typed.load(p)
        carry = ", ".join(both.get("summary", {}).get("carry", [])) or both.get("error", "")[:90]
        print(p.stem)
        print(f"  off:                {typed.text(typed.figures(off))}")
        if floor is not None:
            same = " (bit-identical to both flags)" if typed.identical(floor, both) else ""
            print(f"  READ_AS_FLOOR:      {typed.text(typed.figures(floor))}{same}")
        print(f"  both flags:         {typed.text(typed.figures(both))}; carry: {carry}")


if __name__ == "__main__":
    main()
