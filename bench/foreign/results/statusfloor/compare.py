"""Each statusfloor case file against its status72 one: which differ beyond wall time, and by
how much at each level (IOPS and WAF centre, 80% bounds). No simulation.

    cd bench/foreign/results/statusfloor && python compare.py > compare.txt
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = HERE.parent / "status72" / "cases"
AFTER = HERE / "cases"


def _plain(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "wall_s"}


def main() -> None:
    same, moved, missing = [], [], []
    for after in sorted(AFTER.glob("*.json")):
        before = BEFORE / after.name
        if not before.exists():
            missing.append(after.name)
            continue
        a, b = json.loads(after.read_text()), json.loads(before.read_text())
        if _plain(a) == _plain(b):
            same.append(after.name)
            continue
        worst = 0.0
        for la, lb in zip(a["levels"], b["levels"], strict=False):
            for key in ("iops_pred", "waf_pred"):
                va, vb = la.get(key), lb.get(key)
                if isinstance(va, (int, float)) and isinstance(vb, (int, float)) and vb:
                    worst = max(worst, abs(va / vb - 1.0))
        moved.append((after.name, worst, a["summary"] == b["summary"]))
    print(f"{len(same)} case files identical but wall time; {len(moved)} differ; "
          f"{len(missing)} without a status72 file")
    for name, worst, same_summary in moved:
        print(f"  {name}: largest level centre change {100 * worst:.3f}%; "
              f"summary {'unchanged' if same_summary else 'CHANGED'}")
    for name in missing:
        print(f"  no status72 file: {name}")


if __name__ == "__main__":
    main()
