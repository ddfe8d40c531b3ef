"""``overprov simulate``: the command line of the Rust FTL simulator (``overprov.engine`` runs it).

The configuration is the Rust ``SimConfig`` as a nested dict (sections ``geometry``, ``ftl``,
``wear``, ``workload``, ``precondition``, ``run``); a TOML file gives it with the same section
and field names, and command-line flags override single fields. Every value is validated in
Rust before the run starts; errors name the field (``ftl.policy: unknown variant ...``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from overprov import (
    engine,
    placement_options,
    presets,
    qd_sweep,
    scaled_drive,
    sweep,
    units,
)
from overprov.config_file import core_message, flags_given
from overprov.engine import validate
from overprov.errors import ConfigError, RunError
from overprov.options import (
    HelpFormatter,
    add_json_option,
    add_retired_op,
    examples,
    say_core_defaults,
    text_stream,
)
from overprov.outputs import command_text, hold_out_dir, write_json
from overprov.simulate import estimate as sim_estimate
from overprov.simulate import geometry_errors, trace_options, trace_output
from overprov.simulate.host import add_host_options, format_host_table
from overprov.simulate.output import (
    add_steady_window,
    check_outputs,
    check_series,
    format_table,
    format_timed_table,
    write_series_csv,
)
from overprov.simulate.run_configs import (
    FLAG_FIELDS,
    config_from_args,
    demo_configs,
    sweep_configs,
)
from overprov.units import human_bytes, plural
from overprov.workload_options import add_pattern_options

__all__ = ["register", "run"]


# ---------------------------------------------------------------- command line


#: dest → option string of every simulate option (filled by :func:`register`).
_OPTION_OF: dict[str, str] = {}
#: Options that do not describe the simulated drive, its workload or its run: the ones
#: ``--demo`` (a fixed sweep) takes.
_OUTPUT_OPTIONS = frozenset(
    {"demo", "out", "json", "no_progress", "check", "force", "jobs", "dask_scheduler"}
)


def refuse_beside_demo(args: argparse.Namespace) -> None:
    """``--demo`` is a fixed sweep: a drive, workload or run option given with it is refused."""
    for dest, value in vars(args).items():
        option = _OPTION_OF.get(dest)
        if option is None or dest in _OUTPUT_OPTIONS:
            continue
        if value is not None and value is not False:
            raise ConfigError(
                f"{option}: --demo is a fixed sweep (16 GB drive, extra OP 0–60 %); "
                f"leave {option} out, or leave --demo out and give the drive yourself"
            )


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="simulate a drive: WAF per OP, GC policy and workload (no drive worn)",
        description=(
            "Simulate a page-mapped SSD FTL and report write amplification (WAF) after a "
            "warm-up, beside the published analytic model where one applies. Sizes: plain "
            "suffixes are decimal like drive labels (512G), KiB/MiB/GiB are binary, a bare number "
            "is bytes; block "
            "sizes (--bs, --page-size) are fio-style (4k = 4096). Give several OP values to "
            "sweep, e.g. --extra-op 0,10,20,30 or --rho 0.07,0.28. A default shown is the "
            "simulator's own: --demo, a --config file or a --preset may set the field."
        ),
        epilog=examples(
            "overprov simulate --demo",
            "overprov simulate --user-bytes 4GiB --rho 0.07,0.28 --drive-writes 2",
            "overprov simulate --advertised 16G --extra-op 0,10,20,30 --hot 80/20",
            "overprov simulate --preset consumer-tlc-sata --scale 1/64 --extra-op 0,20 --json - "
            "| jq .runs[0].timed",
            "overprov simulate --config drive.toml --out results/",
            "overprov simulate --trace nas.txt --preset consumer-tlc-sata --extra-op 0,20",
        ),
        formatter_class=HelpFormatter,
    )
    p.add_argument(
        "--demo",
        action="store_true",
        help="WAF against extra OP 0–60%% for a 16 GB drive with 16 GiB of NAND, "
        "greedy GC, uniform random 4 KiB writes",
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="TOML file with sections geometry, ftl, wear, workload, precondition, "
        "run (field names in docs/simulate.md); flags override it",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write everything to DIR: simulate.json, series.csv (timed runs) and the HTML "
        "report (report.html)",
    )
    add_json_option(p, "the full reports (intervals, wear, victim histogram)")
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress on stderr (a bar on a terminal, a line every 10 s otherwise)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="check the configuration, print each run's drive and the estimated time and "
        "memory; simulate nothing",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="run even when the estimated memory exceeds the memory available now",
    )
    p.add_argument(
        "--yes",
        action="store_true",
        help="run a sweep estimated longer than 2 hours (refused without it: a typo in "
        "--drive-writes or --trace-repeat should not start a week-long run)",
    )
    par = p.add_argument_group("parallel runs (docs/scale.md)")
    par.add_argument(
        "--jobs",
        type=units.COUNT,
        metavar="N",
        help="run up to N points of a sweep at once, each on its own thread (default: the "
        "cores this process may use); the results are those of a serial run",
    )
    par.add_argument(
        "--dask-scheduler",
        metavar="ADDR",
        help="send the points to the Dask distributed cluster at ADDR (e.g. tcp://host:8786; "
        "pip install 'overprov[dask]'); its workers need the same overprov",
    )
    d = p.add_argument_group("drive presets (data/presets.toml; illustrative) and drive files")
    d.add_argument(
        "--preset",
        metavar="NAME|FILE.toml",
        help="a drive with its NAND timings, buffer and SLC cache: a preset ("
        + ", ".join(presets.names())
        + ") or a drive file (docs/drives/); implies --timed",
    )
    d.add_argument(
        "--scale",
        metavar="S",
        help="shrink the drive: a factor (1/32, 0.1; 1 = full size) or a NAND size (64GiB). "
        "Ratios are kept, so WAF and IOPS keep their shape. Default: a preset runs at about "
        "32 GiB of NAND; a WAF run that would take over ~30 s at full size is scaled so too, "
        "with the measured error printed (docs/scale.md)",
    )
    tm = p.add_argument_group("simulated time (IOPS, latency, performance states)")
    tm.add_argument("--timed", action="store_true", help="simulate time with default timings")
    tm.add_argument(
        "--qd",
        type=units.COUNT_LIST,
        metavar="N[,N..]",
        help="closed-loop queue depth (default 32); a list sweeps it at each OP level: "
        "latency vs IOPS and the knee (docs/simulate.md)",
    )
    tm.add_argument(
        "--open-iops",
        type=units.POSITIVE,
        metavar="N",
        help="open loop: requests arrive at N per second (default: a closed loop, --qd)",
    )
    tm.add_argument(
        "--write-through",
        action="store_true",
        help="every write is FUA/sync: it completes on NAND unless the buffer is power-loss "
        "protected",
    )
    tm.add_argument(
        "--duration",
        type=units.DURATION,
        metavar="TIME",
        help="simulated time of the measured part (90s, 90m, 2h; a bare number is seconds)",
    )
    tm.add_argument(
        "--interval-s", type=units.DURATION, metavar="TIME", help="series interval (default 1 s)"
    )
    tm.add_argument("--series", metavar="FILE.csv", help="write the time series as CSV")
    add_host_options(p.add_argument_group("host: jobs and arrays of drives (imply --timed)"))
    g = p.add_argument_group("drive geometry and capacity (default: 4 GiB user, ρ = 0.28)")
    g.add_argument(
        "--page-size",
        type=units.BLOCK_SIZE,
        metavar="SIZE",
        help="flash page / mapping unit (e.g. 4k)",
    )
    g.add_argument(
        "--pages-per-block", type=units.COUNT, metavar="N", help="pages per erase block (b)"
    )
    g.add_argument("--physical-blocks", type=units.COUNT, metavar="N", help="physical erase blocks")
    g.add_argument(
        "--physical-bytes", type=units.SIZE, metavar="SIZE", help="physical NAND size (e.g. 256GiB)"
    )
    g.add_argument(
        "--user-pages", type=units.COUNT, metavar="N", help="user capacity in pages (LBAs)"
    )
    g.add_argument(
        "--user-bytes", type=units.SIZE, metavar="SIZE", help="user capacity (e.g. 240G)"
    )
    g.add_argument(
        "--rho",
        type=units.RHO_LIST,
        metavar="RHO[,RHO..]",
        help="total over-provisioning ρ = (T−U)/U as a fraction, e.g. 0.28 (28%% is refused: "
        "it is not 0.28); a list sweeps",
    )
    add_retired_op(p)
    g.add_argument(
        "--extra-op",
        type=units.EXTRA_OP_LIST,
        metavar="PCT[,PCT..]",
        help="extra OP in %% of the advertised capacity left unused (20 or 20%%) (the NAS "
        "vendor's 1–60%% setting); a list sweeps",
    )
    g.add_argument(
        "--advertised",
        type=units.SIZE,
        metavar="SIZE",
        help="advertised capacity for --extra-op (default: physical size / 1.0737, "
        "NAND in GiB sold in GB)",
    )
    f = p.add_argument_group("FTL")
    f.add_argument("--policy", choices=engine.choices("ftl.policy"), help="GC victim policy")
    f.add_argument("--d", type=units.COUNT, metavar="D", help="sample size for d-choices")
    f.add_argument(
        "--gc-free-blocks",
        type=units.COUNT_OR_ZERO,
        metavar="N",
        help="GC runs when this many free blocks or fewer remain",
    )
    f.add_argument("--gc-frontier", choices=engine.choices("ftl.gc_frontier"), help="relocated "
                   "pages to a GC frontier of their own, or mixed with host writes")  # fmt: skip
    f.add_argument("--gc-trigger", choices=engine.choices("ftl.gc_trigger"), help="GC when a host "
                   "block fills, victims back to back (batched), or one victim after each host "
                   "write under the trigger (per-write, as SSDsim)")  # fmt: skip
    f.add_argument(
        "--streams",
        choices=engine.choices("ftl.host_streams"),
        help="host write streams: one, or one per workload zone (hot/cold separation)",
    )
    f.add_argument(
        "--wear-dynamic",
        action="store_true",
        help="dynamic wear levelling: least-worn free block first",
    )
    f.add_argument(
        "--static-wl",
        type=units.COUNT,
        metavar="SPREAD",
        help="static wear levelling when max−min erase count exceeds SPREAD (default: 0, off)",
    )
    w = p.add_argument_group("workload")
    add_pattern_options(w)
    w.add_argument(
        "--random-map",
        action="store_true",
        help="random patterns visit each LBA once per pass (fio's random map)",
    )
    w.add_argument("--zones-scattered", action="store_true", help="the zones' pages (--zones, "
                   "--hot, jesd219) scattered over the span, not one LBA range each")  # fmt: skip
    w.add_argument(
        "--span",
        type=units.PERCENT_POSITIVE,
        metavar="PCT",
        help="only the first PCT%% of the user LBAs are accessed",
    )
    w.add_argument("--read-pct", type=units.PERCENT, metavar="PCT", help="share of reads")
    w.add_argument("--trim-pct", type=units.PERCENT, metavar="PCT", help="share of TRIM requests")
    w.add_argument(
        "--bs", type=units.BLOCK_SIZE, metavar="SIZE", help="request size, fio style (4k, 64k, 512)"
    )
    w.add_argument("--bssplit", metavar="MIX", help="request-size mix, fio syntax (4k/67:8k/33)")
    r = p.add_argument_group("run")
    r.add_argument(
        "--precondition",
        choices=engine.choices("precondition.kind"),
        help="fill the drive first: in order, in random order, or not at all",
    )
    r.add_argument(
        "--drive-writes",
        type=units.POSITIVE,
        metavar="N",
        help="measured host writes, in user capacities",
    )
    r.add_argument(
        "--warmup",
        type=units.NON_NEGATIVE,
        metavar="N",
        help="host writes before measurement, in user capacities",
    )
    r.add_argument(
        "--interval-pct",
        type=units.PERCENT_POSITIVE,
        metavar="PCT",
        help="record WAF every PCT%% of user capacity written",
    )
    r.add_argument(
        "--seed", type=units.COUNT_OR_ZERO, metavar="N", help="random seed (same seed, same result)"
    )
    placement_options.add_placement_options(p)
    trace_options.add_trace_options(p)
    pattern = ("workload", ("workload", "pattern"))  # --workload (workload_options)
    say_core_defaults(p, [*FLAG_FIELDS, pattern], engine.default_config())
    p.set_defaults(func=run)
    _OPTION_OF.update({a.dest: a.option_strings[-1] for a in p._actions if a.option_strings})


def check_resources(configs: list[dict[str, Any]], force: bool, yes: bool = False) -> None:
    """Before a long sweep: its estimated time and memory on stderr; a sweep whose memory
    would exceed what is available now is refused unless ``force``, one planned longer than
    ``sim_estimate.HUGE_RUN_S`` unless ``yes``."""
    pairs = [(c, validate(c)["geometry"]) for c in configs]
    if not any(sim_estimate.worth_estimating(c, g) for c, g in pairs):
        return  # fast: no calibration for a short run
    cheap = [sim_estimate.planned_host_pages(c, g) for c, g in pairs]
    est = sim_estimate.estimate(max(configs, key=lambda c: sim_estimate.physical_pages(c)))
    total_s = sum(n / est.pages_per_second for n in cheap)
    if total_s > sim_estimate.LONG_RUN_S:
        print(
            f"overprov simulate: {plural(len(configs), 'run')}, about {total_s / 60:.1f} min "
            "in all; "
            f"the largest {sim_estimate.describe(est)}. WAF against OP does not depend on "
            "the capacity (at a fixed block size): a smaller --advertised or --user-bytes "
            "gives the same curve sooner",
            file=sys.stderr,
        )
    if total_s > sim_estimate.HUGE_RUN_S and not yes:
        raise RunError(
            f"the sweep is planned at about {sim_estimate.duration_text(total_s)} "
            f"({sum(cheap):,} {est.unit} in all), more than "
            f"{sim_estimate.duration_text(sim_estimate.HUGE_RUN_S)}: check --drive-writes, "
            "--warmup and --trace-repeat, or pass --yes to run it"
        )
    available = sim_estimate.available_memory_bytes()
    if available is not None and est.peak_memory_bytes > available and not force:
        raise RunError(
            f"the largest run needs about {human_bytes(est.peak_memory_bytes)} of memory, "
            f"{human_bytes(available)} is available; simulate a smaller drive, or --force"
        )


def print_check(configs: list[dict[str, Any]]) -> None:
    """``--check``: each run's drive as the core resolves it, and the estimate."""
    for i, cfg in enumerate(configs, 1):
        g = validate(cfg)["geometry"]
        physical = g["blocks"] * g["pages_per_block"]
        est = sim_estimate.estimate(cfg)
        print(
            f"run {i}: user {human_bytes(g['user_pages'] * g['page_size_bytes'])}, physical "
            f"{human_bytes(physical * g['page_size_bytes'])} (ρ = "
            f"{physical / g['user_pages'] - 1:.4f}); {sim_estimate.describe(est)}"
        )


def run(args: argparse.Namespace) -> int:
    check_outputs(args)
    if args.demo:
        refuse_beside_demo(args)
    if args.dask_scheduler is not None:
        sweep.check_dask_scheduler(args.dask_scheduler)  # before any work, in 4 s at most
    try:  # every config is checked before the first run starts; an error names the flag
        configs = demo_configs() if args.demo else sweep_configs(config_from_args(args), args)
        configs = qd_sweep.expand(configs, args.qd)
        # a preset is scaled as it is read; a trace's drive only when asked (it changes the fold)
        if not args.preset and not (args.trace and args.scale is None):
            scaled = scaled_drive.scale_sweep(configs, args.scale)
            configs = scaled.configs
            if scaled.note:
                print(scaled.note, file=text_stream(args))
        for cfg in configs:
            validate(cfg)
        check_series(args.series, configs)
    except ConfigError as exc:
        said = geometry_errors.in_flag_words(str(exc), args, config_from_args, sweep_configs)
        raise ConfigError(core_message(said, args.config, flags_given(args, FLAG_FIELDS))) from None
    if args.check:
        print_check(configs)
        return 0
    check_resources(configs, force=args.force, yes=args.yes)
    if args.out:
        hold_out_dir(args.out, command_text(args))
    reports = sweep.run_points(
        configs, jobs=args.jobs, dask_scheduler=args.dask_scheduler, progress=not args.no_progress
    )
    if reports:
        write_outputs(args, list(reports), partial=reports.interrupted)
    if reports.failure is not None:  # the Dask cluster was lost: finished runs written above
        raise RunError(f"{reports.failure}; {plural(len(reports), 'finished run')} kept")
    if reports.interrupted:
        raise KeyboardInterrupt  # the CLI's exit 130, after the finished runs are written
    return 0


def write_outputs(args: argparse.Namespace, reports: list[dict[str, Any]], partial: bool) -> None:
    """The table, the series CSV, the JSON document and the report of the finished runs."""
    out = text_stream(args)
    if partial:
        print(f"interrupted: {plural(len(reports), 'finished run')} kept", file=sys.stderr)
    if any(r.get("trace") for r in reports):
        print(trace_output.format_trace_table(reports), file=out)
    else:
        print(format_table(reports), file=out)
    if any(r.get("timed") and not r.get("trace") for r in reports):
        print(format_timed_table(reports), file=out)
    for table in (
        placement_options.format_placement_table(reports),
        format_host_table(reports),
        qd_sweep.format_qd_table(reports),
    ):
        if table:
            print(table, file=out)
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    series = args.series or (
        out_dir / "series.csv" if out_dir and any(r.get("timed") for r in reports) else None
    )
    if series:
        n = write_series_csv(reports, Path(series))
        print(f"\ntime series ({n} intervals) written to {series}", file=out)
    add_steady_window(reports)
    doc = engine.simulate_document(
        reports,
        getattr(args, "command_line", None) or ["overprov", *sys.argv[1:]],
        {"name": args.preset, "scale": args.scale} if args.preset else None,
    )
    for path in [p for p in (args.json, out_dir and out_dir / "simulate.json") if p]:
        write_json(doc, path)
        if str(path) != "-":
            print(f"\nfull reports written to {path}", file=out)
    if out_dir is not None:
        from overprov.report import write_report

        html = write_report([out_dir / "simulate.json"], out_dir)
        print(f"report: {html}", file=out)
