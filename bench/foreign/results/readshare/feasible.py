"""bench/foreign/results/readshare/RULE.md's feasibility: from the stored fit records alone (no
calibrate run), each case's t_cmd / t_page (the bound today: −MAX_READ_SHARE_WITH_WAF), the
line's WAF-1 value over the FOB's time per write and t_page over it (the floor
fit.CMD_FLOOR_FOB_SHARE = 0.5 is the looser bound only where t_page > 5 · t_fob).

    python bench/foreign/results/readshare/feasible.py \
        > bench/foreign/results/readshare/feasible.txt
"""

from __future__ import annotations

import json
import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1]
FOLDERS = (RESULTS / "status72" / "cases", RESULTS / "newftl" / "cases")
SHARE_TODAY = 0.9
FLOOR_SHARE = 0.5


def fob_iops(command: str) -> float | None:
    m = re.search(r"--fob-iops (\S+)", command)
    return float(m.group(1)) if m else None


def row(doc: dict) -> dict | None:
    """The record's fit as the bound sees it; None for a refused case (no fit recorded)."""
    fit = doc.get("fit")
    command = doc["command"] if isinstance(doc["command"], str) else " ".join(doc["command"])
    fob = fob_iops(command)
    if not fit or not fob:
        return None
    t_cmd, t_page, t_fob = fit["t_cmd_us"], fit["t_page_us"], 1e6 / fob
    return {"ratio": t_cmd / t_page, "line1_over_fob": (t_cmd + t_page) / t_fob,
            "page_over_fob": t_page / t_fob, "met": doc["summary"].get("met"),
            "at_bound": t_cmd <= -SHARE_TODAY * t_page * (1 - 1e-9),
            "floor_looser": FLOOR_SHARE * t_fob < (1 - SHARE_TODAY) * t_page}  # fmt: skip


def main() -> None:
    print("case | t_cmd / t_page | line at W=1 / t_fob | t_page / t_fob | at today's bound | "
          "floor looser | met")  # fmt: skip
    counts = {"cases": 0, "at_bound": 0, "floor_looser": 0}
    for folder in FOLDERS:
        for path in sorted(folder.glob("*.json")):
            r = row(json.loads(path.read_text()))
            if r is None:
                print(f"{path.parent.parent.name}/{path.stem} | refused: no fit recorded")
                continue
            if folder.parent.name == "status72":
                counts["cases"] += 1
                counts["at_bound"] += r["at_bound"]
                counts["floor_looser"] += r["floor_looser"]
            print(f"{path.parent.parent.name}/{path.stem} | {r['ratio']:+.3f} | "
                  f"{r['line1_over_fob']:.2f} | {r['page_over_fob']:.2f} | {r['at_bound']} | "
                  f"{r['floor_looser']} | {r['met']}")  # fmt: skip
    print(f"status72: {counts['cases']} fits recorded, {counts['at_bound']} at today's bound, "
          f"{counts['floor_looser']} where the floor is the looser bound")  # fmt: skip


if __name__ == "__main__":
    main()
