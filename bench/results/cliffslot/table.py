"""bench/results/cliffslot/'s runs as the verdict's tables (no simulation): each case's purged
errors off and on and the die load the form read, whether ``off`` equals cliffpool's (or
cliffseries') record (the seen reruns), and the counts by cache share (bench/results/cliffloss/
table.py's cells).

    python bench/results/cliffslot/table.py > bench/results/cliffslot/table.md
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location(
    "cliffloss_table", HERE.parent / "cliffloss/table.py"
)
assert _spec is not None and _spec.loader is not None
loss = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(loss)


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
    for share in ("1%", "3%"):
        for name, rows in runs.items():
            sub = [r for r in rows if r["drive"].endswith(share) and r["off"].get("true")]
            pred = [r for r in sub if r["on"].get("time_error") is not None]
            far = sum(
                r["on"].get("time_error") is not None
                and max(abs(r["on"]["time_error"]), abs(r["on"]["lost_error"])) > 0.5
                for r in sub
            )
            print(f"{name} at {share}: {len(sub)} truths, {len(pred)} predicted on, "
                  f"within 25% off {sum(loss._in(r['off']) for r in sub)}, "
                  f"on {sum(loss._in(r['on']) for r in sub)}, over 50% on {far}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
