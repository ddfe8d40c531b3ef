"""Which stored truths carry a FOB WAF figure (bench/foreign/results/metafactor/RULE.md, the
feasibility): only a case whose truth has one can be typed ``--fob-waf`` and so move with
``metadata_factor.ENABLED``; every other case reads m = 1 (no figure) and is left untouched.

For each of status72's 72 plan cases (bench/foreign/results/status72/cases/, each naming its
truth) and each Dhara truth (newftl2, fifogc): the 0% level's ``fob`` record (the run from
empty, before any garbage collection) and its ``waf`` where the simulator counted one.

    PYTHONPATH=python python bench/foreign/results/metafactor/feasible.py > .../feasible.txt
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
CASES = HERE.parent / "status72" / "cases"
DHARA = [*sorted((HERE.parent / "newftl2").glob("dhara-?.json")),
         *sorted((HERE.parent / "fifogc").glob("dhara-?.json"))]  # fmt: skip


def fob_waf(truth: dict) -> tuple[float | None, dict]:
    """The truth's FOB WAF (its 0% level's ``fob.waf``, None where not counted) and that
    ``fob`` record without its series."""
    level = next((lv for lv in truth["levels"] if lv.get("extra_op_percent") == 0),
                 truth["levels"][0])  # fmt: skip
    fob = {k: v for k, v in (level.get("fob") or {}).items() if k != "series"}
    return fob.get("waf"), fob


def main() -> None:
    carry = 0
    print("The 72 plan cases (status72): truth, its 0% level's FOB record, FOB WAF")
    for path in sorted(CASES.glob("*.json")):
        case = json.loads(path.read_text())
        waf, fob = fob_waf(json.loads((ROOT / case["truth"]).read_text()))
        carry += waf is not None
        print(f"  {path.stem}: {fob}, FOB WAF {'none' if waf is None else f'{waf:.4f}'}")
    print(f"\n{carry} of {len(list(CASES.glob('*.json')))} carry a FOB WAF figure "
          "(the others: m = 1, nothing to type, answers unchanged)")  # fmt: skip
    print("\nDhara truths (seen: newftl2 A-E, fifogc F-I): FOB WAF at each level")
    for path in DHARA:
        doc = json.loads(path.read_text())
        per = [f"{lv['extra_op_percent']}%: {lv['fob']['waf']:.4f}" for lv in doc["levels"]
               if (lv.get("fob") or {}).get("waf") is not None]  # fmt: skip
        print(f"  {path.parent.name}/{path.stem}: {', '.join(per)}")


if __name__ == "__main__":
    main()
