"""Measured WAF per OP for ``overprov plan``: from a file ``overprov simulate --json`` wrote
(``load_simulation``), or from a quick simulation per OP level (``quick_simulation``). OP levels
between two simulated runs are interpolated linearly in 1/ρ; levels outside the simulated range
are refused, never extrapolated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overprov import engine, sweep
from overprov.errors import ConfigError
from overprov.workload_text import describe_synthetic, describe_workload


@dataclass(frozen=True)
class SimPoint:
    """One simulated run: its OP, its measured WAF and where it came from."""

    rho: float  # geometry.rho: the OP the simulator really had (whole blocks and pages)
    waf: float  # measured.waf
    run: int  # 1-based, as `overprov simulate` counts its runs
    label: str  # e.g. "simulated: sweep.json run 3 (ρ 34.23 %)"
    tolerance: float  # one erase block of OP: the simulator rounds T to whole blocks


@dataclass(frozen=True)
class SimulatedWaf:
    """Measured WAF per OP. ``at(ρ)`` gives the run at that OP (within one erase block of OP:
    the simulator rounds the physical size to whole blocks), else interpolates linearly in
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


def load_simulation(path: str | Path) -> SimulatedWaf:
    """Read a file written by ``overprov simulate --json FILE`` (schema overprov.simulate/1).
    Every run must carry ``geometry.rho`` (``op_ratio`` in files of older versions),
    ``geometry.pages_per_block`` and
    ``measured.waf``; the runs must differ only in OP (same FTL, pages per block, workload),
    one run per OP. Errors are ConfigErrors naming the file and the field."""
    name = str(path)
    runs = engine.read_simulate_file(path)["runs"]
    points: list[SimPoint] = []
    first: dict[str, Any] = {}
    first_run: dict[str, Any] = {}
    for i, rep in enumerate(runs, start=1):
        measured = rep.get("measured")
        if not isinstance(measured, dict):
            raise ConfigError(
                f"{name}: runs[{i - 1}].measured (run {i}): missing; the run has no measured "
                "phase (did it finish?)"
            )
        waf = _field(name, i, "measured.waf", measured.get("waf"))
        rho = _field(name, i, "geometry.rho", _get(rep, "geometry", "rho"))
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
            "config.trace": _get(rep, "config", "trace"),
        }
        if not first:
            first, first_run = same, rep
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
                    f"{name}: runs[{i - 1}].geometry.rho (run {i}): ρ = {rho:.5f} is the OP "
                    f"of run {p.run} too; give one run per OP level"
                )
        extra = _get(rep, "config", "geometry", "extra_op_percent")
        at = f"ρ {rho * 100:.2f} %"
        if isinstance(extra, int | float) and not isinstance(extra, bool):
            at = f"extra OP {extra:g} %, " + at
        points.append(SimPoint(rho, waf, i, f"simulated: {name} run {i} ({at})", tol))
    policy = str(_get(first, "config.ftl", "policy") or "unknown")
    b = int(first["geometry.pages_per_block"])
    workload = describe_workload(first_run)
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


def quick_config(
    rho: float, policy: str, pages_per_block: int, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The simulator config of one --simulate level, as ``overprov.simulate`` takes it:
    ``user_pages`` and ``op_ratio`` (so the plan's own native OP holds), uniform random 4 KiB
    writes after a sequential fill, warm-up 2 + ρ drive writes (GC starts only once the spare
    space ρ·U has been written), then 2 measured drive writes. ``extra`` replaces sections
    (``workload``, ``placement``: ``plan --placement``)."""
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
        **(extra or {}),
    }


def quick_simulation(
    rhos: Sequence[float],
    policy: str,
    pages_per_block: int,
    jobs: int | None = None,
    extra: dict[str, Any] | None = None,
) -> SimulatedWaf:
    """Simulate each OP ρ (one run each, well under a second per run; ``jobs`` runs at once,
    see ``overprov.sweep``) and return the measured WAFs. Every config is validated before the
    first run."""
    rhos = sorted(set(rhos))
    configs = [quick_config(rho, policy, pages_per_block, extra) for rho in rhos]
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
    reports = sweep.run_points(configs, jobs=jobs, label="--simulate")
    if reports.interrupted:
        raise KeyboardInterrupt  # a plan needs every level: nothing partial to keep
    for i, report in enumerate(reports, start=1):
        sim_rho = report["geometry"]["rho"]
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
    if extra and "workload" in extra:
        workload = describe_synthetic(extra["workload"])
    placement = (extra or {}).get("placement")
    if placement:
        workload += f", FDP handle per stream ({placement.get('isolation', 'initially-isolated')})"
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
