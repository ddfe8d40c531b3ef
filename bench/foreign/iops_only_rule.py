"""The by-figure count without a WAF figure where the spare side reads a moderate WAF: the
pre-registered rule bench/foreign/results/iops-only/RULE.md.

    PYTHONPATH=python python bench/foreign/iops_only_rule.py cases --truth T.json ... --out DIR
    PYTHONPATH=python python bench/foreign/iops_only_rule.py replay [--results DIR] --out FILE
    PYTHONPATH=python python bench/foreign/iops_only_rule.py check --cases DIR --onsets FILE \
        --replay FILE

``cases``: ``evaluate.py``'s "IOPS 0+40 QD32 + 40 QD4, FOB" on each truth, predicted by
calibrate with ``evidence.BY_FIGURE_WITHOUT_WAF_MAX_WAF`` as committed ("on") and set to None
in calibrate's process ("off", the gate as before); both kept in DIR/<truth stem>.json with
each one's QD32 errors and CPU seconds. ``replay``: every stored IOPS-only prediction with a
blocking-GC reading under ``--results`` (:data:`STORED`) predicted again from its stored twins
(:func:`replay_prediction`): within each spare reading, the blocking-GC weight
``evidence.weights`` gives with the threshold on and off (the count from the stored
``figures_reproduced``, the spare side's WAF at the fitted levels from the stored surrogate),
the IOPS the weighted geometric mean of the stored analytic and blocking-GC twins' IOPS, the
readings combined by their stored weights; the stored weights replayed first must give the
stored IOPS (:data:`REPLAY_TOLERANCE`). ``check``: the rule's conditions on both.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import by_figure_rule  # noqa: E402
import evaluate  # noqa: E402
import iops_form_readings as readings  # noqa: E402
from overprov.calibrate import evidence  # noqa: E402
from overprov.calibrate.spare_readings import weighted_geomean  # noqa: E402

CASE = "IOPS 0+40 QD32 + 40 QD4, FOB"
#: the stored folders of IOPS-only predictions the rule names (under bench/foreign/results/)
STORED = ("byfig5/noharm", "byfig-reserve/unseen-cases", "byfig-reserve3/unseen-cases",
          "qd4-by-figure")  # fmt: skip
#: the stored weights replayed must give the stored QD32 IOPS within this (the rule's 0.5%)
REPLAY_TOLERANCE = 0.005
POINT = 0.01  # "worse": more than 1 point above off's |error|


def run_case(truth: Path, out: Path) -> Path:
    """The truth's IOPS-only case, on and off (both run)."""
    cmd, kept = by_figure_rule.case_command(truth, CASE)
    args = cmd[cmd.index("calibrate") + 1 :]
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, 32)
    for name, max_waf in (("on", None), ("off", "None")):
        with tempfile.TemporaryDirectory() as tmp:
            full = readings.calibrate_cmd([*args, "--out", tmp], None, max_waf=max_waf)
            res, cpu = readings._run(full)
        got: dict = {"cpu_s": cpu}
        if res.returncode == 0:
            pred = json.loads(res.stdout)
            at = {int(p["extra_op_percent"]): p for p in pred["levels"]}
            got["levels"] = [
                {"extra_op_percent": x,
                 "iops_error": p["steady_iops"] / curve[x]["steady_iops"] - 1,
                 "waf_error": p["waf"] / curve[x]["steady_waf"] - 1}
                for x, p in at.items()
            ]  # fmt: skip
            got["mechanism"] = {
                name: {k: (r["fit"].get("gc_mechanism") or {}).get(k)
                       for k in ("weight", "figures_reproduced")}
                for name, r in (pred.get("readings") or {"single": pred}).items()
            }  # fmt: skip
            got["prediction"] = pred
        else:
            got["refused"] = (res.stderr.strip().splitlines() or ["(no message)"])[-1]
        kept[name] = got
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{truth.stem}.json"
    path.write_text(json.dumps(kept, indent=1) + "\n")
    cpu = kept["on"]["cpu_s"] + kept["off"]["cpu_s"]
    print(f"{path.name}: {cpu:.0f} CPU s", flush=True)
    return path


def spare_side_waf(reading: dict) -> list[float]:
    """The WAF the reading's surrogate puts at its fitted steady levels:
    (10⁶ ÷ surrogate IOPS − t_cmd) ÷ t_page."""
    s = reading["fit"]["surrogate"]
    fitted = {p["extra_op_percent"] for p in reading["fit"]["points"] if not p.get("fresh")}
    return [
        (1e6 / lv["surrogate_iops"] - s["t_cmd_us"]) / s["t_page_us"]
        for lv in reading["levels"]
        if lv["extra_op_percent"] in fitted and lv.get("surrogate_iops")
    ]


def blocking_weight(reading: dict, max_waf: float | None) -> float | None:
    """The blocking-GC weight ``evidence.weights`` gives the reading with the threshold at
    ``max_waf``, from its stored evidence (None without a blocking-GC reading): the likelihood
    of the stored χ² unless the count is made (no reading reproduces its fitted figures, the
    spare side's WAF at or below ``max_waf``), then the reading that reproduces more of the
    shared figures, or the likelihood on a tie."""
    g = reading["fit"].get("gc_mechanism")
    if not g or g.get("weight") is None:
        return None
    reproduced = {"analytic": bool(g["analytic_reproduces_fitted_figures"]),
                  "blocking": bool(g["reproduces_fitted_figures"])}  # fmt: skip
    chi2 = {"analytic": g["analytic_chi2"], "blocking": g["chi2"]}
    likelihood = evidence.weights(chi2, reproduced)["blocking"]
    count = g.get("figures_reproduced")
    wafs = spare_side_waf(reading)
    opened = max_waf is not None and bool(wafs) and max(wafs) <= max_waf
    if any(reproduced.values()) or not count or not opened:
        return likelihood
    if count["analytic"] == count["blocking"]:
        return likelihood
    return 0.0 if count["analytic"] > count["blocking"] else 1.0


def replay_prediction(pred: dict, max_waf: float | None, stored: bool = False) -> dict:
    """{level: QD32 IOPS} from the stored twins; ``stored``: with the stored weights."""
    rs = pred.get("readings") or {"single": {**pred, "weight": 1.0}}
    per, weights = [], []
    for r in rs.values():
        g = r["fit"].get("gc_mechanism") or {}
        w = g.get("weight") if stored else blocking_weight(r, max_waf)
        row = {}
        for lv in r["levels"]:
            a, b = lv.get("analytic_iops"), lv.get("blocking_gc_iops")
            row[lv["extra_op_percent"]] = (
                lv["steady_iops"] if w is None or not (a and b)
                else math.exp((1 - w) * math.log(a) + w * math.log(b))
            )  # fmt: skip
        per.append(row)
        weights.append(r.get("weight", 1.0))
    return {x: weighted_geomean([row[x] for row in per], weights) for x in per[0]}


def stored_predictions(results: Path):
    """(file, run, kept, prediction): one stored prediction of each IOPS-only case with a
    blocking-GC reading (the first of its runs; a case stored twice, once)."""
    seen = set()
    for folder in STORED:
        for f in sorted((results / folder).rglob("*.json")):
            kept = json.loads(f.read_text())
            if not isinstance(kept, dict) or not str(kept.get("case", "")).startswith("IOPS "):
                continue
            for run in ("off", "on"):
                got = kept.get(run) or {}
                pred = got.get("prediction", got if "levels" in got else None)
                readings_of = (pred or {}).get("readings") or {}
                weighed = pred and (pred["fit"].get("gc_mechanism") or any(
                    r["fit"].get("gc_mechanism") for r in readings_of.values()))  # fmt: skip
                if not weighed:
                    continue
                key = (kept["truth"], kept["case"])
                if key not in seen:
                    seen.add(key)
                    yield f, run, kept, pred
                break


def run_replay(results: Path) -> list[dict]:
    rows = []
    root = HERE.parent.parent
    for f, run, kept, pred in stored_predictions(results):
        truth = evaluate.truth_curve(json.loads((root / kept["truth"]).read_text()), 32)
        stored = {lv["extra_op_percent"]: lv["steady_iops"] for lv in pred["levels"]}
        again = replay_prediction(pred, None, stored=True)
        gap = max(abs(again[x] / stored[x] - 1) for x in stored)
        row = {"file": str(f.relative_to(results)), "run": run, "truth": kept["truth"],
               "case": kept["case"], "replay_gap": gap}  # fmt: skip
        for name, max_waf in (("on", evidence.BY_FIGURE_WITHOUT_WAF_MAX_WAF), ("off", None)):
            got = replay_prediction(pred, max_waf)
            row[name] = {f"{x:g}": got[x] / truth[int(x)]["steady_iops"] - 1 for x in sorted(got)}
        rows.append(row)
    return rows


def _errors(levels: dict) -> list[float]:
    return [abs(v) for v in levels.values()]


def check(cases: Path, onsets: Path, replay: Path) -> list[str]:
    """The rule's conditions C1-C3 and "exercised" (C4, the tests, is run apart)."""
    out, ok = [], True
    onset_of = {
        Path(o["file"]).stem: o["onset_spare_factor"] for o in json.loads(onsets.read_text())
    }
    binding_free, exercised = 0, False
    for f in sorted(cases.glob("*.json")):
        kept = json.loads(f.read_text())
        onset = onset_of.get(f.stem)
        on, off = kept["on"], kept["off"]
        if "levels" not in on:
            out.append(f"{f.stem}: on refused ({on['refused']})")
            ok = ok and "levels" not in off
            if onset is not None and onset >= 1:
                ok = False
            continue
        e_on = {lv["extra_op_percent"]: lv for lv in on["levels"]}
        e_off = {lv["extra_op_percent"]: lv for lv in off.get("levels", [])}
        iops = [abs(lv["iops_error"]) for lv in on["levels"]]
        med, worst = statistics.median(iops), max(iops)
        worse = [(x, k) for x in e_on for k in ("iops_error", "waf_error")
                 if x in e_off and abs(e_on[x][k]) > abs(e_off[x][k]) + POINT]  # fmt: skip
        differ = any(abs(e_on[x]["iops_error"] - e_off[x]["iops_error"]) > 1e-9 for x in e_off)
        free = onset is not None and onset >= 1
        line = (f"{f.stem}: onset {onset:.3f}, " if onset is not None else f"{f.stem}: ") + (
            "on " + " / ".join(f"{100 * e_on[x]['iops_error']:+.1f}" for x in sorted(e_on))
            + "%; off " + " / ".join(f"{100 * e_off[x]['iops_error']:+.1f}" for x in sorted(e_off))
            + f"%; on median {100 * med:.1f}%, worst {100 * worst:.1f}%; worse {len(worse)}"
        )  # fmt: skip
        out.append(line)
        if free:
            binding_free += 1
            exercised = exercised or differ
            if med > 0.10 or worst > 0.20:
                ok = False
                out.append(f"   C1 fails on {f.stem}")
        if worse or ("levels" in off and "levels" not in on):
            ok = False
            out.append(f"   C2 fails on {f.stem}: {worse}")
    if binding_free < 2:
        ok = False
        out.append(f"fewer than two fresh truths with no binding reserve ({binding_free})")
    rows = json.loads(replay.read_text())
    worse_stored, n = [], 0
    for r in rows:
        if r["replay_gap"] > REPLAY_TOLERANCE:
            gap = 100 * r["replay_gap"]
            out.append(f"   replay off by {gap:.2f}%: {r['file']} (run it in full)")
            ok = False
        for x, e in r["on"].items():
            n += 1
            if abs(e) > abs(r["off"][x]) + POINT:
                worse_stored.append((r["file"], x, r["off"][x], e))
    for fname, x, a, b in worse_stored:
        out.append(f"   C3: {fname} at {x}%: {100 * a:+.1f}% -> {100 * b:+.1f}%")
    ok = ok and not worse_stored
    out.append(f"C3: {len(worse_stored)} of {n} stored QD32 IOPS figures worse, {len(rows)} cases")
    if not exercised:
        out.append("not exercised: the change moved no figure where no reserve binds")
    out.append("C1-C3: " + ("hold" if ok and exercised else "FAIL"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cases")
    c.add_argument("--truth", type=Path, action="append", required=True)
    c.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("replay")
    r.add_argument("--results", type=Path, default=HERE / "results")
    r.add_argument("--out", type=Path, required=True)
    k = sub.add_parser("check")
    k.add_argument("--cases", type=Path, required=True)
    k.add_argument("--onsets", type=Path, required=True)
    k.add_argument("--replay", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.what == "cases":
        for t in args.truth:
            run_case(t, args.out)
    elif args.what == "replay":
        args.out.write_text(json.dumps(run_replay(args.results), indent=1) + "\n")
    else:
        print("\n".join(check(args.cases, args.onsets, args.replay)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
