"""The GC-reserve reading's transition term (``reserve_transition.TRANSITION_TERM``), judged by
bench/intervals/RULE-widthtrans.md.

``predict NAME...``: each fresh drive's plan measurement (``FRESH`` folder ``NAME-plan``,
``runs.sh``) predicted again flag off and on (``overprov calibrate --from``, as
``widthfemu_judge.predict_again`` does), into ``bench/intervals/widthtrans/runs/NAME-{off,on}``;
``predict --seen``: the seen FEMU drives with a reserve reading (the tally's eight and
RULE-widthfemu's three answered drives) predicted again with the flag on, for the verification.

``judge``: every moved interval rebuilt from its flag-off prediction under the change, beside
the stored tally; the fresh drives as calibrate gives them with the flag off and on; the
criteria; bench/intervals/widthtrans/verdict.md and ``verdict.json``.

``diagnose``: per stored FEMU end-to-end figure kept by the reserve reading, its error against
the level's log-WAF distance from the reading's floor edge
(bench/intervals/widthtrans/errors.md; bench/intervals/widthtrans/DIAGNOSIS.md reads it).

    PYTHONPATH=python python bench/intervals/widthtrans_judge.py diagnose
    PYTHONPATH=python python bench/intervals/widthtrans_judge.py predict NAME...
    PYTHONPATH=python python bench/intervals/widthtrans_judge.py judge
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import widthfemu_judge as wf  # noqa: E402  (bench/intervals/: its runs, sources, predict_again)
from femu_width_terms import points_of  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.calibrate import gc_designs, reserve_transition, uncertainty  # noqa: E402

tally = wf.tally
OUT = HERE / "widthtrans"
RUNS = OUT / "runs"
FRESH_DIR = wf.RESULTS / "widthtrans"
Z80 = uncertainty.Z80
#: the fresh drives in run order (bench/intervals/RULE-widthtrans.md): name -> their options
FRESH = {
    "femu-38lun-72blk-thres66-3900us": "--nchs 2 --luns-per-ch 19 --blks-per-pl 72 "
    "--namespace-mb 2052 --gc-thres-pcent 66 --program-ns 3900000",
    "femu-41lun-66blk-thres62-3300us": "--nchs 1 --luns-per-ch 41 --blks-per-pl 66 "
    "--namespace-mb 2030 --gc-thres-pcent 62 --program-ns 3300000",
    "femu-44lun-62blk-thres70-4500us": "--nchs 4 --luns-per-ch 11 --blks-per-pl 62 "
    "--namespace-mb 2046 --gc-thres-pcent 70 --program-ns 4500000",
    "femu-39lun-70blk-thres64-4100us": "--nchs 3 --luns-per-ch 13 --blks-per-pl 70 "
    "--namespace-mb 2048 --gc-thres-pcent 64 --program-ns 4100000",
    "femu-45lun-60blk-thres68-3600us": "--nchs 5 --luns-per-ch 9 --blks-per-pl 60 "
    "--namespace-mb 2025 --gc-thres-pcent 68 --program-ns 3600000",
}
#: beside the rule, not judged (run after its verdict): a fresh drive whose 10% level should sit
#: next to the floor's edge (a 73% threshold, as femu40's 3 × 430 whose edge was at 9.3%), the
#: case the rule's drives did not reach
BESIDE = {
    "femu-42lun-65blk-thres73-4000us": "--nchs 6 --luns-per-ch 7 --blks-per-pl 65 "
    "--namespace-mb 2048 --gc-thres-pcent 73 --program-ns 4000000",
}
FRESH_FAMILY = "FEMU, fresh drives (RULE-widthtrans)"
#: ``overprov`` with the flag set (on or off) first in its process: the runs were made with it
#: off by default, and it is on by default since (the rule met)
FLAG_MAIN = (
    "import sys; from overprov.calibrate import reserve_transition; "
    "reserve_transition.TRANSITION_TERM = {on}; from overprov.cli import main; "
    "sys.exit(main(sys.argv[1:]))"
)


def stored_edge(pred: dict[str, Any], key: str) -> reserve_transition.FloorEdge | None:
    """The floor edge of the reserve reading ``key`` as the prediction stores its surrogate
    (its spare, its floor; the design's curve), as ``predict._fit`` gives it the flag."""
    s = pred["readings"][key]["fit"]["surrogate"]
    if s.get("waf_floor") is None:
        return None
    design = key.split(":", 1)[1] if ":" in key else "greedy"
    curve = gc_designs.curve(design) or fitmod.waf_at
    return reserve_transition.FloorEdge(s["native_op"], s["spare_efficiency"], curve,
                                        s["waf_floor"])  # fmt: skip


def form_sd(pred: dict[str, Any], key: str, onset: float, scale: float):
    """The change's model-form sd of the reserve reading ``key`` at a level (a function), or
    None for a reading the change leaves alone: scale · hypot(0.02, own R, edge term)."""
    if not key.startswith("gc_reserve"):
        return None
    own = wf.own_residual(pred, key, onset)
    form = uncertainty.model_form_for(points_of(pred), simulated=False)
    if form is None or form.residual_sd is None:
        return None
    res = own if own is not None else form.residual_sd
    edge = stored_edge(pred, key)
    return lambda x: scale * math.hypot(form.floor, res, edge.sd_at(x) if edge else 0.0)


def rebuilt(pred: dict[str, Any], onset: float, scale: float) -> dict[tuple[float, str], list]:
    """{(level, kind): [low, high]} of a flag-off prediction under the change at ``scale``: the
    reserve reading's band per side sqrt(h² − z²(m² − m'(x)²)), m its stored (greedy) form sd,
    m'(x) the change's; other readings as stored; spanned as ``spare_readings.combine`` does."""
    form = uncertainty.model_form_for(points_of(pred), simulated=False)
    m = form.at(None) if form is not None and form.residual_sd is not None else 0.0
    readings = pred.get("readings") or {"one": {"levels": pred["levels"]}}
    out: dict[tuple[float, str], list] = {}
    for key, r in readings.items():
        new = form_sd(pred, key, onset, scale)
        for lv in r["levels"]:
            x = lv["extra_op_percent"]
            shrink = 0.0 if new is None else (Z80 * m) ** 2 - (Z80 * new(x)) ** 2
            for kind, (v, lo, hi) in wf.KEYS.items():
                if lv.get(lo) is None:
                    continue
                h_lo, h_hi = math.log(lv[v] / lv[lo]), math.log(lv[hi] / lv[v])
                new_lo = lv[v] * math.exp(-math.sqrt(max(h_lo**2 - shrink, 0.0)))
                new_hi = lv[v] * math.exp(math.sqrt(max(h_hi**2 - shrink, 0.0)))
                if kind == "waf":
                    new_lo, new_hi = max(new_lo, 1.0), max(new_hi, 1.0)
                span = out.setdefault((x, kind), [math.inf, -math.inf])
                span[0], span[1] = min(span[0], lv[v], new_lo), max(span[1], lv[v], new_hi)
    return out


def rebuilt_rows(rows, pred, onset, scale) -> list[dict[str, Any]]:
    bands = rebuilt(pred, onset, scale)
    return [wf.with_band(r, bands[(float(r["level"]), r["kind"])]) for r in rows]


# --- predict ------------------------------------------------------------------------------------


def predict(args: argparse.Namespace) -> int:
    jobs = []
    for name in args.names:
        case = FRESH_DIR / f"{name}-plan"
        jobs += [(case, RUNS / f"{name}-{arm}", arm == "on") for arm in ("off", "on")]
    if args.seen:
        for name in wf.seen_reserve_cases():
            src = json.loads((tally.NOW / "femu" / name / "run.json").read_text())
            jobs.append((wf.ROOT / src["repredicted_from"], RUNS / "seen" / name, True))
        for c, _t in wf.UNSEEN:
            if (wf.RUNS / f"{Path(c).name}-off" / "prediction.json").exists():
                jobs.append((wf.RESULTS / c, RUNS / "seen" / Path(c).name, True))
    for case, out, on in jobs:
        if (out / "run.json").exists():
            continue
        wf.FLAG_ON_MAIN = FLAG_MAIN.format(on=on)  # predict_again's process sets this flag
        doc = wf.predict_again(case, out, True)
        doc = {k: v for k, v in doc.items() if k != "own_reserve_residual"}
        (out / "run.json").write_text(json.dumps(doc | {"transition_term": on}, indent=1) + "\n")
        print(f"{out.name}: exit {doc['calibrate_exit']}, {doc['cpu_s_predict']:.2f} CPU s",
              flush=True)  # fmt: skip
    return 0


# --- judge --------------------------------------------------------------------------------------


def fresh_rows(arm: str) -> list[dict[str, Any]]:
    rows = []
    for name in FRESH:
        f = RUNS / f"{name}-{arm}" / "prediction.json"
        if f.exists():
            truth = FRESH_DIR / f"{name}.json"
            rows += tally.prediction_rows(json.loads(f.read_text()), json.loads(truth.read_text()),
                                          str(truth), str(f.relative_to(wf.ROOT)), name,
                                          FRESH_FAMILY)  # fmt: skip
    return rows


def fresh_status() -> dict[str, str]:
    """Each fresh drive run: refused, the one reading, or a reserve reading kept (flag off)."""
    out = {}
    for name in FRESH:
        f = RUNS / f"{name}-off" / "prediction.json"
        if not (RUNS / f"{name}-off").exists():
            continue
        if not f.exists():
            out[name] = "refused"
            continue
        kept = json.loads(f.read_text()).get("readings", {})
        out[name] = "reserve" if any(k.startswith("gc_reserve") for k in kept) else "one reading"
    return out


def onset_of(folder: Path) -> float:
    return json.loads((folder / "run.json").read_text())["onset_spare_factor"]


def verify(scale: float) -> list[dict[str, Any]]:
    """Each flag-on run's intervals against the rebuild of its flag-off prediction."""
    pairs = [(RUNS / f"{n}-on", RUNS / f"{n}-off") for n in FRESH]
    for on in sorted((RUNS / "seen").glob("*")):
        off = wf.RUNS / f"{on.name}-off"
        pairs.append((on, off if off.exists() else tally.NOW / "femu" / on.name))
    out = []
    for on, off in pairs:
        if not (on / "prediction.json").exists() or not (off / "prediction.json").exists():
            continue
        got = json.loads((on / "prediction.json").read_text())
        bands = rebuilt(json.loads((off / "prediction.json").read_text()), onset_of(on), scale)
        worst = 0.0
        for lv in got["levels"]:
            for kind, (_, lo, hi) in wf.KEYS.items():
                if lv.get(lo) is not None:
                    want = bands[(lv["extra_op_percent"], kind)]
                    worst = max(worst, abs(lv[lo] / want[0] - 1), abs(lv[hi] / want[1] - 1))
        out.append({"run": on.name, "largest_end_difference": worst})
    return out


def judge_all(_: argparse.Namespace) -> int:
    import conditioned_intervals as ci  # noqa: PLC0415  (bench/, on tally's path)

    seen = [json.loads(x) for x in (tally.NOW / "rows-now.jsonl").read_text().splitlines()]
    seen = [r for r in seen if not r["stale"]]
    cases = [{**c, "_file": p} for p in tally.CORPUS_CASES for c in tally.read_cases(wf.ROOT / p)]
    scale_lofo = ci.run(cases, set())["scale_without"]["FEMU"]
    scale_cal = float(uncertainty.recorded()["fit_residual"]["scale"])
    moved = []
    for name, pred, onset, kind in wf.moved_sources():
        mine = [i for i, r in enumerate(seen)
                if (r["case"] == name and r["family"] == "FEMU, end to end" if kind == "femu"
                    else r["truth"] == name and "byfig5" in r["source"])]  # fmt: skip
        moved.append((mine, pred, onset))
    columns: dict[str, list[dict[str, Any]]] = {"today": seen}
    for col, scale in (("change", scale_cal), ("change at the leave-FEMU-out scale", scale_lofo)):
        rows = list(seen)
        for mine, pred, onset in moved:
            new = rebuilt_rows([seen[i] for i in mine], pred, onset, scale)
            for i, r in zip(mine, new, strict=True):
                rows[i] = r
        columns[col] = rows
    moved_idx = sorted(i for mine, _, _ in moved for i in mine)
    old_unseen = {"flag off": wf.unseen_rows(on=False), "change": []}
    for c, _t in wf.UNSEEN:
        f = wf.RUNS / f"{Path(c).name}-off" / "prediction.json"
        if f.exists():
            mine = [r for r in old_unseen["flag off"] if r["case"] == Path(c).name]
            pred = json.loads(f.read_text())
            old_unseen["change"] += rebuilt_rows(mine, pred, onset_of(f.parent), scale_cal)
    fresh = {"flag off": fresh_rows("off"), "change (flag on)": fresh_rows("on")}
    doc = summarise(columns, moved_idx, fresh, fresh_status(), verify(scale_cal))
    doc["widthfemu_unseen"] = {k: tally.stats(v) for k, v in old_unseen.items()}
    doc["scales"] = {"calibrate (all families)": scale_cal, "leave FEMU out": scale_lofo}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "verdict.json").write_text(json.dumps(doc, indent=1) + "\n")
    (HERE / "widthtrans/verdict.md").write_text(markdown(doc) + "\n")
    with (OUT / "rows.jsonl").open("w") as fh:
        for col, rows in columns.items():
            for i in moved_idx:
                fh.write(json.dumps({"column": col, **rows[i]}) + "\n")
        for col, rows in [*(("fresh, " + k, v) for k, v in fresh.items()),
                          *(("widthfemu unseen, " + k, v) for k, v in old_unseen.items())]:
            for r in rows:
                fh.write(json.dumps({"column": col, **r}) + "\n")  # fmt: skip
    print(markdown(doc))
    return 0


def summarise(columns, moved_idx, fresh, status, verification) -> dict[str, Any]:
    today = columns["today"]
    fams = sorted({r["family"] for r in today})
    per_family = {f: {c: tally.stats([r for r in rows if r["family"] == f])
                      for c, rows in columns.items()} for f in fams}  # fmt: skip
    pooled = {c: tally.stats(rows) for c, rows in columns.items()}
    moved = {c: tally.stats([rows[i] for i in moved_idx]) for c, rows in columns.items()}
    fr = {k: tally.stats(v) for k, v in fresh.items()}
    broken = []
    for f, s in per_family.items():
        t, c = s["today"], s["change"]
        if t["n"] >= 10 and (t["inside"] >= 0.7 > c["inside"] or c["inside"] < t["inside"] < 0.7):
            broken.append(f)
    e2e = per_family["FEMU, end to end"]
    on, off = fr["change (flag on)"], fr["flag off"]
    crit = {
        "T1 fresh: >=2 drives keep a reserve reading, >=70% inside, width not above flag off's":
        sum(v == "reserve" for v in status.values()) >= 2 and bool(on["n"])
        and on["inside"] >= 0.70 and on["median_width"] <= off["median_width"],
        "T2 pooled 75-90% inside": 0.75 <= pooled["change"]["inside"] <= 0.90,
        "T3 FEMU end to end median width >=50% lower": e2e["change"]["median_width"]
        <= 0.5 * e2e["today"]["median_width"],
        "T4 no family broken": not broken,
        "T5 FEMU end to end >=80% inside": e2e["change"]["inside"] >= 0.80,
        "T6 verification within 0.5%": bool(verification)
        and all(v["largest_end_difference"] <= 0.005 for v in verification),
    }  # fmt: skip
    return {"pooled": pooled, "moved": moved, "families": per_family, "fresh": fr,
            "fresh_status": status, "broken": broken, "verification": verification,
            "criteria": crit, "verdict": "met" if all(crit.values()) else "not met"}  # fmt: skip


def markdown(doc: dict[str, Any]) -> str:
    cols = list(doc["pooled"])
    lines = ["| cases | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    lines.append("| **pooled** | " + " | ".join(tally.cell(doc["pooled"][c]) for c in cols) + " |")
    lines.append("| **moved (seen)** | " + " | ".join(tally.cell(doc["moved"][c]) for c in cols)
                 + " |")  # fmt: skip
    for f, s in doc["families"].items():
        lines.append(f"| {f} | " + " | ".join(tally.cell(s[c]) for c in cols) + " |")
    fresh = "; ".join(f"{k}: {tally.cell(v)}" for k, v in doc["fresh"].items())
    old = "; ".join(f"{k}: {tally.cell(v)}" for k, v in doc["widthfemu_unseen"].items())
    checks = [f"{v['run']}: {100 * v['largest_end_difference']:.3f}%" for v in doc["verification"]]
    said = {
        "Fresh drives": f"{doc['fresh_status']}: {fresh}",
        "RULE-widthfemu's unseen drives (seen here)": old,
        "Scales": json.dumps(doc["scales"]),
        "Verification (flag-on runs against their rebuild at calibrate's scale)": "; ".join(checks),
        "Criteria": "; ".join(
            f"{k}: {'met' if v else 'NOT met'}" for k, v in doc["criteria"].items()
        ),
    }
    for k, v in said.items():
        lines += ["", f"{k}: {v}"]
    lines.append(f"Verdict: {doc['verdict']}.")
    if doc["broken"]:
        lines.append("Families broken: " + ", ".join(doc["broken"]))
    return "\n".join(lines)


# --- diagnose -----------------------------------------------------------------------------------


def diagnose(_: argparse.Namespace) -> int:
    """Stored figures only: the tally's eight seen reserve drives (flag off) and RULE-widthfemu's
    three answered unseen ones; per figure its log error, the log-WAF distance D of its level
    from the reading's floor edge, the reading's own R, and the half widths own R gives."""
    rows = [json.loads(x) for x in (tally.NOW / "rows-now.jsonl").read_text().splitlines()]
    sources = [(n, p, o, [r for r in rows if r["case"] == n and r["family"] == "FEMU, end to end"])
               for n, p, o, kind in wf.moved_sources() if kind == "femu"]  # fmt: skip
    un = wf.unseen_rows(on=False)
    for c, _t in wf.UNSEEN:
        f = wf.RUNS / f"{Path(c).name}-off" / "prediction.json"
        if f.exists():
            n = Path(c).name
            sources.append((n, json.loads(f.read_text()), onset_of(f.parent),
                            [r for r in un if r["case"] == n]))  # fmt: skip
    scale = float(uncertainty.recorded()["fit_residual"]["scale"])
    out = []
    for name, pred, onset, mine in sources:
        edge = stored_edge(pred, "gc_reserve")
        own = wf.own_residual(pred, "gc_reserve", onset)
        for r in mine:
            d = edge.log_waf_from_floor(r["level"])
            out.append({"case": name, "level": r["level"], "kind": r["kind"],
                        "log_error": math.log(r["predicted"] / r["true"]), "D": d, "own_R": own,
                        "edge_term": edge.sd_at(r["level"]), "floor": edge.waf_floor,
                        "half_own_0.49": Z80 * 0.49 * math.hypot(0.02, own),
                        "half_own_0.82": Z80 * scale * math.hypot(0.02, own),
                        "half_change": Z80 * scale
                        * math.hypot(0.02, own, edge.sd_at(r["level"]))})  # fmt: skip
    out.sort(key=lambda r: r["D"])
    lines = ["| case | level | figure | D (log WAF from the floor) | log error | own R | "
             "half width: own at 0.49 | own at 0.82 | the change |",
             "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in out:
        miss = [k for k in ("half_own_0.49", "half_own_0.82", "half_change")
                if abs(r["log_error"]) > r[k]]  # fmt: skip
        cells = [f"{r[k]:.3f}{' (miss)' if k in miss else ''}"
                 for k in ("half_own_0.49", "half_own_0.82", "half_change")]  # fmt: skip
        lines.append(f"| {r['case']} | {r['level']:g}% | {r['kind']} | {r['D']:+.3f} | "
                     f"{r['log_error']:+.3f} | {r['own_R']:.3f} | " + " | ".join(cells) + " |")
    for k in ("half_own_0.49", "half_own_0.82", "half_change"):
        inside = sum(abs(r["log_error"]) <= r[k] for r in out)
        width = statistics.median(math.exp(2 * r[k]) - 1 for r in out)
        lines.append(f"\n{k}: {inside} of {len(out)} inside, median width {100 * width:.0f}%")
    OUT.mkdir(parents=True, exist_ok=True)
    (HERE / "widthtrans/errors.md").write_text("\n".join(lines) + "\n")
    (OUT / "errors.json").write_text(json.dumps(out, indent=1) + "\n")
    print("\n".join(lines))
    return 0


def beside(_: argparse.Namespace) -> int:
    """Per figure of each drive beside the rule: D, its log error, and the half widths flag off,
    with the own residual alone (at 0.82) and with the change (flag on)."""
    lines = ["| drive | level | figure | D | log error | half width flag off | own R alone | "
             "the change (flag on) |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for name in BESIDE:
        off, on = RUNS / f"{name}-off", RUNS / f"{name}-on"
        if not (off / "prediction.json").exists() or not (on / "prediction.json").exists():
            lines.append(f"| {name} | refused or not run | | | | | | |")
            continue
        truth = FRESH_DIR / f"{name}.json"
        t = json.loads(truth.read_text())
        pred = json.loads((off / "prediction.json").read_text())
        key = next((k for k in pred.get("readings", {}) if k.startswith("gc_reserve")), None)
        rows = {a: list(tally.prediction_rows(json.loads((d / "prediction.json").read_text()), t,
                                              str(truth), name, name, "beside"))
                for a, d in (("off", off), ("on", on))}  # fmt: skip
        edge = stored_edge(pred, key) if key else None
        own = wf.own_residual(pred, key, onset_of(off)) if key else None
        scale = float(uncertainty.recorded()["fit_residual"]["scale"])
        for r_off, r_on in zip(rows["off"], rows["on"], strict=True):
            x, e = r_off["level"], math.log(r_off["predicted"] / r_off["true"])
            half = {a: math.log(r["high"] / r["predicted"])
                    for a, r in (("off", r_off), ("on", r_on))}  # fmt: skip
            alone = Z80 * scale * math.hypot(0.02, own) if own is not None else math.nan
            d = edge.log_waf_from_floor(x) if edge else math.nan
            lines.append(f"| {name} | {x:g}% | {r_off['kind']} | {d:+.2f} | {e:+.3f} | "
                         f"{half['off']:.3f} | {alone:.3f} | {half['on']:.3f} |")  # fmt: skip
    text = "\n".join(lines)
    (HERE / "widthtrans/beside.md").write_text(text + "\n")
    print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("predict")
    p.add_argument("names", nargs="*")
    p.add_argument("--seen", action="store_true")
    p.set_defaults(fn=predict)
    sub.add_parser("judge").set_defaults(fn=judge_all)
    sub.add_parser("diagnose").set_defaults(fn=diagnose)
    o = sub.add_parser("options", help="a fresh drive's femu.py options (runs.sh)")
    o.add_argument("name", choices=[*FRESH, *BESIDE])
    o.set_defaults(fn=lambda a: print((FRESH | BESIDE)[a.name]) or 0)
    sub.add_parser("beside", help="the drives beside the rule, per figure").set_defaults(fn=beside)
    args = ap.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    raise SystemExit(main())
