"""Task 1, from stored runs only (bench/results/cliffsmall/DIAGNOSIS.md): for every case
predicted from purged in bench/results/cliffpool/runs_*.json and
bench/results/cliffseries/runs.json (``PROBES_IN_PREDICTION`` on), the twin's level before and
after the cliff against the truth's, the IOPS lost, and per cache share how often the level
after is fast; the seven 1% cases whose IOPS lost was predicted more than 25% small.

    python bench/results/cliffsmall/stored_levels.py > bench/results/cliffsmall/stored_levels.json
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent.parent
FILES = [*sorted((RESULTS / "cliffpool").glob("runs_*.json")), RESULTS / "cliffseries/runs.json"]


def main() -> int:
    rows = []
    for f in FILES:
        for r in json.loads(f.read_text())["rows"]:
            t, p = r["purged"]["true"], (r["cliff"] or {}).get("purged") or {}
            if not t or "iops_before" not in p:
                continue
            rows.append({
                "file": str(f.relative_to(RESULTS.parent.parent)), "drive": r["drive"],
                "before_error": p["iops_before"] / t["iops_before"] - 1,
                "after_error": p["iops_after"] / t["iops_after"] - 1,
                "time_error": r["purged"]["time_error"], "lost_error": r["purged"]["lost_error"],
                "true_lost_share": t["lost_iops"] / t["iops_before"],
                "probe_after_read_us": ((r["cliff"].get("read_probes_selection") or {})
                                        .get("measured_read_us")),
            })  # fmt: skip
    per_share = {}
    for s in ("cache 1%", "cache 3%"):
        x = [r for r in rows if r["drive"].endswith(s)]
        per_share[s] = {
            "predicted": len(x),
            "after_fast": sum(r["after_error"] > 0 for r in x),
            "after_error_median": statistics.median(r["after_error"] for r in x),
            "before_error_median": statistics.median(r["before_error"] for r in x),
            "true_lost_share_median": statistics.median(r["true_lost_share"] for r in x),
        }
    low = [r for r in rows if r["drive"].endswith("cache 1%") and r["lost_error"] < -0.25]
    json.dump({"per_share": per_share, "low_at_1pc": low, "rows": rows}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
