"""Check bench/foreign/results/mqsim-retry/RULE.md's conditions R1–R3 and write its verdict.

    PYTHONPATH=python python bench/foreign/mqsim_retry_rule.py \
        [--dir bench/foreign/results/mqsim-retry] [--unpatched bench/foreign/results/mqsim-reserve]

The patched MQSim curves (``unseen/*.json``), their onsets (``unseen-onsets.json``) and
``gc_reserve_bench.py``'s cases on them (``unseen.json``) are read as
``mqsim_reserve_rule.check`` reads its own folder: each QD32 level's steady WAF against MQSim's
victim rule at the onset's spare factor, the spare factor and free blocks a plane read back, and
the plan cases against the foreign-FTL targets (its D3, here R2). R1: the reserve held at every
level (the onset's curve within 5% of the measured WAF at each of 0–40%). R3, reported: every
held-out level of the ``loo`` cases, and the 80% interval's coverage where ``evaluate.py`` was
run on a drive (``eval/NAME/evaluation.json``). Beside each level: the unpatched curve's figures
(``--unpatched``'s ``unseen/NAME.json``, MQSim with the request leak patched only).

A diagnosis after the rule, not part of it (``plan_readings``): in each plan case without the
raw NAND, every reading's weight and the figures its fit gives at the fitted levels, to show
which reading carried the prediction and what it reproduces.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mqsim_reserve_rule  # noqa: E402

ROOT = mqsim_reserve_rule.ROOT
sys.path.insert(0, str(ROOT / "bench"))
import gc_reserve_bench  # noqa: E402
from corpus_bench import point  # noqa: E402
from corpus_foreign import foreign_drives  # noqa: E402

R1_BOUND = 0.05
FOLDER = "bench/foreign/results/mqsim-retry"
VERDICT = "bench/foreign/results/mqsim-retry/verdict.md"  # written into --dir
LEVEL_COLUMNS = (
    "extra OP",
    "steady WAF",
    "IOPS",
    "settled",
    "WAF at the onset's spare",
    "error",
    "spare factor read",
    "free blocks a plane",
    "unpatched WAF / IOPS",
)


def unpatched_levels(folder: Path, drive: str) -> dict[float, dict]:
    """The unpatched curve's QD32 levels by extra OP (empty when that drive was not run)."""
    path = folder / "unseen" / f"{drive}.json"
    if not path.exists():
        return {}
    doc = json.loads(path.read_text())
    return {r["extra_op_percent"]: r for r in doc["levels"] if r["queue_depth"] == 32}


def coverage(folder: Path, drive: str) -> list[dict]:
    """evaluate.py's cases on one drive, where run: each held-out level's error, whether the 80%
    interval holds the truth and the interval's width relative to the prediction."""
    path = folder / "eval" / drive / "evaluation.json"
    if not path.exists():
        return []
    out = []
    for sim in json.loads(path.read_text()):
        for case in sim["cases"]:
            if "levels" not in case:  # calibrate refused the case: its message, no figures
                out.append({"case": case["case"], "refused": case.get("error"), "held_out": []})
                continue
            held = []
            for r in case["levels"]:
                for fig in ("iops", "waf"):
                    if r.get(f"{fig}_true") is None or r[f"fitted_{fig}"]:
                        continue
                    width = (r[f"{fig}_high"] - r[f"{fig}_low"]) / r[f"{fig}_pred"]
                    held.append({
                        "extra_op_percent": r["extra_op_percent"], "figure": fig,
                        "error": r[f"{fig}_err"], "in_interval": r[f"{fig}_in_80"],
                        "width": width})  # fmt: skip
            out.append({"case": case["case"], "held_out": held})
    return out


def plan_readings(folder: Path, cv_sd: float) -> dict[str, list[dict]]:
    """Each drive's plan case (no raw NAND) as ``gc_reserve_bench.py --fit-onset`` weighs it:
    every reading's weight and its fit's IOPS and WAF at the plan's levels (0% and 40%)."""
    onsets = gc_reserve_bench.load_onsets([folder / "unseen-onsets.json"])
    out: dict[str, list[dict]] = {}
    for d in foreign_drives(folder / "unseen"):
        fitted = [f for f in d["figure"] if float(f["extra_op_percent"]) in (0.0, 40.0)]
        onset = gc_reserve_bench.onset_of(d, onsets)
        reads = gc_reserve_bench.readings([point(f) for f in fitted], None, cv_sd, True, onset,
                                          True)  # fmt: skip
        out[d["id"]] = [
            {"reading": f"{spare}:{design}", "weight": r["weight"],
             **{f"{what}_{x}": getattr(r["fit"], what)(x) for what in ("waf", "iops")
                for x in (0, 40)}}
            for (spare, design), r in reads.items()
        ]  # fmt: skip
    return out


def check(folder: Path, unpatched: Path) -> dict:
    v = mqsim_reserve_rule.check(folder)
    bench = json.loads((folder / "unseen.json").read_text())
    for d in v["drives"]:
        qd32 = [r for r in d["levels"] if r["queue_depth"] == 32]
        d["R1"] = all(abs(r["error_at_onset"]) <= R1_BOUND for r in qd32) if d["levels"] else None
        d["R2"], d["R2_cases"] = d.pop("D3"), d.pop("D3_cases")
        old = unpatched_levels(unpatched, d["drive"])
        for r in qd32:
            o = old.get(r["extra_op_percent"])
            r["unpatched_waf"] = o["steady_waf"] if o else None
            r["unpatched_iops"] = o["steady_iops"] if o else None
        d["loo"] = [
            {"raw_nand_given": c["raw_nand_given"], **r}
            for c in bench["cases"] if c["kind"] == "loo" and c["drive"] == d["drive"]
            for r in c["rows"]
        ]  # fmt: skip
        d["coverage"] = coverage(folder, d["drive"])
    judged = {k: [d[k] for d in v["drives"] if d[k] is not None] for k in ("R1", "R2")}
    return {
        "drives": v["drives"],
        "judged_on": {k: len(x) for k, x in judged.items()},
        "reserve_held": all(judged["R1"]) if len(judged["R1"]) >= 2 else None,
        "targets_met": all(judged["R2"]) if len(judged["R2"]) >= 2 else None,
        "reserve_reading_carried_weight": v["reserve_reading_carried_weight"],
        "loo_summary": bench["summary"]["loo"],
        "diagnosis_plan_readings": plan_readings(folder, bench["model_rel_sd"]),
    }


def pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.1f}%"


def markdown(v: dict) -> str:
    words = {True: "holds", False: "fails", None: "not judged (fewer than two drives)"}
    out = [f"# {FOLDER}/RULE.md: verdict", "",
           f"- R1, the reserve held at every level (every drive): **{words[v['reserve_held']]}**",
           f"- R2, calibrate's targets on the patched truth (every drive): "
           f"**{words[v['targets_met']]}**",
           f"- drives judged for R1 / R2: {v['judged_on']}",
           f"- the reserve reading carried weight in any plan case: "
           f"{v['reserve_reading_carried_weight']}",
           f"- held-out levels (`loo`, corpus and curves): {v['loo_summary']}"]  # fmt: skip
    for d in (d for d in v["drives"] if d["onset_spare_factor"] is not None):
        title = f"## {d['drive']}: onset {d['onset_spare_factor']:.4f}, R1 {d['R1']}, R2 {d['R2']}"
        out += ["", title, "", "| " + " | ".join(LEVEL_COLUMNS) + " |",
                "|" + "---|" * len(LEVEL_COLUMNS)]  # fmt: skip
        for r in (r for r in d["levels"] if r["queue_depth"] == 32):
            old = (
                f"{r['unpatched_waf']:.3f} / {r['unpatched_iops']:.0f}"
                if r["unpatched_waf"] is not None
                else "—"
            )
            out.append(
                f"| {r['extra_op_percent']}% | {r['steady_waf']:.3f} | {r['steady_iops']:.0f} | "
                f"{'yes' if r['settled'] else 'no'} | {r['waf_at_onset']:.3f} | "
                f"{pct(r['error_at_onset'])} | {r['spare_factor']:.4f} | "
                f"{r['free_blocks_per_plane']:.1f} | {old} |"
            )
        out += mqsim_reserve_rule.plan_case_table(d["R2_cases"], "R2")
        for raw in (False, True):
            rows = [r for r in d["loo"] if r["raw_nand_given"] == raw]
            for fig in ("iops", "waf"):
                errs = [f"{r['extra_op_percent']:g}% {pct(r['with_reserve_error'])}"
                        for r in rows if r["figure"] == fig]  # fmt: skip
                if errs:
                    out.append(
                        f"- R3, each level held out ({'raw NAND' if raw else 'no raw NAND'}), "
                        f"{fig}, with the onset: " + ", ".join(errs)
                    )
        for c in d["coverage"]:
            if c.get("refused"):
                out.append(f"- R3, `evaluate.py` {c['case']}: refused ({c['refused'][0]})")
            h = c["held_out"]
            for fig in ("iops", "waf"):
                rows = [r for r in h if r["figure"] == fig]
                if rows:
                    hits = sum(bool(r["in_interval"]) for r in rows)
                    width = statistics.median(r["width"] for r in rows)
                    errs = ", ".join(f"{r['extra_op_percent']:g}% {pct(r['error'])}" for r in rows)
                    out.append(
                        f"- R3, `evaluate.py` {c['case']}, {fig} held out: {errs}; in the 80% "
                        f"interval {hits}/{len(rows)}, median width {100 * width:.0f}%"
                    )
    out += ["", "## Diagnosis after the rule: the readings of each plan case (no raw NAND)", "",
            "| drive | reading | weight | WAF at 0% / 40% | IOPS at 0% / 40% |",
            "|---|---|---|---|---|"]  # fmt: skip
    for drive, rows in v["diagnosis_plan_readings"].items():
        for r in rows:
            out.append(
                f"| {drive} | {r['reading']} | {r['weight']:.2f} | {r['waf_0']:.2f} / "
                f"{r['waf_40']:.3f} | {r['iops_0']:.0f} / {r['iops_40']:.0f} |"
            )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=ROOT / FOLDER)
    ap.add_argument("--unpatched", type=Path, default=ROOT / "bench/foreign/results/mqsim-reserve")
    args = ap.parse_args(argv)
    v = check(args.dir, args.unpatched)
    (args.dir / "verdict.json").write_text(json.dumps(v, indent=1) + "\n")
    text = markdown(v)
    (args.dir / Path(VERDICT).name).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
