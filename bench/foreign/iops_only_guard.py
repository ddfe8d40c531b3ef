"""Which signal tells an IOPS-only calibration that misses badly (a controller-held GC reserve
that binds) from one that does not: the diagnosis and the pre-registered rule
bench/foreign/results/iops-only2/RULE.md.

    PYTHONPATH=python python bench/foreign/iops_only_guard.py signals [--results DIR] --out F
    PYTHONPATH=python python bench/foreign/iops_only_guard.py check --signals F [--signals G]

``signals``: every stored calibrate prediction of an IOPS-only case (QD32 IOPS figures, the FOB,
perhaps a QD4 figure and the raw NAND; no WAF figure) under ``--results`` with its truth's QD32
curve, one row each: the signals read from its inputs and fit (:func:`signals_of`) beside its
QD32 IOPS |error| over 0-40% and how many truths fall outside its 80% interval (a refused
case: "refused"), and whether the truth's GC reserve binds (:func:`reserve_binds`).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import evaluate  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402

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
    return "femu" in Path(truth_path).name and abs(w0 - FEMU_RESERVE_WAF) < 0.05


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
                if truth and "iops_err" in lvs[0]:  # a case as evaluate.py keeps it
                    case = f"{doc['case']} [{run}]"
                    yield f, doc["truth"], case, got["command"], None, lvs, truth
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("signals")
    s.add_argument("--results", type=Path, default=HERE / "results")
    s.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.what == "signals":
        rows = run_signals(args.results)
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
        print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
