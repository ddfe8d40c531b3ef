"""The GC-reserve reading widened by its own residual (``own_residual.OWN_RESERVE_RESIDUAL``),
judged by bench/intervals/RULE-widthfemu.md.

``run``: the unseen FEMU drives (:data:`UNSEEN`) predicted again from their stored plan
measurements with the flag off and on, and the seen FEMU end-to-end drives that keep a reserve
reading with it on (the flag-off ones are tally-now's), as ``femu_end_to_end.py repredict``
predicts (``overprov calibrate --from``), into ``bench/intervals/widthfemu/runs/NAME-{off,on}``.

``judge``: every moved interval rebuilt from its flag-off prediction under the change, the scale
fitted without the FEMU family's corpus cases (``conditioned_intervals.run``), beside the stored
tally; the criteria; bench/intervals/widthfemu/verdict.md and ``verdict.json`` beside it.

    PYTHONPATH=python python bench/intervals/widthfemu_judge.py run
    PYTHONPATH=python python bench/intervals/widthfemu_judge.py judge
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "bench" / "foreign"))
import tally  # noqa: E402  (bench/intervals/)
from femu_end_to_end import LEVELS, judge  # noqa: E402  (bench/foreign/)
from femu_width_terms import points_of  # noqa: E402
from overprov.calibrate import evidence, gc_designs, gc_reserve, uncertainty  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402

OUT = HERE / "widthfemu"
RUNS = OUT / "runs"
RESULTS = ROOT / "bench" / "foreign" / "results"
Z80 = uncertainty.Z80
#: the unseen drives: (measurement folder, truth) under bench/foreign/results
UNSEEN = tuple(
    (f"{d}/{n}-on", f"{d}/{n}.json")
    for d, n in (
        ("femu40", "femu-3lun-430blk-thres73-4200us"),
        ("femu40", "femu-17lun-210blk-thres61-3400us"),
        ("gate14", "femu-19lun-150blk-thres62-4600us-ns80"),
        ("gate14", "femu-21lun-130blk-thres74-3700us-ns85"),
        ("gate14", "femu-23lun-118blk-thres58-4300us-ns85"),
    )
)
UNSEEN_FAMILY = "FEMU, unseen drives (RULE-widthfemu)"
#: ``overprov`` with the flag set first in its process
FLAG_ON_MAIN = (
    "import sys; from overprov.calibrate import own_residual; "
    "own_residual.OWN_RESERVE_RESIDUAL = True; from overprov.cli import main; "
    "sys.exit(main(sys.argv[1:]))"
)
KEYS = {"iops": ("steady_iops", "steady_iops_low", "steady_iops_high"),
        "waf": ("waf", "waf_low", "waf_high")}  # fmt: skip


def predict_again(case: Path, out: Path, on: bool) -> dict[str, Any]:
    """``case``'s measurement predicted again into ``out`` (flag ``on`` or off); its run.json."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(case / "measurement.json", out / "measurement.json")
    head = ["-c", FLAG_ON_MAIN] if on else ["-m", "overprov"]
    cmd = [sys.executable, *head, "calibrate", "--from", str(out), "--out", str(out / "fit"),
           "--json", str(out / "prediction.json"), "--jobs", "1", "--no-progress",
           "--extra-op", ",".join(f"{x:g}" for x in LEVELS)]  # fmt: skip
    t0 = os.times()
    res = subprocess.run(cmd, capture_output=True, text=True)
    t1 = os.times()
    (out / "calibrate.out").write_text(res.stdout + res.stderr)
    cpu = (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)
    doc = json.loads((case / "run.json").read_text()) | {
        "repredicted_from": str(case.relative_to(ROOT)), "own_reserve_residual": on,
        "calibrate": "overprov " + " ".join(cmd[3:]), "calibrate_exit": res.returncode,
        "cpu_s_measure": 0.0, "cpu_s_predict": cpu,
    }  # fmt: skip
    (out / "run.json").write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def seen_reserve_cases() -> list[str]:
    """The seen FEMU end-to-end drives (tally-now) whose prediction kept a reserve reading."""
    out = []
    for f in sorted((tally.NOW / "femu").glob("*/prediction.json")):
        if any(k.startswith("gc_reserve") for k in json.loads(f.read_text()).get("readings", {})):
            out.append(f.parent.name)
    return out


def run(_: argparse.Namespace) -> int:
    jobs = [(RESULTS / c, RUNS / f"{Path(c).name}-{s}", s == "on", RESULTS / t)
            for c, t in UNSEEN for s in ("off", "on")]  # fmt: skip
    for name in seen_reserve_cases():
        src = json.loads((tally.NOW / "femu" / name / "run.json").read_text())
        names = (tally.NOW / "femu" / "truths.txt").read_text().splitlines()
        truth = dict(line.split() for line in names)
        jobs.append((ROOT / src["repredicted_from"], RUNS / f"{name}-on", True, ROOT / truth[name]))
    for case, out, on, truth in jobs:
        if (out / "run.json").exists():
            continue
        doc = predict_again(case, out, on)
        ok = (out / "prediction.json").exists()
        verdict = judge(json.loads(truth.read_text()), out) if ok else {"refused": True}
        (out / "verdict.json").write_text(json.dumps(verdict, indent=1) + "\n")
        print(f"{out.name}: exit {doc['calibrate_exit']}, {doc['cpu_s_predict']:.2f} CPU s",
              flush=True)  # fmt: skip
    return 0


# --- judge -------------------------------------------------------------------------------------


def own_residual(pred: dict[str, Any], key: str, onset: float) -> float | None:
    """The reserve reading ``key``'s own residual on the prediction's figures as measured, as
    ``predict._fit`` works it out with the flag on."""
    design = key.split(":", 1)[1] if ":" in key else "greedy"
    recorded = uncertainty.recorded_model_form(False)
    form = gc_reserve.ReserveForm(
        gc_designs.curve(design) or fitmod.waf_at, recorded.rel_sd if recorded else 0.0,
        onset=onset,
    )  # fmt: skip
    pts = points_of(pred)
    s = form.fit(pts)
    e = math.log(gc_reserve.onset_spare_factor(s) / onset)
    return uncertainty.surrogate_residual_sd(s, pts, evidence.n_parameters(s, form), (e,))


def rebuilt(pred: dict[str, Any], onset: float, scale: float) -> dict[tuple[float, str], list]:
    """{(level, kind): [low, high]} of a flag-off prediction under the change at ``scale``
    (RULE-widthfemu.md: each kept reading's band per side sqrt(h² − z²(m² − m'²)), spanned)."""
    form = uncertainty.model_form_for(points_of(pred), simulated=False)
    readings = pred.get("readings") or {"one": {"levels": pred["levels"]}}
    if not any(k.startswith("gc_reserve") for k in readings):  # not moved: as stored
        scale = form.residual_scale if form is not None else scale
    out: dict[tuple[float, str], list] = {}
    for key, r in readings.items():
        if form is None or form.residual_sd is None:
            m_new = m = 0.0
        else:
            m = form.at(None)
            own = own_residual(pred, key, onset) if key.startswith("gc_reserve") else None
            res = own if own is not None else form.residual_sd
            m_new = scale * math.hypot(form.floor, res)
        for lv in r["levels"]:
            for kind, (v, lo, hi) in KEYS.items():
                if lv.get(lo) is None:
                    continue
                h_lo, h_hi = math.log(lv[v] / lv[lo]), math.log(lv[hi] / lv[v])
                shrink = (Z80 * m) ** 2 - (Z80 * m_new) ** 2
                new_lo = lv[v] * math.exp(-math.sqrt(max(h_lo**2 - shrink, 0.0)))
                new_hi = lv[v] * math.exp(math.sqrt(max(h_hi**2 - shrink, 0.0)))
                if kind == "waf":
                    new_lo, new_hi = max(new_lo, 1.0), max(new_hi, 1.0)
                span = out.setdefault((lv["extra_op_percent"], kind), [math.inf, -math.inf])
                span[0] = min(span[0], lv[v], new_lo)
                span[1] = max(span[1], lv[v], new_hi)
    return out


def with_band(r: dict[str, Any], band: list[float]) -> dict[str, Any]:
    return tally.row(**{k: v for k, v in r.items() if k not in ("inside", "width")}
                     | {"low": band[0], "high": band[1]})  # fmt: skip


def moved_sources() -> list[tuple[str, dict[str, Any], float, str]]:
    """(case name in the tally's rows, flag-off prediction, onset, kind of case) of every seen
    case the change moves."""
    out = []
    for name in seen_reserve_cases():
        folder = tally.NOW / "femu" / name
        onset = json.loads((folder / "run.json").read_text())["onset_spare_factor"]
        out.append((name, json.loads((folder / "prediction.json").read_text()), onset, "femu"))
    for f in sorted((tally.NOW / "byfig5").glob("*.json")):
        doc = json.loads(f.read_text())
        if any(k.startswith("gc_reserve") for k in doc["on"].get("readings", {})):
            out.append((f.stem, doc["on"], doc["onset"], "byfig5"))
    return out


def unseen_rows(on: bool) -> list[dict[str, Any]]:
    rows = []
    for c, t in UNSEEN:
        f = RUNS / f"{Path(c).name}-{'on' if on else 'off'}" / "prediction.json"
        if not f.exists():
            continue
        pred = json.loads(f.read_text())
        truth = json.loads((RESULTS / t).read_text())
        rows += tally.prediction_rows(pred, truth, str(RESULTS / t), str(f.relative_to(ROOT)),
                                      Path(c).name, UNSEEN_FAMILY)  # fmt: skip
    return rows


def rebuilt_rows(rows: list[dict[str, Any]], pred, onset, scale) -> list[dict[str, Any]]:
    bands = rebuilt(pred, onset, scale)
    return [with_band(r, bands[(float(r["level"]), r["kind"])]) for r in rows]


def judge_all(_: argparse.Namespace) -> int:
    import conditioned_intervals as ci  # noqa: PLC0415  (bench/, on tally's path)

    seen = [json.loads(x) for x in (tally.NOW / "rows-now.jsonl").read_text().splitlines()]
    seen = [r for r in seen if not r["stale"]]
    cases = [{**c, "_file": p} for p in tally.CORPUS_CASES for c in tally.read_cases(ROOT / p)]
    scale_lofo = ci.run(cases, set())["scale_without"]["FEMU"]
    scale_cal = float(uncertainty.recorded()["fit_residual"]["scale"])
    moved = {}
    for name, pred, onset, kind in moved_sources():
        mine = [i for i, r in enumerate(seen)
                if (r["case"] == name and r["family"] == "FEMU, end to end" if kind == "femu"
                    else r["truth"] == name and "byfig5" in r["source"])]  # fmt: skip
        moved[name] = (mine, pred, onset)
    columns: dict[str, list[dict[str, Any]]] = {"today": seen}
    for col, scale in (("change", scale_lofo), ("change at 0.82", scale_cal)):
        rows = list(seen)
        for mine, pred, onset in moved.values():
            for i, r in zip(mine, rebuilt_rows([seen[i] for i in mine], pred, onset, scale),
                            strict=True):  # fmt: skip
                rows[i] = r
        columns[col] = rows
    today_lofo = list(seen)  # the recorded rule at the leave-one-out scale, for comparison
    for mine, pred, _onset in moved.values():
        form = uncertainty.model_form_for(points_of(pred), simulated=False)
        for i, r in zip(mine, _recorded_lofo([seen[i] for i in mine], pred, form, scale_lofo),
                        strict=True):  # fmt: skip
            today_lofo[i] = r
    columns["today at the leave-one-out scale"] = today_lofo
    moved_idx = sorted(i for mine, _, _ in moved.values() for i in mine)
    # unseen drives: flag off as calibrate gives it, the change rebuilt from flag off
    un_off = unseen_rows(on=False)
    un_change, un_cal = [], []
    for c, _t in UNSEEN:
        f = RUNS / f"{Path(c).name}-off" / "prediction.json"
        if not f.exists():
            continue
        pred = json.loads(f.read_text())
        onset = json.loads((f.parent / "run.json").read_text())["onset_spare_factor"]
        mine = [r for r in un_off if r["case"] == Path(c).name]
        un_change += rebuilt_rows(mine, pred, onset, scale_lofo)
        un_cal += rebuilt_rows(mine, pred, onset, scale_cal)
    verification = verify(scale_cal)
    doc = summarise(columns, moved_idx, un_off, un_change, un_cal, verification)
    doc["scales"] = {"leave FEMU out": scale_lofo, "calibrate (all families)": scale_cal}
    doc["moved_cases"] = sorted(moved)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "verdict.json").write_text(json.dumps(doc, indent=1) + "\n")
    text = markdown(doc)
    (HERE / "widthfemu/verdict.md").write_text(text + "\n")
    with (OUT / "rows.jsonl").open("w") as fh:
        for col, rows in columns.items():
            for i in moved_idx:
                fh.write(json.dumps({"column": col, **rows[i]}) + "\n")
        for col, rows in (("unseen, flag off", un_off), ("unseen, change", un_change),
                          ("unseen, change at 0.82", un_cal)):  # fmt: skip
            for r in rows:
                fh.write(json.dumps({"column": col, **r}) + "\n")
    print(text)
    return 0


def _recorded_lofo(rows, pred, form, scale):
    """The recorded rule (greedy R) at ``scale``: every kept reading's m scaled."""
    if form is None or form.residual_sd is None:
        return rows
    ratio = scale / form.residual_scale
    bands: dict[tuple[float, str], list] = {}
    m = form.at(None)
    for r in (pred.get("readings") or {"one": {"levels": pred["levels"]}}).values():
        for lv in r["levels"]:
            for kind, (v, lo, hi) in KEYS.items():
                if lv.get(lo) is None:
                    continue
                shrink = (Z80 * m) ** 2 * (1 - ratio**2)
                h_lo, h_hi = math.log(lv[v] / lv[lo]), math.log(lv[hi] / lv[v])
                new_lo = lv[v] * math.exp(-math.sqrt(max(h_lo**2 - shrink, 0.0)))
                new_hi = lv[v] * math.exp(math.sqrt(max(h_hi**2 - shrink, 0.0)))
                if kind == "waf":
                    new_lo = max(new_lo, 1.0)
                span = bands.setdefault((lv["extra_op_percent"], kind), [math.inf, -math.inf])
                span[0], span[1] = min(span[0], lv[v], new_lo), max(span[1], lv[v], new_hi)
    return [with_band(r, bands[(float(r["level"]), r["kind"])]) for r in rows]


def verify(scale_cal: float) -> list[dict[str, Any]]:
    """Each flag-on run's intervals against the rebuild of its flag-off prediction at 0.82."""
    out = []
    for on in sorted(RUNS.glob("*-on/prediction.json")):
        name = on.parent.name[: -len("-on")]
        off = RUNS / f"{name}-off" / "prediction.json"
        if not off.exists():
            off = tally.NOW / "femu" / name / "prediction.json"
        if not off.exists():
            continue
        onset = json.loads((on.parent / "run.json").read_text())["onset_spare_factor"]
        got = json.loads(on.read_text())
        bands = rebuilt(json.loads(off.read_text()), onset, scale_cal)
        worst = 0.0
        for lv in got["levels"]:
            for kind, (_, lo, hi) in KEYS.items():
                if lv.get(lo) is None:
                    continue
                want = bands[(lv["extra_op_percent"], kind)]
                worst = max(worst, abs(lv[lo] / want[0] - 1), abs(lv[hi] / want[1] - 1))
        out.append({"run": name, "largest_end_difference": worst})
    return out


def stats(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return tally.stats(rows)


def summarise(columns, moved_idx, un_off, un_change, un_cal, verification) -> dict[str, Any]:
    today, change = columns["today"], columns["change"]
    fams = sorted({r["family"] for r in today})
    per_family = {f: {c: stats([r for r in rows if r["family"] == f])
                      for c, rows in columns.items()} for f in fams}  # fmt: skip
    pooled = {c: stats(rows) for c, rows in columns.items()}
    moved = {c: stats([rows[i] for i in moved_idx]) for c, rows in columns.items()}
    unseen = {"flag off": stats(un_off), "change": stats(un_change),
              "change at 0.82": stats(un_cal)}  # fmt: skip
    broken = []
    for f, s in per_family.items():
        t, c = s["today"], s["change"]
        if t["n"] < 10:
            continue
        if (t["inside"] >= 0.7 > c["inside"]) or (t["inside"] < 0.7 and c["inside"] < t["inside"]):
            broken.append(f)
    femu = per_family["FEMU, end to end"]["change"]
    crit = {
        "C1 pooled 75-90% inside": 0.75 <= pooled["change"]["inside"] <= 0.90,
        "C2 moved: median width >=15% lower": bool(moved["change"]["n"])
        and moved["change"]["median_width"] <= 0.85 * moved["today"]["median_width"],
        "C3 pooled median width not above today's": pooled["change"]["median_width"]
        <= pooled["today"]["median_width"],
        "C4 no family broken": not broken,
        "C5 FEMU end to end >=80% inside": femu["inside"] >= 0.80,
        "C6 unseen >=70% inside, width not above flag off's": bool(unseen["change"]["n"])
        and unseen["change"]["inside"] >= 0.70
        and unseen["change"]["median_width"] <= unseen["flag off"]["median_width"],
        "C7 verification within 0.5%": bool(verification)
        and all(v["largest_end_difference"] <= 0.005 for v in verification),
    }
    change_any = any(r is not t for r, t in zip(change, today, strict=True))
    verdict = "met" if all(crit.values()) else "not met"
    return {"pooled": pooled, "moved": moved, "families": per_family, "unseen": unseen,
            "broken": broken, "verification": verification, "criteria": crit,
            "moved_any": change_any, "verdict": verdict}  # fmt: skip


def cell(s: dict[str, Any]) -> str:
    return tally.cell(s)


def markdown(doc: dict[str, Any]) -> str:
    cols = list(doc["pooled"])
    lines = ["| cases | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    lines.append("| **pooled** | " + " | ".join(cell(doc["pooled"][c]) for c in cols) + " |")
    lines.append("| **moved (seen)** | " + " | ".join(cell(doc["moved"][c]) for c in cols) + " |")
    for f, s in doc["families"].items():
        lines.append(f"| {f} | " + " | ".join(cell(s[c]) for c in cols) + " |")
    u = doc["unseen"]
    lines += ["", "Unseen drives (" + ", ".join(Path(c).name for c, _ in UNSEEN) + "): "
              + "; ".join(f"{k}: {cell(v)}" for k, v in u.items()), "",
              "Scales: " + json.dumps(doc["scales"]), "",
              "Verification (flag-on runs against the rebuild at the calibrate scale): "
              + "; ".join(f"{v['run']}: {100 * v['largest_end_difference']:.3f}%"
                          for v in doc["verification"]), "",
              "Criteria: " + "; ".join(f"{k}: {'met' if v else 'NOT met'}"
                                       for k, v in doc["criteria"].items()),
              f"Verdict: {doc['verdict']}."]  # fmt: skip
    if doc["broken"]:
        lines.append("Families broken: " + ", ".join(doc["broken"]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("run").set_defaults(fn=run)
    sub.add_parser("judge").set_defaults(fn=judge_all)
    args = ap.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    raise SystemExit(main())
