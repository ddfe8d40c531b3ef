"""WAF against spare space under the workload a drive's figures were measured under.

The fit's WAF model (``fit.waf_at``) is greedy garbage collection under *uniform* random
writes. A figure measured under another workload (JEDEC JESD219A's client mix, a hot/cold
split, Zipf) follows another curve: the skew and the request sizes change how WAF falls with
spare space. For such figures the curve is *simulated*: the twin's geometry (4 KiB mapping
units, ``fit.PAGES_PER_BLOCK`` per erase block, greedy GC, one write frontier) under that
workload, at :data:`GRID_POINTS` spare ratios from :data:`RHO_FLOOR` to ``fit.RHO_MAX``,
each point a WAF-only simulation (the core's default run: a sequential fill, 2 drive writes of
warm-up, 4 measured) run through ``overprov.sweep`` (parallel points, same results as serial).
Between grid points the curve is interpolated in (log ρ, log WAF); outside the grid it follows
the greedy model's shape, scaled to meet the grid's end.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Any

from overprov import sweep
from overprov.calibrate import fit as fitmod
from overprov.calibrate.twin import PAGE_BYTES
from overprov.workload_options import describe_overrides

#: User capacity of each grid point's simulated drive (1,024 erase blocks of 2 MiB).
CURVE_USER_BYTES = 2 * 2**30
#: The smallest spare ratio simulated: about 10 spare erase blocks at :data:`CURVE_USER_BYTES`.
RHO_FLOOR = 0.01
GRID_POINTS = 16
CURVE_SEED = 1


def is_uniform(workload: dict[str, Any] | None) -> bool:
    """True when the workload is the fit's own (uniform random, the greedy model applies)."""
    return not workload or (set(workload) == {"pattern"} and workload["pattern"] == "uniform")


def gc_text(ftl: dict[str, Any] | None) -> str:
    """A garbage collection (``config.ftl`` keys; None: the twin's) in words."""
    ftl = ftl or {}
    where = (
        "a write frontier per workload zone"
        if ftl.get("host_streams") == "workload"
        else "one write frontier"
    )
    policy = ftl.get("policy", "greedy")
    if policy == "d-choices":
        policy += f" (d = {ftl.get('d_choices', 8)})"
    if ftl.get("gc_until_free_fraction") is not None:
        policy += f" to a low mark ({ftl['gc_until_free_fraction']:g} of the blocks free)"
    if ftl.get("gc_batch_share") is not None:  # calibrate/batch_gc.py (off by default)
        policy += f" in batches of {ftl['gc_batch_share']:g} of the blocks"
    return f"{policy} GC, {where}"


def grid() -> list[float]:
    top = fitmod.RHO_MAX
    return [RHO_FLOOR * (top / RHO_FLOOR) ** (i / (GRID_POINTS - 1)) for i in range(GRID_POINTS)]


def grid_config(
    workload: dict[str, Any], rho: float, ftl: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One grid point: the twin's geometry at spare ratio ``rho`` under ``workload`` (``ftl``:
    another garbage collection than the twin's greedy one, for comparisons)."""
    return {
        "ftl": dict(ftl or {}),
        "geometry": {
            "user_bytes": CURVE_USER_BYTES,
            "op_ratio": rho,
            "page_size_bytes": PAGE_BYTES,
            "pages_per_block": fitmod.PAGES_PER_BLOCK,
        },
        "workload": dict(workload),
        "run": {"seed": CURVE_SEED},
    }


@dataclass(frozen=True)
class SimulatedCurve:
    """WAF against ρ simulated under a workload (callable like ``fit.waf_at``)."""

    workload: dict[str, Any]
    rhos: tuple[float, ...]
    wafs: tuple[float, ...]
    ftl: dict[str, Any] | None = None
    """The garbage collection simulated (``config.ftl`` keys; None: greedy, one frontier)."""

    @property
    def description(self) -> str:
        return (
            f"{gc_text(self.ftl)} under {describe_overrides(self.workload)}, simulated at "
            f"{len(self.rhos)} spare ratios {self.rhos[0]:.3g}–{self.rhos[-1]:.3g}"
        )

    def __call__(self, rho: float) -> float:
        rho = max(rho, fitmod.RHO_MIN)
        rhos, wafs = self.rhos, self.wafs
        if rho <= rhos[0]:
            return max(1.0, fitmod.waf_at(rho) * wafs[0] / fitmod.waf_at(rhos[0]))
        if rho >= rhos[-1]:
            return max(1.0, fitmod.waf_at(rho) * wafs[-1] / fitmod.waf_at(rhos[-1]))
        i = bisect.bisect_right(rhos, rho)
        a, b = math.log(rhos[i - 1]), math.log(rhos[i])
        f = (math.log(rho) - a) / (b - a)
        return math.exp((1 - f) * math.log(wafs[i - 1]) + f * math.log(wafs[i]))

    def to_dict(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "workload": self.workload,
            **({"ftl": dict(self.ftl)} if self.ftl else {}),
            "rho": list(self.rhos),
            "waf": list(self.wafs),
        }


def simulate_curve(
    workload: dict[str, Any],
    *,
    jobs: int | None = None,
    progress: bool = False,
    ftl: dict[str, Any] | None = None,
) -> SimulatedCurve:
    """The grid simulated under ``workload`` (``sweep.run_points``: ``jobs`` processes)."""
    rhos = grid()
    reports = sweep.run_points(
        [grid_config(workload, r, ftl) for r in rhos],
        jobs=jobs,
        progress=progress,
        label="WAF curve",
    )
    if reports.interrupted:
        raise KeyboardInterrupt
    wafs = [float(rep["measured"]["waf"]) for rep in reports]
    # WAF falls with spare space; a grid point's noise must not make the curve rise
    for i in range(len(wafs) - 2, -1, -1):
        wafs[i] = max(wafs[i], wafs[i + 1])
    return SimulatedCurve(dict(workload), tuple(rhos), tuple(wafs), dict(ftl) if ftl else None)
