"""Check bench/foreign/results/mqsim-reserve/RULE.md's conditions D1–D4 and write its verdict.

    PYTHONPATH=python python bench/foreign/mqsim_reserve_rule.py \
        [--dir bench/foreign/results/mqsim-reserve] [--out FILE]

Reads the unseen MQSim curves (``unseen/*.json``, ``mqsim.py``'s), their onsets of GC from empty
(``unseen-onsets.json``, ``mqsim_onset.py``'s) and ``gc_reserve_bench.py``'s cases on them
(``unseen.json``). D1 and D2 compare each QD32 level's steady WAF with MQSim's victim rule (RGA:
the best of d = log2(blocks a plane) random blocks, Van Houdt's mean field,
``models.waf_d_choices``) at the onset's spare factor, ρ(x) = s_on ÷ (1 − x) − 1; beside it,
each level's own spare factor read back through the same curve, s = (1 + ρ)(1 − x), and the
free blocks a plane it leaves of the NAND, (NAND pages ÷ user pages − s) × user pages ÷ pages a
block ÷ planes.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

from overprov import models

ROOT = Path(__file__).resolve().parents[2]
HELD_LEVELS = (20, 30, 40)  # D1
D1_BOUND = 0.03
D2_BOUND = 0.20
WAF_BOUND = 0.05  # D3: each level
IOPS_MEDIAN_BOUND = 0.10
IOPS_WORST_BOUND = 0.20
VERDICT = "bench/foreign/results/mqsim-reserve/verdict.md"  # --out's default, under ROOT


def spare_factor_of(waf: float, x: float, pages: int, d: int) -> float:
    """The spare factor s whose d-choices curve gives ``waf`` at extra OP ``x`` (bisection)."""
    lo, hi = 1e-4, 5.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if models.waf_d_choices(mid, pages, d) > waf:
            lo = mid
        else:
            hi = mid
    return (1 + (lo + hi) / 2) * (1 - x)


def drive_rows(doc: dict, onset: float) -> list[dict]:
    g = doc["config"]["geometry"]
    pages, blocks = g["Page_No_Per_Block"], g["Block_No_Per_Plane"]
    planes = g["Chip_No_Per_Channel"] * g["Die_No_Per_Chip"] * g["Plane_No_Per_Die"]
    d = int(math.log2(blocks))
    user = doc["advertised_bytes"] / g["Page_Capacity"]
    nand = doc["physical_bytes"] / g["Page_Capacity"]
    rows = []
    for r in sorted(doc["levels"], key=lambda r: (r["queue_depth"], r["extra_op_percent"])):
        x = r["extra_op_percent"] / 100
        at_onset = models.waf_d_choices(onset / (1 - x) - 1, pages, d)
        s = spare_factor_of(r["steady_waf"], x, pages, d)
        rows.append({
            "extra_op_percent": r["extra_op_percent"], "queue_depth": r["queue_depth"],
            "steady_waf": r["steady_waf"], "steady_iops": r["steady_iops"],
            "settled": r["steady_window"]["settled"], "waf_at_onset": at_onset,
            "error_at_onset": at_onset / r["steady_waf"] - 1, "spare_factor": s,
            "free_blocks_per_plane": (nand / user - s) * user / pages / planes,
        })  # fmt: skip
    return rows


def check(folder: Path) -> dict:
    onsets = {
        (ROOT / row["file"]).resolve(): row
        for row in json.loads((folder / "unseen-onsets.json").read_text())
    }
    bench = json.loads((folder / "unseen.json").read_text())
    drives = []
    for path in sorted((folder / "unseen").glob("*.json")):
        doc = json.loads(path.read_text())
        if path.resolve() not in onsets:  # MQSim could not run its onset: nothing to judge
            drives.append({"drive": path.stem, "onset_spare_factor": None, "levels": [],
                           "D1": None, "D2": None, "D3": None, "D3_cases": [],
                           "D4_loo_0pct": []})  # fmt: skip
            continue
        onset = onsets[path.resolve()]["onset_spare_factor"]
        rows = drive_rows(doc, onset)
        qd32 = {r["extra_op_percent"]: r for r in rows if r["queue_depth"] == 32}
        # a level MQSim could not run leaves its condition unjudged (None) on this drive
        d1 = (
            all(abs(qd32[x]["error_at_onset"]) <= D1_BOUND for x in HELD_LEVELS)
            if all(x in qd32 for x in HELD_LEVELS)
            else None
        )
        d2 = qd32[0]["error_at_onset"] > D2_BOUND if 0 in qd32 else None
        plan = [
            c
            for c in bench["cases"]
            if c["kind"] == "plan" and c["drive"] == path.stem and 0 in qd32
        ]
        d3_cases = []
        for c in plan:
            waf = [abs(r["with_reserve_error"]) for r in c["rows"] if r["figure"] == "waf"]
            iops = [abs(r["with_reserve_error"]) for r in c["rows"] if r["figure"] == "iops"]
            base_waf = [abs(r["baseline_error"]) for r in c["rows"] if r["figure"] == "waf"]
            base_iops = [abs(r["baseline_error"]) for r in c["rows"] if r["figure"] == "iops"]
            d3_cases.append({
                "raw_nand_given": c["raw_nand_given"], "reserve_weight": c["reserve_weight"],
                "waf_worst": max(waf), "iops_median": statistics.median(iops),
                "iops_worst": max(iops), "baseline_waf_worst": max(base_waf),
                "baseline_iops_median": statistics.median(base_iops),
                "baseline_iops_worst": max(base_iops),
                "holds": max(waf) <= WAF_BOUND and statistics.median(iops) <= IOPS_MEDIAN_BOUND
                and max(iops) <= IOPS_WORST_BOUND,
            })  # fmt: skip
        loo0 = [
            {"raw_nand_given": c["raw_nand_given"], "figure": r["figure"],
             "baseline_error": r["baseline_error"], "with_reserve_error": r["with_reserve_error"]}
            for c in bench["cases"] if c["kind"] == "loo" and c["drive"] == path.stem
            for r in c["rows"] if r["extra_op_percent"] == 0
        ]  # fmt: skip
        drives.append({
            "drive": path.stem, "onset_spare_factor": onset, "levels": rows,
            "D1": d1, "D2": d2, "D3_cases": d3_cases,
            "D3": all(c["holds"] for c in d3_cases) if d3_cases else None, "D4_loo_0pct": loo0,
        })  # fmt: skip
    judged = {k: [d[k] for d in drives if d[k] is not None] for k in ("D1", "D2", "D3")}
    return {
        "drives": drives,
        "judged_on": {k: len(v) for k, v in judged.items()},
        # at least two drives for each condition (the rule's amendment 1), else not judged
        "diagnosis_stands": all(judged["D1"] + judged["D2"])
        if min(len(judged["D1"]), len(judged["D2"])) >= 2
        else None,
        "targets_met": all(judged["D3"]) if len(judged["D3"]) >= 2 else None,
        "reserve_reading_carried_weight": any(
            c["reserve_weight"] > 0 for d in drives for c in d["D3_cases"]
        ),
    }


def plan_case_table(cases: list[dict], condition: str) -> list[str]:
    """The plan cases' lines of a verdict: weights, worst and median errors, the condition."""
    out = [
        "",
        "| plan case, raw NAND | reserve weight | WAF worst | IOPS median / worst | "
        f"baseline: WAF worst, IOPS median / worst | {condition} |",
        "|---|---|---|---|---|---|",
    ]
    for c in cases:
        out.append(
            f"| {'given' if c['raw_nand_given'] else 'not given'} | {c['reserve_weight']:.2f}"
            f" | {100 * c['waf_worst']:.1f}% | {100 * c['iops_median']:.1f}% / "
            f"{100 * c['iops_worst']:.1f}% | {100 * c['baseline_waf_worst']:.1f}%, "
            f"{100 * c['baseline_iops_median']:.1f}% / {100 * c['baseline_iops_worst']:.1f}%"
            f" | {'holds' if c['holds'] else 'fails'} |"
        )
    return out


def markdown(v: dict) -> str:
    out = ["# bench/foreign/results/mqsim-reserve/RULE.md: verdict", ""]
    words = {True: "stands", False: "fails", None: "not judged (fewer than two drives)"}
    stands = words[v["diagnosis_stands"]]
    met = {True: "met", False: "not met", None: words[None]}[v["targets_met"]]
    out.append(f"- diagnosis (D1 and D2 on every drive): **{stands}**")
    out.append(f"- targets with the onset (D3 on every drive): **{met}**")
    out.append(f"- drives judged for D1 / D2 / D3: {v['judged_on']}")
    out.append(
        f"- the reserve reading carried weight in any case: {v['reserve_reading_carried_weight']}"
    )
    for d in v["drives"]:
        if d["onset_spare_factor"] is None:
            out += ["", f"## {d['drive']}: no onset (MQSim stopped in its onset runs)"]
            continue
        out += ["", f"## {d['drive']}: onset {d['onset_spare_factor']:.4f}, "
                    f"D1 {d['D1']}, D2 {d['D2']}, D3 {d['D3']}", "",
                "| extra OP | QD | steady WAF | settled | WAF at the onset's spare | error | "
                "spare factor read | free blocks a plane |",
                "|---|---|---|---|---|---|---|---|"]  # fmt: skip
        for r in d["levels"]:
            out.append(
                f"| {r['extra_op_percent']}% | {r['queue_depth']} | {r['steady_waf']:.3f} | "
                f"{'yes' if r['settled'] else 'no'} | {r['waf_at_onset']:.3f} | "
                f"{100 * r['error_at_onset']:+.1f}% | {r['spare_factor']:.4f} | "
                f"{r['free_blocks_per_plane']:.1f} |"
            )
        out += plan_case_table(d["D3_cases"], "D3")
        for r in d["D4_loo_0pct"]:
            out.append(
                f"- D4, 0% held out ({'raw NAND' if r['raw_nand_given'] else 'no raw NAND'}), "
                f"{r['figure']}: baseline {100 * r['baseline_error']:+.1f}%, with the onset "
                f"{100 * r['with_reserve_error']:+.1f}%"
            )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=ROOT / "bench/foreign/results/mqsim-reserve")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    v = check(args.dir)
    (args.dir / "verdict.json").write_text(json.dumps(v, indent=1) + "\n")
    text = markdown(v)
    (args.out or ROOT / VERDICT).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
