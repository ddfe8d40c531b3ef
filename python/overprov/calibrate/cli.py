"""``overprov calibrate``: a digital twin of a drive from a short measurement, and its OP curve.

Three sources of points, one fit: a target measured now (``TARGET``), an earlier profile or
calibrate folder (``--from DIR``), or figures the user has (``--points``).
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

from overprov import measurement_file, units
from overprov import results as resmod
from overprov.calibrate import (
    cliff_step,
    dry_run_text,
    metadata_factor,
    middle_level,
    plausibility,
    stopped_early,
    target_measurement,
    uncertainty,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import plan as planmod
from overprov.calibrate.chart import write_chart
from overprov.calibrate.summary import summary_text
from overprov.errors import ConfigError, InputError, NoAnswerError
from overprov.inputs import load_json
from overprov.measurement_file import MAX_IOPS, MAX_WAF, Measurement
from overprov.options import add_json_option, add_retired_op, add_target_options
from overprov.outputs import (
    check_json_output,
    check_no_other_run,
    check_output_dir,
    command_text,
    hold_out_dir,
)
from overprov.prediction_file import NAME as PREDICTION_NAME
from overprov.profile import dry_run
from overprov.workload_options import add_pattern_options, pattern_overrides_from_args

DEFAULT_LEVELS = [float(x) for x in range(0, 65, 5)]
#: Relative spread assumed for a figure the user types in (a published steady figure is
#: rarely repeatable to better than a few percent between runs and firmware versions).
USER_POINT_REL_SD = 0.05


#: What the fit does with ``--fob-waf``, by ``metadata_factor.ENABLED``.
_FOB_WAF_USE = {True: "with --waf-points or --points WAF figures at two levels under uniform "
                      "writes, read as the FTL's own writes, a constant factor on every WAF (over "
                      "1 it also reads a journal's paced collection); elsewhere noted, not used",
                False: "noted in the prediction, not used by the fit"}  # fmt: skip


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
    add_target_options(p, optional=True, resumed="calibration")
    p.add_argument(
        "--budget",
        default=None,
        metavar="AMOUNT",
        help="cap on what measuring writes: drive writes (e.g. 4dw) or device I/O time (e.g. "
        f"2h); default {planmod.DEFAULT_BUDGET_DRIVE_WRITES:g}dw where the drive reports its "
        f"NAND writes, else {planmod.RANDOM_PLAN_BUDGET_DRIVE_WRITES:g}dw (docs/calibrate.md)",
    )
    p.add_argument(
        "--cliff",
        action="store_true",
        help="measure the SLC cache's write cliff too (a step before the FOB: QD32 writes from "
        "purged until the cliff, at most "
        f"{cliff_step.MAX_DRIVE_WRITES:g} drive writes more than --budget) and predict when it "
        "comes and what it costs under --cliff-workload (docs/calibrate.md)",
    )
    p.add_argument(
        "--cliff-workload",
        default=None,
        metavar="qdN,readP",
        help="the workload --cliff predicts the cliff under: queue depth N, P%% random reads "
        f"(default {cliff_step.DEFAULT_WORKLOAD})",
    )
    p.add_argument(
        "--extra-op",
        type=units.EXTRA_OP_LIST,
        default=None,
        metavar="LIST",
        help="extra OP levels to predict, in %% (20 or 20%%; default 0,5,10,...,60); a "
        "measured target's twin is swept over them lowest first on one drive, so a level's "
        "figures can move slightly with the levels asked below it",
    )
    p.add_argument(
        "--target-iops",
        type=units.POSITIVE,
        default=None,
        metavar="N",
        help="recommend the smallest extra OP predicted to sustain N IOPS",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="output folder (measuring a TARGET: default overprov-calibrate-NAME; with --from "
        "or --points nothing is written without it, and it may not be the --from folder)",
    )
    p.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="DIR",
        help="continue the calibration stored in DIR (its measurement.json) after its last "
        "finished segment, on the same target (checked as profile --resume checks it)",
    )
    add_json_option(p, "the prediction")
    add_retired_op(p)
    p.add_argument(
        "--from",
        dest="from_dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="fit from an existing (even partial) profile or calibrate folder (read, never "
        "written: give --out to keep the result)",
    )
    p.add_argument(
        "--points",
        default=None,
        metavar="LIST",
        help='steady IOPS you have, "OP:IOPS,..." e.g. "0:11000,20:25000", one figure per '
        'level; a figure measured at another queue depth than 32 says so, e.g. "40:762@qd4"',
    )
    p.add_argument(
        "--waf-points",
        default=None,
        metavar="LIST",
        help='steady WAF you have, "OP:WAF,..." e.g. "0:2.85,7:1.87"',
    )
    p.add_argument(
        "--fob-iops",
        type=units.Arg(units.parse_number, lo=0.0, lo_open=True, hi=MAX_IOPS),
        default=None,
        metavar="N",
        help="fresh-out-of-box IOPS you have (a data sheet's random-write figure): with "
        "--points it is fitted as the time per write before any garbage collection (WAF 1); "
        "otherwise recorded with the fit (docs/calibrate.md)",
    )
    p.add_argument(  # metadata_factor.py
        "--fob-waf",
        type=units.Arg(units.parse_number, lo=1.0, hi=MAX_WAF),
        default=None,
        metavar="W",
        help="WAF you have from an empty drive, before any garbage collection (NAND ÷ host "
        f"writes, ≥ 1); {_FOB_WAF_USE[metadata_factor.ENABLED]} (docs/calibrate.md)",
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
        type=units.COUNT,
        default=None,
        metavar="N",
        help="simulate up to N of the twin's levels at once, one thread each (default: the "
        "cores this process may use); the results are those of a serial run",
    )
    p.add_argument(
        "--advertised",
        type=units.SIZE,
        default=None,
        metavar="SIZE",
        help="the drive's user capacity (e.g. 512GB; a bare number is bytes), with --physical",
    )
    p.add_argument(
        "--physical",
        type=units.SIZE,
        default=None,
        metavar="SIZE",
        help="the drive's raw NAND (e.g. 512GiB): with figures, predict with two readings of "
        "it (its spare partly unused, or used k times as well as the twin's GC) and combine them; "
        "with a TARGET, fix the native OP to it",
    )
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress of the twins' simulations on stderr (a bar on a terminal, a line "
        "every 10 s otherwise); measuring a target still logs each step",
    )
    p.add_argument(
        "--middle-level",
        choices=("on", "off"),
        default=None,
        help="measure a third level at 20%% extra OP where the first two cannot tell the curve "
        "between them (about 1.2-1.8 drive writes more; the random plan, on a drive that "
        f"reports NAND writes). Default: {'on' if middle_level.ON else 'off'}",
    )
    dry_run.add_option(p, "measurement")
    p.set_defaults(func=run)


# ------------------------------------------------------------------------------- sources


def parse_pairs(
    text: str, option: str, most: float, least: float = 0.0, *, queue_depth: bool = False
) -> list[tuple[float, float, int | None]]:
    """ "0:11000,20:25000,40:762@qd4" → [(0, 11000, None), (20, 25000, None), (40, 762, 4)]:
    extra OP in [0, 100) %, each value a finite number in (``least``, ``most``] (IOPS above 0;
    WAF from 1 with ``least`` 1), and with ``queue_depth`` an optional ``@qdN``: the queue depth
    the figure was measured at (a whole number ≥ 1; None: the workload's)."""
    out = []
    form = "OP:VALUE[@qdN] e.g. 40:762@qd4" if queue_depth else "OP:VALUE e.g. 20:25000"
    for part in text.split(","):
        if not part.strip():
            continue
        op, sep, value = part.partition(":")
        if not sep:
            raise ConfigError(f"{option}: {part.strip()!r} is not {form}")
        value, at, qd_text = value.partition("@")
        qd: int | None = None
        try:
            if at:
                if not queue_depth:
                    raise ConfigError(f"{option}: a queue depth (@qd) is for IOPS (--points)")
                if not qd_text.strip().lower().startswith("qd"):
                    raise ConfigError(f"{option}: {qd_text.strip()!r} is not a queue depth qdN")
                qd = int(units.parse_number(qd_text.strip()[2:], option, lo=1, integer=True))
            out.append(
                (
                    units.parse_percent(op, option, lo=0.0, hi=100.0, hi_open=True),
                    units.parse_number(value, option, lo=least, lo_open=least < 1, hi=most),
                    qd,
                )
            )
        except ConfigError as exc:
            raise ConfigError(f"{exc} (in {part.strip()!r}, {form})") from None
    if not out:
        raise ConfigError(f"{option}: no points given")
    return out


def user_points(
    points: str | None, waf_points: str | None, queue_depth: int = fitmod.WORKLOAD_QD
) -> list[fitmod.Point]:
    """The figures given; an IOPS figure at another queue depth than the workload's
    ``queue_depth`` is a point of its own (``Point.queue_depth``)."""
    by: dict[float, dict[str, float]] = {}
    other: dict[tuple[float, int], float] = {}
    seen: dict[tuple[str, float, int | None], float] = {}  # one figure per level (and QD)
    for op, v, qd in parse_pairs(points, "--points", MAX_IOPS, queue_depth=True) if points else []:
        at_other_qd = qd is not None and qd != queue_depth
        _once(seen, ("--points", op, qd if at_other_qd else None), v)
        if at_other_qd:
            other[op, qd] = v  # type: ignore[index]
        else:
            by.setdefault(op, {})["iops"] = v
    for op, v, _ in parse_pairs(waf_points, "--waf-points", MAX_WAF, 1.0) if waf_points else []:
        _once(seen, ("--waf-points", op, None), v)
        by.setdefault(op, {})["waf"] = v
    return [
        fitmod.Point(op, d.get("iops"), USER_POINT_REL_SD, d.get("waf"), USER_POINT_REL_SD)
        for op, d in sorted(by.items())
    ] + [
        fitmod.Point(op, v, USER_POINT_REL_SD, queue_depth=qd)
        for (op, qd), v in sorted(other.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    ]


def _once(seen: dict[tuple[str, float, int | None], float], key: tuple[str, float, int | None],
          value: float) -> None:  # fmt: skip
    """Refuse a second figure of one kind at one level (and queue depth): the later replaced
    the earlier in silence, and then "one point cannot fix…" was said of two figures."""
    option, op, qd = key
    if key in seen:
        at = f"{op:g}%" + (f" at QD{qd}" if qd else "")
        raise ConfigError(
            f"{option}: two figures at the same level {at} ({seen[key]:,g} and {value:,g}); "
            "give one figure per level"
        )
    seen[key] = value


def points_text(points: list[fitmod.Point]) -> str:
    """Typed figures as a reader reads them: "0%: 11,000 IOPS, WAF 2.85; FOB: 90,000 IOPS"."""
    said = []
    for p in points:
        iops = f"{p.iops or 0:,.0f} IOPS" + (f" at QD{p.queue_depth}" if p.queue_depth else "")
        figures = ([iops] if p.iops else []) + ([f"WAF {p.waf:g}"] if p.waf else [])
        said.append(("FOB" if p.fresh else f"{p.extra_op_percent:g}%") + ": " + ", ".join(figures))
    return "; ".join(said)


def from_folder(folder: Path) -> tuple[list[fitmod.Point], float | None, Measurement | None]:
    """Points from a calibrate folder (measurement.json) or a profile folder (results.json;
    phases without a steady verdict count with their last window's mean, at a wider spread).
    Both are read bounded and checked field by field: a damaged file is refused, naming it."""
    from overprov.calibrate import predict as predmod

    if not folder.is_dir():
        raise InputError(f"--from {folder}: not a folder")
    meas = folder / measurement_file.NAME
    if meas.exists():
        m = measurement_file.load(meas)
        if not m.levels:
            raise InputError(
                f"--from {meas}: no finished level to fit (status {m.status}); "
                f"continue the measurement with --resume {folder}"
            )
        return predmod.points_from(m), m.fob_iops, m
    res = folder / "results.json"
    if not res.exists():
        raise ConfigError(f"--from {folder}: neither measurement.json nor results.json in it")
    doc = resmod.upgrade(load_json(res, "profile results (results.json)"))
    try:
        resmod.validate(doc)
    except ConfigError as exc:
        raise InputError(f"--from {res}: {str(exc).removeprefix('results.json: ')}") from None
    points = []
    for i, ph in enumerate(doc["phases"]):
        rounds = [r["iops"] for r in ph.get("rounds", []) if r.get("iops")]
        if ph.get("steady_iops"):
            value, sd = float(ph["steady_iops"]), 0.02
        elif len(rounds) >= 3:
            value, sd = sum(rounds[-3:]) / 3, 0.10  # not steady: a wider spread
        else:
            continue
        x = float(ph["extra_op_percent"])
        if not (value > 0 and 0 <= x < 100):
            raise InputError(
                f"--from {res}: phases[{i}]: {value:g} IOPS at {x:g}% extra OP is not a "
                "measurement (IOPS > 0, extra OP in [0, 100) %)"
            )
        points.append(fitmod.Point(x, value, sd))
    fob = None
    for r in doc.get("fob_rounds", []) or []:
        fob = r.get("iops") or fob
    if not points:
        raise ConfigError(f"--from {res}: no phase has enough rounds to use")
    return points, fob, None


def _at_workload_qd(points: list[fitmod.Point], m: Measurement | None) -> list[fitmod.Point]:
    """``points`` at the workload's queue depth, as ``predict.PredictionInput`` keeps them."""
    return fitmod.split_queue_depths(points, m.qd if m is not None else fitmod.WORKLOAD_QD)[0]


def _size(value: int | None, option: str) -> int | None:
    """A drive's size (bytes, as ``units.SIZE`` read it); below 1 GB is refused (a forgotten
    unit: a bare size is bytes)."""
    if value is not None and value < 10**9:
        raise ConfigError(
            f"{option}: {value:,} bytes is below 1 GB (a bare size is bytes: give a unit, e.g. "
            "512GB or 476GiB)"
        )
    return value


def refuse_earlier_calibration(out: Path) -> None:
    """Refuse an output folder that holds a calibration (its measurement.json or
    prediction.json), whatever the source: a fit written there would replace it."""
    held = [name for name in (measurement_file.NAME, PREDICTION_NAME) if (out / name).exists()]
    if not held:
        return
    how = (
        f"continue it with --resume {out}, refit it with --from {out} --out OTHER, or choose "
        "another folder"
        if measurement_file.NAME in held
        else "choose another folder, or remove the files first"
    )
    raise ConfigError(f"--out: {out} already holds a calibration ({', '.join(held)}); {how}")


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


# ------------------------------------------------------------------------------- run


def run(args: argparse.Namespace) -> int:
    from overprov.calibrate import answer
    from overprov.calibrate import predict as predmod

    if args.dry_run:
        dry_run.refuse_json(args.json)
    check_json_output(args.json)
    check_output_dir(args.out, "--out")
    check_no_other_run(args.out, "calibrate")
    levels = args.extra_op or list(DEFAULT_LEVELS)
    stored = target_measurement.stored_measurement(args) if args.resume is not None else None
    cliff_step.from_args(args, stored)  # a bad --cliff or --cliff-workload, refused first
    measuring = bool(args.target) or stored is not None
    sources = [measuring, args.from_dir is not None, bool(args.points or args.waf_points)]
    if sum(sources) != 1:
        raise ConfigError(
            "give exactly one of TARGET (or --resume DIR), --from DIR, or --points/--waf-points"
        )
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
        if not 0 <= native_op <= plausibility.NATIVE_OP_MAX:
            raise ConfigError(
                f"--physical: {physical:,} bytes is not a drive's raw NAND for --advertised "
                f"{advertised:,} (native OP {100 * native_op:.0f}%; from 0 to "
                f"{100 * plausibility.NATIVE_OP_MAX:.0f}%)"
            )
    if args.dry_run:  # after the checks the run makes first: a plan it would accept
        if not args.target:
            raise ConfigError("--dry-run: for a TARGET (--from and --points write to no drive)")
        options = {"confirm": list(args.confirm), "allow_hdd": args.allow_hdd,
                   "middle": target_measurement.middle_asked(args)}  # fmt: skip
        budget = planmod.parse_budget(args.budget) if args.budget is not None else None
        print(dry_run_text.calibrate_text(args.target, levels, budget, options))
        if args.cliff:  # its drive writes come on top of the plan's (with_cliff_budget)
            timed = budget is not None and budget.drive_writes is None
            extra = "its time within the budget above" if timed else "on top of the estimate above"
            from overprov.calibrate.cliff_prediction import planned_step  # noqa: PLC0415

            print(f"{planned_step(args, None).text()} ({extra})")  # type: ignore[union-attr]
        return 0
    measurement = None
    fob = args.fob_iops
    out: Path | None
    left: tuple[float, ...] = ()  # typed middle IOPS left to the line (three_levels.py: on)
    left_said = ""  # and what the prediction's source says of them
    if measuring:
        if stored is not None:
            out = args.resume
            hold_out_dir(out, command_text(args))
            if stored.status == "complete":
                print(f"{out}: the measurement is complete; fitting it", file=sys.stderr)
                measurement = stored
            else:
                measurement = target_measurement.measure_target(args, out, levels, stored)
        else:
            out = args.out or Path(f"overprov-calibrate-{Path(args.target.split(',')[0]).name}")
            refuse_earlier_calibration(out)
            check_no_other_run(out, "calibrate")  # the default folder too
            hold_out_dir(out, command_text(args))
            measurement = target_measurement.measure_target(args, out, levels)
        if not measurement.levels:
            raise NoAnswerError(
                f"no level was measured ({measurement.stop_reason or measurement.status}); "
                f"what was measured is kept in {out / measurement_file.NAME}"
            )
        points = predmod.points_from(measurement)
        fob = measurement.fob_iops
        advertised = advertised or int(measurement.capacity_bytes / measurement.scale_factor)
        source = f"calibrated on {measurement.target}" + middle_level.source(measurement)
    elif args.from_dir is not None:
        out = args.out
        if out is not None and _same_folder(out, args.from_dir):
            raise ConfigError(
                f"--out: {out} is the --from folder; a refit is written elsewhere, so what was "
                "measured stays as it was"
            )
        if out is not None:
            refuse_earlier_calibration(out)
            hold_out_dir(out, command_text(args))
        points, fob_from, measurement = from_folder(args.from_dir)
        fob = fob or fob_from
        if measurement is not None:
            advertised = advertised or int(measurement.capacity_bytes / measurement.scale_factor)
        source = f"fitted to {args.from_dir}"
        if measurement is not None:
            source += middle_level.source(measurement)
    else:
        out = args.out
        if out is not None:
            refuse_earlier_calibration(out)
            hold_out_dir(out, command_text(args))
        points = user_points(args.points, args.waf_points)
        if fob is not None:
            points.append(fitmod.Point(0.0, fob, USER_POINT_REL_SD, fresh=True))
        source = "fitted to user points " + points_text(points)
        from overprov.calibrate import three_levels  # noqa: PLC0415 (imports the twin's code)

        # leave_to_line reads the WAF figures as typed, the line the answer draws them ÷ m: the
        # same, for m never applies to three levels or more (metadata_factor.unjudged)
        typed, (points, left) = points, three_levels.leave_to_line(points, fob)  # ON: on
        left_said = three_levels.left_source(typed, fob, left)
        source += left_said
    kept = f"; what was measured is kept in {out}" if measuring else ""
    why_not = stopped_early.refusal(measurement)  # one level that did not settle: no fit
    if why_not:
        raise NoAnswerError(why_not + kept)
    typed_figures = bool(args.points or args.waf_points)
    factor = metadata_factor.read(
        *metadata_factor.figure(args.fob_waf, measurement),
        metadata_factor.unjudged(points, typed_figures, workload),
    )
    as_given, points = points, metadata_factor.divide(points, factor)
    fig = predmod.PredictionInput(
        points, levels, typed=typed_figures, fob_iops=fob,
        raw_native_op=native_op, advertised_bytes=advertised, target_iops=args.target_iops,
        measurement=measurement, source=source, workload=workload or None, jobs=args.jobs,
        progress=not args.no_progress, metadata_factor=factor.m, left_to_line=left,
        # the fit's residual is the greedy (uniform) surrogate's: measured on uniform figures
        model_form=uncertainty.model_form_for(
            points, measurement is not None and measurement.kind == "sim")
        if workload in ({}, {"pattern": "uniform"}) else None,
    )  # fmt: skip
    points = fig.points  # the workload's queue depth; the others in fig.other_qd_points
    if fig.other_qd_points and workload not in ({}, {"pattern": "uniform"}):
        raise ConfigError(
            "--points: a figure at another queue depth (@qd) is read only under uniform random "
            "writes (the blocking-GC reading, docs/calibrate-model.md)"
        )
    # the user's figures, not ÷ m (the same at the workload's queue depth where m = 1)
    problems = plausibility.input_problems(_at_workload_qd(as_given, measurement))
    if problems and typed_figures:  # typed figures: a bad input (exit 2)
        given = "/".join(o for o, v in (("--points", args.points),
                                        ("--waf-points", args.waf_points)) if v)  # fmt: skip
        raise ConfigError(f"{given}: the figures cannot be fitted: " + "; ".join(problems))
    if problems:
        raise NoAnswerError("the figures cannot be fitted: " + "; ".join(problems) + kept)
    if native_op is None and workload in ({}, {"pattern": "uniform"}):  # the model, first
        from overprov.calibrate.reserve_reading import onset_from_empty  # imports the twin's code

        onset = onset_from_empty(measurement)
        why = plausibility.fit_misses_its_points(
            points, fob, onset, fig.model_form, typed=fig.typed
        )
        if why:
            raise NoAnswerError(
                f"the fit does not explain its inputs, so no twin is written: {why}{kept}"
            )
    try:
        pred = answer.predict(fig)
    except predmod.TwinConfigError as exc:  # measured: the figures stand, the twin cannot be run
        if not measuring:
            raise
        raise NoAnswerError(f"the figures cannot be fitted by a twin the simulator can run: "
                            f"{exc}{kept}") from None  # fmt: skip
    problems = plausibility.prediction_problems(pred)
    if problems:  # nothing is written: no twin stays behind as if it were good
        raise NoAnswerError(
            "the fit does not explain its inputs, so no twin is written: "
            + "; ".join(problems)
            + kept
        )
    metadata_factor.multiply(pred, factor)
    if factor.applies:  # answer.predict said nothing ÷ m: the user's figures against the × m
        pred.prediction_source += plausibility.fitted_waf_missed(as_given, pred)
    # figures left to the line say so themselves (bend_between.warning is then silent): in the
    # prediction's source, as in twin.toml's
    pred.prediction_source += left_said
    if measurement is not None and measurement.cliff is not None:
        from overprov.calibrate.cliff_attach import attach

        attach(pred, measurement.cliff)
    say = sys.stderr if args.json == "-" else sys.stdout
    print(summary_text(pred), file=say)
    warning = stopped_early.warning(measurement)  # also prediction.json's measurement.warning
    if warning:
        print(textwrap.fill(warning, 100, subsequent_indent="  "), file=say)
    if out is not None:
        wrote = pred.write(out)
        chart = write_chart(pred, out / "prediction.png")
        wrote += [chart] if chart else []
        print("wrote " + ", ".join(str(w) for w in wrote), file=say)
    else:
        print("nothing written: give --out DIR to keep twin.toml and prediction.json",
              file=sys.stderr)  # fmt: skip
    if args.json:
        pred.write_json(args.json, out)
    return 0
