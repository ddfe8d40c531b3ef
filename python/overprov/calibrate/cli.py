"""``overprov calibrate``: a digital twin of a drive from a short measurement, and its OP curve.

Three sources of points, one fit: a target measured now (``TARGET``), an earlier profile or
calibrate folder (``--from DIR``), or figures the user has (``--points``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from overprov import dry_run, presets
from overprov.calibrate import fit as fitmod
from overprov.calibrate import plan as planmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import spare_readings
from overprov.calibrate.chart import write_chart
from overprov.calibrate.measure import Measurement, measure, write_counters
from overprov.errors import ConfigError
from overprov.options import add_json_option, add_retired_op
from overprov.outputs import (
    check_json_output,
    check_output_dir,
    command_text,
    hold_out_dir,
    write_stdout,
)
from overprov.profile.results import upgrade
from overprov.units import parse_number_list, parse_size_bytes
from overprov.workload_options import add_pattern_options, pattern_overrides_from_args

DEFAULT_LEVELS = [float(x) for x in range(0, 65, 5)]
#: Relative spread assumed for a figure the user types in (a published steady figure is
#: rarely repeatable to better than a few percent between runs and firmware versions).
USER_POINT_REL_SD = 0.05


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "calibrate",
        help="fit a digital twin of a drive from a short test and predict its whole OP curve",
        description=(
            "Calibrate: run a short measurement plan on TARGET (FOB, a sequential fill, random "
            "writes at a few OP levels until they settle, with SMART NAND/host write deltas "
            "where the drive reports them), fit a physical model (native OP, NAND time per "
            "page, controller time per command), write the fitted drive as twin.toml in DIR and "
            "predict steady IOPS, WAF and p99 latency by simulating the twin at every "
            "--extra-op level, with an 80% interval. Or fit from --from DIR or --points. "
            "MEASURING A TARGET DESTROYS ALL DATA ON IT AND WEARS THE DRIVE."
        ),
    )
    p.add_argument(
        "target",
        nargs="?",
        metavar="TARGET",
        help="block device or file (several comma-separated: one RAID group), or "
        "sim:NAME|PATH.toml[@SCALE] for a simulated drive (presets: "
        + ", ".join(presets.names())
        + ")",
    )
    p.add_argument(
        "--budget",
        default=None,
        metavar="AMOUNT",
        help="cap on the measurement: drive writes (e.g. 4dw) or device I/O time (e.g. 2h); "
        f"default {planmod.DEFAULT_BUDGET_DRIVE_WRITES:g}dw",
    )
    p.add_argument(
        "--extra-op",
        default=None,
        metavar="LIST",
        help="extra OP levels to predict, in %% (default 0,5,10,...,60)",
    )
    p.add_argument(
        "--target-iops",
        type=float,
        default=None,
        metavar="N",
        help="recommend the smallest extra OP predicted to sustain N IOPS",
    )
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help="output folder")
    add_json_option(p, "the prediction")
    add_retired_op(p)
    p.add_argument(
        "--from",
        dest="from_dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="fit from an existing (even partial) profile or calibrate folder",
    )
    p.add_argument(
        "--points",
        default=None,
        metavar="LIST",
        help='steady IOPS you have, "OP:IOPS,..." e.g. "0:11000,20:25000"',
    )
    p.add_argument(
        "--waf-points",
        default=None,
        metavar="LIST",
        help='steady WAF you have, "OP:WAF,..." e.g. "0:2.85,7:1.87"',
    )
    p.add_argument(
        "--fob-iops",
        type=float,
        default=None,
        metavar="N",
        help="fresh-out-of-box IOPS you have (a data sheet's random-write figure): with "
        "--points it is fitted as the time per write before any garbage collection (WAF 1); "
        "otherwise recorded with the fit (docs/calibrate.md)",
    )
    wl = p.add_argument_group(
        "workload of --points/--waf-points figures (as simulate's; default uniform random)",
        "under a skewed workload the figures are read with each of four GC designs (greedy or "
        "cost-benefit, one write frontier or one per zone: a curve and a twin each) and the "
        "prediction is their geometric mean (docs/calibrate.md)",
    )
    add_pattern_options(wl)
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="simulate up to N of the twin's levels (and a workload's WAF curve) at once, each "
        "in its own process (default: the cores this process may use; --points/--waf-points "
        "fits); the results are those of a serial run",
    )
    p.add_argument(
        "--advertised",
        default=None,
        metavar="SIZE",
        help="the drive's user capacity (e.g. 512GB), with --physical",
    )
    p.add_argument(
        "--physical",
        default=None,
        metavar="SIZE",
        help="the drive's raw NAND (e.g. 512GiB): with figures, predict with two readings of "
        "it (its spare partly unused, or used k times as well as the twin's GC) and combine them; "
        "with a TARGET, fix the native OP to it",
    )
    p.add_argument("--allow-hdd", action="store_true", help="accept a rotational device")
    dry_run.add_option(p, "measurement")
    p.add_argument(
        "--i-understand-this-destroys-data",
        dest="confirm",
        action="append",
        default=[],
        metavar="DEVICE",
        help="confirm that DEVICE may be overwritten: required for every block device, "
        "blank or not (as for profile)",
    )
    p.set_defaults(func=run)


# ------------------------------------------------------------------------------- sources


def parse_pairs(text: str, option: str) -> list[tuple[float, float]]:
    """ "0:11000,20:25000" → [(0, 11000), (20, 25000)]."""
    out = []
    for part in text.split(","):
        if not part.strip():
            continue
        op, sep, value = part.partition(":")
        if not sep:
            raise ConfigError(f"{option}: {part.strip()!r} is not OP:VALUE (e.g. 20:25000)")
        try:
            out.append((float(op.strip().rstrip("%")), float(value.strip().replace("_", ""))))
        except ValueError:
            raise ConfigError(f"{option}: {part.strip()!r} is not OP:VALUE with numbers") from None
    if not out:
        raise ConfigError(f"{option}: no points given")
    return out


def user_points(points: str | None, waf_points: str | None) -> list[fitmod.Point]:
    by: dict[float, dict[str, float]] = {}
    for op, v in parse_pairs(points, "--points") if points else []:
        by.setdefault(op, {})["iops"] = v
    for op, v in parse_pairs(waf_points, "--waf-points") if waf_points else []:
        by.setdefault(op, {})["waf"] = v
    return [
        fitmod.Point(op, d.get("iops"), USER_POINT_REL_SD, d.get("waf"), USER_POINT_REL_SD)
        for op, d in sorted(by.items())
    ]


def from_folder(folder: Path) -> tuple[list[fitmod.Point], float | None, Measurement | None]:
    """Points from a calibrate folder (measurement.json) or a profile folder (results.json;
    phases without a steady verdict count with their last window's mean, at a wider spread)."""
    meas = folder / "measurement.json"
    if meas.is_file():
        m = Measurement.from_dict(json.loads(meas.read_text()))
        return predmod.points_from(m), m.fob_iops, m
    res = folder / "results.json"
    if not res.is_file():
        raise ConfigError(f"--from {folder}: neither measurement.json nor results.json in it")
    try:
        doc = upgrade(json.loads(res.read_text()))
        points = []
        for ph in doc["phases"]:
            rounds = [r["iops"] for r in ph.get("rounds", []) if r.get("iops")]
            if ph.get("steady_iops"):
                value, sd = float(ph["steady_iops"]), 0.02
            elif len(rounds) >= 3:
                value, sd = sum(rounds[-3:]) / 3, 0.10  # not steady: a wider spread
            else:
                continue
            points.append(fitmod.Point(float(ph["extra_op_percent"]), value, sd))
        fob = None
        for r in doc.get("fob_rounds", []) or []:
            fob = r.get("iops")
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"--from {res}: not a profile's results ({exc})") from None
    if not points:
        raise ConfigError(f"--from {res}: no phase has enough rounds to use")
    return points, fob, None


def measure_target(args: argparse.Namespace, out: Path, levels: list[float]) -> Measurement:
    from overprov.profile.runner import stderr_progress
    from overprov.profile.target_kinds import make_target

    budget = planmod.parse_budget(args.budget)
    # the profiler's target: the same safety checks (blockdev) when it is opened
    target = make_target(
        args.target, out / "fio", confirm=list(args.confirm), allow_hdd=args.allow_hdd
    )
    target.open()
    try:
        plan = planmod.design(levels, budget, write_counters=write_counters(target) is not None)
        measured = ", ".join(f"{s.extra_op_percent:g}%" for s in plan.segments)
        stderr_progress(
            f"calibrate {args.target}: FOB, one sequential fill, random writes at {measured} "
            f"extra OP until settled; at most {plan.planned_drive_writes():.1f} drive writes "
            f"of {target.capacity_bytes:,} bytes (budget {budget.text()})"
        )
        if target.kind != "sim":
            stderr_progress(
                f"WARNING: calibrating destroys all data on {args.target}"
                + (" and wears the drive" if target.kind == "block" else "")
                + f": it writes up to {plan.planned_drive_writes():.1f} times its tested "
                "capacity (more on a small device: rounds last at least a second)."
            )
        m = measure(target, plan, stderr_progress)
    finally:
        target.close()
    (out / "measurement.json").write_text(json.dumps(m.to_dict(), indent=2) + "\n")
    return m


def _size(text: str | None, option: str) -> int | None:
    return int(parse_size_bytes(text, option, bare_unit="gb")) if text else None


# ------------------------------------------------------------------------------- run


def _summary(pred: dict[str, Any]) -> str:
    lines = [f"{'OP':>5} {'steady IOPS':>12} {'80% interval':>21} {'WAF':>6} {'p99 µs':>9}"]
    for r in pred["levels"]:
        iops = f"{r['steady_iops']:,.0f}" if r["steady_iops"] else "—"
        band = (
            f"{r['steady_iops_low']:,.0f}–{r['steady_iops_high']:,.0f}"
            if r["steady_iops_low"]
            else "—"
        )
        p99 = f"{r['p99_latency_us']:,.0f}" if r["p99_latency_us"] else "—"
        lines.append(
            f"{r['extra_op_percent']:>4g}% {iops:>12} {band:>21} {r['waf']:>6.2f} {p99:>9}"
        )
    f = pred["fit"]
    fit_text = f"fit: native OP {100 * f['native_op']:.1f}%"
    if f["t_page_us"] > 0:
        fit_text += (
            f", NAND time per 4 KiB written {f['t_page_us']:.2f} µs, controller time per "
            f"command {f['t_cmd_us']:.2f} µs"
        )
    if not pred.get("readings"):
        lines.append(fit_text)
    for name, r in (pred.get("readings") or {}).items():
        rf = r["fit"]
        label = (
            f"effective spare (native OP {100 * rf['native_op']:.1f}%)"
            if name.startswith("effective_spare")
            else f"raw spare ({100 * rf['native_op']:.1f}%) used k = "
            f"{rf['spare_efficiency']:.2f} times as well"
        ) + (f", {r['gc']}" if r.get("gc") else "")
        figures = ", ".join(
            f"{lv['extra_op_percent']:g}%: "
            + (f"{lv['steady_iops']:,.0f} IOPS " if lv["steady_iops"] else "")
            + f"WAF {lv['waf']:.2f}"
            for lv in r["levels"]
        )
        lines.append(f"  reading {label}: {figures}")
    lines.append(f"predicted from {pred['prediction_source']}")
    lines.append(f"workload: {pred['workload']}")
    fits = [r["fit"] for r in (pred.get("readings") or {}).values()] or [f]
    checks = [abs(c["rel_error"]) for fit in fits for c in fit["twin_check"]]
    if checks:
        twins = "each reading's twin" if len(fits) > 1 else "twin"
        lines.append(f"{twins} vs its measured points: worst {100 * max(checks):.1f}%")
    m = pred["measurement"]
    if m:
        lines.append(
            f"measured: {m['drive_writes']:.2f} drive writes, {m['io_seconds'] / 3600:.2f} h of "
            "I/O" + (" (full-size drive)" if m["scale_factor"] < 1 else "")
        )
    if pred["recommendation"]:
        lines.append(f"recommendation: {pred['recommendation']['text']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    check_json_output(args.json)
    check_output_dir(args.out, "--out")
    levels = (
        parse_number_list(args.extra_op, "--extra-op", "0,10,20")
        if args.extra_op
        else list(DEFAULT_LEVELS)
    )
    sources = [bool(args.target), args.from_dir is not None, bool(args.points or args.waf_points)]
    if sum(sources) != 1:
        raise ConfigError("give exactly one of TARGET, --from DIR, or --points/--waf-points")
    if args.dry_run:
        if not args.target:
            raise ConfigError("--dry-run: for a TARGET (--from and --points write to no drive)")
        options = {"confirm": list(args.confirm), "allow_hdd": args.allow_hdd}
        budget = planmod.parse_budget(args.budget)
        print(dry_run.calibrate_text(args.target, levels, budget, options))
        return 0
    workload = pattern_overrides_from_args(args)
    if workload not in ({}, {"pattern": "uniform"}) and not (args.points or args.waf_points):
        raise ConfigError(
            "--workload/--hot/--zones/--zipf-theta: for figures given with --points or "
            "--waf-points (calibrate measures a target with uniform random 4 KiB writes)"
        )
    advertised = _size(args.advertised, "--advertised")
    physical = _size(args.physical, "--physical")
    native_op = None
    if physical is not None:
        if advertised is None:
            raise ConfigError("--physical: give --advertised too")
        native_op = physical / advertised - 1.0
        if native_op < 0:
            raise ConfigError("--physical: smaller than --advertised")
    measurement = None
    fob = args.fob_iops
    if args.target:
        out = args.out or Path(f"overprov-calibrate-{Path(args.target.split(',')[0]).name}")
        hold_out_dir(out, command_text(args))
        measurement = measure_target(args, out, levels)
        points = predmod.points_from(measurement)
        fob = measurement.fob_iops
        advertised = advertised or int(measurement.capacity_bytes / measurement.scale_factor)
        source = f"calibrated on {args.target}"
    elif args.from_dir is not None:
        out = args.out or args.from_dir
        hold_out_dir(out, command_text(args))
        points, fob_from, measurement = from_folder(args.from_dir)
        fob = fob or fob_from
        if measurement is not None:
            advertised = advertised or int(measurement.capacity_bytes / measurement.scale_factor)
        source = f"fitted to {args.from_dir}"
    else:
        out = args.out or Path("overprov-calibrate-points")
        hold_out_dir(out, command_text(args))
        points = user_points(args.points, args.waf_points)
        if fob is not None:
            if fob <= 0:
                raise ConfigError("--fob-iops: must be positive")
            points.append(fitmod.Point(0.0, fob, USER_POINT_REL_SD, fresh=True))
        source = "fitted to user points " + ", ".join(
            f"{p.extra_op_percent:g}%:{p.iops or ''}/{p.waf or ''}" for p in points
        )
    common: dict[str, Any] = {
        "fob_iops": fob,
        "advertised_bytes": advertised,
        "target_iops": args.target_iops,
        "measurement": measurement,
        "source": source,
        "workload": workload or None,
        "jobs": args.jobs,
    }
    if args.points or args.waf_points:  # every reading the figures allow (often just one)
        pred = spare_readings.predict(points, levels, out, raw_native_op=native_op, **common)
    else:
        pred = predmod.predict(points, levels, out, native_op=native_op, **common)
    predmod.write_json(pred, out / "prediction.json")
    chart = write_chart(pred, out / "prediction.png")
    say = sys.stderr if args.json == "-" else sys.stdout
    print(_summary(pred), file=say)
    twins = [Path(r["twin"]).name for r in (pred.get("readings") or {}).values()]
    if not twins and (out / spare_readings.RAW_TWIN).is_file():  # the raw reading alone
        twins = [spare_readings.RAW_TWIN]
    wrote = [out / name for name in dict.fromkeys([spare_readings.TWIN, *twins])]
    wrote += [out / "prediction.json"] + ([chart] if chart else [])
    print("wrote " + ", ".join(str(w) for w in wrote), file=say)
    if args.json == "-":
        write_stdout(json.dumps(pred, indent=2) + "\n")
    elif args.json:
        predmod.write_json(pred, Path(args.json))
    return 0
