"""Endurance per over-provisioning level: the library behind ``overprov plan``.

From a drive's advertised capacity, its NAND endurance (NAND type, rated P/E cycles or rated
TBW) and the host's daily writes: for each extra-OP level the WAF (an analytic model of
``overprov.models``, or measured by the simulator: ``overprov.simulated_waf``), the resulting
TBW, DWPD and years of service, the reference OP for a use case, and the OP that meets a DWPD
or service-life target.

Definitions (docs/concepts.md): C advertised capacity; T = (1 + ρ₀)·C physical NAND, where ρ₀
is the drive's native OP (7.37 % when NAND sold in GiB is sold as GB); extra OP X leaves X of C
unused, so the user capacity is U = (1 − X)·C and the total OP is **ρ = (T − U)/U**.
TBW ≈ T × P/E cycles / WAF; DWPD = TBW / (U × 365 × years).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from overprov import capacity, models, units
from overprov.errors import ConfigError
from overprov.simulated_waf import SimPoint, SimulatedWaf, quick_simulation

# Reference starting points when no test can be run (docs/concepts.md, "The profiling
# method"), as extra OP fractions.
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


def bytes_text(n: float) -> str:
    """Bytes as the plan prints them: 1.03 TB."""
    return units.human_bytes(n, decimals=2)


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
    waf_source: str = ""  # the model, or the simulated run(s) the WAF came from


@dataclass(frozen=True)
class EndurancePlan:
    capacity_bytes: float
    native_op: float
    physical_bytes: float
    policy: str
    pages_per_block: int
    model: str | None  # the analytic model, None when the WAF comes from simulation
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
    waf_source: str = ""  # where the WAF column comes from (model, file, quick simulation)
    workload: str = "uniform random writes"
    # the extra-OP range the solver may search: all of it for a model, the simulated range else
    solve_min_extra_op: float = 0.0
    solve_max_extra_op: float = MAX_EXTRA_OP


# ------------------------------------------------------------------------------- the plan


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
    simulation: SimulatedWaf | None = None,
    simulate: bool = False,
    simulate_jobs: int | None = None,
    simulate_extra: dict[str, Any] | None = None,
) -> EndurancePlan:
    """Endurance per extra-OP level. Exactly one of ``nand``, ``pe_cycles``,
    ``rated_tbw_bytes`` gives the NAND budget (``nand="tlc"`` when none is given).

    The WAF is the analytic model's for ``policy`` and ``pages_per_block``, or the measured WAF
    of ``simulation`` (from ``load_simulation``), or, with ``simulate=True``, of a quick
    simulation of each level (``quick_simulation``, on ``simulate_jobs`` processes; None: every
    core this process may use). With a simulation the solver searches only the simulated OP
    range."""
    if capacity_bytes <= 0:
        raise ConfigError(f"capacity: must be > 0 bytes, got {capacity_bytes}")
    if not 0.0 < native_op < 10.0:
        raise ConfigError(f"--native-op: must be between 0 and 1000 %, got {native_op * 100:g} %")
    if simulation is not None and simulate:
        raise ConfigError("give only one of --simulation FILE and --simulate")
    if simulation is not None:
        policy, pages_per_block = simulation.policy, simulation.pages_per_block
    elif policy not in models.WAF_POLICIES:
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

    reference = None
    if use_case is not None:
        reference = USE_CASES[use_case][0]
    if simulate:
        wanted = set(op_levels)
        if reference is not None:
            wanted.add(reference)
        if rated_tbw_bytes is not None:
            wanted.add(0.0)
        simulation = quick_simulation(
            [rho_of(x) for x in wanted],
            policy,
            pages_per_block,
            jobs=simulate_jobs,
            extra=simulate_extra,
        )

    solve_lo, solve_hi = 0.0, MAX_EXTRA_OP
    if simulation is None:
        model = models.WAF_MODELS[policy]
        model_text = model.description
        model_row = model.label(pages_per_block)
        waf_source = model_text
        workload = "uniform random writes"

        def waf_at(x: float, what: str) -> tuple[float, str]:
            return models.waf_for_policy(policy, rho_of(x), pages_per_block), model_row

    else:
        sim = simulation
        model_text = None
        waf_source = sim.description
        workload = sim.workload

        def waf_at(x: float, what: str) -> tuple[float, str]:
            return sim.at(rho_of(x), what)

        def extra_of(rho: float) -> float:  # the inverse of rho_of
            return 1.0 - (1.0 + native_op) / (1.0 + rho)

        def snap(point: SimPoint) -> float:
            # the run's own extra OP, to 0.1 %, when that level is the run (within a block).
            # Clamped first: the simulator rounds T and U to whole blocks and pages, so the run
            # at 0 % extra OP of a small drive can have a ρ a little below the native OP
            # (64 MB, 64 pages per block: ρ 7.315 % < 7.374 %), an extra OP just below 0.
            x = min(max(0.0, extra_of(point.rho)), MAX_EXTRA_OP)
            rounded = round(x, 3)
            return rounded if abs(rho_of(rounded) - point.rho) <= point.tolerance else x

        solve_lo, solve_hi = snap(sim.points[0]), snap(sim.points[-1])

    notes: list[str] = []
    if rated_tbw_bytes is not None:
        waf_native, native_source = waf_at(
            0.0, "--rated-tbw needs the WAF at the native OP: extra OP 0 %"
        )
        budget = rated_tbw_bytes * waf_native
        source = (
            f"rated TBW {bytes_text(rated_tbw_bytes)} × WAF {waf_native:.3f} at the native OP "
            f"({native_source}) = {bytes_text(budget)} of NAND writes"
        )
        notes.append(
            "rated TBW is taken as measured at the drive's native OP under the same workload "
            "as the WAF column; vendors rate with their own workloads (JESD219 for enterprise "
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
        source += f": T × P/E = {bytes_text(budget)} of NAND writes"

    def row(x: float, marks: tuple[str, ...] = (), what: str = "") -> PlanRow:
        waf, label = waf_at(x, what or f"extra OP {x * 100:g} %")
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
            waf_source=label,
        )

    marks: dict[float, list[str]] = {x: [] for x in op_levels}
    asked = {x: f"--extra-op {x * 100:g}: extra OP {x * 100:g} %" for x in op_levels}
    if use_case is not None and reference is not None:
        marks.setdefault(reference, []).append(f"reference for {USE_CASES[use_case][1]}")
        asked.setdefault(reference, f"--use-case {use_case}: extra OP {reference * 100:g} %")

    def solved_mark(x: float, goal: str) -> str:
        # the lowest level searched is "the smallest OP" only when the search began at 0 %
        if x == solve_lo > 0.0:
            return f"meets {goal} at the lowest simulated OP (lower OP not simulated)"
        return f"smallest OP for {goal}"

    solved_dwpd = None
    if target_dwpd is not None:
        solved_dwpd = _solve(lambda x: row(x).dwpd, target_dwpd, solve_lo, solve_hi)
        if solved_dwpd is not None:
            goal = f"{target_dwpd:g} DWPD"
            marks.setdefault(solved_dwpd, []).append(solved_mark(solved_dwpd, goal))
    solved_years = None
    if target_years is not None:
        solved_years = _solve(lambda x: row(x).years or 0.0, target_years, solve_lo, solve_hi)
        if solved_years is not None:
            goal = f"{target_years:g} years"
            marks.setdefault(solved_years, []).append(solved_mark(solved_years, goal))
    rows = tuple(row(x, tuple(marks[x]), asked.get(x, "")) for x in sorted(marks))
    if daily_write_bytes is not None:
        demand = daily_write_bytes / capacity_bytes
        notes.append(
            f"{bytes_text(daily_write_bytes)}/day is {demand:.2f} drive writes per day of the "
            "advertised capacity"
        )
    return EndurancePlan(
        capacity_bytes=capacity_bytes,
        native_op=native_op,
        physical_bytes=physical,
        policy=policy,
        pages_per_block=pages_per_block,
        model=model_text,
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
        waf_source=waf_source,
        workload=workload,
        solve_min_extra_op=solve_lo,
        solve_max_extra_op=solve_hi,
    )


def _solve(metric: Any, target: float, lo: float = 0.0, hi: float = MAX_EXTRA_OP) -> float | None:
    """Smallest extra OP X in [lo, hi] (all of [0, MAX_EXTRA_OP] for a model, the simulated
    range for a simulation), rounded up to 0.1 % and at most hi, with metric(X) ≥ target.
    ``metric`` increases with X (more OP → lower WAF → more TBW, on less user capacity)."""
    top = hi
    if metric(lo) >= target:
        return lo
    if metric(hi) < target:
        return None
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if metric(mid) >= target:
            hi = mid
        else:
            lo = mid
    x = math.ceil(hi * 1000.0 - 1e-9) / 1000.0
    return min(x, top)
