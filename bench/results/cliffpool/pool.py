"""bench/results/cliffpool/RULE.md's pooled verdict: the four reruns (``runs_<rule>.json``,
``bench/cliffplan_eval.py`` with the current code) and cliffseries' runs.json as recorded,
counted as ``cliffplan_eval.check_verdict`` counts one rule (P1: predicted of the cases with a
truth cliff; P2: within 25% in both figures of the predicted), pooled and per rule; each
rerun's purged truth compared with the one its rule recorded; the per-case table.

    PYTHONPATH=python:bench python bench/results/cliffpool/pool.py \
        > bench/results/cliffpool/pool.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cliffplan_eval import CHECK_PREDICTED_MIN, CHECK_WITHIN_MIN, check_verdict

HERE = Path(__file__).resolve().parent
RERUN = ("cliffcheck", "clifflift", "cliffmix", "cliffpast")
RECORDED = "cliffseries"


def _cell(r: dict, key: str) -> str:
    e = r[key]
    if e["true"] is None:
        return "no truth cliff"
    if e["time_error"] is None:
        c = r["cliff"] or {}
        why = (c.get(key) or {}).get("declined") or c.get("declined") or c.get("error")
        return f"declined ({str(why)[:70]})"
    return f"{100 * e['time_error']:+.1f}%, {100 * e['lost_error']:+.1f}%"


def _truth_moved(new: dict, old: dict) -> bool:
    a, b = new["purged"]["true"], old["purged"]["true"]
    if (a is None) != (b is None):
        return True
    return a is not None and any(abs(a[k] - b[k]) > 1e-9 * max(1.0, abs(b[k])) for k in a)


def main() -> int:
    groups: dict[str, list[dict]] = {}
    moved, cpu = [], 0.0
    for name in RERUN:
        doc = json.loads((HERE / f"runs_{name}.json").read_text())
        cpu += doc["cpu_s"]
        recorded = json.loads((HERE.parent / name / "runs.json").read_text())["rows"]
        old = {r["drive"]: r for r in recorded}
        groups[name] = doc["rows"]
        moved += [r["drive"] for r in doc["rows"] if _truth_moved(r, old[r["drive"]])]
    groups[RECORDED] = json.loads((HERE.parent / RECORDED / "runs.json").read_text())["rows"]
    pooled = [r for rows in groups.values() for r in rows]
    out = {
        "pooled": {k: check_verdict(pooled, k) for k in ("purged", "filled")},
        "per_rule": {
            n: {k: check_verdict(rows, k) for k in ("purged", "filled")}
            for n, rows in groups.items()
        },  # fmt: skip
        "per_share": {
            s: {
                k: check_verdict([r for r in pooled if r["drive"].endswith(s)], k)
                for k in ("purged", "filled")
            }
            for s in ("cache 1%", "cache 3%")
        },
        "truths_moved": moved,
        "rerun_cpu_s": round(cpu, 1),
        "bounds": {"predicted_min": CHECK_PREDICTED_MIN, "within_min": CHECK_WITHIN_MIN},
        "table": [
            {
                "rule": n,
                "drive": r["drive"],
                "fitted_gb": ((r["cliff"] or {}).get("fit") or {}).get("cache_bytes", 0) / 1e9,
                "true_gb": r["true_cache_bytes"] / 1e9,
                "purged": _cell(r, "purged"),
                "filled": _cell(r, "filled"),
            }
            for n, rows in groups.items()
            for r in rows
        ],  # fmt: skip
    }
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
