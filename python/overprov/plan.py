"""``overprov plan``: endurance per over-provisioning level, without running any test.

From a drive's advertised capacity, its NAND endurance (NAND type, rated P/E cycles or rated
TBW) and the host's daily writes, print for each extra-OP level the WAF of the analytic models
(``overprov.models``, uniform random writes), the resulting TBW, DWPD and years of service, the
reference OP for the use case (DOMAIN.md §4), and solve for the OP that meets a DWPD or
service-life target.

The WAF can instead come from the simulator: ``--simulation FILE`` takes the measured WAF of
each run of a file written by ``overprov simulate --json FILE``, and ``--simulate`` runs a quick
simulation (a small drive, uniform random 4 KiB writes) per OP level. OP levels between two
simulated runs are interpolated linearly in 1/ρ; levels outside the simulated range are refused,
never extrapolated (``SimulatedWaf``).

Definitions (DOMAIN.md §2): C advertised capacity; T = (1 + ρ₀)·C physical NAND, where ρ₀ is
the drive's native OP (7.37 % when NAND sold in GiB is sold as GB); extra OP X leaves X of C
unused, so the user capacity is U = (1 − X)·C and the total OP is **ρ = (T − U)/U**.
TBW ≈ T × P/E cycles / WAF; DWPD = TBW / (U × 365 × years).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from overprov import capacity, engine, models, units
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
    waf_source: str = ""  # the model, or the simulated run(s) the WAF came from


@dataclass(frozen=True)
class Plan:
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


# ------------------------------------------------------------------- WAF from the simulator


@dataclass(frozen=True)
class SimPoint:
    """One simulated run: its OP, its measured WAF and where it came from."""

    rho: float  # geometry.op_ratio: the OP the simulator really had (whole blocks)
    waf: float  # measured.waf
    run: int  # 1-based, as `overprov simulate` counts its runs
    label: str  # e.g. "simulated: sweep.json run 3 (ρ 34.23 %)"
    tolerance: float  # one erase block of OP: the simulator rounds T up to whole blocks


@dataclass(frozen=True)
class SimulatedWaf:
    """Measured WAF per OP. ``at(ρ)`` gives the run at that OP (within one erase block of OP:
    the simulator rounds the physical size up to whole blocks), else interpolates linearly in
    1/ρ between the two nearest runs around it (WAF is close to linear in 1/ρ: Agarwal &
    Marrow's (1+ρ)/(2ρ) = ½ + 1/(2ρ) is exactly so), and refuses an OP outside the runs."""

    points: tuple[SimPoint, ...]  # sorted by rho
    description: str  # the header line: what was simulated
    policy: str
    pages_per_block: int
    workload: str
    name: str  # "FILE" or "the quick simulation", for messages and interpolated rows

    def at(self, rho: float, what: str) -> tuple[float, str]:
        """(WAF, source label) at OP ρ; ``what`` names the level for the error message."""
        near = min(self.points, key=lambda p: abs(p.rho - rho))
        if abs(near.rho - rho) <= near.tolerance:
            return near.waf, near.label
        below = [p for p in self.points if p.rho < rho]
        above = [p for p in self.points if p.rho > rho]
        if not below or not above:
            lo, hi = self.points[0].rho, self.points[-1].rho
            raise ConfigError(
                f"{what} (ρ = {rho * 100:.2f} %) is not in {self.name}: its runs cover "
                f"ρ = {lo * 100:.2f}–{hi * 100:.2f} %; OP levels between runs are interpolated, "
                "none outside them extrapolated: simulate that level too, or leave it out"
            )
        a, b = below[-1], above[0]
        t = (1.0 / rho - 1.0 / a.rho) / (1.0 / b.rho - 1.0 / a.rho)
        waf = a.waf + t * (b.waf - a.waf)
        return waf, f"interpolated in 1/ρ: {self.name} runs {a.run}–{b.run}"


def _field(path: str, run: int, name: str, value: Any, *, integer: bool = False) -> float:
    """A positive finite number, or a ConfigError naming the file, the run and the field."""
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if ok and integer:
        ok = float(value).is_integer()
    if not ok or not math.isfinite(value) or value <= 0:
        kind = "a positive integer" if integer else "a positive number"
        shown = "missing" if value is None else f"{value!r}"
        raise ConfigError(f"{path}: runs[{run - 1}].{name} (run {run}): expected {kind}, {shown}")
    return float(value)


def _get(obj: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def describe_workload(workload: dict[str, Any] | None) -> str:
    """A simulate report's ``config.workload`` in a few words."""
    if not isinstance(workload, dict) or "pattern" not in workload:
        return "workload not recorded"
    w = workload
    text = str(w["pattern"])
    if w["pattern"] == "hot-cold":
        text += f" {w.get('hot_access_percent')}/{w.get('hot_space_percent')}"
    if w.get("pattern") not in ("sequential",) and w.get("random_map"):
        text += " random-map"
    text += " writes"
    if w.get("bssplit"):
        text += f", request sizes {w['bssplit']}"
    elif w.get("request_bytes"):
        rb = w["request_bytes"]
        text += f", {rb // 1024} KiB requests" if rb % 1024 == 0 else f", {rb} B requests"
    if w.get("span_percent") not in (None, 100, 100.0):
        text += f", first {w['span_percent']:g} % of the LBAs"
    for key, what in (("read_percent", "reads"), ("trim_percent", "trims")):
        if w.get(key):
            text += f", {w[key]:g} % {what}"
    return text


def load_simulation(path: str | Path) -> SimulatedWaf:
    """Read a file written by ``overprov simulate --json FILE`` (schema overprov.simulate/1).
    Every run must carry ``geometry.op_ratio``, ``geometry.pages_per_block`` and
    ``measured.waf``; the runs must differ only in OP (same FTL, pages per block, workload),
    one run per OP. Errors are ConfigErrors naming the file and the field."""
    name = str(path)
    runs = engine.read_simulate_file(path)["runs"]
    points: list[SimPoint] = []
    first: dict[str, Any] = {}
    for i, rep in enumerate(runs, start=1):
        measured = rep.get("measured")
        if not isinstance(measured, dict):
            raise ConfigError(
                f"{name}: runs[{i - 1}].measured (run {i}): missing; the run has no measured "
                "phase (did it finish?)"
            )
        waf = _field(name, i, "measured.waf", measured.get("waf"))
        rho = _field(name, i, "geometry.op_ratio", _get(rep, "geometry", "op_ratio"))
        b = int(
            _field(
                name,
                i,
                "geometry.pages_per_block",
                _get(rep, "geometry", "pages_per_block"),
                integer=True,
            )
        )
        user_pages = _get(rep, "geometry", "user_pages")
        tol = b / user_pages if isinstance(user_pages, int) and user_pages > 0 else 5e-4
        same = {
            "geometry.pages_per_block": b,
            "config.ftl": _get(rep, "config", "ftl"),
            "config.workload": _get(rep, "config", "workload"),
        }
        if not first:
            first = same
        for key, value in same.items():
            if value != first[key]:
                raise ConfigError(
                    f"{name}: runs[{i - 1}].{key} (run {i}) differs from run 1's: plan reads "
                    "WAF against OP, so the runs may differ only in OP (geometry); give one "
                    "file per FTL, block size and workload"
                )
        for p in points:
            if abs(p.rho - rho) <= max(p.tolerance, tol):
                raise ConfigError(
                    f"{name}: runs[{i - 1}].geometry.op_ratio (run {i}): ρ = {rho:.5f} is the OP "
                    f"of run {p.run} too; give one run per OP level"
                )
        extra = _get(rep, "config", "geometry", "extra_op_percent")
        at = f"ρ {rho * 100:.2f} %"
        if isinstance(extra, int | float) and not isinstance(extra, bool):
            at = f"extra OP {extra:g} %, " + at
        points.append(SimPoint(rho, waf, i, f"simulated: {name} run {i} ({at})", tol))
    policy = str(_get(first, "config.ftl", "policy") or "unknown")
    b = int(first["geometry.pages_per_block"])
    workload = describe_workload(first["config.workload"])
    n = len(points)
    description = (
        f"measured by the simulator, {name} ({n} run{'s' if n != 1 else ''}: {policy} GC, "
        f"{b} pages per block, {workload})"
    )
    return SimulatedWaf(
        points=tuple(sorted(points, key=lambda p: p.rho)),
        description=description,
        policy=policy,
        pages_per_block=b,
        workload=workload,
        name=name,
    )


#: The quick simulation (--simulate): a small drive, big enough that the blocks held by the
#: write frontiers and the GC trigger are a small share of the spare blocks.
SIM_MIN_USER_PAGES = 2**18
SIM_USER_BLOCKS = 2048
SIM_MAX_USER_PAGES = 2**21
SIM_PAGE_BYTES = 4096
SIM_DRIVE_WRITES = 2.0
SIM_SEED = 1


def quick_user_pages(pages_per_block: int) -> int:
    """2¹⁸ user pages (1 GiB of 4 KiB pages), or 2048 blocks when blocks are larger than 128
    pages (fewer blocks let the open frontiers eat into the spare space: +2.4 % WAF at
    ρ = 0.0737, b = 256 on 1024 blocks, +0.9 % on 2048), at most 2²¹ pages (about half a
    second per run)."""
    return min(max(SIM_MIN_USER_PAGES, SIM_USER_BLOCKS * pages_per_block), SIM_MAX_USER_PAGES)


def quick_config(rho: float, policy: str, pages_per_block: int) -> dict[str, Any]:
    """The simulator config of one --simulate level, as ``overprov.simulate`` takes it:
    ``user_pages`` and ``op_ratio`` (so the plan's own native OP holds), uniform random 4 KiB
    writes after a sequential fill, warm-up 2 + ρ drive writes (GC starts only once the spare
    space ρ·U has been written), then 2 measured drive writes."""
    return {
        "geometry": {
            "page_size_bytes": SIM_PAGE_BYTES,
            "user_pages": quick_user_pages(pages_per_block),
            "op_ratio": rho,
            "pages_per_block": pages_per_block,
        },
        "ftl": {"policy": policy},
        "workload": {"pattern": "uniform", "request_bytes": SIM_PAGE_BYTES},
        "precondition": {"kind": "sequential"},
        "run": {
            "warmup_drive_writes": 2.0 + rho,
            "drive_writes": SIM_DRIVE_WRITES,
            "interval_percent": 50.0,
            "seed": SIM_SEED,
        },
    }


def quick_simulation(rhos: Sequence[float], policy: str, pages_per_block: int) -> SimulatedWaf:
    """Simulate each OP ρ (one run each, well under a second per run) and return the
    measured WAFs. Every config is validated before the first run."""
    rhos = sorted(set(rhos))
    configs = [quick_config(rho, policy, pages_per_block) for rho in rhos]
    for cfg in configs:
        try:
            engine.validate(cfg)
        except ConfigError as exc:
            raise ConfigError(
                f"--simulate at ρ = {cfg['geometry']['op_ratio'] * 100:.2f} %: {exc}"
            ) from exc
    user_pages = quick_user_pages(pages_per_block)
    tag = f"simulated (overprov-sim, {user_pages:,} user pages"
    points = []
    for i, cfg in enumerate(configs, start=1):
        report = engine.run(cfg)
        sim_rho = report["geometry"]["op_ratio"]
        points.append(
            SimPoint(
                rho=sim_rho,
                waf=report["measured"]["waf"],
                run=i,
                label=f"{tag}, ρ {sim_rho * 100:.2f} %)",
                tolerance=pages_per_block / user_pages,
            )
        )
    workload = "uniform random 4 KiB writes"
    description = (
        f"{tag}, {pages_per_block} pages per block, {policy} GC, {workload} after a "
        f"sequential fill, warm-up (2 + ρ) + measured {SIM_DRIVE_WRITES:g} drive writes, "
        f"seed {SIM_SEED}), one run per OP level"
    )
    return SimulatedWaf(
        points=tuple(sorted(points, key=lambda p: p.rho)),
        description=description,
        policy=policy,
        pages_per_block=pages_per_block,
        workload=workload,
        name="the quick simulation",
    )


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
) -> Plan:
    """Endurance per extra-OP level. Exactly one of ``nand``, ``pe_cycles``,
    ``rated_tbw_bytes`` gives the NAND budget (``nand="tlc"`` when none is given).

    The WAF is the analytic model's for ``policy`` and ``pages_per_block``, or the measured WAF
    of ``simulation`` (from ``load_simulation``), or, with ``simulate=True``, of a quick
    simulation of each level (``quick_simulation``). With a simulation the solver searches only
    the simulated OP range."""
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
        simulation = quick_simulation([rho_of(x) for x in wanted], policy, pages_per_block)

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
            # the run's own extra OP, to 0.1 %, when that level is the run (within a block)
            x = extra_of(point.rho)
            rounded = round(x, 3)
            x = rounded if abs(rho_of(rounded) - point.rho) <= point.tolerance else x
            return min(max(0.0, x), MAX_EXTRA_OP)

        solve_lo, solve_hi = snap(sim.points[0]), snap(sim.points[-1])

    notes: list[str] = []
    if rated_tbw_bytes is not None:
        waf_native, native_source = waf_at(
            0.0, "--rated-tbw needs the WAF at the native OP: extra OP 0 %"
        )
        budget = rated_tbw_bytes * waf_native
        source = (
            f"rated TBW {_human(rated_tbw_bytes)} × WAF {waf_native:.3f} at the native OP "
            f"({native_source}) = {_human(budget)} of NAND writes"
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
        source += f": T × P/E = {_human(budget)} of NAND writes"

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
    asked = {x: f"--op {x * 100:g}: extra OP {x * 100:g} %" for x in op_levels}
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
            f"{_human(daily_write_bytes)}/day is {demand:.2f} drive writes per day of the "
            "advertised capacity"
        )
    return Plan(
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


def _human(n: float) -> str:
    return units.human_bytes(n, decimals=2)


def format_plan(plan: Plan) -> str:
    c = plan.capacity_bytes
    lines = [
        f"Drive: advertised capacity C = {_human(c)}; physical NAND T = (1 + "
        f"{plan.native_op * 100:.2f} % native OP)·C = {_human(plan.physical_bytes)}",
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
            f"{r.extra_op * 100:7.1f}%  {_human(r.user_bytes):>11}  {r.rho * 100:7.2f}%  "
            f"{r.waf:6.3f}  {_human(r.tbw_bytes):>11}  {r.dwpd:6.2f}"
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
            f"years = TBW / ({_human(plan.daily_write_bytes)}/day × 365) at your daily host writes"
        )
    if plan.use_case is not None and plan.reference_extra_op is not None:
        lines.append(
            f"Reference starting point for {USE_CASES[plan.use_case][1]}: "
            f"{plan.reference_extra_op * 100:g} % extra OP (DOMAIN.md §4; profile the drive to "
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


def plan_to_dict(plan: Plan) -> dict[str, Any]:
    out = asdict(plan)
    out["op_definition"] = "rho = (T - U) / U; U = (1 - extra_op) * C; T = (1 + native_op) * C"
    return out


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
        help="GC victim policy of the WAF model or --simulate (default greedy, what most FTLs "
        "approximate)",
    )
    p.add_argument(
        "--pages-per-block",
        type=int,
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
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    capacity_bytes = float(
        capacity.parse_capacity_gb(args.capacity, "--capacity", bare_unit="b") * capacity.GB
    )
    if not 0.0 < args.native_op < 1000.0:
        raise ConfigError(f"--native-op: must be between 0 and 1000 %, got {args.native_op:g}")
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
    plan = build_plan(
        capacity_bytes=capacity_bytes,
        native_op=args.native_op / 100.0,
        nand=args.nand,
        pe_cycles=args.pe_cycles,
        rated_tbw_bytes=None
        if args.rated_tbw is None
        else units.parse_size_bytes(args.rated_tbw, "--rated-tbw"),
        daily_write_bytes=None
        if args.daily_writes is None
        else units.parse_size_bytes(args.daily_writes, "--daily-writes"),
        service_years=args.years,
        policy=args.policy or "greedy",
        pages_per_block=256 if args.pages_per_block is None else args.pages_per_block,
        op_levels=parse_percent_list(args.op, "--op"),
        use_case=args.use_case,
        target_dwpd=args.target_dwpd,
        target_years=args.target_years,
        simulation=simulation,
        simulate=args.simulate,
    )
    if args.json:
        print(json.dumps(plan_to_dict(plan), indent=2, ensure_ascii=False))
    else:
        print(format_plan(plan))
    unmet = (plan.target_dwpd is not None and plan.target_dwpd_extra_op is None) or (
        plan.target_years is not None and plan.target_years_extra_op is None
    )
    return 1 if unmet else 0
