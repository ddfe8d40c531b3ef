"""Task 1 of the cliffslot brief, from stored runs only (no simulation): for every seen case
predicted from purged in bench/results/cliffpool/runs_*.json and
bench/results/cliffseries/runs.json (``PROBES_IN_PREDICTION`` on), what the plan measured (the
three read probes' waits, the FOB → saturation series' levels, the fit) next to the truth's
drawn NAND (not measured: the diagnosis's side) and the IOPS lost's error with
``cliff_span.SPAN_FROM_MIX`` off and on (bench/results/cliffloss/runs_seen.json and, for
cliffseries' seeds, bench/results/cliffsmall/runs.json's ``harm`` rows).

    PYTHONPATH=python:bench python bench/results/cliffslot/stored_figures.py \
        > bench/results/cliffslot/stored_figures.json
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

from cliffplan_eval import written_truth

RESULTS = Path(__file__).resolve().parent.parent
FILES = [*sorted((RESULTS / "cliffpool").glob("runs_*.json")), RESULTS / "cliffseries/runs.json"]
PROBES = re.compile(r"waited (\d+) µs before the cliff and (\d+) µs past it, reads of trimmed "
                    r"space (\d+) µs")  # fmt: skip


def arms() -> dict[str, dict]:
    """Each seen case's ``off`` and ``on`` judged entries (cliffloss's reruns, cliffsmall's
    ``harm`` rows for cliffseries' seeds)."""
    out = {}
    for r in json.loads((RESULTS / "cliffloss/runs_seen.json").read_text())["rows"]:
        out[r["drive"]] = {"off": r["off"], "on": r["on"]}
    for r in json.loads((RESULTS / "cliffsmall/runs.json").read_text())["rows"]["harm"]:
        out.setdefault(r["drive"], {"off": r["off"], "on": r["on"]})
    return out


def main() -> int:
    judged = arms()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in FILES:
            for r in json.loads(f.read_text())["rows"]:
                c = r["cliff"] or {}
                t, p = r["purged"]["true"], c.get("purged") or {}
                if not t or "iops_before" not in p or r["drive"] not in judged:
                    continue
                m = PROBES.search(c.get("read_probes", ""))
                seed, share = int(r["drive"].split()[1].rstrip(",")), float(
                    r["drive"].split()[-1].rstrip("%")) / 100  # fmt: skip
                truth, _, _ = written_truth(seed, share, Path(tmp))
                nand = truth["config"]["timing"]["nand"]
                fit, sel = c["fit"], c.get("read_probes_selection") or {}
                a = judged[r["drive"]]
                rows.append({
                    "drive": r["drive"],
                    "probe_before_us": int(m[1]) if m else None,
                    "probe_after_us": int(m[2]) if m else None,
                    "probe_unwritten_us": int(m[3]) if m else None,
                    "program": sel.get("program"),
                    "twin_probe_after_us": (sel.get("twin_read_us") or {}).get(sel.get("program")),
                    "series_iops_before": fit["measured"]["iops_before"],
                    "series_iops_after": fit["measured"]["iops_after"],
                    "fit_slc_us": fit["slc_program_us"], "fit_tlc_us": fit["tlc_program_us"],
                    "true_tlc_us": nand["program_us"], "true_read_us": nand["read_us"],
                    "true_dies": nand["channels"] * nand["dies_per_channel"],
                    "true_page_bytes": nand["flash_page_bytes"],
                    "true_lost_share": t["lost_iops"] / t["iops_before"],
                    "lost_off": a["off"]["lost_error"], "lost_on": a["on"]["lost_error"],
                    "time_off": a["off"]["time_error"], "time_on": a["on"]["time_error"],
                })  # fmt: skip
    json.dump({"rows": rows}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
