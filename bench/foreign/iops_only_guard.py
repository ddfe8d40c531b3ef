"""Which signal tells an IOPS-only calibration that misses badly (a controller-held GC reserve
that binds) from one that does not: the diagnosis and the pre-registered rule
bench/foreign/results/iops-only2/RULE.md.

    PYTHONPATH=python python bench/foreign/iops_only_guard.py signals [--results DIR] --out F
    PYTHONPATH=python python bench/foreign/iops_only_guard.py gen --out DIR
    PYTHONPATH=python python bench/foreign/iops_only_guard.py cases --truth T.json ... --out DIR
    PYTHONPATH=python python bench/foreign/iops_only_guard.py check --cases DIR [--onsets F]

``signals``: every stored calibrate prediction of an IOPS-only case (QD32 IOPS figures, the FOB,
perhaps a QD4 figure and the raw NAND; no WAF figure) under ``--results`` with its truth's QD32
curve, one row each: the signals read from its inputs and fit (:func:`signals_of`) beside its
QD32 IOPS |error| over 0-40% and how many truths fall outside its 80% interval (a refused
case: "refused"), and whether the truth's GC reserve binds (:func:`reserve_binds`).

``gen``: the rule's generated drives (:data:`GENERATED`; ``twin.reserve_collector``) as truth
files in femu.py's form: QD32 steady IOPS and WAF at 0-40% simulated, the FOB and the QD4 figure
at 40% from calibrate's own ``measure``. ``cases``: each truth's "IOPS 0+40 QD32 + 40 QD4, FOB"
predicted with the guard off, judged, and the committed rule applied to that prediction ("on").
``check``: the rule's conditions G1-G3.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import by_figure_rule  # noqa: E402
import evaluate  # noqa: E402
import iops_form_readings as readings  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.calibrate import plausibility  # noqa: E402

CASE = "IOPS 0+40 QD32 + 40 QD4, FOB"
LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)
#: the rule's generated drives: name -> (spare factor and victim-floor WAF of a reserve, or the
#: native OP of a greedy drive without one; t_page µs; t_cmd µs)
GENERATED = {
    "gen-R1-reserve-sf084-floor6": ({"spare_factor": 0.84, "floor_waf": 6.0}, 5.0, 2.5),
    "gen-R2-reserve-sf092-floor10": ({"spare_factor": 0.92, "floor_waf": 10.0}, 8.0, 1.0),
    "gen-N1-greedy-op007": ({"native_op": 0.07}, 6.0, 2.0),
    "gen-N2-greedy-op020": ({"native_op": 0.20}, 5.0, 3.0),
}
#: a generated reserve drive binds where its WAF at 0% is within this share of its floor
FLOOR_SHARE = 0.95

#: FEMU's GC reserve holds WAF at 8 where it binds (its victims are at least 1/8 invalid): every
#: FEMU truth whose onset was dated below 1 reads 8.00 at 0%, every one dated above 1 reads 3-4
FEMU_RESERVE_WAF = 8.0
#: t_cmd within this share of t_page of its lower bound (−fit.MAX_READ_SHARE·t_page) is on it
BOUND_SLACK = 0.01


def reserve_binds(curve: dict[int, dict], truth_path: str) -> bool | None:
    """Whether the truth's GC reserve binds at 0%: a FEMU truth whose QD32 WAF there is on
    :data:`FEMU_RESERVE_WAF`; the other foreign FTLs' truths have no reserve dated to bind
    (False); None without a WAF at 0%."""
    w0 = curve.get(0, {}).get("steady_waf")
    if not w0:
        return None
    name = Path(truth_path).name
    if name.startswith("gen-"):
        floor = GENERATED[Path(truth_path).stem][0].get("floor_waf")
        return floor is not None and w0 >= FLOOR_SHARE * floor
    return "femu" in name and abs(w0 - FEMU_RESERVE_WAF) < 0.05


def _figures(command: str) -> tuple[dict[tuple[int, int], float], float | None]:
    """({(level, queue depth): IOPS}, FOB IOPS) from a calibrate command's ``--points`` and
    ``--fob-iops``."""
    pts: dict[tuple[int, int], float] = {}
    m = re.search(r"--points (\S+)", command)
    for item in m.group(1).split(",") if m else []:
        head, _, qd = item.partition("@qd")
        x, _, v = head.partition(":")
        pts[(int(float(x)), int(qd or 32))] = float(v)
    f = re.search(r"--fob-iops (\S+)", command)
    return pts, float(f.group(1)) if f else None


def _command_of(pred: dict) -> str:
    """The ``--points`` and ``--fob-iops`` a prediction's fit was given."""
    fit = pred["fit"]
    pts = [p for p in fit["points"] + (fit.get("points_other_queue_depth") or []) if p.get("iops")]
    steady = [f"{p['extra_op_percent']:g}:{p['iops']:.0f}" + (f"@qd{p['queue_depth']}"
              if p.get("queue_depth") not in (None, 32) else "")
              for p in pts if not p.get("fresh")]  # fmt: skip
    fob = [p["iops"] for p in pts if p.get("fresh")]
    return f"--points {','.join(steady)}" + (f" --fob-iops {fob[0]:.0f}" if fob else "")


def _tcmd_on_bound(surrogate: dict) -> bool:
    t_cmd, t_page = surrogate.get("t_cmd_us"), surrogate.get("t_page_us")
    if t_cmd is None or not t_page:
        return False
    return t_cmd <= -(fitmod.MAX_READ_SHARE - BOUND_SLACK) * t_page


def signals_of(command: str, pred: dict | None) -> dict:
    """The candidate signals: the FOB ÷ the lowest steady QD32 level's IOPS, the QD4 ÷ QD32
    IOPS at 40%, t_cmd on its lower bound in any reading (full predictions only), and the
    readings' disagreement (the largest ÷ the smallest reading's QD32 IOPS at any level, where
    the prediction kept its readings)."""
    pts, fob = _figures(command)
    qd32 = sorted((x, v) for (x, q), v in pts.items() if q == 32)
    out: dict = {"lowest_level": qd32[0][0] if qd32 else None}
    out["fob_ratio"] = fob / qd32[0][1] if fob and qd32 else None
    q4, q32 = pts.get((40, 4)), pts.get((40, 32))
    out["qd4_ratio"] = q4 / q32 if q4 and q32 else None
    out["tcmd_on_bound"] = None
    out["disagreement"] = None
    if pred and "fit" in pred:
        rs = pred.get("readings") or {"single": pred}
        surs = [r["fit"].get("surrogate") or {} for r in rs.values()]
        out["tcmd_on_bound"] = any(_tcmd_on_bound(s) for s in surs)
        by = [{lv["extra_op_percent"]: lv["steady_iops"] for lv in r["levels"]}
              for r in rs.values()]  # fmt: skip
        if len(by) > 1:
            out["disagreement"] = max(
                max(b[x] for b in by) / min(b[x] for b in by) for x in by[0]
            )  # fmt: skip
    return out


def _outcome(levels: list[dict]) -> dict:
    """QD32 IOPS |error| median and worst over 0-40%, truths outside the 80% interval."""
    errs = [abs(lv["iops_err"]) for lv in levels]
    outside = sum(1 for lv in levels if lv.get("iops_in_80") is False)
    return {"median_abs_err": statistics.median(errs), "worst_abs_err": max(errs),
            "outside_80": outside, "n": len(levels)}  # fmt: skip


def _judge(pred: dict, curve: dict[int, dict]) -> list[dict]:
    out = []
    for lv in pred["levels"]:
        x = int(lv["extra_op_percent"])
        if x not in curve:
            continue
        t = curve[x]["steady_iops"]
        lo, hi = lv.get("steady_iops_low"), lv.get("steady_iops_high")
        out.append({"extra_op_percent": x, "iops_err": lv["steady_iops"] / t - 1,
                    "iops_in_80": None if lo is None else lo <= t <= hi})  # fmt: skip
    return out


def _truth(path: str, near: Path, root: Path) -> dict | None:
    for base in (near, near.parent, root / "bench/foreign/results", root):
        f = base / path
        if f.is_file():
            return json.loads(f.read_text())
    return None


def _iops_only(case: str) -> bool:
    return case.startswith("IOPS ") and "WAF" not in case


def stored_cases(results: Path):
    """(source, truth, case, command, prediction or None, levels judged)."""
    root = HERE.parent.parent
    # the newest code's predictions first (retally: the code as of the last re-run)
    for f in sorted(results.rglob("*.json"), key=lambda f: ("retally" not in f.parts, f)):
        try:
            doc = json.loads(f.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
        if isinstance(doc, list) and doc and isinstance(doc[0], dict) and "cases" in doc[0]:
            for e in doc:
                truth = _truth(e["results"], f.parent, root)
                if truth is None:
                    continue
                for c in e["cases"]:
                    cmd = c["command"] if isinstance(c["command"], str) else " ".join(c["command"])
                    if _iops_only(c["case"]) and "--from" not in cmd:
                        yield f, e["results"], c["case"], cmd, None, c.get("levels"), truth
        elif isinstance(doc, dict) and _iops_only(str(doc.get("case", ""))):
            truth = _truth(doc["truth"], f.parent, root)
            for run in ("off", "on"):
                got = doc.get(run) or {}
                lvs = got.get("levels") or [{}]
                if truth and "iops_err" in lvs[0] and "prediction" not in got:  # evaluate.py's
                    case = f"{doc['case']} [{run}]"
                    cmd = got.get("command") or doc.get("command") or ""
                    yield f, doc["truth"], case, cmd, None, lvs, truth
                    break
                pred = got.get("prediction", got if "levels" in got else None)
                if pred and truth and "points" in pred.get("fit", {}):
                    curve = evaluate.truth_curve(truth, 32)
                    cmd = doc.get("command") or _command_of(pred)
                    cmd = cmd if isinstance(cmd, str) else " ".join(cmd)
                    case = f"{doc['case']} [{run}]"
                    yield f, doc["truth"], case, cmd, pred, _judge(pred, curve), truth
                    break


def run_signals(results: Path) -> list[dict]:
    rows, seen = [], set()
    for f, truth_path, case, cmd, pred, levels, truth in stored_cases(results):
        curve = evaluate.truth_curve(truth, 32)
        key = (Path(truth_path).name, case.split(" [")[0], cmd.split("calibrate", 1)[-1])
        if key in seen:
            continue
        seen.add(key)
        row = {"source": str(f.relative_to(results)), "truth": truth_path, "case": case,
               "binds": reserve_binds(curve, truth_path), **signals_of(cmd, pred)}  # fmt: skip
        row.update(_outcome(levels) if levels else {"refused": True})
        rows.append(row)
    return rows


def table(rows: list[dict]) -> str:
    def g(v, fmt):
        return "" if v is None else format(v, fmt)

    lines = ["| truth | case | binds | FOB/lowest | QD4/QD32 | t_cmd on bound | readings max/min "
             "| median / worst abs IOPS err | outside 80% |",
             "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in sorted(rows, key=lambda r: -(r["fob_ratio"] or 0)):
        if r.get("refused"):
            lines.append(f"| {Path(r['truth']).stem} | {r['case']} | {r['binds']} "
                         f"| {g(r['fob_ratio'], '.2f')} | {g(r['qd4_ratio'], '.3f')} "
                         "| | | refused | |")  # fmt: skip
            continue
        lines.append(
            f"| {Path(r['truth']).stem} | {r['case']} | {r['binds']} | {g(r['fob_ratio'], '.2f')}"
            f" | {g(r['qd4_ratio'], '.3f')} | {g(r['tcmd_on_bound'], '')} "
            f"| {g(r['disagreement'], '.2f')} | {100 * r['median_abs_err']:.1f} / "
            f"{100 * r['worst_abs_err']:.1f}% | {r['outside_80']} of {r['n']} |"
        )
    return "\n".join(lines)


def truth_levels(steady, m) -> list[dict]:
    """A generated truth's levels: the simulated QD32 ``steady`` levels, the FOB and the QD4
    probe at 40% from calibrate's ``measure`` ``m`` (both ``Measurement``)."""
    qd4 = next(lv for lv in m.levels if lv.queue_depth == 4)
    levels = [{"extra_op_percent": lv.extra_op_percent, "queue_depth": 32,
               "steady_iops": lv.steady_iops, "steady_waf": lv.waf}
              for lv in steady.levels]  # fmt: skip
    levels[0]["fob_iops"] = m.fob_iops
    levels.append({"extra_op_percent": 40.0, "queue_depth": 4, "steady_iops": qd4.steady_iops,
                   "steady_waf": qd4.waf,
                   "from": "calibrate's measure, the plan's QD4 probe"})  # fmt: skip
    return levels


def generate(name: str) -> dict:
    """A generated drive of :data:`GENERATED` as a truth file (femu.py's form)."""
    return generated_truth(name, *GENERATED[name])


def generated_truth(
    name: str, drive: dict, t_page: float, t_cmd: float, ftl: dict | None = None
) -> dict:
    """A drive generated by overprov's core as a truth file (femu.py's form): ``drive`` a
    reserve's spare factor and victim-floor WAF (``spare_factor``, ``floor_waf``) or a native OP
    (``native_op``); ``ftl`` the collector's ``[ftl]`` keys (None: greedy)."""
    from overprov.calibrate import twin, twin_runs
    from overprov.calibrate.measure import measure
    from overprov.calibrate.plan import design, parse_budget
    from overprov.profile.sim_target import SimTarget

    collector = None
    if "spare_factor" in drive:
        rho0, collector = twin.reserve_collector(drive["spare_factor"], drive["floor_waf"])
    else:
        rho0 = drive["native_op"]
    truth = twin.TwinParameters(
        advertised_bytes=2**31, native_op=rho0, t_page_us=t_page, t_cmd_us=t_cmd,
        uncertainty={}, source="truth", gc_reserve=collector, buffer_bytes=0, ftl=ftl,
    )  # fmt: skip
    t0 = os.times()
    steady = twin_runs.simulate_levels(truth, list(LEVELS), {"pattern": "uniform"}, jobs=1)
    with SimTarget(f"sim:{name}@1", drive=twin.drive_dict(truth)) as t:
        m = measure(t, design([0, 40], parse_budget("2dw")))
    t1 = os.times()
    levels = truth_levels(steady, m)
    return {
        "simulator": "overprov (generated: twin.reserve_collector)" if collector else "overprov",
        "drive": {"native_op": rho0, "t_page_us": t_page, "t_cmd_us": t_cmd, **drive}
        | ({"reserve": collector.reserve, "waf_floor": collector.waf_floor} if collector else {})
        | ({"ftl": ftl} if ftl else {}),
        "advertised_bytes": 2**31,
        "levels": levels,
        "fob_from": "calibrate's measure with design([0, 40], parse_budget('2dw'))",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cpu_s": (t1.children_user - t0.children_user) + (t1.user - t0.user),
    }


#: the threshold the rule was committed with (bench/foreign/results/iops-only2/RULE.md)
RULE_RATIO = 7.8


def guard_on(pred: dict) -> str | None:
    """The rule at :data:`RULE_RATIO` on a prediction (it reads only the fit's figures)."""
    saved = plausibility.IOPS_ONLY_FOB_RATIO_MAX
    plausibility.IOPS_ONLY_FOB_RATIO_MAX = RULE_RATIO
    try:
        return plausibility.spare_side_unidentified(SimpleNamespace(fit=pred["fit"]))  # type: ignore[arg-type]
    finally:
        plausibility.IOPS_ONLY_FOB_RATIO_MAX = saved


def _with_ratio(ratio: float | None) -> list[str]:
    """``python -c`` running calibrate's CLI with ``plausibility.IOPS_ONLY_FOB_RATIO_MAX`` set."""
    return ["-c", "import sys; from overprov.calibrate import plausibility; "
            f"plausibility.IOPS_ONLY_FOB_RATIO_MAX = {ratio!r}; from overprov.cli import main; "
            "sys.exit(main())"]  # fmt: skip


def run_case(truth: Path, out: Path, confirm: bool = False) -> Path:
    """The truth's IOPS-only case with the guard off, judged; "on" the rule on that prediction.
    ``confirm``: where the rule refuses, the case run again through the CLI with it on."""
    cmd, head = by_figure_rule.case_command(truth, CASE)
    args = cmd[cmd.index("calibrate") + 1 :]
    curve = evaluate.truth_curve(json.loads(truth.read_text()), 32)
    kept: dict = {**head, "binds": reserve_binds(curve, str(truth))}
    for run, pre in (("off", _with_ratio(None)), ("confirm-on", _with_ratio(RULE_RATIO))):
        if run == "confirm-on" and not (confirm and kept["on"]["refused"]):
            break
        with tempfile.TemporaryDirectory() as tmp:
            res, cpu = readings._run([sys.executable, *pre, "calibrate", *args, "--out", tmp])
        if run == "confirm-on":
            kept[run] = {"exit": res.returncode, "cpu_s": cpu,
                         "last_line": (res.stderr.strip().splitlines() or [""])[-1]}  # fmt: skip
            break
        if res.returncode != 0:
            kept["off"] = {"refused": (res.stderr.strip().splitlines() or [""])[-1], "cpu_s": cpu}
            kept["on"] = {"refused": None}
            continue
        pred = json.loads(res.stdout)
        kept["off"] = {"cpu_s": cpu, "levels": _judge(pred, curve), "prediction": pred}
        kept["on"] = {"refused": guard_on(pred)}
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{truth.stem}.json"
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{path.name}: {kept['off']['cpu_s']:.0f} CPU s, on refuses: "
          f"{bool(kept['on']['refused'])}", flush=True)  # fmt: skip
    return path


def stored_waf_cases(results: Path):
    """(source, case, points as a fit keeps them) of every stored IOPS+WAF case."""
    for f in sorted(results.rglob("*.json")):
        try:
            doc = json.loads(f.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
        cases = []
        if isinstance(doc, list) and doc and isinstance(doc[0], dict) and "cases" in doc[0]:
            cases = [c for e in doc for c in e["cases"]]
        elif isinstance(doc, dict) and "case" in doc:
            cases = [{"case": doc["case"], "command": doc.get("command", "")}]
        for c in cases:
            cmd = c.get("command") or ""
            cmd = cmd if isinstance(cmd, str) else " ".join(cmd)
            if "IOPS+WAF" not in str(c.get("case")) or "--waf-points" not in cmd:
                continue
            pts, fob = _figures(cmd)
            m = re.search(r"--waf-points (\S+)", cmd)
            wafs = {int(float(x)): float(v) for x, _, v in
                    (i.partition(":") for i in m.group(1).split(","))}  # fmt: skip
            fit_points = [{"extra_op_percent": x, "iops": v,
                           "waf": wafs.get(x) if q == 32 else None,
                           "fresh": False, "queue_depth": None if q == 32 else q}
                          for (x, q), v in pts.items()]  # fmt: skip
            if fob:
                fit_points.append({"extra_op_percent": 0, "iops": fob, "waf": None, "fresh": True})
            yield f, c["case"], fit_points


def check(cases: Path, onsets: Path | None, results: Path) -> list[str]:
    """The rule's conditions G1-G3 (G4, the tests, is run apart)."""
    out, ok = [], True
    onset_of = {}
    if onsets and onsets.exists():
        onset_of = {Path(o["file"]).stem: o["onset_spare_factor"]
                    for o in json.loads(onsets.read_text())}  # fmt: skip
    for f in sorted(cases.glob("*.json")):
        k = json.loads(f.read_text())
        off, refused = k["off"], k["on"]["refused"]
        onset = onset_of.get(f.stem)
        head = f"{f.stem}: binds {k['binds']}" + (f", onset {onset:.3f}" if onset else "")
        if "levels" not in off:
            out.append(f"{head}; off refused ({off['refused']})")
            continue
        pred = off["prediction"]
        pts = {p["extra_op_percent"]: p["iops"] for p in pred["fit"]["points"] if p.get("iops")
               and not p.get("fresh")}  # fmt: skip
        fob = (pred["fit"].get("surrogate") or {}).get("fob_iops")
        ratio = fob / pts[min(pts)] if fob else None
        lv = off["levels"]
        inside = sum(1 for x in lv if x["iops_in_80"])
        errs = " / ".join(f"{100 * x['iops_err']:+.1f}" for x in lv)
        out.append(f"{head}; FOB ratio {ratio:.2f}; off QD32 IOPS {errs}%, {inside} of "
                   f"{len(lv)} inside the 80% interval; on: "
                   + ("REFUSED" if refused else "answered (the same figures)"))  # fmt: skip
        if "confirm-on" in k:
            c = k["confirm-on"]
            out.append(f"   confirmed through the CLI: exit {c['exit']}: {c['last_line'][:160]}")
        if k["binds"] and not refused and inside < len(lv):
            ok = False
            out.append(f"   G1 fails on {f.stem}: answered, {len(lv) - inside} outside")
        if not k["binds"] and refused:
            ok = False
            out.append(f"   G2 fails on {f.stem}: refused where no reserve binds")
    fired = [(str(src.relative_to(results)), case) for src, case, pts in
             stored_waf_cases(results) if guard_on({"fit": {"points": pts}})]  # fmt: skip
    n = sum(1 for _ in stored_waf_cases(results))
    stripped = sum(1 for _, _, pts in stored_waf_cases(results)
                   if guard_on({"fit": {"points": [dict(p, waf=None) for p in pts]}}))  # fmt: skip
    out.append(f"G3: the rule fires on {len(fired)} of {n} stored IOPS+WAF cases (on {stripped} "
               "of them with their WAF figures taken away)")  # fmt: skip
    ok = ok and not fired and n > 0
    out.append("G1-G3: " + ("hold" if ok else "FAIL"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("signals")
    s.add_argument("--results", type=Path, default=HERE / "results")
    s.add_argument("--out", type=Path, required=True)
    g = sub.add_parser("gen")
    g.add_argument("--out", type=Path, required=True)
    g.add_argument("--only", action="append", default=None)
    c = sub.add_parser("cases")
    c.add_argument("--truth", type=Path, action="append", required=True)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--confirm", action="store_true", help="run one refused case with it on")
    k = sub.add_parser("check")
    k.add_argument("--cases", type=Path, required=True)
    k.add_argument("--onsets", type=Path, default=None)
    k.add_argument("--results", type=Path, default=HERE / "results")
    args = ap.parse_args(argv)
    if args.what == "signals":
        rows = run_signals(args.results)
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
        print(table(rows))
    elif args.what == "gen":
        args.out.mkdir(parents=True, exist_ok=True)
        for name in args.only or GENERATED:
            doc = generate(name)
            (args.out / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n")
            print(f"{name}: {doc['cpu_s']:.1f} CPU s", flush=True)
    elif args.what == "cases":
        confirm = args.confirm
        for t in args.truth:
            path = run_case(t, args.out, confirm)
            confirm = confirm and "confirm-on" not in json.loads(path.read_text())
    else:
        print("\n".join(check(args.cases, args.onsets, args.results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
