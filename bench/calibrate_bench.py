"""Benchmark of ``overprov calibrate`` on drives it has never seen, and on published figures.

For each seed: a generated drive file (overprov.calibrate.validation.drive), simulated at
--physical of NAND; calibrate it through the Target protocol within the default budget; measure
its truth at 0-40% extra OP the long way; compare. Then the published figures through --points.

    PYTHONPATH=python python bench/calibrate_bench.py [--seeds 1-12] [--physical 4GiB]
        [--record-model-error]   # write python/overprov/calibrate/model_form_error.json
        [--partial FILE]         # append each drive's row to FILE as it finishes
        [--rows FILE]            # take the drives' rows from such a FILE: published only
        [--published-only]       # no generated drives: the published figures alone
        [--jobs N]               # processes for the twins' levels (sweep.py)

Prints markdown tables (for bench/README.md) and writes target/bench/calibrate_bench.json.
Each published figure held out in turn, over bench/corpus and the foreign FTLs' curves, with the
interval's coverage checked: bench/corpus_bench.py.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import spare_readings, validation
from overprov.units import parse_size_bytes

ROOT = Path(__file__).resolve().parent.parent


def seeds_arg(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def generated(
    seeds: list[int], physical: float, folder: Path, partial: Path | None = None
) -> list[dict]:
    rows = []
    for seed in seeds:
        d = validation.drive(seed)
        c = validation.compare(seed, physical, folder)
        cfg = d["config"]
        rows.append({
            "seed": seed,
            "native_op": d["physical_bytes"] / d["advertised_bytes"] - 1,
            "policy": cfg["ftl"]["policy"],
            "slc": "slc" in cfg["timing"],
            "controller_ceiling_iops": cfg["timing"]["controller"]["contexts"]
            / cfg["timing"]["controller"]["command_us"] * 1e6,
            **c.as_dict(),
        })  # fmt: skip
        if partial is not None:
            with partial.open("a") as f:
                f.write(json.dumps(rows[-1]) + "\n")
        print(
            f"seed {seed}: median {100 * c.median_abs_rel_error:.1f}% worst "
            f"{100 * c.worst_abs_rel_error:.1f}% twin {100 * c.twin_worst_rel_error:.1f}% "
            f"cost {c.calibrate_drive_writes:.2f}/{c.truth_drive_writes:.2f} dw, {c.wall_s:.1f} s",
            file=sys.stderr,
            flush=True,
        )
    return rows


def published(folder: Path, jobs: int | None = None) -> list[dict]:
    """Published figures a user could hold: fit on some, predict the others."""
    p850 = "Samsung 850 Pro 512 GB, fio 4k randwrite QD32, 30 min per level"
    fob850 = fitmod.Point(0, 90000, 0.05, fresh=True)  # data sheet: random write up to 90K IOPS
    raw850 = 2**39 / 512e9 - 1  # 512 GB on 512 GiB of NAND: the raw NAND as the native spare
    rawpny = 2**37 / 128e9 - 1  # 128 GB on 128 GiB
    cases = [
        {"name": p850, "fitted": "20%: 25,000; FOB 90,000 (data sheet); native OP fitted",
         "points": [fitmod.Point(20, 25000, 0.05), fob850], "native_op": None,
         "held_out": (40.0, "iops", 50000.0)},
        {"name": p850, "fitted": "40%: 50,000; FOB 90,000 (data sheet); native OP fitted",
         "points": [fitmod.Point(40, 50000, 0.05), fob850], "native_op": None,
         "held_out": (20.0, "iops", 25000.0)},
        {"name": p850, "fitted": "20%: 25,000; native OP = raw NAND (7.4%), no FOB",
         "points": [fitmod.Point(20, 25000, 0.05)], "native_op": raw850,
         "held_out": (40.0, "iops", 50000.0)},
        {"name": p850, "fitted": "40%: 50,000; native OP = raw NAND (7.4%), no FOB",
         "points": [fitmod.Point(40, 50000, 0.05)], "native_op": raw850,
         "held_out": (20.0, "iops", 25000.0)},
        {"name": p850, "fitted": "20%: 25,000; FOB 90,000; raw NAND given (512 GiB): both readings",
         "points": [fitmod.Point(20, 25000, 0.05), fob850], "raw_native_op": raw850,
         "held_out": (40.0, "iops", 50000.0)},
        {"name": p850, "fitted": "40%: 50,000; FOB 90,000; raw NAND given (512 GiB): both readings",
         "points": [fitmod.Point(40, 50000, 0.05), fob850], "raw_native_op": raw850,
         "held_out": (20.0, "iops", 25000.0)},
        {"name": "PNY 128 GB vs 120 GB, JESD219A from secure erase",
         "fitted": "128 GB (0% extra): WAF 2.85; raw NAND given (128 GiB): both readings × 4 GC "
                   "designs",
         "points": [fitmod.Point(0, None, 0.05, 2.85, 0.05)], "raw_native_op": rawpny,
         "held_out": (6.25, "waf", 1.87), "workload": {"pattern": "jesd219"}},
        {"name": "PNY 128 GB vs 120 GB, uniform random assumed",
         "fitted": "128 GB (0% extra): WAF 2.85; raw NAND given (128 GiB): both readings",
         "points": [fitmod.Point(0, None, 0.05, 2.85, 0.05)], "raw_native_op": rawpny,
         "held_out": (6.25, "waf", 1.87)},
        {"name": "PNY 128 GB vs 120 GB, JESD219A from secure erase",
         "fitted": "128 GB (0% extra): WAF 2.85; native OP fitted × 4 GC designs",
         "points": [fitmod.Point(0, None, 0.05, 2.85, 0.05)], "native_op": None,
         "held_out": (6.25, "waf", 1.87), "workload": {"pattern": "jesd219"}},
        {"name": "PNY 128 GB vs 120 GB, the previous way (uniform random assumed)",
         "fitted": "128 GB (0% extra): WAF 2.85; native OP fitted",
         "points": [fitmod.Point(0, None, 0.05, 2.85, 0.05)], "native_op": None,
         "held_out": (6.25, "waf", 1.87)},
    ]  # fmt: skip
    out = []
    for i, case in enumerate(cases):
        x, what, value = case["held_out"]
        fig = predmod.PredictionInput(
            case["points"], [x], typed=True, raw_native_op=case.get("raw_native_op"),
            source=case["name"], workload=case.get("workload"), jobs=jobs,
        )  # fmt: skip
        if case.get("native_op") is None:  # figures, as the CLI reads them: every reading
            prediction = spare_readings.read_all(fig)
        else:  # the spare held at the figure's native OP
            prediction = predmod.read(fig, predmod.TwinReading(native_op=case["native_op"]))
        pred = prediction.document(folder / f"published-{i}")
        row = pred["levels"][0]
        got = row["steady_iops"] if what == "iops" else row["waf"]
        out.append({
            "name": case["name"],
            "workload": pred["workload_flags"],
            "fitted": case["fitted"],
            "held_out": f"{x:g}%: {what.upper()} {value:,g}",
            "predicted": got,
            "readings": {
                k: r["levels"][0]["steady_iops" if what == "iops" else "waf"]
                for k, r in pred.get("readings", {}).items()
            },
            "rel_error": got / value - 1.0,
            "interval": [row["steady_iops_low"], row["steady_iops_high"]] if what == "iops"
            else [row["waf_low"], row["waf_high"]],
        })  # fmt: skip
    return out


def readings_check(
    truth: tuple[float, float], raw: float, workload: dict, curves: dict, jobs: int | None
) -> dict:
    """calibrate's readings of the raw NAND (two spare readings × the GC designs) on a
    simulated truth (a GC design's WAF at 0% and 6.25% extra OP): fitted on the 0% figure, the
    6.25% one held out."""
    fig = predmod.PredictionInput(
        [fitmod.Point(0, None, 0.05, truth[0], 0.05)], [6.25], typed=True,
        raw_native_op=raw, workload=workload, jobs=jobs,
    )  # fmt: skip
    pred = spare_readings.read_all(fig, curves).document(None)
    row = pred["levels"][0]
    readings = pred["readings"]
    return {
        "waf_0": truth[0],
        "waf_6_25": truth[1],
        "effective_spare": readings["effective_spare"]["levels"][0]["waf"],
        "raw_spare": readings["raw_spare"]["levels"][0]["waf"],
        "spare_efficiency": readings["raw_spare"]["fit"]["spare_efficiency"],
        "readings": {k: r["levels"][0]["waf"] for k, r in readings.items()},
        "predicted": row["waf"],
        "interval": [row["waf_low"], row["waf_high"]],
    }


def pny_why(jobs: int | None = None) -> list[dict]:
    """Why the PNY pair misses: under JESD219, what each of the simulator's GC designs (greedy
    or cost-benefit, one write frontier or one per workload zone) predicts for 120 GB (6.25%)
    (a) with the native OP fitted to 128 GB's WAF 2.85 on that design's simulated curve, and
    (b) with the native OP the raw NAND (128 GB on 128 GiB), both levels simulated. Not a fit:
    a comparison of designs one WAF figure cannot tell apart."""
    from overprov import sweep
    from overprov.calibrate import workload_curve

    jesd = {"pattern": "jesd219"}
    raw = 2**37 / 128e9 - 1
    curves = {
        name: workload_curve.simulate_curve(jesd, jobs=jobs, ftl=ftl)
        for name, ftl in spare_readings.GC_DESIGNS.items()
    }
    out = []
    for name, ftl in spare_readings.GC_DESIGNS.items():
        policy, streams = ftl["policy"], ftl["host_streams"]
        s = fitmod.fit([fitmod.Point(0, None, 0.05, 2.85, 0.05)], curve=curves[name])
        reps = sweep.run_points(
            [workload_curve.grid_config(jesd, fitmod.rho_eff(raw, x), ftl) for x in (0, 6.25)],
            jobs=jobs,
        )

        # from secure erase, whole-run WAF: the run length that gives 2.85 at 0% (bisection)
        def whole_run(x: float, dw: float, ftl: dict = ftl) -> float:
            cfg = workload_curve.grid_config(jesd, fitmod.rho_eff(raw, x), ftl)
            cfg["precondition"] = {"kind": "none"}
            cfg["run"].update({"warmup_drive_writes": 0.0, "drive_writes": dw})
            return sweep.run_points([cfg], jobs=1)[0]["measured"]["waf"]

        lo, hi = 0.5, 60.0
        for _ in range(12):
            mid = (lo * hi) ** 0.5
            lo, hi = (mid, hi) if whole_run(0, mid) < 2.85 else (lo, mid)
        run_dw = (lo * hi) ** 0.5
        raw_waf = (reps[0]["measured"]["waf"], reps[1]["measured"]["waf"])
        erase_waf = (whole_run(0, run_dw), whole_run(6.25, run_dw))
        out.append({
            "gc": f"{policy}, {streams} frontier" + ("s" if streams == "workload" else ""),
            "readings": {
                "steady, raw NAND": readings_check(raw_waf, raw, jesd, curves, jobs),
                "from erase": readings_check(erase_waf, raw, jesd, curves, jobs),
            },
            "erase_run_dw": run_dw,
            "erase_waf_0": erase_waf[0],
            "erase_waf_6_25": erase_waf[1],
            "fitted_native_op": s.native_op,
            "fitted_waf_6_25": s.waf(6.25),
            "raw_waf_0": raw_waf[0],
            "raw_waf_6_25": raw_waf[1],
        })  # fmt: skip
    return out


def markdown(rows: list[dict], pub: list[dict]) -> str:
    lines = [
        "| seed | native OP | GC | SLC | controller ceiling | median error | worst error | "
        "in 80% band | twin vs "
        "its points | calibrate dw | truth dw | share | calibrate h (full size) | truth h "
        "(full size) | wall s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        inside = sum(1 for x in r["rows"] if x["in_interval"])
        lines.append(
            f"| {r['seed']} | {100 * r['native_op']:.1f}% | {r['policy']} | "
            f"{'yes' if r['slc'] else 'no'} | {r['controller_ceiling_iops'] / 1000:.0f} k | "
            f"{100 * r['median_abs_rel_error']:.1f}% | "
            f"{100 * r['worst_abs_rel_error']:.1f}% | {inside}/{len(r['rows'])} | "
            f"{100 * r['twin_worst_rel_error']:.1f}% | {r['calibrate_drive_writes']:.2f} | "
            f"{r['truth_drive_writes']:.2f} | "
            f"{100 * r['calibrate_drive_writes'] / r['truth_drive_writes']:.0f}% | "
            f"{r['calibrate_io_hours_full_size']:.1f} | {r['truth_io_hours_full_size']:.1f} | "
            f"{r['wall_s']:.1f} |"
        )
    errs = [abs(x["rel_error"]) for r in rows for x in r["rows"]]
    lines.append("")
    if errs:
        lines.append(
            f"All levels of all drives ({len(errs)}): median error "
            f"{100 * statistics.median(errs):.1f}%, worst {100 * max(errs):.1f}%; median of the "
            f"per-drive medians "
            f"{100 * statistics.median(r['median_abs_rel_error'] for r in rows):.1f}%."
        )
    lines += ["", "| published figure | workload | fitted | held out | predicted | error | "
              "80% interval |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for p in pub:
        lo, hi = p["interval"]
        fmt = "{:,.0f}" if p["predicted"] > 100 else "{:.2f}"
        lines.append(
            f"| {p['name']} | `{p['workload']}` | {p['fitted']} | {p['held_out']} | "
            f"{fmt.format(p['predicted'])} | "
            f"{100 * p['rel_error']:+.0f}% | {fmt.format(lo)}–{fmt.format(hi)} |"
        )
    return "\n".join(lines)


def markdown_why(why: list[dict]) -> str:
    lines = [
        "| GC (JESD219) | steady: native OP fitted to 2.85 | → 6.25% WAF | steady, raw NAND: "
        "0% WAF | → 6.25% WAF | from erase, raw NAND: run fitted to 2.85 | → 0% WAF | "
        "→ 6.25% WAF |",
        "|---|---|---|---|---|---|---|---|",
    ]
    checks = [(w["gc"], truth, c) for w in why for truth, c in w.get("readings", {}).items()]
    for w in why:
        lines.append(
            f"| {w['gc']} | {100 * w['fitted_native_op']:.1f}% | {w['fitted_waf_6_25']:.2f} | "
            f"{w['raw_waf_0']:.2f} | {w['raw_waf_6_25']:.2f} | {w['erase_run_dw']:.1f} dw | "
            f"{w['erase_waf_0']:.2f} | {w['erase_waf_6_25']:.2f} |"
        )
    if checks:
        lines += [
            "",
            "| GC (JESD219) | truth | 0%: WAF (fitted) | 6.25%: WAF (held out) | greedy twin: "
            "effective spare | greedy twin: raw spare × k | k | all 8 readings | predicted "
            "(geometric mean of 8) | error | 80% interval | inside |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for gc, truth, c in checks:
            lo, hi = c["interval"]

            def err(v: float, c: dict = c) -> str:
                return f"{100 * (v / c['waf_6_25'] - 1):+.0f}%"

            lines.append(
                f"| {gc} | {truth} | {c['waf_0']:.2f} | {c['waf_6_25']:.2f} | "
                f"{c['effective_spare']:.2f} ({err(c['effective_spare'])}) | "
                f"{c['raw_spare']:.2f} ({err(c['raw_spare'])}) | "
                f"{c['spare_efficiency']:.2f} | {min(c['readings'].values()):.2f}–"
                f"{max(c['readings'].values()):.2f} | {c['predicted']:.2f} | "
                f"{err(c['predicted'])} | {lo:.2f}–{hi:.2f} | "
                f"{'yes' if lo <= c['waf_6_25'] <= hi else 'no'} |"
            )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds_arg, default=seeds_arg("1-12"))
    ap.add_argument("--physical", default="4GiB", help="NAND of each simulated drive")
    ap.add_argument("--record-model-error", action="store_true")
    ap.add_argument("--published-only", action="store_true")
    ap.add_argument(
        "--pny-why", action="store_true", help="also compare GC designs on the PNY pair"
    )
    ap.add_argument("--jobs", type=int, default=None, help="processes for the twins' levels")
    ap.add_argument(
        "--rows",
        type=Path,
        default=None,
        help="take the generated drives' rows from an earlier run's --partial file (and run "
        "only the published figures)",
    )
    ap.add_argument(
        "--partial", type=Path, default=None, help="append each drive's row to this JSON-lines file"
    )
    args = ap.parse_args()
    physical = parse_size_bytes(args.physical, "--physical")
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="overprov-calbench-") as tmp:
        if args.published_only:
            rows = []
            args.seeds = []
        elif args.rows is not None:  # an earlier run's drives (its --partial file)
            rows = [json.loads(line) for line in args.rows.read_text().splitlines() if line]
            args.seeds = [r["seed"] for r in rows]
        else:
            rows = generated(args.seeds, physical, Path(tmp), args.partial)
        pub = published(Path(tmp), args.jobs)
        why = pny_why(args.jobs) if args.pny_why else []
    logs = [math.log(1 + x["rel_error"]) for r in rows for x in r["rows"]]
    rel_sd = math.sqrt(statistics.fmean(v * v for v in logs)) if logs else math.nan
    real_sd = math.sqrt(statistics.fmean(math.log(1 + p["rel_error"]) ** 2 for p in pub))
    doc = {
        "date": datetime.now(UTC).date().isoformat(),
        "physical": args.physical,
        "seeds": args.seeds,
        "drives": rows,
        "published": pub,
        "pny_why": why,
        "model_form_rel_sd": rel_sd,
        "model_form_real_rel_sd": real_sd,
        "wall_s": time.monotonic() - t0,
    }
    out = ROOT / "target" / "bench" / "calibrate_bench.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(markdown(rows, pub))
    if why:
        print("\n" + markdown_why(why))
    print(f"\nmodel-form error (rms of log(predicted/true)): generated drives {rel_sd:.4f}, "
          f"published figures {real_sd:.4f}")  # fmt: skip
    if args.record_model_error and not rows:
        print("--record-model-error: needs the generated drives (not --published-only)")
    elif args.record_model_error:
        path = ROOT / "python" / "overprov" / "calibrate" / "model_form_error.json"
        kept = json.loads(path.read_text()) if path.is_file() else {}
        path.write_text(json.dumps({
            **{k: v for k, v in kept.items() if k == "real_distance"},  # corpus_bench.py's
            "rel_sd": rel_sd,
            "real_rel_sd": real_sd,
            "source": f"bench/calibrate_bench.py, {len(rows)} generated drives (seeds "
                      f"{args.seeds[0]}-{args.seeds[-1]}) at {args.physical}, {doc['date']}",
            "levels": "0-40% extra OP",
            "published": [f"{p['name']}: fitted {p['fitted']}, held out {p['held_out']}, "
                          f"error {100 * p['rel_error']:+.0f}%" for p in pub],
        }, indent=2) + "\n")  # fmt: skip
        print(f"recorded {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
