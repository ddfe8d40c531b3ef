"""bench/results/cliff3level/'s runs as the verdict's tables (no simulation): each case's purged
errors off, with ``SLOT_FROM_LOAD`` alone (the seen cases: bench/results/cliffslot/
runs_seen.json's ``on``) and with the joint arm, the die loads before and past the cliff the
forms read, and the counts by cache share (bench/results/cliffslot/table.py's, whose check of the
seen reruns' ``off`` against cliffpool's records this runs too).

    python bench/results/cliff3level/table.py > bench/results/cliff3level/table.md
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
slot = load_script("cliffslot_table", HERE.parent / "cliffslot" / "table.py")
loss = slot.loss


def main() -> int:
    cliffslot = json.loads((HERE.parent / "cliffslot/runs_seen.json").read_text())["rows"]
    alone = {r["drive"]: r for r in cliffslot}
    for name in ("fresh", "seen"):
        rows = json.loads((HERE / f"runs_{name}.json").read_text())["rows"]
        print(f"\n## {name}: the joint arm\n\n| case | off | SLOT_FROM_LOAD alone | joint | "
              "loads before, past | moved |\n|---|---|---|---|---|---|")  # fmt: skip
        for r in rows:
            moved = {(True, False): "out", (False, True): "in"}.get(
                (loss._in(r["off"]), loss._in(r["on"])), ""
            )
            a = alone.get(r["drive"]) if name == "seen" else None
            loads = r.get("slot_from_load") or {}
            both = " ".join(
                f"{loads[k]:.2f}" for k in ("die_load_before", "die_load") if k in loads
            )
            print(f"| {r['drive']} | {loss.cell(r['off'], r)} | "
                  f"{loss.cell(a['on'], a) if a else ''} | {loss.cell(r['on'], r)} | {both} | "
                  f"{moved} |")  # fmt: skip
    slot.HERE = HERE
    return slot.main()


if __name__ == "__main__":
    raise SystemExit(main())
