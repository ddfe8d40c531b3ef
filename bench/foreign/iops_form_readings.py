"""Which IOPS reading carries a FEMU drive's fitted figures: the analytic or the blocking-GC one.

    PYTHONPATH=python python bench/foreign/iops_form_readings.py refit --case DIR --truth T.json \
        --out DIR2 [--by-figure on|off] [--needs-waf on|off] [--as-measured] [--no-waf] \
        [--twin-tolerance X]
    PYTHONPATH=python python bench/foreign/iops_form_readings.py iops-only --case DIR \
        --truth T.json --out FILE [--by-figure on|off] [--needs-waf on|off]
    PYTHONPATH=python python bench/foreign/iops_form_readings.py scan [--results DIR]
    PYTHONPATH=python python bench/foreign/iops_form_readings.py twin-form --prediction FILE \
        [--out FILE]

A diagnosis, not a rule. ``refit`` is ``femu_end_to_end.py refit`` (the case's measurement
with its QD32 levels' IOPS and WAF replaced by the truth's, everything else kept, predicted by
``overprov calibrate --from`` and judged as ``femu_end_to_end.judge`` judges) with
``evidence.REPRODUCED_BY_FIGURE`` (``--by-figure``) and ``evidence.BY_FIGURE_NEEDS_WAF``
(``--needs-waf``) set in calibrate's process (without them, calibrate's defaults);
``--as-measured`` keeps the measured QD32 figures instead, and ``--no-waf`` drops every WAF
figure (a drive without a NAND counter; the QD4 figure, the FOB and the onset kept);
``--twin-tolerance`` sets ``plausibility.TWIN_TOLERANCE`` so that a twin calibrate refuses is
written, for a diagnosis.
``iops-only`` gives calibrate the same refit's figures through the command line without WAF
or onset (``--points`` 0 and 40% at QD32, 40% at QD4, ``--fob-iops``), judged against the
truth's QD32 curve. ``scan`` reads every stored prediction under ``--results`` whose twin was
weighed against the blocking-GC reading (``fit.gc_mechanism``) on FEMU, EagleTree or DiskSim
and prints, per prediction, the weight and figures reproduced of each reading, and the final,
analytic and blocking-GC twins' errors at the fitted QD32 levels (against the fitted figures
themselves), with the slope d ln(1/IOPS) / d ln(WAF) of the blocking twin's curve over 0–40%
(:func:`slope`: 1 where 1/IOPS is proportional to WAF, as on FEMU). ``twin-form`` takes a
prediction's fitted surrogate (ρ₀, t_page, t_cmd) and simulates the analytic twin
(``twin.drive_dict``) at 0% and 40% in four mappings (:data:`TWIN_FORMS`): its own without a
write buffer and with 64 MiB, the NAND alone (t_cmd just below 0) and the controller carrying
t_cmd + WAF·t_page without a buffer (t_cmd 1 µs), each with the time per NAND unit it realises
(1/IOPS ÷ WAF) beside the fitted t_page. Nothing is fitted here:
every figure is calibrate's, the truth's or the twin's.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import femu_end_to_end as e2e  # noqa: E402
from overprov import measurement_file  # noqa: E402

LEVELS = e2e.LEVELS
#: calibrate's flags in every run here: one job, no progress, the five levels judged
RUN_FLAGS = ["--jobs", "1", "--no-progress", "--extra-op", ",".join(f"{x:g}" for x in LEVELS)]
FOREIGN = ("femu", "eagletree", "disksim")


def calibrate_cmd(
    args: list[str],
    by_figure: str | None,
    needs_waf: str | None = None,
    twin_tolerance: float | None = None,
    max_waf: str | None = None,
) -> list[str]:
    """``python -m overprov calibrate ARGS``, with ``evidence.REPRODUCED_BY_FIGURE`` (and
    ``evidence.BY_FIGURE_NEEDS_WAF``) set first when ``by_figure`` (``needs_waf``) is "on" or
    "off", and ``plausibility.TWIN_TOLERANCE`` when ``twin_tolerance`` is given (a diagnosis:
    the prediction of a twin calibrate would refuse, written), and
    ``evidence.BY_FIGURE_WITHOUT_WAF_MAX_WAF`` when ``max_waf`` is given (a Python literal)."""
    if by_figure is None and needs_waf is None and twin_tolerance is None and max_waf is None:
        return [sys.executable, "-m", "overprov", "calibrate", *args]
    pre = "from overprov.calibrate import evidence, plausibility; "
    if by_figure is not None:
        pre += f"evidence.REPRODUCED_BY_FIGURE = {by_figure == 'on'}; "
    if needs_waf is not None:
        pre += f"evidence.BY_FIGURE_NEEDS_WAF = {needs_waf == 'on'}; "
    if twin_tolerance is not None:
        pre += f"plausibility.TWIN_TOLERANCE = {twin_tolerance!r}; "
    if max_waf is not None:
        pre += f"evidence.BY_FIGURE_WITHOUT_WAF_MAX_WAF = {max_waf}; "
    return [
        sys.executable,
        "-c",
        f"import sys; {pre}from overprov.cli import main; sys.exit(main())",
        "calibrate",
        *args,
    ]


def _run(cmd: list[str]) -> tuple[subprocess.CompletedProcess, float]:
    t0 = os.times()
    res = subprocess.run(cmd, capture_output=True, text=True)
    t1 = os.times()
    return res, (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)


def run_refit(args: argparse.Namespace) -> dict:
    """The case refitted (or, ``--as-measured``, predicted again) with the flag as asked."""
    truth = json.loads(args.truth.read_text())
    curve = e2e.truth_curve(truth)
    m = measurement_file.load(args.case / measurement_file.NAME)
    if not args.as_measured:
        for lv in m.levels:
            if lv.queue_depth is None:
                lv.steady_iops = curve[lv.extra_op_percent]["steady_iops"]
                lv.waf = curve[lv.extra_op_percent]["steady_waf"]
    if args.no_waf:  # as a drive without a NAND counter: no WAF figure, the onset kept
        m.counters = False
        for lv in m.levels:
            lv.waf = None
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    measurement_file.save(m, args.out / measurement_file.NAME)
    given = ["--from", str(args.out), "--out", str(args.out / "fit")]
    cmd = calibrate_cmd(
        [*given, "--json", str(args.out / "prediction.json"), *RUN_FLAGS],
        args.by_figure,
        args.needs_waf,
        args.twin_tolerance,
    )
    res, cpu = _run(cmd)
    (args.out / "calibrate.out").write_text(res.stdout + res.stderr)
    doc = {
        "case": str(args.case),
        "truth": str(args.truth),
        "calibrate_exit": res.returncode,
        "calibrate": ["python", *cmd[1:]],
        "by_figure": args.by_figure or "default",
        "by_figure_needs_waf": args.needs_waf or "default",
        "twin_tolerance": args.twin_tolerance or "default",
        "figures": ("as measured" if args.as_measured else "the truth's QD32 0% and 40%")
        + (", no WAF" if args.no_waf else ""),
        "cpu_s_predict": cpu,
        "measured_drive_writes": m.drive_writes,
        "onset_spare_factor": m.onset_spare_factor,
        "levels_measured": [[lv.extra_op_percent, lv.queue_depth] for lv in m.levels],
        "cpu_s_measure": 0.0,
    }
    (args.out / "run.json").write_text(json.dumps(doc, indent=1) + "\n")
    row = e2e.judge(truth, args.out)
    if (args.out / "prediction.json").exists():
        row["gc_mechanism"] = mechanism_row(json.loads((args.out / "prediction.json").read_text()))
    (args.out / "judged.json").write_text(json.dumps(row, indent=1) + "\n")
    return row


def iops_only_points(m: measurement_file.Measurement, curve: dict) -> list[str]:
    """The refit's figures as calibrate's ``--points`` and ``--fob-iops`` (no WAF)."""
    pts = []
    for lv in m.levels:
        iops = (
            curve[lv.extra_op_percent]["steady_iops"] if lv.queue_depth is None else lv.steady_iops
        )
        qd = "" if lv.queue_depth is None else f"@qd{lv.queue_depth}"
        pts.append(f"{lv.extra_op_percent:g}:{iops:.0f}{qd}")
    return ["--points", ",".join(pts), "--fob-iops", f"{m.fob_iops:.0f}"]


def run_iops_only(args: argparse.Namespace) -> dict:
    """The refit's IOPS figures alone (no WAF), predicted and judged against the truth."""
    truth = json.loads(args.truth.read_text())
    curve = e2e.truth_curve(truth)
    m = measurement_file.load(args.case / measurement_file.NAME)
    given = iops_only_points(m, curve)
    cmd = calibrate_cmd(["--json", "-", *RUN_FLAGS, *given], args.by_figure, args.needs_waf)
    res, cpu = _run(cmd)
    if res.returncode != 0:
        row = {"given": given, "refused": res.stderr.strip().splitlines()[-1:], "cpu_s": cpu}
    else:
        pred = json.loads(res.stdout)
        levels = [
            {
                "extra_op_percent": p["extra_op_percent"],
                "iops_error": p["steady_iops"] / curve[p["extra_op_percent"]]["steady_iops"] - 1,
                "waf_error": p["waf"] / curve[p["extra_op_percent"]]["steady_waf"] - 1,
            }
            for p in pred["levels"]
        ]
        iops = [abs(lv["iops_error"]) for lv in levels]
        row = {
            "given": given,
            "by_figure": args.by_figure or "default",
            "by_figure_needs_waf": args.needs_waf or "default",
            "cpu_s": cpu,
            "levels": levels,
            "iops_median": statistics.median(iops),
            "iops_worst": max(iops),
            "gc_mechanism": mechanism_row(pred),
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(row, indent=1) + "\n")
    return row


def mechanism_row(pred: dict) -> dict | None:
    """The heaviest reading's weighing of the analytic against the blocking-GC reading, and
    each twin's error at the fitted QD32 levels (against the fitted figures)."""
    g = pred["fit"].get("gc_mechanism")
    if not g:
        return None
    fitted = {
        p["extra_op_percent"]: p["iops"]
        for p in pred["fit"].get("points", [])
        if p.get("queue_depth") in (None, 32) and p.get("iops") and not p.get("fresh")
    }
    src = pred
    if pred.get("readings"):  # the heaviest reading's own levels carry each twin's IOPS
        src = max(pred["readings"].values(), key=lambda r: r.get("weight", 0.0))
    by = {lv["extra_op_percent"]: lv for lv in src["levels"]}
    errors = {}
    for x, iops in sorted(fitted.items()):
        lv = by.get(x, {})
        errors[f"{x:g}"] = {
            k: (lv[k] / iops - 1) if lv.get(k) else None
            for k in ("steady_iops", "analytic_iops", "blocking_gc_iops")
        }
    return {
        "weight": g.get("weight"),
        "figures_reproduced": g.get("figures_reproduced"),
        "dies": g.get("dies"),
        "domains": g.get("domains"),
        "program_us": g.get("program_us"),
        "closed_loop_units": (g.get("closed_loop") or {}).get("units"),
        "closed_loop_unit_us": (g.get("closed_loop") or {}).get("unit_us"),
        "errors_at_fitted": errors,
        "blocking_slope": slope(src["levels"], "blocking_gc_iops"),
    }


def slope(levels: list[dict], key: str) -> float | None:
    """The least-squares slope of ln(1/IOPS) on ln(WAF) over ``levels`` (1 where 1/IOPS is
    proportional to WAF; above 1 where IOPS fall faster than 1/WAF)."""
    pts = [
        (math.log(lv["waf"]), -math.log(lv[key])) for lv in levels if lv.get(key) and lv.get("waf")
    ]
    if len(pts) < 3:
        return None
    mx = statistics.fmean(x for x, _ in pts)
    my = statistics.fmean(y for _, y in pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx > 0 else None


def predictions(results: Path):
    """(file, path inside it, prediction) of every stored prediction with a gc_mechanism."""

    def walk(x, path):
        if isinstance(x, dict):
            if "levels" in x and isinstance(x.get("fit"), dict) and x["fit"].get("gc_mechanism"):
                yield path, x
                return
            for k, v in x.items():
                yield from walk(v, f"{path}/{k}")
        elif isinstance(x, list):
            for i, v in enumerate(x):
                yield from walk(v, f"{path}[{i}]")

    for f in sorted(results.rglob("*.json")):
        rel = str(f.relative_to(results))
        if not any(s in rel for s in FOREIGN) or (
            f.name == "prediction.json" and f.parent.name == "fit"
        ):
            continue
        try:
            doc = json.loads(f.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
        for path, pred in walk(doc, ""):
            yield rel, path, pred


def pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:+.1f}%"


def run_scan(args: argparse.Namespace) -> str:
    out = [
        "| prediction | blocking weight | reproduced (analytic : blocking) | twin dies / domains | "
        "final at 0% / 40% | analytic at 0% / 40% | blocking at 0% / 40% | blocking slope |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for rel, path, pred in predictions(args.results):
        row = mechanism_row(pred)
        e = row["errors_at_fitted"]
        if "0" not in e or "40" not in e:
            continue
        fr = row["figures_reproduced"] or {}
        w = row["weight"]
        s = row["blocking_slope"]
        out.append(
            f"| {rel}{path} | {'–' if w is None else f'{w:.2f}'} | "
            f"{fr.get('analytic', '–')} : {fr.get('blocking', '–')} | "
            f"{row['dies']} / {row['domains']} | "
            + " | ".join(
                f"{pct(e['0'][k])} / {pct(e['40'][k])}"
                for k in ("steady_iops", "analytic_iops", "blocking_gc_iops")
            )
            + f" | {'–' if s is None else f'{s:.2f}'} |"
        )
    return "\n".join(out)


TWIN_FORMS = (
    ("the fit's own mapping, no write buffer", {"buffer_bytes": 0}),
    ("the fit's own mapping, 64 MiB write buffer", {"buffer_bytes": 64 * 2**20}),
    ("NAND alone, no write buffer", {"buffer_bytes": 0, "t_cmd_us": -1e-6}),
    ("controller (t_cmd 1 µs), no write buffer", {"buffer_bytes": 0, "t_cmd_us": 1.0}),
)


def twin_forms(surrogate: dict, advertised_bytes: int, levels: tuple[float, ...] = (0.0, 40.0)):
    """Each of :data:`TWIN_FORMS` simulated at ``levels``: (name, [(level, IOPS, WAF, µs per
    NAND unit)], CPU seconds). The fit's own mapping is ``twin.drive_dict``'s for its t_cmd
    (held at 0 without a buffer: the NAND alone; with one, the controller); the NAND-alone row
    holds t_cmd just below 0, the controller row just above it."""
    from dataclasses import replace

    from overprov.calibrate import twin

    base = twin.TwinParameters(
        advertised_bytes=advertised_bytes,
        native_op=surrogate["native_op"],
        t_page_us=surrogate["t_page_us"],
        t_cmd_us=max(0.0, surrogate["t_cmd_us"]),
        uncertainty={},
        source="iops_form_readings.py twin-form",
    )
    out = []
    for name, change in TWIN_FORMS:
        t0 = os.times()
        m = twin.simulate_levels(replace(base, **change), list(levels))
        t1 = os.times()
        rows = [
            (lv.extra_op_percent, lv.steady_iops, lv.waf, 1e6 / lv.steady_iops / lv.waf)
            for lv in m.levels
        ]
        out.append((name, rows, (t1.user - t0.user) + (t1.system - t0.system)))
    return out


def run_twin_form(args: argparse.Namespace) -> dict:
    pred = json.loads(args.prediction.read_text())
    sur = pred["fit"]["surrogate"]
    advertised = pred["measurement"]["capacity_bytes"]
    rows = twin_forms(sur, advertised)
    doc = {
        "prediction": str(args.prediction),
        "surrogate": {k: sur[k] for k in ("native_op", "t_page_us", "t_cmd_us")},
        "forms": [
            {"twin": name, "cpu_s": cpu,
             "levels": [{"extra_op_percent": x, "iops": i, "waf": w, "us_per_nand_unit": u}
                        for x, i, w, u in lv]}
            for name, lv, cpu in rows
        ],
    }  # fmt: skip
    if args.out:
        args.out.write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("refit", "iops-only"):
        p = sub.add_parser(name)
        p.add_argument(
            "--case", type=Path, required=True, help="a femu_end_to_end.py measure folder"
        )
        p.add_argument("--truth", type=Path, required=True, help="its femu.py results file")
        p.add_argument("--out", type=Path, required=True)
        p.add_argument(
            "--by-figure",
            choices=("on", "off"),
            default=None,
            help="evidence.REPRODUCED_BY_FIGURE in calibrate's process (default: as it is)",
        )
        p.add_argument(
            "--needs-waf",
            choices=("on", "off"),
            default=None,
            help="evidence.BY_FIGURE_NEEDS_WAF in calibrate's process",
        )
        if name == "refit":
            p.add_argument(
                "--as-measured",
                action="store_true",
                help="keep the measured QD32 figures (predict the case again)",
            )
            p.add_argument(
                "--no-waf",
                action="store_true",
                help="drop every WAF figure (a drive without a NAND counter), the onset kept",
            )
            p.add_argument(
                "--twin-tolerance",
                type=float,
                default=None,
                help="plausibility.TWIN_TOLERANCE in calibrate's process (a diagnosis)",
            )
    s = sub.add_parser("scan")
    s.add_argument("--results", type=Path, default=HERE / "results")
    t = sub.add_parser("twin-form")
    t.add_argument("--prediction", type=Path, required=True, help="a calibrate prediction.json")
    t.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.cmd == "scan":
        print(run_scan(args))
        return 0
    if args.cmd == "twin-form":
        print(json.dumps(run_twin_form(args), indent=1))
        return 0
    row = run_refit(args) if args.cmd == "refit" else run_iops_only(args)
    print(json.dumps(row, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
