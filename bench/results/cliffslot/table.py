"""bench/results/cliffslot/'s runs as the verdict's tables (no simulation): each case's purged
errors off and on and the die load the form read, whether ``off`` equals cliffpool's (or
cliffseries') record (the seen reruns), and the counts by cache share (bench/results/cliffloss/
table.py's cells, ``cliffplan_eval.check_verdict``'s counts).

    python bench/results/cliffslot/table.py > bench/results/cliffslot/table.md
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cliffplan_eval import check_verdict

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
loss = load_script("cliffloss_table", HERE.parent / "cliffloss" / "table.py")


def main() -> int:
    pool = {}
    files = [*sorted((HERE.parent / "cliffpool").glob("runs_*.json")),
             HERE.parent / "cliffseries" / "runs.json"]  # fmt: skip
    for path in files:
        for r in json.loads(path.read_text())["rows"]:
            pool[r["drive"]] = r["purged"]
    runs = {n: json.loads((HERE / f"runs_{n}.json").read_text())["rows"] for n in ("fresh", "seen")}
    for name, rows in runs.items():
        print(f"\n## {name}\n\n| case | off | on | die load | moved |\n|---|---|---|---|---|")
        for r in rows:
            moved = {(True, False): "out", (False, True): "in"}.get(
                (loss._in(r["off"]), loss._in(r["on"])), ""
            )
            load = (r.get("slot_from_load") or {}).get("die_load")
            print(f"| {r['drive']} | {loss.cell(r['off'], r)} | {loss.cell(r['on'], r)} | "
                  f"{'' if load is None else f'{load:.2f}'} | {moved} |")  # fmt: skip
    keys = ("time_error", "lost_error")
    diff = [r["drive"] for r in runs["seen"]
            if any(abs((r["off"].get(k) or 0) - (pool[r["drive"]].get(k) or 0)) > 1e-9
                   for k in keys)]  # fmt: skip
    print(f"\nseen reruns whose `off` differs from the recorded: {diff or 'none'}")
    by_share = [
        (f"{name} at {share}", [r for r in rows if r["drive"].endswith(share)])
        for share in ("1%", "3%")
        for name, rows in runs.items()
    ]
    for label, sub in by_share:
        off, on = check_verdict(sub, "off"), check_verdict(sub, "on")
        print(f"{label}: {on['cases']} truths, {on['predicted']} predicted on, within 25% off "
              f"{off['within_25']}, on {on['within_25']}, over 50% on {on['over_50']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
