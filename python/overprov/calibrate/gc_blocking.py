"""The blocking-GC reading of IOPS figures: a twin whose garbage collection is non-preemptive.

The analytic surrogate (``fit.py``) reads IOPS as ``1/IOPS = t_cmd + WAF·t_page``: every unit
written costs the same NAND time wherever it goes. Drives whose garbage collection runs per GC
domain and stalls the host writes to that domain (MQSim's non-preemptive GC, per plane, with
no write cache) do not follow it: collections run on fewer NAND units than host writes do, so
IOPS fall faster than 1/WAF, and blocked writes hold queue slots, so IOPS change with queue
depth at the same WAF.

This reading simulates that mechanism in the core (``[timing.gc] blocking = "domain"``,
docs/simulator.md) on a small twin held in memory: :data:`DIES` dies of
:data:`UNITS_PER_FLASH_PAGE` mapping units per flash page, no write buffer (host writes wait
for their program), ``domains`` GC domains — collections run one at a time per domain, so with
``domains`` < :data:`DIES` garbage collection has fewer parallel units than host writes. The
unknowns are the domain count (a grid, :data:`DOMAINS`) and the program time (one scale: every
NAND time is a fixed share of it, so the twin's IOPS scale exactly as 1/program time and the
scale is fitted in closed form on log IOPS). The spare space is the analytic fit's (pinned by
WAF figures when given). The FOB figure is the twin's die-bound rate without GC,
``min(QD, dies) · units per page / program time``.

Its evidence (``evidence.py``'s rule): χ² of its residuals at the fitted figures (IOPS, FOB, and
its WAF at the WAF figures, the same figures and noise the analytic reading is scored on) plus,
for each steady figure, its error when predicted from the others (the program time refitted
without it). A reading whose residuals exceed their noise (``evidence.reproduces``, with
:data:`N_PARAMETERS` fitted) gets no weight when the analytic reading reproduces them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from overprov import engine, sweep
from overprov.calibrate import evidence
from overprov.calibrate import fit as fitmod

DIES = 8
UNITS_PER_FLASH_PAGE = 4
PAGE_BYTES = 4096
PAGES_PER_BLOCK = 256
#: The twin's size: 1 GiB advertised simulates in about a second per level.
USER_PAGES = 1 << 18
#: GC domains tried: collections on 1 to 8 of the 8 dies at once.
DOMAINS = (1, 2, 3, 4, 6, 8)
#: The nominal program time the twin is simulated at (per flash page); the fit scales it.
NOMINAL_PROGRAM_US = 700.0
#: Read time as a share of program time (tR/tPROG of the core's default NAND: 60/700).
READ_SHARE = 60.0 / 700.0
WARMUP_DRIVE_WRITES = 2.0
MEASURED_DRIVE_WRITES = 1.5
SEED = 1
#: Fitted parameters: the domain count and the program time (the spare is the analytic fit's).
N_PARAMETERS = 2


def timing(domains: int, program_us: float, queue_depth: int) -> dict[str, Any]:
    """The twin's ``[timing]``: no buffer, no controller cost, non-preemptive GC."""
    return {
        "enabled": True,
        "host": {"queue_depth": queue_depth, "command_overhead_us": 0.0, "link_mb_s": 1e6},
        "nand": {
            "channels": DIES,
            "dies_per_channel": 1,
            "flash_page_bytes": PAGE_BYTES * UNITS_PER_FLASH_PAGE,
            "read_us": program_us * READ_SHARE,
            "program_us": program_us,
            "erase_us": 1.0,
            "die_block_bytes": PAGE_BYTES * PAGES_PER_BLOCK,
            "channel_mb_s": 1e6,
        },
        "buffer": {"bytes": 0, "power_loss_protected": False},
        "gc": {"blocking": "domain", "domains": domains},
        "state_round_drive_writes": 0.1,
    }


def config(
    native_op: float,
    extra_op_percent: float,
    domains: int,
    program_us: float,
    queue_depth: int,
    ftl: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``ftl``: the reading's GC victim choice (``config.ftl`` keys; None: greedy)."""
    return engine.merge(
        engine.default_config(),
        {
            "ftl": dict(ftl or {}),
            "geometry": {
                "page_size_bytes": PAGE_BYTES,
                "pages_per_block": PAGES_PER_BLOCK,
                "advertised_bytes": USER_PAGES * PAGE_BYTES,
                "physical_bytes": int(round(USER_PAGES * PAGE_BYTES * (1.0 + native_op))),
                "extra_op_percent": extra_op_percent,
            },
            "run": {
                "warmup_drive_writes": WARMUP_DRIVE_WRITES,
                "drive_writes": MEASURED_DRIVE_WRITES,
                "seed": SEED,
            },
            "timing": timing(domains, program_us, queue_depth),
        },
    )


def _figures(report: dict[str, Any]) -> tuple[float, float | None]:
    """(steady IOPS, WAF) of a twin run: the measured part's (after the warm-up)."""
    timed = report.get("timed") or {}
    iops = (timed.get("measured") or {}).get("iops")
    if not iops:
        raise ValueError("blocking-GC twin: the timed run measured no IOPS")
    return float(iops), (report.get("measured") or {}).get("waf")


def simulate(
    native_op: float,
    levels: list[float],
    domains: list[int],
    queue_depth: int,
    program_us: float = NOMINAL_PROGRAM_US,
    jobs: int | None = None,
    ftl: dict[str, Any] | None = None,
) -> dict[tuple[int, float], tuple[float, float | None]]:
    """(IOPS, WAF) of the twin per (domains, level), all runs through ``sweep``."""
    keys = [(d, x) for d in domains for x in levels]
    configs = [config(native_op, x, d, program_us, queue_depth, ftl) for d, x in keys]
    reports = sweep.run_points(configs, jobs=jobs, label="blocking-GC twin")
    if reports.interrupted:
        raise KeyboardInterrupt
    return {k: _figures(r) for k, r in zip(keys, reports, strict=True)}


def fob_iops(program_us: float, queue_depth: int) -> float:
    """The twin's rate without garbage collection (every die programming host units)."""
    return 1e6 * min(queue_depth, DIES) * UNITS_PER_FLASH_PAGE / program_us


@dataclass
class BlockingReading:
    domains: int
    program_us: float
    chi2: float
    queue_depth: int
    native_op: float
    candidates: list[dict[str, Any]] = field(default_factory=list)
    residuals: list[dict[str, Any]] = field(default_factory=list)
    residual_chi2: float = 0.0
    """χ² of the residuals at the fitted figures alone (``evidence.reproduces``)."""
    ftl: dict[str, Any] | None = None
    """The GC victim choice of the reading the twin belongs to (None: greedy)."""

    def reproduces(self) -> bool:
        """Whether the fitted twin reproduces its figures within their noise."""
        return evidence.reproduces(self.residual_chi2, len(self.residuals), N_PARAMETERS)

    def twin_timing(self) -> dict[str, Any]:
        return timing(self.domains, self.program_us, self.queue_depth)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mechanism": "non-preemptive GC per domain, no write buffer ([timing.gc] blocking)",
            "dies": DIES,
            "domains": self.domains,
            "program_us": self.program_us,
            "read_us": self.program_us * READ_SHARE,
            "queue_depth": self.queue_depth,
            "native_op": self.native_op,
            **({"ftl": dict(self.ftl)} if self.ftl else {}),
            "chi2": self.chi2,
            "residual_chi2": self.residual_chi2,
            "reproduces_fitted_figures": self.reproduces(),
            "candidates": self.candidates,
            "residuals": self.residuals,
        }


def _sd(p: fitmod.Point) -> float:
    return max(p.iops_rel_sd, fitmod.MIN_REL_SD)


def _log_scale(pairs: list[tuple[float, fitmod.Point]]) -> float:
    """ln(program time / nominal) minimising Σ (ln(model/figure)/σ)² (model ∝ 1/time)."""
    ws = [1.0 / _sd(p) ** 2 for _, p in pairs]
    num = sum(w * math.log(m / p.iops) for (m, p), w in zip(pairs, ws, strict=True))  # type: ignore[operator]
    return num / sum(ws)


def fit(
    points: list[fitmod.Point],
    native_op: float,
    *,
    queue_depth: int = 32,
    level_of: Callable[[float], float] = lambda x: x,
    model_rel_sd: float = 0.0,
    jobs: int | None = None,
    ftl: dict[str, Any] | None = None,
) -> BlockingReading | None:
    """The reading fitted to the IOPS figures (steady and FOB); None with fewer than three
    (one steady at least)."""
    steady = [p for p in points if p.iops and not p.fresh]
    fresh = [p for p in points if p.iops and p.fresh]
    if not steady or len(steady) + len(fresh) < 3:
        # two figures fix the domains and the program time exactly: nothing would be left to
        # test the reading against, and the analytic reading fits two figures as well
        return None
    levels = sorted({p.extra_op_percent for p in steady})
    sims = simulate(native_op, [level_of(x) for x in levels], list(DOMAINS), queue_depth,
                    jobs=jobs, ftl=ftl)  # fmt: skip
    best: BlockingReading | None = None
    candidates = []
    for d in DOMAINS:

        def model0(p: fitmod.Point, d: int = d) -> float:
            if p.fresh:
                return fob_iops(NOMINAL_PROGRAM_US, queue_depth)
            return sims[(d, level_of(p.extra_op_percent))][0]

        figs = [(model0(p), p) for p in steady + fresh]
        s = _log_scale(figs)
        chi2 = 0.0
        residuals = []
        for m, p in figs:
            e = math.log(m / p.iops) - s  # type: ignore[operator]
            chi2 += (e / _sd(p)) ** 2
            residuals.append({"extra_op_percent": p.extra_op_percent, "figure": "iops",
                              "fresh": p.fresh, "log_error": e})  # fmt: skip
        for p in points:  # its WAF at the WAF figures: scored on the analytic reading's figures
            waf = sims.get((d, level_of(p.extra_op_percent)), (0.0, None))[1]
            if p.waf is not None and not p.fresh and waf:
                e = math.log(waf / p.waf)
                chi2 += (e / max(p.waf_rel_sd, fitmod.MIN_REL_SD)) ** 2
                residuals.append({"extra_op_percent": p.extra_op_percent, "figure": "waf",
                                  "fresh": False, "log_error": e})  # fmt: skip
        residual_chi2 = chi2
        if len(figs) >= 3:  # each steady figure predicted from the others
            for i, (m, p) in enumerate(figs):
                if p.fresh:
                    continue
                rest = figs[:i] + figs[i + 1 :]
                e = math.log(m / p.iops) - _log_scale(rest)  # type: ignore[operator]
                chi2 += (e / math.hypot(_sd(p), model_rel_sd)) ** 2
        program_us = NOMINAL_PROGRAM_US * math.exp(s)
        candidates.append({"domains": d, "program_us": program_us, "chi2": chi2})
        candidates[-1]["residual_chi2"] = residual_chi2
        if best is None or chi2 < best.chi2:
            best = BlockingReading(d, program_us, chi2, queue_depth, native_op, residuals=residuals,
                                   residual_chi2=residual_chi2, ftl=ftl)  # fmt: skip
    assert best is not None
    best.candidates = candidates
    return best


def predict(
    r: BlockingReading,
    levels: list[float],
    *,
    queue_depth: int | None = None,
    level_of: Callable[[float], float] = lambda x: x,
    jobs: int | None = None,
) -> dict[float, tuple[float, float | None]]:
    """(IOPS, WAF) of the fitted twin at ``levels`` (at its own queue depth unless given)."""
    qd = queue_depth or r.queue_depth
    sims = simulate(r.native_op, [level_of(x) for x in levels], [r.domains], qd,
                    program_us=r.program_us, jobs=jobs, ftl=r.ftl)  # fmt: skip
    return {x: sims[(r.domains, level_of(x))] for x in levels}
