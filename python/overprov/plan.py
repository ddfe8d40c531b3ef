"""``overprov plan``: endurance per over-provisioning level, without running any test.

From a drive's advertised capacity, its NAND endurance (NAND type, rated P/E cycles or rated
TBW) and the host's daily writes, print for each extra-OP level the WAF of the analytic models
(``overprov.models``, uniform random writes), the resulting TBW, DWPD and years of service, the
reference OP for the use case (DOMAIN.md §4), and solve for the OP that meets a DWPD or
service-life target.

Definitions (DOMAIN.md §2): C advertised capacity; T = (1 + ρ₀)·C physical NAND, where ρ₀ is
the drive's native OP (7.37 % when NAND sold in GiB is sold as GB); extra OP X leaves X of C
unused, so the user capacity is U = (1 − X)·C and the total OP is **ρ = (T − U)/U**.
TBW ≈ T × P/E cycles / WAF; DWPD = TBW / (U × 365 × years).
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from overprov import capacity, models, units
from overprov.errors import ConfigError

# Reference starting points when no test can be run (DOMAIN.md §4), as extra OP fractions.
USE_CASES: dict[str, tuple[float, str]] = {
    "file-server": (0.10, "file server (tiered storage, RAID 10)"),
    "web-server": (0.20, "web server (tiered storage, RAID 10)"),
    "app-server": (0.20, "application server (tiered storage, RAID 10)"),
    "virtualization": (0.20, "virtualization server (tiered storage, RAID 10)"),
    "video-editing": (0.20, "video editing (read-write cache, RAID 5)"),
    "backup-server": (0.30, "backup server (write-only cache, RAID 10)"),
    "log-server": (0.30, "log server (write-only cache, RAID 10)"),
    "database": (0.30, "business-critical database (all-SSD, RAID 10)"),
}

DEFAULT_OP_LEVELS = (0.0, 0.10, 0.20, 0.30, 0.40, 0.50, 0.60)
MAX_EXTRA_OP = 0.90  # the solver's search range for --target-dwpd / --target-years


def parse_size_bytes(text: str, option: str) -> float:
    """'200GB', '1.5TB', '500GiB', '3PB' → bytes; a bare number is GB (10⁹ bytes)."""
    return units.parse_size_bytes(text, option, bare_unit="gb")


def parse_percent_list(text: str, option: str) -> tuple[float, ...]:
    """'0,10,20' (percent) → (0.0, 0.1, 0.2)."""
    out = []
    for pct in units.parse_number_list(text, option):
        if not 0.0 <= pct <= MAX_EXTRA_OP * 100 or math.isnan(pct):
            raise ConfigError(
                f"{option}: each extra OP must be between 0 and {MAX_EXTRA_OP * 100:g} %, "
                f"got {pct:g}"
            )
        out.append(pct / 100.0)
    return tuple(sorted(set(out)))


@dataclass(frozen=True)
class PlanRow:
    extra_op: float  # X, a fraction of the advertised capacity left unused
    user_bytes: float  # U = (1 − X)·C
    rho: float  # total OP (T − U)/U
    waf: float
    tbw_bytes: float  # host bytes the NAND budget allows at this WAF
    dwpd: float  # over the service life, relative to U
    years: float | None  # at the given daily writes
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Plan:
    capacity_bytes: float
    native_op: float
    physical_bytes: float
    policy: str
    pages_per_block: int
    model: str
    endurance_source: str
    nand_write_budget_bytes: float
    service_years: float
    daily_write_bytes: float | None
    rows: tuple[PlanRow, ...]
    use_case: str | None = None
    reference_extra_op: float | None = None
    target_dwpd: float | None = None
    target_dwpd_extra_op: float | None = None
    target_years: float | None = None
    target_years_extra_op: float | None = None
    notes: tuple[str, ...] = field(default=())


_MODEL_TEXT = {
    "greedy": "greedy GC, mean-field model (Bux & Iliadis 2010)",
    "fifo": "FIFO/LRU GC, Lambert-W model (Desnoyers 2012; Xiang & Kurkoski 2012)",
    "random": "random-victim GC, α/(α−1)",
}


def build_plan(
    *,
    capacity_bytes: float,
    native_op: float = capacity.HIDDEN_OP,
    nand: str | None = None,
    pe_cycles: float | None = None,
    rated_tbw_bytes: float | None = None,
    daily_write_bytes: float | None = None,
    service_years: float = 5.0,
    policy: str = "greedy",
    pages_per_block: int = 256,
    op_levels: tuple[float, ...] = DEFAULT_OP_LEVELS,
    use_case: str | None = None,
    target_dwpd: float | None = None,
    target_years: float | None = None,
) -> Plan:
    """Endurance per extra-OP level. Exactly one of ``nand``, ``pe_cycles``,
    ``rated_tbw_bytes`` gives the NAND budget (``nand="tlc"`` when none is given)."""
    if capacity_bytes <= 0:
        raise ConfigError(f"capacity: must be > 0 bytes, got {capacity_bytes}")
    if not 0.0 < native_op < 10.0:
        raise ConfigError(f"--native-op: must be between 0 and 1000 %, got {native_op * 100:g} %")
    if policy not in models.WAF_POLICIES:
        raise ConfigError(f"--policy: expected one of {', '.join(models.WAF_POLICIES)}")
    if pages_per_block < 1:
        raise ConfigError(f"--pages-per-block: must be >= 1, got {pages_per_block}")
    if service_years <= 0:
        raise ConfigError(f"--years: must be > 0, got {service_years}")
    if use_case is not None and use_case not in USE_CASES:
        raise ConfigError(f"--use-case: expected one of {', '.join(USE_CASES)}")
    given = [x is not None for x in (nand, pe_cycles, rated_tbw_bytes)]
    if sum(given) > 1:
        raise ConfigError("give only one of --nand, --pe-cycles and --rated-tbw")
    if target_years is not None and daily_write_bytes is None:
        raise ConfigError("--target-years needs --daily-writes (host bytes written per day)")
    for name, value in (("--target-dwpd", target_dwpd), ("--target-years", target_years)):
        if value is not None and not value > 0:
            raise ConfigError(f"{name}: must be > 0, got {value}")

    physical = capacity_bytes * (1.0 + native_op)

    def rho_of(x: float) -> float:
        return capacity.total_rho(x, native_op)

    def waf_of(x: float) -> float:
        return models.waf_for_policy(policy, rho_of(x), pages_per_block)

    notes: list[str] = []
    if rated_tbw_bytes is not None:
        waf_native = waf_of(0.0)
        budget = rated_tbw_bytes * waf_native
        source = (
            f"rated TBW {_human(rated_tbw_bytes)} × model WAF {waf_native:.3f} at the native OP "
            f"= {_human(budget)} of NAND writes"
        )
        notes.append(
            "rated TBW is taken as measured at the drive's native OP under the same uniform "
            "random writes; vendors rate with their own workloads (JESD219 for enterprise "
            "drives), so read the figures as relative to the rating"
        )
    else:
        if pe_cycles is None:
            nand = nand or "tlc"
            if nand not in models.PE_CYCLES:
                raise ConfigError(f"--nand: expected one of {', '.join(models.PE_CYCLES)}")
            pe_cycles, typical = models.PE_CYCLES[nand]
            source = (
                f"{nand.upper()}, assumed {pe_cycles:,} P/E cycles (typical {typical}; pass "
                f"--pe-cycles or --rated-tbw for your drive)"
            )
        else:
            if not pe_cycles > 0:
                raise ConfigError(f"--pe-cycles: must be > 0, got {pe_cycles}")
            source = f"{pe_cycles:,g} rated P/E cycles"
        budget = physical * pe_cycles
        source += f": T × P/E = {_human(budget)} of NAND writes"

    def row(x: float, marks: tuple[str, ...] = ()) -> PlanRow:
        waf = waf_of(x)
        user = (1.0 - x) * capacity_bytes
        tbw = budget / waf
        return PlanRow(
            extra_op=x,
            user_bytes=user,
            rho=rho_of(x),
            waf=waf,
            tbw_bytes=tbw,
            dwpd=models.dwpd(tbw, user, service_years),
            years=None
            if daily_write_bytes is None
            else models.service_years(tbw, daily_write_bytes),
            marks=marks,
        )

    marks: dict[float, list[str]] = {x: [] for x in op_levels}
    reference = None
    if use_case is not None:
        reference, label = USE_CASES[use_case]
        marks.setdefault(reference, []).append(f"reference for {label}")
    solved_dwpd = None
    if target_dwpd is not None:
        solved_dwpd = _solve(lambda x: row(x).dwpd, target_dwpd)
        if solved_dwpd is not None:
            marks.setdefault(solved_dwpd, []).append(f"smallest OP for {target_dwpd:g} DWPD")
    solved_years = None
    if target_years is not None:
        solved_years = _solve(lambda x: row(x).years or 0.0, target_years)
        if solved_years is not None:
            marks.setdefault(solved_years, []).append(f"smallest OP for {target_years:g} years")
    rows = tuple(row(x, tuple(marks[x])) for x in sorted(marks))
    if daily_write_bytes is not None:
        demand = daily_write_bytes / capacity_bytes
        notes.append(
            f"{_human(daily_write_bytes)}/day is {demand:.2f} drive writes per day of the "
            "advertised capacity"
        )
    return Plan(
        capacity_bytes=capacity_bytes,
        native_op=native_op,
        physical_bytes=physical,
        policy=policy,
        pages_per_block=pages_per_block,
        model=_MODEL_TEXT[policy],
        endurance_source=source,
        nand_write_budget_bytes=budget,
        service_years=service_years,
        daily_write_bytes=daily_write_bytes,
        rows=rows,
        use_case=use_case,
        reference_extra_op=reference,
        target_dwpd=target_dwpd,
        target_dwpd_extra_op=solved_dwpd,
        target_years=target_years,
        target_years_extra_op=solved_years,
        notes=tuple(notes),
    )


def _solve(metric: Any, target: float) -> float | None:
    """Smallest extra OP X in [0, MAX_EXTRA_OP], rounded up to 0.1 %, with metric(X) ≥ target.
    ``metric`` increases with X (more OP → lower WAF → more TBW, on less user capacity)."""
    if metric(0.0) >= target:
        return 0.0
    if metric(MAX_EXTRA_OP) < target:
        return None
    lo, hi = 0.0, MAX_EXTRA_OP
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if metric(mid) >= target:
            hi = mid
        else:
            lo = mid
    x = math.ceil(hi * 1000.0 - 1e-9) / 1000.0
    return min(x, MAX_EXTRA_OP)


def _human(n: float) -> str:
    for unit, size in (("PB", 10**15), ("TB", 10**12), ("GB", 10**9), ("MB", 10**6)):
        if abs(n) >= size:
            return f"{n / size:,.2f} {unit}"
    return f"{n:,.0f} B"


def format_plan(plan: Plan) -> str:
    c = plan.capacity_bytes
    lines = [
        f"Drive: advertised capacity C = {_human(c)}; physical NAND T = (1 + "
        f"{plan.native_op * 100:.2f} % native OP)·C = {_human(plan.physical_bytes)}",
        "OP definition: extra OP X leaves X of C unused, user capacity U = (1 − X)·C; "
        "total OP ρ = (T − U)/U",
        f"Endurance: {plan.endurance_source}",
        f"WAF model: {plan.model}"
        + (f", {plan.pages_per_block} pages per block" if plan.policy == "greedy" else "")
        + "; uniform random writes (the worst case: sequential writes have WAF ≈ 1)",
        f"TBW = NAND budget / WAF (host bytes); DWPD = TBW / (U × 365 × {plan.service_years:g} "
        "years)",
        "",
    ]
    header = f"{'extra OP':>8}  {'U':>11}  {'ρ':>8}  {'WAF':>6}  {'TBW':>11}  {'DWPD':>6}"
    if plan.daily_write_bytes is not None:
        header += f"  {'years':>7}"
    lines.append(header)
    for r in plan.rows:
        line = (
            f"{r.extra_op * 100:7.1f}%  {_human(r.user_bytes):>11}  {r.rho * 100:7.2f}%  "
            f"{r.waf:6.3f}  {_human(r.tbw_bytes):>11}  {r.dwpd:6.2f}"
        )
        if r.years is not None:
            line += f"  {r.years:7.1f}"
        if r.marks:
            line += "  ← " + "; ".join(r.marks)
        lines.append(line)
    lines.append("")
    if plan.daily_write_bytes is not None:
        lines.append(
            f"years = TBW / ({_human(plan.daily_write_bytes)}/day × 365) at your daily host writes"
        )
    if plan.use_case is not None and plan.reference_extra_op is not None:
        lines.append(
            f"Reference starting point for {USE_CASES[plan.use_case][1]}: "
            f"{plan.reference_extra_op * 100:g} % extra OP (DOMAIN.md §4; profile the drive to "
            "confirm)"
        )
    if plan.target_dwpd is not None:
        if plan.target_dwpd_extra_op is None:
            lines.append(
                f"Target {plan.target_dwpd:g} DWPD over {plan.service_years:g} years: not "
                f"reachable with up to {MAX_EXTRA_OP * 100:g} % extra OP on this NAND budget"
            )
        else:
            lines.append(
                f"Target {plan.target_dwpd:g} DWPD over {plan.service_years:g} years: "
                f"{plan.target_dwpd_extra_op * 100:.1f} % extra OP or more"
            )
    if plan.target_years is not None:
        if plan.target_years_extra_op is None:
            lines.append(
                f"Target {plan.target_years:g} years: not reachable with up to "
                f"{MAX_EXTRA_OP * 100:g} % extra OP at these daily writes"
            )
        else:
            lines.append(
                f"Target {plan.target_years:g} years: {plan.target_years_extra_op * 100:.1f} % "
                "extra OP or more"
            )
    lines.append(
        "OP helps random writes only: little or no gain for sequential writes, read caches, or "
        "when the network is the bottleneck."
    )
    for note in plan.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def plan_to_dict(plan: Plan) -> dict[str, Any]:
    out = asdict(plan)
    out["op_definition"] = "rho = (T - U) / U; U = (1 - extra_op) * C; T = (1 + native_op) * C"
    return out


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "plan",
        help="endurance (WAF, TBW, DWPD, years) per OP level from the analytic models",
        description=(
            "Plan over-provisioning without a test. For each extra-OP level X (X of the "
            "advertised capacity C left unused; user capacity U = (1−X)·C; total OP "
            "ρ = (T−U)/U with physical NAND T = (1+native OP)·C) print the WAF of the "
            "analytic model for uniform random writes, the host writes the NAND allows "
            "(TBW ≈ T × P/E cycles / WAF), DWPD = TBW / (U × 365 × years), and the years of "
            "service at your daily writes. --target-dwpd / --target-years find the smallest "
            "extra OP that meets the target."
        ),
        epilog=(
            "Sizes: GB/TB are decimal (10^9/10^12 bytes), GiB/TiB binary; a bare number is GB. "
            "Reference OP by use case (DOMAIN.md §4): file-server 10 %; web-server, "
            "app-server, virtualization, video-editing 20 %; backup-server, log-server, "
            "database 30 %. Example: overprov plan --capacity 960GB --nand tlc "
            "--daily-writes 500GB --use-case database --target-years 5"
        ),
    )
    p.add_argument(
        "--capacity",
        required=True,
        help="advertised capacity C, e.g. 960GB, 1.92TB or 894GiB",
    )
    p.add_argument(
        "--native-op",
        type=float,
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
    budget.add_argument("--pe-cycles", type=float, help="rated program/erase cycles of the NAND")
    budget.add_argument(
        "--rated-tbw",
        metavar="SIZE",
        help="the vendor's rated TBW (host writes, e.g. 1752TB), taken at the native OP",
    )
    p.add_argument(
        "--daily-writes",
        metavar="SIZE",
        help="host writes per day, e.g. 500GB (gives years of service)",
    )
    p.add_argument(
        "--use-case",
        choices=list(USE_CASES),
        help="print the reference extra OP for this use (DOMAIN.md §4)",
    )
    p.add_argument(
        "--years",
        type=float,
        default=5.0,
        help="service life in years for DWPD (default 5, a common warranty)",
    )
    p.add_argument(
        "--op",
        default=",".join(f"{x * 100:g}" for x in DEFAULT_OP_LEVELS),
        metavar="LIST",
        help="extra OP levels in percent of C (default 0,10,20,30,40,50,60)",
    )
    p.add_argument("--target-dwpd", type=float, help="solve for the OP that gives this DWPD")
    p.add_argument(
        "--target-years",
        type=float,
        help="solve for the OP that lasts this many years at --daily-writes",
    )
    p.add_argument(
        "--policy",
        choices=list(models.WAF_POLICIES),
        default="greedy",
        help="GC victim policy of the WAF model (default greedy, what most FTLs approximate)",
    )
    p.add_argument(
        "--pages-per-block",
        type=int,
        default=256,
        help="mapping units (4 KiB pages) per erase block for the greedy model (default 256; "
        "larger blocks raise greedy's WAF toward FIFO's)",
    )
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    capacity_bytes = float(capacity.parse_capacity_gb(args.capacity)) * capacity.GB
    if not 0.0 < args.native_op < 1000.0:
        raise ConfigError(f"--native-op: must be between 0 and 1000 %, got {args.native_op:g}")
    plan = build_plan(
        capacity_bytes=capacity_bytes,
        native_op=args.native_op / 100.0,
        nand=args.nand,
        pe_cycles=args.pe_cycles,
        rated_tbw_bytes=None
        if args.rated_tbw is None
        else parse_size_bytes(args.rated_tbw, "--rated-tbw"),
        daily_write_bytes=None
        if args.daily_writes is None
        else parse_size_bytes(args.daily_writes, "--daily-writes"),
        service_years=args.years,
        policy=args.policy,
        pages_per_block=args.pages_per_block,
        op_levels=parse_percent_list(args.op, "--op"),
        use_case=args.use_case,
        target_dwpd=args.target_dwpd,
        target_years=args.target_years,
    )
    if args.json:
        print(json.dumps(plan_to_dict(plan), indent=2, ensure_ascii=False))
    else:
        print(format_plan(plan))
    unmet = (plan.target_dwpd is not None and plan.target_dwpd_extra_op is None) or (
        plan.target_years is not None and plan.target_years_extra_op is None
    )
    return 1 if unmet else 0
