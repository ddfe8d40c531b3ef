"""Task 1 of the cliffslot brief (bench/results/cliffslot/DIAGNOSIS.md), no simulation: per seen
case predicted from purged, the truth's reads of written pages past its cliff under the workload
(bench/results/cliffslot/truth_past.json, truth_past_3pc.json) against the probe past the cliff
(bench/results/cliffslot/stored_figures.json), the dies' load past the cliff (the truth's busy
share, and as the plan pins it: the level past the cliff times the write share over the QD32
series' level past its cliff, at the truth's level and at the twin's as cliffpool predicted it),
and the slot the candidate form gives (the probe's wait times 0.5 + the load at the twin's level).

    python bench/results/cliffslot/slot_table.py > bench/results/cliffslot/slot_table.md
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
OVER = {"231", "246", "257", "9768"}  # the brief's: the IOPS lost too large with SPAN_FROM_MIX
UNDER = {"252", "258", "259", "264", "273", "9605"}  # the brief's: too small without it


def predicted() -> dict[str, dict]:
    files = [
        *sorted((RESULTS / "cliffpool").glob("runs_*.json")),
        RESULTS / "cliffseries/runs.json",
    ]
    out = {}
    for f in files:
        for r in json.loads(f.read_text())["rows"]:
            p = (r["cliff"] or {}).get("purged") or {}
            if "iops_after" in p:
                out[r["drive"]] = p
    return out


def rows() -> list[dict]:
    fig = {r["drive"]: r for r in json.loads((HERE / "stored_figures.json").read_text())["rows"]}
    pred, out = predicted(), []
    for name in ("truth_past.json", "truth_past_3pc.json"):
        for r in json.loads((HERE / name).read_text())["rows"]:
            seed, share = r["case"].split()[0], r["case"].split()[-1]
            drive = f"generated {seed}, cache {share}"
            if drive not in fig or not r.get("truth"):
                continue
            f, past, nand = fig[drive], r["truth"]["past"], r["truth_nand"]
            series_after = f["series_iops_after"]
            load_twin = min(1.0, 0.3 * pred[drive]["iops_after"] / series_after)
            out.append({
                "case": r["case"], "seed": seed, "share": share,
                "truth_wait_us": past["read_written"]["mean_us"],
                "probe_after_us": f["probe_after_us"],
                "busy": past["die_busy_share"],
                "load_truth": 0.3 * past["iops"] / series_after, "load_twin": load_twin,
                "form_us": f["probe_after_us"] * (0.5 + load_twin),
                "stall": (past["read_written"]["mean_us"] - nand["read_us"])
                / (past["die_busy_share"] * nand["program_us"]),
                "lost_off": f["lost_off"], "lost_on_span": f["lost_on"],
            })  # fmt: skip
    return out


def spread(xs: list[dict], key: str) -> str:
    e = [math.log(x[key] / x["truth_wait_us"]) for x in xs]
    within = sum(abs(v) < math.log(1.2) for v in e)
    return (f"{within} of {len(e)} within 20%, log error median {statistics.median(e):+.2f}, "
            f"spread (sd) {statistics.pstdev(e):.2f}")  # fmt: skip


def main() -> int:
    xs = rows()
    print(
        "| case | group | truth's wait µs | probe's µs | ratio | dies busy | load (truth's level)"
        " | load (twin's level) | form µs | (wait − read) ÷ (busy × TLC program) |"
        " IOPS lost off | with SPAN_FROM_MIX |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for x in sorted(xs, key=lambda x: (x["share"], x["truth_wait_us"] / x["probe_after_us"])):
        group = ("over" if x["seed"] in OVER else "under" if x["seed"] in UNDER else "") \
            if x["share"] == "1%" else ""  # fmt: skip
        print(
            f"| {x['case']} | {group} | {x['truth_wait_us']:.0f} | {x['probe_after_us']} | "
            f"{x['truth_wait_us'] / x['probe_after_us']:.2f} | {x['busy']:.2f} | "
            f"{x['load_truth']:.2f} | {x['load_twin']:.2f} | {x['form_us']:.0f} | "
            f"{x['stall']:.2f} | {100 * x['lost_off']:+.1f}% | {100 * x['lost_on_span']:+.1f}% |"
        )
    print()
    print(f"- the probe's wait as the slot: {spread(xs, 'probe_after_us')}")
    print(f"- the form's slot: {spread(xs, 'form_us')}")
    low = [x for x in xs if x["busy"] < 0.75]
    st = [x["stall"] for x in low]
    print(
        f"- dies under 75% busy ({len(low)} of {len(xs)}): (wait − read) ÷ (busy × TLC program)"
        f" {min(st):.2f}–{max(st):.2f}, median {statistics.median(st):.2f}"
    )
    d = [abs(x["load_truth"] - x["busy"]) for x in xs]
    print(
        f"- the load at the truth's level against the truth's dies' busy share: within "
        f"{max(d):.2f} on all {len(xs)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
