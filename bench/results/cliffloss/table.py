"""bench/results/cliffloss/'s runs as the verdict's tables (no simulation): each case's purged
errors off and on, whether ``off`` equals cliffpool's record (the seen reruns), and the counts
by cache share.

    python bench/results/cliffloss/table.py > bench/results/cliffloss/table.md
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDED = HERE.parent / "cliffsmall" / "runs.json"


def cell(e: dict, row: dict) -> str:
    if e.get("true") is None:
        return "no truth cliff"
    if e.get("time_error") is None:
        why = str((e.get("predicted") or {}).get("declined") or row.get("declined") or "?")
        return f"declined ({why[:60]})"
    return f"{100 * e['time_error']:+.1f}%, {100 * e['lost_error']:+.1f}%"


def _in(e: dict) -> bool:
    return (
        e.get("time_error") is not None and max(abs(e["time_error"]), abs(e["lost_error"])) <= 0.25
    )


def main() -> int:
    pool = {}
    for path in sorted((HERE.parent / "cliffpool").glob("runs_*.json")):
        for r in json.loads(path.read_text())["rows"]:
            pool[r["drive"]] = r["purged"]
    fresh = json.loads((HERE / "runs_fresh.json").read_text())["rows"]
    seen = json.loads((HERE / "runs_seen.json").read_text())["rows"]
    rec = [r for r in json.loads(RECORDED.read_text())["rows"]["harm"]
           if r["off"].get("time_error") is not None]  # fmt: skip
    for name, rows in (("fresh", fresh), ("seen (32 rerun, 9 as cliffsmall recorded)", seen + rec)):
        print(f"\n## {name}\n\n| case | off | on | moved |\n|---|---|---|---|")
        for r in rows:
            moved = {(True, False): "out", (False, True): "in"}.get(
                (_in(r["off"]), _in(r["on"])), ""
            )
            print(f"| {r['drive']} | {cell(r['off'], r)} | {cell(r['on'], r)} | {moved} |")
    keys = ("time_error", "lost_error")
    diff = [r["drive"] for r in seen
            if any(abs((r["off"].get(k) or 0) - (pool[r["drive"]].get(k) or 0)) > 1e-9
                   for k in keys)]  # fmt: skip
    print(f"\nseen reruns whose `off` differs from cliffpool's record: {diff or 'none'}")
    for share in ("1%", "3%"):
        for name, rows in (("fresh", fresh), ("seen", seen + rec)):
            sub = [r for r in rows if r["drive"].endswith(share) and r["off"].get("true")]
            pred = [r for r in sub if r["on"].get("time_error") is not None]
            print(f"{name} at {share}: {len(sub)} truths, {len(pred)} predicted on, "
                  f"within 25% off {sum(_in(r['off']) for r in sub)}, "
                  f"on {sum(_in(r['on']) for r in sub)}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
