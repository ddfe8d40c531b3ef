"""``overprov plan``: endurance per over-provisioning level, without running any test — the
command line and its text (the figures come from ``overprov.endurance``).

The WAF is an analytic model's (uniform random writes) unless ``--simulation FILE`` (a file
written by ``overprov simulate --json FILE``) or ``--simulate`` (a quick simulation per OP level)
gives it measured; see ``overprov.simulated_waf``.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from typing import Any

from overprov import capacity, models, units
from overprov.endurance import (
    DEFAULT_OP_LEVELS,
    MAX_EXTRA_OP,
    USE_CASES,
    EndurancePlan,
    build_plan,
    bytes_text,
)
from overprov.errors import EXIT_NO_ANSWER, ConfigError
from overprov.options import HelpFormatter, add_json_option, add_retired_op, examples, text_stream
from overprov.outputs import check_json_output, document, percent_names, write_json
from overprov.plan import placement as plan_placement
from overprov.plan import trace as trace_plan
from overprov.simulated_waf import load_simulation


def op_levels(args: argparse.Namespace) -> tuple[float, ...]:
    """``--extra-op`` (percent, parsed by ``units.parse_percent_list``) as sorted fractions."""
    return tuple(sorted({pct / 100.0 for pct in args.extra_op}))


def format_plan(plan: EndurancePlan) -> str:
    c = plan.capacity_bytes
    lines = [
        f"Drive: advertised capacity C = {bytes_text(c)}; physical NAND T = (1 + "
        f"{plan.native_op * 100:.2f} % native OP)·C = {bytes_text(plan.physical_bytes)}",
        "OP definition: extra OP X leaves X of C unused, user capacity U = (1 − X)·C; "
        "total OP ρ = (T − U)/U",
        f"Endurance: {plan.endurance_source}",
    ]
    if plan.model is not None:
        lines.append(
            f"WAF model: {plan.model}"
            + (f", {plan.pages_per_block} pages per block" if plan.policy == "greedy" else "")
            + "; uniform random writes (the worst case: sequential writes have WAF ≈ 1)"
        )
    else:
        lines.append(
            f"WAF: {plan.waf_source}; OP levels between two runs are interpolated linearly in "
            "1/ρ, none outside the runs extrapolated"
        )
    lines += [
        f"TBW = NAND budget / WAF (host bytes); DWPD = TBW / (U × 365 × {plan.service_years:g} "
        "years)",
        "",
    ]
    header = f"{'extra OP':>8}  {'U':>11}  {'ρ':>8}  {'WAF':>6}  {'TBW':>11}  {'DWPD':>6}"
    if plan.daily_write_bytes is not None:
        header += f"  {'years':>7}"
    header += "  WAF source"
    lines.append(header)
    for r in plan.rows:
        line = (
            f"{r.extra_op * 100:7.1f}%  {bytes_text(r.user_bytes):>11}  {r.rho * 100:7.2f}%  "
            f"{r.waf:6.3f}  {bytes_text(r.tbw_bytes):>11}  {r.dwpd:6.2f}"
        )
        if r.years is not None:
            line += f"  {r.years:7.1f}"
        line += f"  {r.waf_source}"
        if r.marks:
            line += "  ← " + "; ".join(r.marks)
        lines.append(line)
    lines.append("")
    if plan.daily_write_bytes is not None:
        lines.append(
            f"years = TBW / ({bytes_text(plan.daily_write_bytes)}/day × 365) "
            "at your daily host writes"
        )
    if plan.use_case is not None and plan.reference_extra_op is not None:
        lines.append(
            f"Reference starting point for {USE_CASES[plan.use_case][1]}: "
            f"{plan.reference_extra_op * 100:g} % extra OP (docs/concepts.md; profile the drive to "
            "confirm)"
        )
    hi = plan.solve_max_extra_op

    def unreachable(given: str) -> str:
        if hi < MAX_EXTRA_OP:
            return (
                f"not reached within the simulated OP range (up to {hi * 100:.1f} % extra OP) "
                f"{given}; simulate higher OP levels to look further"
            )
        return f"not reachable with up to {MAX_EXTRA_OP * 100:g} % extra OP {given}"

    lo = plan.solve_min_extra_op

    def solved(x: float) -> str:
        if x == lo > 0.0:
            return (
                f"met at {x * 100:.1f} % extra OP, the lowest simulated level (lower not simulated)"
            )
        return f"{x * 100:.1f} % extra OP or more"

    if plan.target_dwpd is not None:
        if plan.target_dwpd_extra_op is None:
            lines.append(
                f"Target {plan.target_dwpd:g} DWPD over {plan.service_years:g} years: "
                + unreachable("on this NAND budget")
            )
        else:
            lines.append(
                f"Target {plan.target_dwpd:g} DWPD over {plan.service_years:g} years: "
                + solved(plan.target_dwpd_extra_op)
            )
    if plan.target_years is not None:
        if plan.target_years_extra_op is None:
            lines.append(
                f"Target {plan.target_years:g} years: " + unreachable("at these daily writes")
            )
        else:
            lines.append(
                f"Target {plan.target_years:g} years: " + solved(plan.target_years_extra_op)
            )
    lines.append(
        "OP helps random writes only: little or no gain for sequential writes, read caches, or "
        "when the network is the bottleneck."
    )
    for note in plan.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def plan_to_dict(plan: EndurancePlan) -> dict[str, Any]:
    """``plan --json``: extra and native OP in percent, ρ as a fraction, sizes in bytes."""
    out = percent_names(asdict(plan))
    out["op_definition"] = (
        "rho = (T - U) / U; U = (1 - extra_op_percent / 100) * C; "
        "T = (1 + native_op_percent / 100) * C"
    )
    return document("plan", out)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "plan",
        help="endurance (WAF, TBW, DWPD, years) per OP level from the analytic models or a "
        "simulation",
        description=(
            "Plan over-provisioning without a test. For each extra-OP level X (X of the "
            "advertised capacity C left unused; user capacity U = (1−X)·C; total OP "
            "ρ = (T−U)/U with physical NAND T = (1+native OP)·C) print the WAF of the "
            "analytic model for uniform random writes, the host writes the NAND allows "
            "(TBW ≈ T × P/E cycles / WAF), DWPD = TBW / (U × 365 × years), and the years of "
            "service at your daily writes. --target-dwpd / --target-years find the smallest "
            "extra OP that meets the target. --simulation FILE takes the WAF measured by "
            "`overprov simulate --json FILE` instead, --simulate runs a quick simulation per "
            "level; OP levels between simulated runs are interpolated linearly in 1/ρ, levels "
            "outside them refused."
        ),
        epilog=(
            "Sizes: GB/TB are decimal (10^9/10^12 bytes), GiB/TiB binary; a bare number is bytes. "
            "Reference OP by use case (docs/concepts.md): file-server 10 %; web-server, "
            "app-server, virtualization, video-editing 20 %; backup-server, log-server, "
            "database 30 %.\n\n"
        )
        + examples(
            "overprov plan --capacity 960GB --nand tlc --daily-writes 500GB --use-case database "
            "--target-years 5",
            "overprov plan --capacity 1.92TB --rated-tbw 3504TB --extra-op 0,20,40 --json -",
            "overprov plan --capacity 960GB --simulate --policy fifo",
            "overprov plan --trace nas.txt --preset consumer-tlc-sata --target-dwpd 0.3",
            "overprov plan --trace cache.csv --preset enterprise-tlc-nvme --placement fdp "
            "--fdp-ranges 0-5=0,5-100=1 --target-dwpd 1",
        ),
        formatter_class=HelpFormatter,
    )
    p.add_argument(
        "--capacity",
        metavar="SIZE",
        help="advertised capacity C, e.g. 960GB, 1.92TB or 894GiB (required, unless --trace "
        "with --preset gives the drive)",
    )
    p.add_argument(
        "--native-op",
        type=units.Arg(units.parse_percent, lo=0.0, hi=1000.0, lo_open=True, hi_open=True),
        default=capacity.HIDDEN_OP * 100,
        metavar="PERCENT",
        help="OP the drive has with no extra OP, ρ₀ = (T−C)/C in percent (default 7.37: NAND "
        "sold in GiB as GB; e.g. 960 GB on 1024 GiB of NAND is 14.53)",
    )
    budget = p.add_mutually_exclusive_group()
    budget.add_argument(
        "--nand",
        choices=sorted(models.PE_CYCLES),
        help="NAND type, for typical P/E cycles (SLC 100k, MLC 10k, TLC 1k, QLC 300; the low "
        "end of each range); default tlc",
    )
    budget.add_argument(
        "--pe-cycles",
        type=units.POSITIVE,
        metavar="N",
        help="rated program/erase cycles of the NAND (default: --nand's typical figure)",
    )
    budget.add_argument(
        "--rated-tbw",
        type=units.TBW,
        metavar="TB",
        help="the vendor's rated TBW, taken at the native OP: host writes in TB (a bare number "
        "is TB: 1752 = 1752TB; units accepted, e.g. 1.75PB)",
    )
    p.add_argument(
        "--daily-writes",
        type=units.Arg(units.parse_size, at_least=10**6),  # 500 alone is a forgotten unit
        metavar="SIZE",
        help="host writes per day, e.g. 500GB (gives years of service)",
    )
    p.add_argument(
        "--use-case",
        choices=list(USE_CASES),
        help="print the reference extra OP for this use (docs/concepts.md)",
    )
    p.add_argument(
        "--years",
        type=units.POSITIVE,
        default=5.0,
        metavar="YEARS",
        help="service life in years for DWPD (default 5, a common warranty)",
    )
    p.add_argument(
        "--extra-op",
        type=units.Arg(units.parse_percent_list, hi=MAX_EXTRA_OP * 100, hi_open=False),
        default=",".join(f"{x * 100:g}" for x in DEFAULT_OP_LEVELS),
        metavar="LIST",
        help="extra OP levels in percent of C, 20 or 20%% (default 0,10,20,30,40,50,60)",
    )
    add_retired_op(p)
    p.add_argument(
        "--target-dwpd",
        type=units.POSITIVE,
        metavar="DWPD",
        help="solve for the OP that gives this DWPD (drive writes per day over --years)",
    )
    p.add_argument(
        "--target-years",
        type=units.POSITIVE,
        metavar="YEARS",
        help="solve for the OP that lasts this many years at --daily-writes",
    )
    p.add_argument(
        "--policy",
        choices=list(models.WAF_POLICIES),
        help="GC victim policy of the WAF model or --simulate (default greedy, what most FTLs "
        "approximate)",
    )
    p.add_argument(
        "--pages-per-block",
        type=units.COUNT,
        metavar="N",
        help="mapping units (4 KiB pages) per erase block for the greedy model and --simulate "
        "(default 256; larger blocks raise greedy's WAF toward FIFO's)",
    )
    sim = p.add_mutually_exclusive_group()
    sim.add_argument(
        "--simulation",
        metavar="FILE.json",
        help="take the WAF measured in each run of this file, written by `overprov simulate "
        "--json FILE` (runs differing only in OP; policy and pages per block come from it)",
    )
    sim.add_argument(
        "--simulate",
        action="store_true",
        help="run a quick simulation per OP level instead of the model: 2^18 user pages (2048 "
        "blocks when blocks are larger; at most 2^21 pages), --policy and --pages-per-block, "
        "uniform random 4 KiB writes, warm-up 2 + ρ and 2 measured drive writes (well under "
        "a second per level)",
    )
    p.add_argument(
        "--jobs",
        type=units.COUNT,
        metavar="N",
        help="--simulate: run up to N levels at once, each on its own thread (default: the cores "
        "this process may use); the same WAFs as one at a time",
    )
    add_json_option(p, "the plan")
    plan_placement.add_options(p)
    trace_plan.add_options(p)
    p.set_defaults(func=run)


def run_trace(args: argparse.Namespace) -> int:
    """``plan --trace FILE``: the plan for a real workload on a drive (``overprov.plan.trace``);
    with ``--placement fdp|namespaces`` once without placement and once with it."""
    placement = plan_placement.trace_placement(args)
    tps = [trace_plan.trace_plan(args, op_levels(args))]
    if placement is not None:
        tps.append(trace_plan.trace_plan(args, op_levels(args), placement))
    texts = {
        id(tp.plan): trace_plan.format_levels(tp)
        + plan_placement.format_handles(tp.levels, tp.rows)
        + "\n"
        + format_plan(tp.plan)
        for tp in tps
    }
    if placement is None:
        print(texts[id(tps[0].plan)], file=text_stream(args))
    else:
        comparison = plan_placement.format_comparison(
            tps[0].plan, tps[1].plan, lambda p: texts[id(p)], args.placement
        )
        print(comparison, file=text_stream(args))
    if args.json:
        doc = {**plan_to_dict(tps[-1].plan), "trace": trace_plan.trace_section(tps[-1])}
        if placement is not None:
            without = {k: v for k, v in plan_to_dict(tps[0].plan).items() if k != "schema"}
            doc["placement"] = {
                "mode": args.placement,
                **placement,
                "without": {**without, "trace": trace_plan.trace_section(tps[0])},
                **plan_placement.give_back(tps[0].plan, tps[1].plan),
            }
        write_json(doc, args.json)
    return EXIT_NO_ANSWER if trace_plan.unmet(tps[-1]) else 0


def run(args: argparse.Namespace) -> int:
    check_json_output(args.json)
    if args.trace is not None:
        return run_trace(args)
    trace_plan.refuse_without_trace(args)
    if args.capacity is None:
        raise ConfigError("--capacity: required (the advertised capacity, e.g. 960GB)")
    capacity_bytes = float(
        capacity.parse_capacity_gb(args.capacity, "--capacity", bare_unit="b") * capacity.GB
    )
    if args.jobs is not None and not args.simulate:
        raise ConfigError("--jobs: only runs with --simulate (the quick simulation per level)")
    simulation = None
    if args.simulation is not None:
        simulation = load_simulation(args.simulation)
        given = {"--policy": args.policy, "--pages-per-block": args.pages_per_block}
        had = {"--policy": simulation.policy, "--pages-per-block": simulation.pages_per_block}
        for option, value in given.items():
            if value is not None and value != had[option]:
                raise ConfigError(
                    f"{option} {value}: {args.simulation} was simulated with {had[option]}; "
                    f"leave {option} out (it comes from the file) or simulate {value}"
                )
    extras = plan_placement.placement_extras(args)
    plans = [
        build_plan(**plan_args(args, capacity_bytes, simulation), simulate_extra=extra)
        for extra in extras or [None]
    ]
    plan = plans[-1]
    if len(plans) == 2:
        print(plan_placement.format_comparison(*plans, format_plan), file=text_stream(args))
    else:
        print(format_plan(plan), file=text_stream(args))
    if args.json:
        doc = plan_to_dict(plan)
        if len(plans) == 2:
            without = {k: v for k, v in plan_to_dict(plans[0]).items() if k != "schema"}
            doc["placement"] = {
                "mode": "fdp",
                "without": without,
                **plan_placement.give_back(*plans),
            }
        write_json(doc, args.json)
    unmet = (plan.target_dwpd is not None and plan.target_dwpd_extra_op is None) or (
        plan.target_years is not None and plan.target_years_extra_op is None
    )
    # a target that no OP level meets: the plan is printed, the answer was not reached
    return EXIT_NO_ANSWER if unmet else 0


def plan_args(args: argparse.Namespace, capacity_bytes: float, simulation: Any) -> dict[str, Any]:
    """``build_plan``'s arguments from the command line."""
    return dict(
        capacity_bytes=capacity_bytes,
        native_op=args.native_op / 100.0,
        nand=args.nand,
        pe_cycles=args.pe_cycles,
        rated_tbw_bytes=args.rated_tbw,
        daily_write_bytes=args.daily_writes,
        service_years=args.years,
        policy=args.policy or "greedy",
        pages_per_block=256 if args.pages_per_block is None else args.pages_per_block,
        op_levels=op_levels(args),
        use_case=args.use_case,
        target_dwpd=args.target_dwpd,
        target_years=args.target_years,
        simulation=simulation,
        simulate=args.simulate,
        simulate_jobs=args.jobs,
    )
