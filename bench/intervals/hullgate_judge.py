"""The GC-reserve reading without an onset at calibrate's plausibility gate
(``reserve_hull.OFFERED`` with ``AT_THE_GATE``), judged on the refused cases the gate would answer:
bench/intervals/RULE-hullgate.md, into ``bench/intervals/hullgate/``.

``gen``/``run``: ``hullres_judge.py``'s commands on this rule's generated drives (typed figures,
the case "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"). ``undated --arm on|off --case DIR --out DIR2``: a
stored calibrate measurement (``measurement.json``) copied with its onset of garbage collection
from empty taken away (``onset_spare_factor``, ``onset_source`` None: figures without an onset,
as tests/calibrate/test_plausibility_reserve_gate.py gives FEMU's 14 × 224) and predicted by
``overprov calibrate --from DIR2`` with the flag set in its process (the command
``femu_end_to_end.predict`` runs); ``run.json`` as ``femu_end_to_end.judge`` reads it;
``--typed``: its figures typed instead (:func:`typed_from`).
``seen``: the stored cases the gate scan found (``hullgate/gate_scan.txt``), reported, not
judged. ``judge``: the rule's criteria, ``hullgate/verdict.{md,json}``.

    PYTHONPATH=python python bench/intervals/hullgate_judge.py gen NAME...
    PYTHONPATH=python python bench/intervals/hullgate_judge.py run --arm on TRUTH[::CASE]...
    PYTHONPATH=python python bench/intervals/hullgate_judge.py undated --arm on --case DIR \
        --out DIR2
    PYTHONPATH=python python bench/intervals/hullgate_judge.py seen
    PYTHONPATH=python python bench/intervals/hullgate_judge.py judge
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import hullres_judge as hj  # noqa: E402  (bench/intervals/; puts bench/foreign/ on the path)
import tally  # noqa: E402
from femu_end_to_end import LEVELS  # noqa: E402  (bench/foreign/)
from overprov import measurement_file  # noqa: E402

ROOT = tally.ROOT
OUT = HERE / "hullgate"
#: the rule's fresh generated drives (bench/intervals/RULE-hullgate.md), as ``hullres_judge.FRESH``
FRESH: dict[str, tuple[dict[str, float], float, float]] = {
    "gen-R13-reserve-sf081-floor8.5": ({"spare_factor": 0.81, "floor_waf": 8.5}, 4.5, 2.0),
    "gen-R14-reserve-sf089-floor5.8": ({"spare_factor": 0.89, "floor_waf": 5.8}, 6.0, 1.5),
    "gen-N9-greedy-op018": ({"native_op": 0.18}, 5.5, 1.0),
    "gen-N10-greedy-op027": ({"native_op": 0.27}, 3.5, 2.5),
}
#: the rule's fresh FEMU drives: name -> femu.py's drive options (RULE-hullgate.md)
FEMU: dict[str, str] = {
    "femu-43lun-63blk-thres57-3850us-ns81": "--nchs 1 --luns-per-ch 43 --blks-per-pl 63 "
    "--namespace-mb 2194 --gc-thres-pcent 57 --program-ns 3850000",
    "femu-46lun-59blk-thres54-4350us-ns83": "--nchs 2 --luns-per-ch 23 --blks-per-pl 59 "
    "--namespace-mb 2253 --gc-thres-pcent 54 --program-ns 4350000",
    "femu-47lun-58blk-thres61-3950us-ns80": "--nchs 1 --luns-per-ch 47 --blks-per-pl 58 "
    "--namespace-mb 2181 --gc-thres-pcent 61 --program-ns 3950000",
    "femu-48lun-57blk-thres87-4100us-ns82": "--nchs 4 --luns-per-ch 12 --blks-per-pl 57 "
    "--namespace-mb 2244 --gc-thres-pcent 87 --program-ns 4100000",
}
FEMU_RESERVES = [n for n in FEMU if "thres87" not in n]
FEMU_GUARDS = [n for n in FEMU if "thres87" in n]
GEN_RESERVES = [n for n in FRESH if "-R" in n]
GEN_GUARDS = [n for n in FRESH if "-N" in n]
HELD_OUT = 6  # QD32 IOPS and WAF at 10, 20, 30%
#: criterion H: a newly answered case's central WAF within this of the truth at every held-out
#: level, and its IOPS within it in median over them
HONEST_MAX = 0.25
#: the seen stored cases of the gate scan (gate_scan.txt): (label, measurement folder, truth,
#: onset taken away); the typed ones (gen-R7, gen-R9) are hullres2's stored flag-on runs
SEEN_MEASURED = (
    ("14x224 stored without an onset (ONSET_FROM_EMPTY off then)",
     "bench/foreign/results/femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80-off",
     "bench/foreign/results/femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json"),
    ("14x224 run-on copy without an onset",
     "bench/foreign/results/femu-end-to-end/run-on/femu-14lun-224blk-thres60-5ms-ns80-off",
     "bench/foreign/results/femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json"),
    ("14x224, the test's measurement, its onset taken away",
     "bench/foreign/results/femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80-on",
     "bench/foreign/results/femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json"),
    ("14x224 re-measured (fixed harness), its onset taken away",
     "bench/foreign/results/femufix/femu-14lun-224blk-thres60-5ms-ns80-on",
     "bench/foreign/results/femufix/femu-14lun-224blk-thres60-5ms-ns80-on.json"),
)  # fmt: skip
#: the typed ones the scan found: hullres2's stored flag-on runs (gen-R7 beside that rule, gen-R9
#: its fresh drive)
SEEN_TYPED = (
    "bench/intervals/hullres2/runs/generated-gen-R7-reserve-sf076-floor4.5--IOPSWAF040QD3240QD4FOB"
    "--on.json",
    "bench/intervals/hullres2/runs/generated-gen-R9-reserve-sf078-floor6.5--IOPSWAF040QD3240QD4FOB"
    "--on.json",
)


def configure() -> None:
    """``hullres_judge``'s module settings pointed at this rule's drives and folder."""
    hj.FRESH = FRESH
    hj.OUT = OUT
    hj.RUNS = OUT / "runs"
    hj.GEN = OUT / "generated"
    hj.RULE = "RULE-hullgate.md"
    hj.JUDGE = "hullgate_judge.py"


def calibrate(cmd: list[str], out: Path) -> tuple[subprocess.CompletedProcess, float]:
    """``cmd`` (calibrate writing ``out/prediction.json``) run, its output in
    ``out/calibrate.out``: its result and its CPU seconds."""
    (out / "prediction.json").unlink(missing_ok=True)
    t0 = os.times()
    res = subprocess.run(cmd, capture_output=True, text=True)
    t1 = os.times()
    (out / "calibrate.out").write_text(res.stdout + res.stderr)
    return res, (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)


def kept(out: Path, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as ``out/run.json``, said."""
    (out / "run.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{out.name}: exit {doc['calibrate_exit']}, {doc['cpu_s_predict']:.1f} CPU s", flush=True)
    return doc


def undated(case: Path, out: Path, arm: str) -> dict[str, Any]:
    """``case``'s measurement without its onset, predicted with the flag ``arm`` into ``out``."""
    m = measurement_file.load(case / measurement_file.NAME)
    onset = m.onset_spare_factor
    m.onset_spare_factor, m.onset_source = None, None
    out.mkdir(parents=True, exist_ok=True)
    measurement_file.save(m, out / measurement_file.NAME)
    cmd = [sys.executable, "-c", hj.FLAG_MAIN.format(on=arm == "on"), "calibrate", "--from",
           str(out), "--out", str(out / "fit"), "--json", str(out / "prediction.json"),
           "--jobs", "1", "--no-progress",
           "--extra-op", ",".join(f"{x:g}" for x in LEVELS)]  # fmt: skip
    res, cpu = calibrate(cmd, out)
    doc = {"case": str(case), "onset_taken_away": onset, "reserve_hull": arm,
           "calibrate": "overprov " + " ".join(cmd[3:]), "calibrate_exit": res.returncode,
           "measured_drive_writes": m.drive_writes, "onset_spare_factor": None,
           "levels_measured": [[lv.extra_op_percent, lv.queue_depth] for lv in m.levels],
           "cpu_s_measure": 0.0, "cpu_s_predict": cpu}  # fmt: skip
    return kept(out, doc)


def typed_from(case: Path, out: Path, arm: str) -> dict[str, Any]:
    """``case``'s measured figures typed as tcmd-bound2's plan case types them ("IOPS+WAF 0+40 QD32
    + 40 QD4, FOB": each QD32 level's IOPS and WAF, the QD4 IOPS, the FOB; no onset, no
    measurement), predicted with the flag ``arm`` into ``out/prediction.json``."""
    from overprov.calibrate import cli

    pts, fob, _ = cli.from_folder(case)
    iops = [f"{p.extra_op_percent:g}:{p.iops:.6g}" + (f"@qd{p.queue_depth}" if p.queue_depth
            else "") for p in pts if not p.fresh and p.iops]  # fmt: skip
    waf = [f"{p.extra_op_percent:g}:{p.waf:.6g}" for p in pts
           if not p.fresh and p.queue_depth is None and p.waf is not None]  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-c", hj.FLAG_MAIN.format(on=arm == "on"), "calibrate", "--points",
           ",".join(iops), "--waf-points", ",".join(waf), "--fob-iops", f"{fob:.6g}",
           "--out", str(out / "fit"), "--json", str(out / "prediction.json"), "--jobs", "1",
           "--no-progress", "--extra-op", ",".join(f"{x:g}" for x in LEVELS)]  # fmt: skip
    res, cpu = calibrate(cmd, out)
    doc = {"case": str(case), "typed": True, "reserve_hull": arm,
           "calibrate": "overprov " + " ".join(cmd[3:]), "calibrate_exit": res.returncode,
           "cpu_s_measure": 0.0, "cpu_s_predict": cpu}  # fmt: skip
    return kept(out, doc)


def folder_rows(folder: Path, truth: str) -> list[dict[str, Any]] | None:
    """A predicted folder's held-out figures (QD32 IOPS and WAF not fitted) as tally rows; None
    when calibrate refused."""
    run = json.loads((folder / "run.json").read_text())
    if run["calibrate_exit"] != 0 or not (folder / "prediction.json").is_file():
        return None
    pred = json.loads((folder / "prediction.json").read_text())
    doc = json.loads((ROOT / truth).read_text())
    src = str(folder.relative_to(ROOT))
    return list(tally.prediction_rows(pred, doc, truth, src, "undated", None))


def typed_rows(truth: str, case: str, arm: str) -> list[dict[str, Any]] | None:
    return hj.run_rows(hj.run_path(truth, case, arm))


def summary(rows: list[dict[str, Any]] | None) -> dict[str, Any]:
    """Inside, width and errors of one case's held-out rows (refused: None rows)."""
    if rows is None:
        return {"refused": True, "inside": 0, "figures": HELD_OUT}
    err = {k: [r["predicted"] / r["true"] - 1 for r in rows if r["kind"] == k]
           for k in ("iops", "waf")}  # fmt: skip
    return {
        "refused": False, "inside": sum(r["inside"] for r in rows), "figures": len(rows),
        "median_width": statistics.median(r["width"] for r in rows),
        "median_abs_log_error": statistics.median(abs(math.log(r["predicted"] / r["true"]))
                                                  for r in rows),
        "waf_errors": err["waf"], "iops_errors": err["iops"],
        "honest": bool(err["waf"]) and max(abs(e) for e in err["waf"]) <= HONEST_MAX
        and bool(err["iops"]) and statistics.median(abs(e) for e in err["iops"]) <= HONEST_MAX,
    }  # fmt: skip


def same(a: list[dict[str, Any]] | None, b: list[dict[str, Any]] | None) -> bool:
    """Every held-out figure and bound the same to 0.1% (flag off and on)."""
    if a is None or b is None:
        return a is None and b is None
    return len(a) == len(b) and all(
        abs(y[k] / x[k] - 1) <= 1e-3 for x, y in zip(a, b, strict=True)
        for k in ("predicted", "low", "high")
    )  # fmt: skip


def femu_folder(name: str, arm: str) -> Path:
    return OUT / "femu" / f"{name}-{arm}"


def femu_truth(name: str) -> str:
    return f"bench/intervals/hullgate/femu/{name}.json"


def cases() -> dict[str, dict[str, Any]]:
    """Every fresh case, flag off and on: its rows' summary and whether the flag changed it."""
    out = {}
    for name in FEMU:
        for form, pre in (("measured, no onset", ""), ("typed", "typed-")):
            rows = {a: folder_rows(femu_folder(name, pre + a), femu_truth(name))
                    for a in ("off", "on")}  # fmt: skip
            out[f"{name} ({form})"] = {
                "kind": "femu", "reserve": name in FEMU_RESERVES, "rows_on": rows["on"],
                **{a: summary(r) for a, r in rows.items()},
                "unchanged": same(rows["off"], rows["on"])}  # fmt: skip
    for name in FRESH:
        truth = str((hj.GEN / f"{name}.json").relative_to(ROOT))
        rows = {a: typed_rows(truth, hj.PLAN_CASE, a) for a in ("off", "on")}
        out[name] = {"kind": "generated", "reserve": name in GEN_RESERVES, "rows_on": rows["on"],
                     **{a: summary(r) for a, r in rows.items()},
                     "unchanged": same(rows["off"], rows["on"])}  # fmt: skip
    return out


def on_targets(c: dict[str, Any]) -> bool:
    """The foreign-FTL targets on the held-out figures with the flag on: IOPS within 10% median
    and 20% worst, WAF within 5% at every level."""
    s = c["on"]
    if s["refused"]:
        return False
    iops = [abs(e) for e in s["iops_errors"]]
    return (statistics.median(iops) <= 0.10 and max(iops) <= 0.20
            and max(abs(e) for e in s["waf_errors"]) <= 0.05)  # fmt: skip


def pooled(fresh_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Criterion C: hullres2's C (tally-now with the 11 reached stored cases replaced by their
    flag-on runs, bench/intervals/hullres2/runs/) with the fresh cases' flag-on rows added."""
    hj.RUNS = HERE / "hullres2" / "runs"
    c = hj.tally_with_flag()
    hj.RUNS = OUT / "runs"
    before = c["pooled_after"]
    n, inside = before["n"], round(before["inside"] * before["n"])
    n2, inside2 = n + len(fresh_rows), inside + sum(r["inside"] for r in fresh_rows)
    share = inside2 / n2
    return {"hullres2_c": {"pooled": before, "breaks": c["breaks"], "refused": c["refused"],
                           "families": c["families"]},
            "fresh_rows": len(fresh_rows), "fresh_inside": sum(r["inside"] for r in fresh_rows),
            "pooled": {"n": n2, "inside": share},
            "met": 0.75 <= share <= 0.90 and not c["breaks"] and not c["refused"]}  # fmt: skip


def judge(_: argparse.Namespace) -> int:
    cs = cases()
    reserves = [c for c in cs.values() if c["reserve"]]
    a_in = sum(c["on"]["inside"] for c in reserves)
    a_n = HELD_OUT * len(reserves)
    new = {n: c for n, c in cs.items() if c["off"]["refused"] and not c["on"]["refused"]}
    h = bool(new) and all(c["on"]["honest"] for c in new.values())
    guards = {n: c for n, c in cs.items() if not c["reserve"]}
    b = all(g["unchanged"] or (on_targets(g) and g["on"]["inside"] <= 0.9 * HELD_OUT)
            for g in guards.values())  # fmt: skip
    c = pooled([r for x in cs.values() for r in (x["rows_on"] or [])])
    tests = OUT / "tests_d.txt"
    said = [ln for ln in tests.read_text().splitlines() if ln and not ln.startswith("#")]
    d_failed = [ln.split()[1] for ln in said if ln.startswith("FAILED")]
    allowed = set(ALLOWED_FAILURES)
    d = "error" not in said[-1] and set(d_failed) <= allowed
    doc = {"A": {"inside": a_in, "figures": a_n, "met": a_in / a_n >= 0.70},
           "H": {"newly_answered": sorted(new), "met": h},
           "B": {"guards": sorted(guards), "met": b}, "C": c,
           "D": {"said": said[-1], "failed": d_failed, "met": d},
           "cases": {n: {k: v for k, v in x.items() if k != "rows_on"}
                     for n, x in cs.items()}}  # fmt: skip
    doc["met"] = all(doc[k]["met"] for k in "AHBCD")
    (OUT / "verdict.json").write_text(json.dumps(doc, indent=1) + "\n")
    text = markdown(doc)
    by_hand = OUT / "reading" ".md"  # the verdict read by hand, appended after the judge's
    (OUT / "verdict" ".md").write_text(text + ("\n" + by_hand.read_text() if by_hand.is_file()
                                              else ""))  # fmt: skip
    print(text)
    return 0


#: criterion D's tests allowed to fail with the flag on (they assert the off default or pin the
#: old refusal; RULE-hullgate.md names them)
ALLOWED_FAILURES = (
    "tests/calibrate/test_hullres2.py::test_the_switches_default_on_and_offered_stays_off",
    "tests/calibrate/test_plausibility_reserve_gate.py::"
    "test_on_without_a_reserve_reading_offered_the_plain_fit_decides[None]",
)


def _cell(s: dict[str, Any]) -> str:
    if s["refused"]:
        return "refused"
    waf = ", ".join(f"{e:+.0%}" for e in s["waf_errors"])
    return (f"{s['inside']}/{s['figures']}, width {s['median_width']:.0%}, |log err| "
            f"{s['median_abs_log_error']:.3f}; WAF {waf}")  # fmt: skip


def markdown(doc: dict[str, Any]) -> str:
    out = ["# Verdict: bench/intervals/RULE-hullgate.md", "",
           "Written by `bench/intervals/hullgate_judge.py judge` from `bench/intervals/hullgate/`.",
           "", "| fresh case | off | on (inside, median width, median abs log error; WAF errors "
           "at 10/20/30%) | flag changed nothing |", "|---|---|---|---|"]  # fmt: skip
    for n, c in doc["cases"].items():
        out.append(f"| {n} | {_cell(c['off'])} | {_cell(c['on'])} | {c['unchanged']} |")
    a, h, b, c, d = (doc[k] for k in "AHBCD")
    p = c["pooled"]
    out += ["",
            f"- **A** (fresh reserve cases, on): {a['inside']}/{a['figures']} inside "
            f"({a['inside'] / a['figures']:.0%}; at least 70%): {'met' if a['met'] else 'NOT met'}",
            f"- **H** (newly answered: {', '.join(h['newly_answered']) or 'none'}; each WAF within "
            f"25% at every held-out level and IOPS within 25% in median): "
            f"{'met' if h['met'] else 'NOT met'}",
            f"- **B** (guards {', '.join(b['guards'])}: unchanged, or on targets with at most 90% "
            f"inside): {'met' if b['met'] else 'NOT met'}",
            f"- **C** (pooled: hullres2's C {c['hullres2_c']['pooled']['n']}: "
            f"{c['hullres2_c']['pooled']['inside']:.1%} + {c['fresh_rows']} fresh rows, "
            f"{c['fresh_inside']} inside -> {p['n']}: {p['inside']:.1%}; 75-90%; families broken: "
            f"{c['hullres2_c']['breaks'] or 'none'}): {'met' if c['met'] else 'NOT met'}",
            f"- **D** (tests with the flag on, tests_d.txt): {d['said']}; failed: "
            f"{', '.join(d['failed']) or 'none'}: {'met' if d['met'] else 'NOT met'}",
            "", f"**Verdict: {'met' if doc['met'] else 'not met'}**; `reserve_hull.OFFERED` "
            f"{'on' if doc['met'] else 'stays off'}.", ""]  # fmt: skip
    return "\n".join(out)


def seen(_: argparse.Namespace) -> int:
    """The gate scan's stored cases predicted with the flag on (and the typed ones off), reported
    beside the rule: ``hullgate/seen/``, bench/intervals/hullgate/seen.md."""
    lines = ["# Seen: the stored cases the gate scan found (gate_scan.txt), flag on", "",
             "Written by `bench/intervals/hullgate_judge.py seen`; reported, not judged.", "",
             "| case | truth | held-out figures inside (on) | WAF errors 10/20/30% | IOPS errors "
             "| CPU s |", "|---|---|---|---|---|---|"]  # fmt: skip
    for label, folder, truth in SEEN_MEASURED:
        dst = OUT / "seen" / f"{Path(folder).parent.name}--{Path(folder).name}"
        run = undated(ROOT / folder, dst, "on")
        s = summary(folder_rows(dst, truth))
        lines.append(_seen_line(label, truth, s, run["cpu_s_predict"]))
        for arm in ("off", "on"):
            run = typed_from(ROOT / folder, dst.with_name(dst.name + f"--typed-{arm}"), arm)
            s = summary(folder_rows(dst.with_name(dst.name + f"--typed-{arm}"), truth))
            lines.append(_seen_line(f"{label}: typed ({arm})", truth, s, run["cpu_s_predict"]))
    for path in SEEN_TYPED:
        doc = json.loads((ROOT / path).read_text())
        s = summary(hj.run_rows(ROOT / path))
        lines.append(_seen_line(f"{Path(doc['truth']).stem} (stored run, flag on)", doc["truth"],
                                s, doc["cpu_s"]))  # fmt: skip
    (OUT / "seen" ".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


def _seen_line(label: str, truth: str, s: dict[str, Any], cpu: float) -> str:
    if s["refused"]:
        return f"| {label} | {truth} | refused | - | - | {cpu:.1f} |"
    return (f"| {label} | {truth} | {s['inside']}/{s['figures']} (width {s['median_width']:.0%}) "
            f"| {', '.join(f'{e:+.1%}' for e in s['waf_errors'])} | "
            f"{', '.join(f'{e:+.1%}' for e in s['iops_errors'])} | {cpu:.1f} |")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    configure()
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("gen", "run"):
        return hj.main(argv)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    u = sub.add_parser("undated")
    u.add_argument("--arm", choices=("on", "off"), required=True)
    u.add_argument("--case", type=Path, required=True)
    u.add_argument("--out", type=Path, required=True)
    u.add_argument("--typed", action="store_true", help="its figures typed (typed_from)")
    u.set_defaults(func=lambda a: (typed_from if a.typed else undated)(a.case, a.out, a.arm) and 0)
    sub.add_parser("seen").set_defaults(func=seen)
    sub.add_parser("judge").set_defaults(func=judge)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
