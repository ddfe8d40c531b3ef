"""``overprov plan --trace FILE``: how much extra OP a real workload needs on a given drive.

The trace is replayed (``overprov.simulate.trace_options``) on the drive of ``--preset
NAME|FILE.toml`` (a preset, a drive file, or a calibrated twin's ``twin.toml``) at each extra-OP
level, one simulation per level run in parallel (``overprov.sweep``). The measured WAF per level
feeds the endurance arithmetic of ``overprov.endurance`` (TBW, DWPD, years; the smallest extra OP
meeting ``--target-dwpd`` / ``--target-years``, interpolated in 1/ρ between levels);
``--target-iops`` times the replay in a closed loop at ``--qd`` and takes the smallest simulated
level whose IOPS meet the target. Years of service use ``--daily-writes`` or, without it, the
trace's own write rate (bytes written over its time span).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from typing import Any

from overprov import capacity, engine, presets, sweep, units
from overprov.endurance import EndurancePlan, build_plan, bytes_text
from overprov.errors import ConfigError
from overprov.simulate.trace_options import add_trace_options, overrides
from overprov.simulate.trace_output import describe_trace, trace_row
from overprov.simulated_waf import SimPoint, SimulatedWaf
from overprov.workload_text import fold_note

__all__ = [
    "TracePlan",
    "add_options",
    "format_levels",
    "refuse_without_trace",
    "trace_plan",
    "trace_section",
    "unmet",
]

#: Unless --trace-warmup-passes / --trace-repeat say: warm-up passes enough to write this many
#: user capacities of the simulated drive (GC's steady state, as a synthetic run's warm-up), then
#: measured passes enough to write this many.
WARMUP_DRIVE_WRITES = 2.0
MEASURED_DRIVE_WRITES = 1.0
DEFAULT_QD = 32
SECONDS_PER_DAY = 86_400.0
#: A trace shorter than either of these gives a daily rate that is an extrapolation of a moment
#: (a 7-record, 0.8 ms trace made 12.52 TB/day): the plan says so (``daily_writes_warning``).
MIN_RATE_SPAN_S = 60.0
MIN_RATE_RECORDS = 1_000
#: A trace whose writes per pass (an upper bound on its written footprint) are under this share
#: of the simulated drive's user space leaves GC blocks with almost nothing valid: WAF about 1
#: at any OP, and the plan says so (``footprint_warning``).
MIN_FOOTPRINT_SHARE = 0.10


@dataclass(frozen=True)
class TracePlan:
    drive: str
    scale: float
    levels: tuple[float, ...]  # extra OP fractions, ascending
    rows: tuple[dict[str, Any], ...]  # trace_row of each level's simulation
    trace: str  # describe_trace of the first run
    plan: EndurancePlan
    daily_writes_source: str
    warmup_passes: int
    repeat: int
    fold_note: str | None
    target_iops: float | None = None
    queue_depth: int | None = None
    target_iops_extra_op: float | None = None
    daily_writes_warning: str | None = None  # the trace's rate is an extrapolation
    footprint_warning: str | None = None  # the trace touches a sliver of the drive


def add_options(p: argparse.ArgumentParser) -> None:
    """The options ``plan`` gains for a trace (the ``--trace*`` ones and the drive)."""
    add_trace_options(p)
    t = p.add_argument_group("plan for a trace (with --trace)")
    t.add_argument(
        "--preset",
        metavar="NAME|FILE.toml",
        help="the drive: a preset (" + ", ".join(presets.names()) + "), a drive file "
        "(docs/drives/) or a calibrated twin.toml; its capacity and native OP replace "
        "--capacity and --native-op",
    )
    t.add_argument(
        "--scale",
        metavar="S",
        help="simulate the drive shrunk (a factor or a NAND size; default about 32 GiB of NAND; "
        "1 = full size); the trace is folded onto the simulated user space",
    )
    t.add_argument(
        "--target-iops",
        type=units.POSITIVE,
        metavar="N",
        help="the smallest extra OP whose IOPS, replaying the trace in a closed loop at --qd, "
        "reach N",
    )
    t.add_argument(
        "--qd",
        type=units.COUNT,
        metavar="N",
        help=f"--target-iops: queue depth (default {DEFAULT_QD})",
    )


def _refuse(args: argparse.Namespace) -> None:
    if not args.preset:
        raise ConfigError("--trace: name the drive with --preset NAME|FILE.toml")
    for attr, option in (
        ("capacity", "--capacity"),
        ("simulation", "--simulation"),
        ("pages_per_block", "--pages-per-block"),
        ("use_case", "--use-case"),
    ):
        if getattr(args, attr, None) not in (None, False):
            raise ConfigError(f"{option}: not with --trace (the drive comes from --preset)")
    if getattr(args, "simulate", False):
        raise ConfigError("--simulate: not with --trace (the trace is simulated)")
    if args.qd is not None and args.target_iops is None:
        raise ConfigError("--qd: only with --target-iops")


def refuse_without_trace(args: argparse.Namespace) -> None:
    """The trace plan's options given to a plan without ``--trace``."""
    overrides(args)  # raises for a --trace-* option without --trace
    for attr, option in (
        ("preset", "--preset"),
        ("scale", "--scale"),
        ("target_iops", "--target-iops"),
        ("qd", "--qd"),
    ):
        if getattr(args, attr, None) is not None:
            if option == "--target-iops":  # "the OP for N IOPS": say which commands answer it
                raise ConfigError(
                    "--target-iops: only with --trace FILE (the IOPS of a traced workload); "
                    "for a drive's random-write IOPS measure it: overprov profile DEVICE "
                    "--target-iops N, or overprov calibrate DEVICE --target-iops N (a shorter "
                    "test), or simulate a preset: overprov profile sim:PRESET --target-iops N"
                )
            raise ConfigError(f"{option}: only with --trace FILE")


def _summary(args: argparse.Namespace) -> dict[str, Any]:
    check_not_empty(args.trace)
    return engine.trace_summary(args.trace, args.trace_format, args.skip_bad_lines)


def check_not_empty(path: str) -> None:
    """Refuse an empty trace file (or one of blank lines) as such, not as a format the core
    does not recognise; a file that cannot be read is left to the core to name."""
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
            empty = not head.strip() and (len(head) < 1 << 16 or not f.read(1 << 20).strip())
    except OSError:
        return
    if empty:
        raise ConfigError(f"--trace {path}: empty trace (no records): nothing to replay")


def footprint_warning(summary: dict[str, Any], user_bytes: int) -> str | None:
    """Why the plan's WAF is about 1 whatever the OP: the trace writes (per pass) less than
    ``MIN_FOOTPRINT_SHARE`` of the simulated user space; None otherwise."""
    written = int(summary["write"]["bytes"])
    if written <= 0 or user_bytes <= 0 or written >= MIN_FOOTPRINT_SHARE * user_bytes:
        return None
    return (
        f"the trace touches at most {units.human_bytes(written)} (the bytes it writes per pass) "
        f"of the {units.human_bytes(user_bytes)} of user space simulated "
        f"({written / user_bytes:.2%}, under {MIN_FOOTPRINT_SHARE:.0%}): GC finds blocks "
        "holding almost no valid data, so WAF is about 1 whatever the OP; the plan says little "
        "of a workload that fills the drive (a smaller --scale, or a longer trace)"
    )


def _passes(section: dict[str, Any], user_bytes: int, written_bytes: int) -> dict[str, Any]:
    """The trace section with warm-up and measured passes for GC's steady state, where the
    options left them out: each pass writes ``written_bytes`` on ``user_bytes`` of user space."""
    if written_bytes <= 0:
        return {"warmup_passes": 0, "repeat": 1, **section}
    need = {
        "warmup_passes": math.ceil(WARMUP_DRIVE_WRITES * user_bytes / written_bytes),
        "repeat": max(1, math.ceil(MEASURED_DRIVE_WRITES * user_bytes / written_bytes)),
    }
    return {**need, **section}


def _daily_writes(args: argparse.Namespace, s: dict[str, Any]) -> tuple[float | None, str]:
    """Host bytes a day: --daily-writes, or the trace's writes (summary ``s``) over its time
    span."""
    if args.daily_writes is not None:
        return args.daily_writes, "--daily-writes"
    if args.trace_device is not None:
        return None, "not known (give --daily-writes: the trace rate is of all devices)"
    span_s = (s["last_time_ns"] - s["first_time_ns"]) / 1e9
    if span_s <= 0 or s["write"]["bytes"] == 0:
        return None, "not known (the trace spans no time or writes nothing; give --daily-writes)"
    daily = s["write"]["bytes"] / span_s * SECONDS_PER_DAY
    return daily, (
        f"the trace's rate: {bytes_text(s['write']['bytes'])} written in {_seconds(span_s)} = "
        f"{bytes_text(daily)}/day"
    )


def _seconds(span_s: float) -> str:
    """'3,600.0 s', or three figures under a second ('0.000763 s', not '0.0 s')."""
    return f"{span_s:,.1f} s" if span_s >= 1 else f"{span_s:.3g} s"


def short_trace_warning(args: argparse.Namespace, s: dict[str, Any]) -> str | None:
    """Why the trace's own daily rate is an extrapolation (a span under MIN_RATE_SPAN_S or
    fewer than MIN_RATE_RECORDS records), or None; None too when the rate is not the trace's."""
    if args.daily_writes is not None or args.trace_device is not None:
        return None
    span_s = (s["last_time_ns"] - s["first_time_ns"]) / 1e9
    records = int(s["records"])
    if span_s <= 0 or s["write"]["bytes"] == 0:
        return None  # no rate at all: _daily_writes says so
    if span_s >= MIN_RATE_SPAN_S and records >= MIN_RATE_RECORDS:
        return None
    return (
        f"the trace spans {_seconds(span_s)} and {units.plural(records, 'record')} (under "
        f"{MIN_RATE_SPAN_S:g} s or {MIN_RATE_RECORDS:,} records): its daily write rate is an "
        "extrapolation of that moment to a day, and the years of service rest on it; give "
        "--daily-writes for a rate you know"
    )


def trace_plan(
    args: argparse.Namespace, levels: tuple[float, ...], placement: dict[str, Any] | None = None
) -> TracePlan:
    """Simulate the trace at each extra-OP level (fractions) and plan from the WAFs measured;
    ``placement``: the config's placement section (``overprov.plan.placement``)."""
    _refuse(args)
    base, factor = presets.preset_config(args.preset, args.scale)
    drive = presets.get(args.preset)
    advertised = float(drive["advertised_bytes"])
    native_op = presets.physical_bytes(drive) / advertised - 1.0
    summary = _summary(args)
    g = engine.validate(base)["geometry"]
    user_bytes = g["user_pages"] * g["page_size_bytes"]
    section = _passes(overrides(args), user_bytes, summary["write"]["bytes"])
    base = engine.merge(base, {"trace": section, "precondition": {"kind": "sequential"}})
    if args.policy:
        base = engine.merge(base, {"ftl": {"policy": args.policy}})
    if placement is not None:
        base = engine.merge(base, {"placement": placement})
    timed = args.target_iops is not None
    qd = DEFAULT_QD if args.qd is None else args.qd
    base["timing"] = {**base.get("timing", {}), "enabled": timed}
    if timed:
        base = engine.merge(base, {"timing": {"host": {"mode": "closed", "queue_depth": qd}}})
    configs = []
    for x in levels:
        cfg = engine.merge(base, {"geometry": {"extra_op_percent": x * 100.0}})
        try:
            engine.validate(cfg)
        except ConfigError as exc:
            raise ConfigError(f"--extra-op {x * 100:g}: {exc}") from None
        configs.append(cfg)
    reports = sweep.run_points(configs, jobs=args.jobs, label="plan --trace")
    if reports.interrupted:
        raise KeyboardInterrupt  # a plan needs every level
    # with placement, a level's row carries the report's per-handle figures (docs/fdp.md)
    rows = tuple(
        {**trace_row(r), **({"placement": r["placement"]} if r.get("placement") else {})}
        for r in reports
    )
    for x, row in zip(levels, rows, strict=True):
        if row["waf"] is None:
            raise ConfigError(
                f"--trace {args.trace}: the measured pass wrote nothing at extra OP "
                f"{x * 100:g} %: a trace without writes has no WAF to plan with"
            )
    policy = str(reports[0]["config"]["ftl"]["policy"])
    ppb = int(reports[0]["geometry"]["pages_per_block"])
    tag = f"simulated trace replay ({args.preset}" + (
        f" at {units.factor_text(factor)} scale)" if factor < 1 else ")"
    )
    points = tuple(
        SimPoint(
            rho=capacity.total_rho(x, native_op),
            waf=row["waf"],
            run=i,
            label=f"{tag}, run {i}",
            tolerance=1e-9,
        )
        for i, (x, row) in enumerate(zip(levels, rows, strict=True), start=1)
    )
    description = describe_trace(reports[0], fold_note=False)
    sim = SimulatedWaf(
        points=points,
        description=f"{tag}: {description}",
        policy=policy,
        pages_per_block=ppb,
        workload=f"trace {args.trace}",
        name="the trace replay",
    )
    daily, daily_source = _daily_writes(args, summary)
    plan = build_plan(
        capacity_bytes=advertised,
        native_op=native_op,
        nand=args.nand,
        pe_cycles=args.pe_cycles,
        rated_tbw_bytes=args.rated_tbw,
        daily_write_bytes=daily,
        service_years=args.years,
        policy=policy,
        pages_per_block=ppb,
        op_levels=levels,
        target_dwpd=args.target_dwpd,
        target_years=args.target_years,
        simulation=sim,
    )
    iops_x = None
    if timed:
        iops_x = next(
            (x for x, r in zip(levels, rows, strict=True) if (r["iops"] or 0) >= args.target_iops),
            None,
        )
    return TracePlan(
        drive=args.preset,
        scale=factor,
        levels=levels,
        rows=rows,
        trace=description,
        plan=plan,
        daily_writes_source=daily_source,
        fold_note=fold_note(summary["max_end_bytes"], user_bytes, section.get("fold", "modulo")),
        warmup_passes=int(section["warmup_passes"]),
        repeat=int(section["repeat"]),
        target_iops=args.target_iops,
        queue_depth=qd if timed else None,
        target_iops_extra_op=iops_x,
        daily_writes_warning=short_trace_warning(args, summary),
        footprint_warning=footprint_warning(summary, user_bytes),
    )


def _fmt(value: Any, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def format_levels(tp: TracePlan) -> str:
    """The workload, the drive and the simulated figures per level (the endurance table,
    ``plan.format_plan``, follows them)."""
    timed = tp.target_iops is not None
    lines = [
        f"Workload: {tp.trace}",
        f"Drive: {tp.drive}"
        + (
            f", simulated at {units.factor_text(tp.scale)} scale" if tp.scale < 1 else ", full size"
        ),
        f"Daily host writes: {tp.daily_writes_source}",
    ]
    if tp.daily_writes_warning:
        lines.append(f"warning: {tp.daily_writes_warning}")
    if tp.footprint_warning:
        lines.append(f"warning: {tp.footprint_warning}")
    lines += [
        f"Passes over the trace: {tp.warmup_passes} warm-up, {tp.repeat} measured (after a fill)",
    ]
    if tp.fold_note:
        lines.append(f"note: {tp.fold_note}")
    lines += [
        "",
        "Simulated per extra-OP level (WAF over the measured pass"
        + (f"; IOPS in a closed loop at QD{tp.queue_depth}" if timed else "")
        + "):",
        f"{'extra OP':>9} {'ρ':>8} {'WAF':>7} {'host written':>13} {'NAND written':>13}"
        + (f" {'IOPS':>10} {'p99 µs':>9}" if timed else ""),
    ]
    for x, r in zip(tp.levels, tp.rows, strict=True):
        line = (
            f"{x * 100:8.1f}% {r['rho']:>8.4f} {r['waf']:>7.3f} "
            f"{units.human_bytes(r['host_bytes']):>13} {units.human_bytes(r['nand_bytes']):>13}"
        )
        if timed:
            line += f" {_fmt(r['iops'], '>10,.0f')} {_fmt(r['latency_p99_us'], '>9,.0f')}"
            if x == tp.target_iops_extra_op:
                line += f"  ← smallest OP for {tp.target_iops:,.0f} IOPS"
        lines.append(line)
    if timed and tp.target_iops_extra_op is None:
        lines.append(
            f"Target {tp.target_iops:,.0f} IOPS: not reached at any simulated level (up to "
            f"{tp.levels[-1] * 100:g} % extra OP)"
        )
    elif timed:
        lines.append(
            f"Target {tp.target_iops:,.0f} IOPS: {tp.target_iops_extra_op * 100:g} % extra OP "
            "(the smallest simulated level that reaches it)"
        )
    return "\n".join(lines) + "\n"


def unmet(tp: TracePlan) -> bool:
    p = tp.plan
    return (
        (p.target_dwpd is not None and p.target_dwpd_extra_op is None)
        or (p.target_years is not None and p.target_years_extra_op is None)
        or (tp.target_iops is not None and tp.target_iops_extra_op is None)
    )


def trace_section(tp: TracePlan) -> dict[str, Any]:
    """The ``trace`` section of ``plan --trace --json`` (beside the plan's own fields)."""
    return {
        "workload": tp.trace,
        "drive": tp.drive,
        "scale": tp.scale,
        "daily_writes_source": tp.daily_writes_source,
        "daily_writes_warning": tp.daily_writes_warning,
        "footprint_warning": tp.footprint_warning,
        "fold_note": tp.fold_note,
        "warmup_passes": tp.warmup_passes,
        "repeat": tp.repeat,
        "target_iops": tp.target_iops,
        "queue_depth": tp.queue_depth,
        "target_iops_extra_op_percent": None
        if tp.target_iops_extra_op is None
        else tp.target_iops_extra_op * 100,
        "levels": [
            {**r, "extra_op_percent": x * 100} for x, r in zip(tp.levels, tp.rows, strict=True)
        ],
    }
