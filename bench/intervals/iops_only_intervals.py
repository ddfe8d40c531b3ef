"""How wide an 80% interval an IOPS-only fit needs: the held-out QD32 IOPS |error| of stored
IOPS-only predictions (no WAF figure, no NAND counter) beside the interval they were given, by
FTL family and by distance from the fitted levels; the same for IOPS+WAF fits; and the interval
term for fits without a WAF figure (bench/intervals/RULE-iops-only.md) fitted leave one family
out and judged on fresh truths.

    PYTHONPATH=python python bench/intervals/iops_only_intervals.py stored [--out DIR]
    PYTHONPATH=python python bench/intervals/iops_only_intervals.py gen --out DIR
    PYTHONPATH=python python bench/intervals/iops_only_intervals.py cases --truth T ... --out DIR
    PYTHONPATH=python python bench/intervals/iops_only_intervals.py judge --cases DIR

``stored``: every stored IOPS-only case under bench/foreign/results/ (as
``bench/foreign/iops_only_guard.py signals`` reads them), one row per truth level. The term t
is the maximum-likelihood relative sd of log error ~ N(0, σ² + t²), σ the sd the given interval
implies on the error's side (its log half-width ÷ 1.2816), every level a replicate; fitted on
every family but the one it is judged on, and on all for calibrate (``--record`` writes it into
``model_form_error.json`` as ``iops_only``). ``gen``/``cases``: the rule's fresh generated
drives (:data:`FRESH`, ``twin.reserve_collector``) and their "IOPS 0+40 QD32 + 40 QD4, FOB"
predictions, with the code as it stands; ``judge``: the rule's conditions on them.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "bench" / "foreign"))
import evaluate  # noqa: E402
import iops_only_guard as guard  # noqa: E402
from overprov.calibrate import uncertainty  # noqa: E402

Z80 = uncertainty.Z80

RESULTS = ROOT / "bench" / "foreign" / "results"
#: the grid t is searched on (relative sd)
T_GRID = [i * 0.005 for i in range(0, 201)]
#: the rule's fresh generated drives (bench/intervals/RULE-iops-only.md), in guard.GENERATED's form
FRESH = {
    "gen-R3-reserve-sf088-floor7": ({"spare_factor": 0.88, "floor_waf": 7.0}, 6.0, 1.5),
    "gen-R4-reserve-sf080-floor5": ({"spare_factor": 0.80, "floor_waf": 5.0}, 4.0, 2.0),
    "gen-N3-greedy-op010": ({"native_op": 0.10}, 7.0, 1.0),
    "gen-N4-greedy-op028": ({"native_op": 0.28}, 4.0, 2.5),
}
guard.GENERATED.update(FRESH)


def family(truth: str) -> str:
    """The FTL family of a truth file: the foreign simulator, or overprov's own generated drives."""
    name = Path(truth).name.lower()
    for key, fam in (("gen-", "overprov generated"), ("femu", "FEMU"), ("mqsim", "MQSim"),
                     ("disksim", "DiskSim"), ("eagletree", "EagleTree"), ("et-", "EagleTree"),
                     ("simplessd", "SimpleSSD"), ("sssl", "sssl-ftlsim"), ("ssdsim", "SSDsim"),
                     ("wiscsee", "WiscSim")):  # fmt: skip
        if key in name:
            return fam
    return name


def _bounds(pred: dict | None, levels: list[dict]) -> dict[int, tuple[float, float, float]]:
    """{level: (predicted, low, high)} of QD32 steady IOPS."""
    if pred is not None:
        return {int(lv["extra_op_percent"]): (lv["steady_iops"], lv.get("steady_iops_low"),
                lv.get("steady_iops_high")) for lv in pred["levels"]}  # fmt: skip
    return {int(lv["extra_op_percent"]): (lv.get("iops_pred"), lv.get("iops_low"),
            lv.get("iops_high")) for lv in levels}  # fmt: skip


def rows_of(case_filter=None) -> list[dict[str, Any]]:
    """One row per truth level of every stored case ``guard.stored_cases`` reads (IOPS-only by
    default), deduplicated as ``guard.run_signals`` does (the newest code's prediction kept)."""
    saved = guard._iops_only
    if case_filter is not None:
        guard._iops_only = case_filter
    try:
        found = list(guard.stored_cases(RESULTS))
    finally:
        guard._iops_only = saved
    out, seen = [], set()
    for f, truth_path, case, cmd, pred, levels, truth in found:
        key = (Path(truth_path).name, case.split(" [")[0], cmd.split("calibrate", 1)[-1])
        if key in seen or not levels:
            continue
        seen.add(key)
        curve = evaluate.truth_curve(truth, 32)
        pts, _ = guard._figures(cmd)
        fitted = sorted(x for (x, q) in pts if q == 32)
        binds = guard.reserve_binds(curve, truth_path)
        for x, (v, lo, hi) in sorted(_bounds(pred, levels).items()):
            if x not in curve or not v or lo is None or hi is None:
                continue
            t = curve[x]["steady_iops"]
            out.append({
                "source": str(f.relative_to(RESULTS)), "truth": Path(truth_path).stem,
                "family": family(truth_path), "binds": bool(binds), "case": case, "level": x,
                "distance_points": min((abs(x - y) for y in fitted), default=None),
                "log_error": math.log(v / t), "sd_low": math.log(v / lo) / uncertainty.Z80,
                "sd_high": math.log(hi / v) / uncertainty.Z80, "predicted": v, "low": lo,
                "high": hi, "true": t,
            })  # fmt: skip
    return out


def side_sd(r: dict[str, Any]) -> float:
    """The sd the given interval implies on the side the truth lies."""
    return r["sd_low"] if r["log_error"] > 0 else r["sd_high"]


def fit_term(rows: list[dict[str, Any]]) -> float:
    """Maximum-likelihood t: log error ~ N(0, σ² + t²), σ the given interval's (:func:`side_sd`)."""

    def nll(t: float) -> float:
        total = 0.0
        for r in rows:
            var = max(side_sd(r) ** 2 + t * t, 1e-12)
            total += 0.5 * math.log(var) + r["log_error"] ** 2 / (2 * var)
        return total

    return min(T_GRID, key=nll)


def widened(r: dict[str, Any], t: float) -> tuple[float, float]:
    """The row's interval with t added in quadrature to its model-form sd on both sides."""
    z = uncertainty.Z80
    lo = r["predicted"] * math.exp(-z * math.hypot(r["sd_low"], t))
    hi = r["predicted"] * math.exp(z * math.hypot(r["sd_high"], t))
    return lo, hi


def summary(rows: list[dict[str, Any]], t: float | dict[str, float] = 0.0) -> dict[str, Any]:
    """Coverage, median relative width (high ÷ low − 1) and half-width, |error| median and 90th
    percentile, with t (one value, or one per family) added."""
    if not rows:
        return {"n": 0}
    inside, widths, halves = [], [], []
    for r in rows:
        tt = t[r["family"]] if isinstance(t, dict) else t
        lo, hi = widened(r, tt)
        inside.append(lo <= r["true"] <= hi)
        widths.append(hi / lo - 1)
        halves.append(max(r["predicted"] / lo, hi / r["predicted"]) - 1)
    errs = sorted(abs(r["predicted"] / r["true"] - 1) for r in rows)
    return {
        "n": len(rows), "coverage": sum(inside) / len(rows),
        "median_rel_width": statistics.median(widths),
        "median_half_width": statistics.median(halves),
        "median_abs_error": statistics.median(errs),
        "p90_abs_error": errs[min(len(errs) - 1, math.ceil(0.9 * len(errs)) - 1)],
    }  # fmt: skip


def leave_family_out(rows: list[dict[str, Any]]) -> dict[str, float]:
    fams = sorted({r["family"] for r in rows})
    return {f: fit_term([r for r in rows if r["family"] != f]) for f in fams}


def stored(out: Path | None, record: bool) -> dict[str, Any]:
    only = rows_of()
    both = rows_of(lambda case: "IOPS+WAF" in case)
    lfo = leave_family_out(only)
    t_all = fit_term(only)
    groups: dict[str, list[dict[str, Any]]] = {"all IOPS-only": only}
    for f in sorted({r["family"] for r in only}):
        groups[f"IOPS-only, {f}"] = [r for r in only if r["family"] == f]
    groups["IOPS-only, a reserve binds"] = [r for r in only if r["binds"]]
    groups["IOPS-only, no reserve binds"] = [r for r in only if not r["binds"]]
    for d in (0, 10, 20, 30, 40):
        groups[f"IOPS-only, {d} points from a fitted level"] = [
            r for r in only if r["distance_points"] == d
        ]
    groups["all IOPS+WAF (unchanged)"] = both
    for f in sorted({r["family"] for r in both}):
        groups[f"IOPS+WAF, {f}"] = [r for r in both if r["family"] == f]
    doc = {
        "date": datetime.now(UTC).isoformat(timespec="minutes"),
        "cases_iops_only": len({(r["source"], r["case"]) for r in only}),
        "cases_iops_waf": len({(r["source"], r["case"]) for r in both}),
        "t_all": t_all,
        "t_without_family": lfo,
        "groups": {
            g: {"given": summary(rs), "with term (family left out)": summary(rs, lfo)}
            if not g.startswith("all IOPS+WAF") and not g.startswith("IOPS+WAF")
            else {"given": summary(rs)}
            for g, rs in groups.items()
        },
    }
    text = markdown(doc)
    print(text)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "stored").with_suffix(".md").write_text(text + "\n")
        (out / "stored.json").write_text(json.dumps(doc, indent=1) + "\n")
        (out / "stored-rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in only + both))
    if record:
        record_term(t_all, doc)
    return doc


def pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.0f}%"


def markdown(doc: dict[str, Any]) -> str:
    lines = [
        f"Stored cases: {doc['cases_iops_only']} IOPS-only, {doc['cases_iops_waf']} IOPS+WAF "
        f"(one row per QD32 truth level 0-40%). t on every IOPS-only family: {doc['t_all']:.3f}; "
        "without each family: "
        + ", ".join(f"{f} {t:.3f}" for f, t in doc["t_without_family"].items()),
        "",
        "| rows | n | median / 90th pct \\|error\\| | given: inside 80%, median half-width | "
        "with the term (family left out): inside 80%, median half-width |",
        "|---|---|---|---|---|",
    ]
    for g, v in doc["groups"].items():
        a, b = v["given"], v.get("with term (family left out)")
        if not a["n"]:
            continue
        tail = f"{pct(b['coverage'])}, {pct(b['median_half_width'])}" if b else "unchanged"
        lines.append(
            f"| {g} | {a['n']} | {pct(a['median_abs_error'])} / {pct(a['p90_abs_error'])} | "
            f"{pct(a['coverage'])}, {pct(a['median_half_width'])} | {tail} |"
        )
    return "\n".join(lines)


def record_term(t: float, doc: dict[str, Any]) -> None:
    """The term fitted on every stored IOPS-only case, for calibrate (``uncertainty``)."""
    path = ROOT / "python" / "overprov" / "calibrate" / "model_form_error.json"
    mf = json.loads(path.read_text())
    n = doc["groups"]["all IOPS-only"]["given"]["n"]
    mf["iops_only"] = {
        "rel_sd": t,
        "rule": "fits without a WAF figure: model-form relative sd = hypot(the sd of the other "
        "rules, rel_sd) at every level; rel_sd the maximum-likelihood one over held-out IOPS-only "
        "predictions of foreign FTLs and generated reserve drives "
        "(bench/intervals/RULE-iops-only.md)",
        "source": f"bench/intervals/iops_only_intervals.py, {n} held-out QD32 IOPS figures of "
        f"{doc['cases_iops_only']} stored IOPS-only predictions of "
        f"{len(doc['t_without_family'])} FTL families, {doc['date'][:10]}",
        "t_without_family": doc["t_without_family"],
    }
    path.write_text(json.dumps(mf, indent=2) + "\n")
    print(f"recorded {path}")


def judge(cases: Path, t: float) -> list[str]:
    """The rule's conditions on fresh cases (``guard.run_case``'s files, the code as it stands)."""
    rows = []
    for f in sorted(cases.glob("*.json")):
        k = json.loads(f.read_text())
        off = k["off"]
        if "prediction" not in off:
            rows.append({"truth": f.stem, "refused": off.get("refused")})
            continue
        for lv in off["prediction"]["levels"]:
            x = int(lv["extra_op_percent"])
            hit = next((j for j in off["levels"] if j["extra_op_percent"] == x), None)
            if hit is None:
                continue
            true = lv["steady_iops"] / (1 + hit["iops_err"])
            lo, hi = lv["steady_iops_low"], lv["steady_iops_high"]
            v = lv["steady_iops"]
            rows.append({"truth": f.stem, "family": family(f.stem), "binds": k["binds"],
                         "level": x, "predicted": v, "true": true, "low": lo, "high": hi,
                         "log_error": math.log(v / true), "sd_low": math.log(v / lo) / Z80,
                         "sd_high": math.log(hi / v) / Z80})  # fmt: skip
    done = [r for r in rows if "refused" not in r]
    out = [f"{r['truth']}: refused ({r['refused']})" for r in rows if "refused" in r]
    for name in sorted({r["truth"] for r in done}):
        mine = [r for r in done if r["truth"] == name]
        errs = " / ".join(f"{100 * (r['predicted'] / r['true'] - 1):+.1f}" for r in mine)
        inside = sum(r["low"] <= r["true"] <= r["high"] for r in mine)
        width = statistics.median(r["high"] / r["low"] - 1 for r in mine)
        out.append(f"{name}: binds {mine[0]['binds']}; QD32 IOPS {errs}%; {inside} of "
                   f"{len(mine)} inside the 80% interval; median width {pct(width)}")  # fmt: skip
    s = summary(done)  # the intervals as calibrate gave them (the term already in them)
    out.append(f"pooled: {s['n']} truths, inside 80% {pct(s['coverage'])}, median width "
               f"{pct(s['median_rel_width'])}, median half-width {pct(s['median_half_width'])}, "
               f"|error| median {pct(s['median_abs_error'])}, 90th percentile "
               f"{pct(s['p90_abs_error'])}")  # fmt: skip
    for label, group in (
        ("a reserve binds", [r for r in done if r["binds"]]),
        ("no reserve binds", [r for r in done if not r["binds"]]),
    ):
        g = summary(group)
        out.append(f"  {label}: {g['n']} truths, inside 80% {pct(g['coverage'])}, median "
                   f"half-width {pct(g['median_half_width'])}, |error| median "
                   f"{pct(g['median_abs_error'])}")  # fmt: skip
    if t:  # read after the verdict: the term taken out again in quadrature (approximate)

        def bare(sd: float) -> float:
            return math.sqrt(max(sd * sd - t * t, 0.0))

        b = summary([dict(r, sd_low=bare(r["sd_low"]), sd_high=bare(r["sd_high"])) for r in done])
        out.append(f"without the term (its {t} taken out in quadrature; approximate): inside "
                   f"80% {pct(b['coverage'])}, median half-width "
                   f"{pct(b['median_half_width'])}")  # fmt: skip
    c1 = 0.70 <= s["coverage"] <= 0.90
    c2 = s["median_half_width"] <= 1.5 * s["p90_abs_error"]
    out.append(f"C1 (coverage 70-90% pooled): {'holds' if c1 else 'FAILS'}")
    out.append(f"C2 (median half-width {pct(s['median_half_width'])} <= 1.5 x the 90th "
               f"percentile |error| {pct(s['p90_abs_error'])}): "
               + ("holds" if c2 else "FAILS"))  # fmt: skip
    return out


WAF_CASE = "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"


def waf_same(truth: Path, base_python: Path) -> list[str]:
    """C3(b): the truth's IOPS+WAF case predicted by the code here and by the code under
    ``base_python`` (the base commit's python/ folder): every level's figures and interval ends."""
    import os
    import subprocess
    import tempfile

    import by_figure_rule

    cmd, _ = by_figure_rule.case_command(truth, WAF_CASE)
    args = cmd[cmd.index("calibrate") + 1 :]
    got = {}
    for name, path in (("here", ROOT / "python"), ("base", base_python)):
        env = {**os.environ, "PYTHONPATH": str(path)}
        with tempfile.TemporaryDirectory() as tmp:
            run = [sys.executable, "-c", "import sys; from overprov.cli import main; "
                   "sys.exit(main())", "calibrate", *args, "--out", tmp]  # fmt: skip
            res = subprocess.run(run, capture_output=True, text=True, env=env, check=True)
        pred = json.loads(res.stdout)
        got[name] = [[lv.get(k) for k in ("extra_op_percent", "steady_iops", "steady_iops_low",
                      "steady_iops_high", "waf", "waf_low", "waf_high")]
                     for lv in pred["levels"]]  # fmt: skip
    same = got["here"] == got["base"]
    return [f"{truth.stem}, {WAF_CASE}: {len(got['here'])} levels, here {got['here']}",
            f"base {got['base']}",
            f"C3(b) bit for bit: {'holds' if same else 'FAILS'}"]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("stored")
    s.add_argument("--out", type=Path, default=None)
    s.add_argument("--record", action="store_true", help="write t into model_form_error.json")
    g = sub.add_parser("gen")
    g.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("cases")
    c.add_argument("--truth", type=Path, action="append", required=True)
    c.add_argument("--out", type=Path, required=True)
    k = sub.add_parser("judge")
    k.add_argument("--cases", type=Path, required=True)
    k.add_argument("--term", type=float, default=0.0, help="the t the cases were run with")
    w = sub.add_parser("waf-same")
    w.add_argument("--truth", type=Path, required=True)
    w.add_argument("--base-python", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.what == "waf-same":
        print("\n".join(waf_same(args.truth, args.base_python)))
    elif args.what == "stored":
        stored(args.out, args.record)
    elif args.what == "gen":
        args.out.mkdir(parents=True, exist_ok=True)
        for name in FRESH:
            doc = guard.generate(name)
            (args.out / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n")
            print(f"{name}: {doc['cpu_s']:.1f} CPU s", flush=True)
    elif args.what == "cases":
        for t in args.truth:
            guard.run_case(t, args.out)
    else:
        print("\n".join(judge(args.cases, args.term)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
