"""The twin: the fitted drive written as a drive file, simulated to predict every OP level.

The surrogate's three parameters map onto the simulator's drive description:

- ρ₀ → ``physical_bytes = advertised_bytes · (1 + ρ₀)``;
- t_cmd > 0 (or 0 with a write buffer) and t_page → the controller (``timing.controller``,
  docs/simulator.md): one context that holds every command for ``command_us = t_cmd`` plus
  ``map_update_us = t_page`` per mapping update, i.e. per unit the command programs, its own
  and the ones foreground garbage collection relocates for it — WAF of them per host write on
  average. Time per host write is then t_cmd + WAF·t_page, the surrogate's own form. Two
  resources working side by side (a controller, then the dies) give the *larger* of their
  times, a ceiling; the drives calibrate sees (the generated drives with small buffers, the
  850 Pro) show the *sum*, which one resource holding both costs reproduces. The NAND
  (:data:`DIES` dies of :data:`UNITS_PER_FLASH_PAGE` mapping units per flash page) is given
  :data:`NAND_SHARE` of t_page per unit written, so it is busy beside the controller (its
  program time shows in latency) but never the bound;
- t_cmd < 0 (garbage collection's reads, ``fit.py``), or t_cmd held at 0 without a write
  buffer → the NAND alone:
  ``program_us = (t_page + t_cmd)·DIES·UNITS_PER_FLASH_PAGE`` and
  ``read_us = −t_cmd·DIES·UNITS_PER_FLASH_PAGE`` per relocated unit, no controller cost. At
  t_cmd 0 (``fit.HELD_CMD_SHARE``: the NAND-bound drive) without a buffer the controller
  mapping does not realise its form: GC relocations queued on a die hold the host's queue
  slots and the controller waits (375 and 297 µs a unit at 0% and 40% for a fitted 279,
  docs/calibrate-validation.md, "Drive B's IOPS miss given its true figures"); the NAND alone
  gives WAF·t_page (tests/calibrate/test_twin_form.py);
- the write buffer → ``timing.buffer``: 64 MiB or none as the figures show it
  (``write_buffer.py``: IOPS at two queue depths), 64 MiB when they cannot tell.

The twin is then *refined* against its own measurement: it is simulated at the measured levels
and t_page, t_cmd and ρ₀ are corrected (using the twin's simulated WAF, which includes the
simulator's finite-block effects that the mean-field model leaves out) until it reproduces the
measured steady IOPS; with WAF figures only, its native spare is searched until it reproduces
the lowest one (``waf_refinement.refine_waf``, :data:`WAF_REFINE`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from overprov import __version__, outputs, presets
from overprov.calibrate import batch_gc, discard_transient, gc_blocking, reserve_plateau, waf_drift
from overprov.calibrate import fit as fitmod
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import Budget, MeasurementPlan, segments_for, with_probe
from overprov.errors import ConfigError
from overprov.measurement_file import Measurement
from overprov.profile.sim_target import SimTarget
from overprov.workload_options import describe_overrides, flags_text

DIES = 8
UNITS_PER_FLASH_PAGE = 4
PAGE_BYTES = 4096
#: The link never binds: at this rate a 4 KiB command costs under 0.1 µs.
FREE_LINK_MB_S = 50_000.0
#: The NAND's time per unit written, as a share of the fitted t_page, when the controller
#: carries the fitted times (it must stay below 1 so the NAND never binds).
NAND_SHARE = 0.5
#: Simulate the twin at about this much NAND (its full size is the measured drive's).
TWIN_SIM_PHYSICAL_BYTES = 4 * 2**30
#: ... or more, so that its native spare space holds at least this many erase blocks (the
#: simulator needs 5 to collect garbage at all; a native OP near 0 needs a bigger twin).
MIN_SPARE_BLOCKS = 8
#: With WAF figures only (no IOPS), search the twin's native spare until its simulated WAF at
#: the lowest fitted level is the figure's (``waf_refinement.refine_waf``); off: the fitted twin
#: as is.
#: On since its rule was met (bench/foreign/results/wafrefine/RULE.md,
#: bench/foreign/results/wafrefine/verdict.md).
WAF_REFINE = True
#: How the twin's p99 latency is obtained, in prediction_source.
P99_SOURCE = (
    "p99 latency: the median of the twin's round p99s in each level's settled window, the twin "
    "with the write buffer its figures show, or none (write_buffer.py); on drives with held-out "
    "buffers within a factor of 2 of theirs in 7 of 9 cases, worst 2.5 times "
    '(docs/calibrate-model.md, "The twin\'s p99 latency")'
)


class TwinConfigError(ConfigError):
    """A reading's twin the core cannot simulate at a level (its config fails the core's
    check), found before any simulation (``predict.prepare``): names the reading, the level,
    the fitted native spare and the core's reason."""

    def __init__(self, reading_key: str, extra_op_percent: float, twin: str, reason: str,
                 native_op: float) -> None:  # fmt: skip
        self.reading_key = reading_key
        self.extra_op_percent = extra_op_percent
        self.native_op = native_op
        bound = ", the fit's lower bound" if fitmod.at_lower_bound(native_op) else ""
        self.reason = (
            f"its {twin} at {extra_op_percent:g}% extra OP cannot be simulated (native spare "
            f"fitted at {100 * native_op:.2g}%{bound}): {reason}"
        )
        super().__init__(f"reading {reading_key}: {self.reason}")


#: The twin's forced-collection count under a victim floor (``[ftl] gc_forced_free_blocks``):
#: the core's default GC trigger, the free blocks every other twin collects at.
FORCED_FREE_BLOCKS = 2


@dataclass(frozen=True)
class GcReserve:
    """A collector that holds ``reserve`` (a share of the advertised capacity) free while its
    victims have at least 1/``waf_floor`` of their pages invalid, as the reserve reading reads
    a drive (``gc_reserve.ReserveForm``): its spare factor 1 + ρ₀ − reserve is what the figures
    fix, the split between ρ₀ and the reserve is the twin's (:func:`reserve_collector`)."""

    reserve: float
    waf_floor: float
    spare_factor_read: float | None = None
    """The spare factor the reading fixed (:func:`reserve_collector`), which the reserve's
    corrections (:func:`_corrected_reserve`) leave: with ``discard_transient.SPARE_FROM_ONSET``
    the figures read after a discard are checked against its curve."""
    victim_floor: float | None = None
    """The core's per-victim threshold as a WAF (1/its invalid fraction); None: ``waf_floor``.
    Only ``reserve_plateau.ON`` sets it (the plateau of a d-choices twin lies below it)."""

    def ftl_keys(self, advertised_bytes: int) -> dict[str, Any]:
        """``[ftl]`` keys at the twin's full size: the reserve in erase blocks above the
        :data:`FORCED_FREE_BLOCKS` every twin holds, the floor in invalid pages a block."""
        block = PAGE_BYTES * fitmod.PAGES_PER_BLOCK
        threshold = self.waf_floor if self.victim_floor is None else self.victim_floor
        floor_pages = max(1, round(fitmod.PAGES_PER_BLOCK / threshold))
        reserve_blocks = max(1, round(self.reserve * advertised_bytes / block))
        return {
            "gc_free_blocks": FORCED_FREE_BLOCKS + reserve_blocks,
            "gc_victim_min_invalid_fraction": floor_pages / fitmod.PAGES_PER_BLOCK,
            "gc_forced_free_blocks": FORCED_FREE_BLOCKS,
        }


def reserve_collector(
    spare_factor: float, waf_floor: float, curve: fitmod.WafCurve = fitmod.waf_at
) -> tuple[float, GcReserve]:
    """The twin's native spare ρ₀ and collector for a reserve reading whose collector works
    with ``spare_factor`` (1 + ρ₀ − reserve, what the figures fix) and has its victim floor at
    WAF ``waf_floor``. The figures do not fix the split between ρ₀ and the reserve (at every
    level they see only the spare factor and the floor); the twin takes the NAND at which
    ``curve`` at the forced count (the reserve spent) runs at half the floor's WAF, so wherever
    the floor binds the free pool settles between the forced count and the reserve and WAF is
    the floor's, not the forced collector's."""
    rho0 = max(spare_factor - 1.0, fitmod.rho_for_waf(waf_floor / 2.0, curve))
    return rho0, GcReserve(1.0 + rho0 - spare_factor, waf_floor, spare_factor)


@dataclass
class TwinParameters:
    advertised_bytes: int
    native_op: float
    t_page_us: float
    t_cmd_us: float
    uncertainty: dict[str, list[float]]
    """Per parameter, its [low, high] over the bootstrap fits (the stated interval)."""
    source: str
    workload: dict[str, Any] | None = None
    """The workload the fitted figures were measured under (``workload_options`` overrides;
    None: uniform random): recorded with the twin, which is simulated under it."""
    spare_efficiency: float = 1.0
    """The raw-spare reading's k (``spare_readings.py``); 1 for every other twin."""
    ftl: dict[str, Any] | None = None
    """The twin's garbage collection (``config.ftl`` keys; None: greedy on one write frontier),
    one of ``spare_readings.GC_DESIGNS`` for figures under a skewed workload."""
    gc_timing: dict[str, Any] | None = None
    """The blocking-GC reading's ``[timing]`` (``gc_blocking.py``: non-preemptive GC per
    domain, no buffer, its fitted domains and program time) when the figures favour it; None:
    the analytic mapping of t_cmd and t_page below."""
    buffer_bytes: int = 64 * 2**20
    """The twin's volatile write buffer (``timing.buffer``; not with ``gc_timing``): as the
    figures show it (``write_buffer.read``: 64 MiB or none), 64 MiB when they cannot tell."""
    gc_reserve: GcReserve | None = None
    """The reserve reading's collector (``gc_reserve.py``): a GC reserve held free and a
    victim floor; None: the collector uses all of ``native_op``."""
    cliff: dict[str, Any] | None = None
    """The SLC cache ``calibrate --cliff`` fitted (``cliff_prediction.twin_note``), written in
    the twin's notes only (its ``[timing]`` keeps no cache); None: none."""
    erase_us_per_page: float = 0.0
    """t_erase (``erase_cost.py``): the share of t_page that is erasing, which a fresh drive
    does not pay; where the NAND alone sets the timing, the twin's erase time. 0: none."""

    def write(self, path: Path, named: Path | None = None) -> Path:
        """Write the twin as a drive file (:func:`write`): how a prediction
        (``prediction_file.Prediction.write``) writes the twins it holds."""
        return write(path, self, named)


def drive_dict(p: TwinParameters) -> dict[str, Any]:
    """The twin as a drive file's keys (one preset's keys at the top level)."""
    per_page = DIES * UNITS_PER_FLASH_PAGE
    erase_us = 1.0
    timing: dict[str, Any] = {
        "enabled": True,
        "host": {"link_mb_s": FREE_LINK_MB_S, "command_overhead_us": 2.0},
    }
    if p.gc_timing is not None:
        timing = dict(p.gc_timing)
        read_us, program_us = 0.0, 0.0
        model = (
            "non-preemptive GC per domain ([timing.gc]): collections on "
            f"{timing['gc']['domains']} domains block their host writes; no write buffer"
        )
        if timing["gc"].get("trigger", "victim") != "victim":
            model += "; a collection on the domain of the write that started it"
        planes = timing["nand"].get("planes_per_die", 1)
        if planes > 1:
            model += f"; multi-plane host programs, {planes} planes per die"
            if timing["gc"].get("multiplane"):
                model += ", GC relocations in them too"
            if timing["gc"].get("multiplane_offsets"):
                model += f", at one page offset of {timing['gc']['multiplane_offsets']}"
    elif p.t_cmd_us > 0 or (p.t_cmd_us == 0 and p.buffer_bytes):
        timing["controller"] = {
            "contexts": 1,
            "command_us": round(p.t_cmd_us, 6),
            "data_us_per_4kib": 0.0,
            "map_update_us": round(p.t_page_us, 6),
        }
        read_us, program_us = 1.0, p.t_page_us * NAND_SHARE * per_page
        model = "controller: t_cmd + WAF·t_page per host write; NAND beside it"
    else:
        t_read = -p.t_cmd_us  # the GC read time per moved unit
        # an erase time per unit erased (erase_cost.py) out of the program's: the steady drive
        # pays both for each unit it writes, a fresh one the program alone
        t_erase = min(p.erase_us_per_page, max(p.t_page_us - t_read, 0.0))
        read_us, program_us = t_read * per_page, (p.t_page_us - t_read - t_erase) * per_page
        erase_us = t_erase * DIES * (fitmod.PAGES_PER_BLOCK // DIES)
        model = "NAND: WAF·(t_page + t_cmd) + (WAF − 1)·(−t_cmd) per host write"
        if t_erase:
            model += f", of which {t_erase:.4g} µs a unit erased (not paid fresh)"
    nand = {
        "channels": DIES,
        "dies_per_channel": 1,
        "flash_page_bytes": PAGE_BYTES * UNITS_PER_FLASH_PAGE,
        "read_us": round(max(read_us, 1.0), 4),
        "program_us": round(max(program_us, 1.0), 4),
        "erase_us": round(max(erase_us, 1.0), 4),
        "die_block_bytes": PAGE_BYTES * fitmod.PAGES_PER_BLOCK // DIES,
        "channel_mb_s": 100_000.0,
    }
    if p.gc_timing is None:
        model += (
            f"; a {p.buffer_bytes / 2**20:g} MiB volatile write buffer"
            if p.buffer_bytes
            else "; no write buffer"
        )
        timing["nand"] = nand
        timing["buffer"] = {"bytes": int(p.buffer_bytes), "power_loss_protected": False}
    pages_per_block = fitmod.PAGES_PER_BLOCK if p.gc_timing is None else gc_blocking.PAGES_PER_BLOCK
    ftl = dict(p.ftl or {})
    physical_bytes = int(round(twin_advertised_bytes(p) * (1.0 + p.native_op)))
    if batch_gc.SHARE_KEY in ftl:  # a batch of a share of the blocks (off: batch_gc.OFFERED)
        ftl = batch_gc.resolve(ftl, physical_bytes // (PAGE_BYTES * pages_per_block)) or {}
    if p.gc_reserve is not None:
        ftl.update(p.gc_reserve.ftl_keys(twin_advertised_bytes(p)))
        # in idle time too it collects down to its reserve, not to four times it (the core's
        # default): FEMU's background GC runs while the free lines are at its threshold
        timing["background_gc_free_blocks"] = ftl["gc_free_blocks"]
        model += (
            f"; a GC reserve of {100 * p.gc_reserve.reserve:.3g}% of the capacity held free while "
            f"victims have 1/{p.gc_reserve.waf_floor:.3g} of their pages invalid (a victim floor)"
        )
        if p.gc_reserve.victim_floor is not None:  # reserve_plateau.ON: the plateau's threshold
            model += f", the core's threshold 1/{p.gc_reserve.victim_floor:.3g} for that plateau"
    return {
        "description": "calibrated twin: the drive fitted by overprov calibrate",
        "source": p.source,
        "advertised_bytes": twin_advertised_bytes(p),
        "physical_bytes": physical_bytes,
        "notes": {
            "calibration": {
                "overprov_version": __version__,
                "native_op": p.native_op,
                "t_page_us": p.t_page_us,
                "t_cmd_us": p.t_cmd_us,
                **({"erase_us_per_page": p.erase_us_per_page} if p.erase_us_per_page else {}),
                "model": model,
                "interval": "80% (bootstrap over the measured points' round-to-round variation)",
                **({"cliff": dict(p.cliff)} if p.cliff else {}),
                "uncertainty": p.uncertainty,
                "workload": describe_overrides(p.workload or {}),
                "workload_flags": flags_text(p.workload or {}),
                **({"gc": dict(p.ftl)} if p.ftl else {}),
                **(
                    {
                        "gc_reserve": {
                            "reserve": p.gc_reserve.reserve,
                            "waf_floor": p.gc_reserve.waf_floor,
                            "spare_factor": 1 + p.native_op - p.gc_reserve.reserve,
                        }
                        | (
                            {"victim_floor": p.gc_reserve.victim_floor}
                            if p.gc_reserve.victim_floor is not None
                            else {}
                        )
                    }
                    if p.gc_reserve is not None
                    else {}
                ),  # fmt: skip
                **(
                    {
                        "spare_efficiency": p.spare_efficiency,
                        "levels": (
                            f"the raw NAND's spare used k = {p.spare_efficiency:.4g} times as well "
                            "as this file's GC: this file holds k times the raw spare at 0% extra "
                            "OP; calibrate simulated each level x at the extra OP giving it k "
                            "times the raw spare of x, which this file at x does not (it adds x's "
                            "space to k times the raw spare)"
                        ),
                    }
                    if p.spare_efficiency != 1.0
                    else {}
                ),
            }
        },
        "config": {
            "geometry": {"page_size_bytes": PAGE_BYTES, "pages_per_block": pages_per_block},
            **({"ftl": ftl} if ftl else {}),
            "timing": timing,
        },
    }


# ------------------------------------------------------------------------------ TOML writer


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"drive file: cannot write {v} in TOML")
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"drive file: cannot write a {type(v).__name__} in TOML")


def to_toml(d: dict[str, Any], prefix: str = "") -> str:
    """Nested dicts of scalars and lists as TOML (tables after the scalars of each level)."""
    lines: list[str] = []
    for k, v in d.items():
        if not isinstance(v, dict):
            lines.append(f"{k} = {_toml_value(v)}")
    for k, v in d.items():
        if isinstance(v, dict):
            name = f"{prefix}{k}"
            body = to_toml(v, name + ".")
            if any(not isinstance(x, dict) for x in v.values()):
                lines.append(f"\n[{name}]")
            lines.append(body)
    return "\n".join(x for x in lines if x != "")


def write(path: Path, p: TwinParameters, named: Path | None = None) -> Path:
    """Write the twin as a drive file (atomically); its header names ``named`` (default:
    ``path``), the file a copy stands for."""
    header = (
        "# A calibrated twin written by `overprov calibrate`: the fitted drive as a drive file.\n"
        f"# Simulate it with: overprov profile sim:{named or path}@SCALE (or calibrate it again).\n"
    )
    outputs.write_atomic(path, header + to_toml(drive_dict(p)) + "\n")
    return path


# ------------------------------------------------------------------------------ simulating


def _min_physical_bytes(native_op: float) -> float:
    """NAND the twin needs for :data:`MIN_SPARE_BLOCKS` erase blocks of native spare."""
    block_bytes = PAGE_BYTES * fitmod.PAGES_PER_BLOCK
    return MIN_SPARE_BLOCKS * block_bytes * (1 + native_op) / native_op


def twin_advertised_bytes(p: TwinParameters) -> int:
    """The twin's size: the drive's, or larger when a native OP near 0 would leave the
    simulator too few spare blocks at full size (its figures do not depend on its size)."""
    return max(int(p.advertised_bytes), math.ceil(_min_physical_bytes(p.native_op)))


def sim_scale(advertised_bytes: int, native_op: float) -> str:
    """The scale a twin of this size and spare is simulated at (``sim:NAME@SCALE``'s SCALE):
    about :data:`TWIN_SIM_PHYSICAL_BYTES` of NAND, or more for a native OP near 0."""
    physical = advertised_bytes * (1.0 + native_op)
    wanted = max(TWIN_SIM_PHYSICAL_BYTES, _min_physical_bytes(native_op))
    return f"{min(1.0, wanted / physical):.9g}"


def _scale(p: TwinParameters) -> str:
    return sim_scale(twin_advertised_bytes(p), p.native_op)


def sim_config(p: TwinParameters) -> dict[str, Any]:
    """The twin's simulator config at :func:`sim_scale`, built from :func:`drive_dict` in
    memory: the same config ``presets`` builds from the drive file :func:`write` writes."""
    cfg, _ = presets.drive_config(drive_dict(p), _scale(p), "calibrated twin")
    return cfg


def simulate_levels(
    p: TwinParameters,
    levels: list[float],
    *,
    seed: int = 1,
    probe_queue_depth: int | None = None,
) -> Measurement:
    """Steady IOPS, WAF and p99 latency of the twin at ``levels``, one drive swept lowest
    first (the same measurement code as calibrate's own, on the simulated twin, held in
    memory); each level's p99 is the median of its window rounds' (:data:`P99_SOURCE`).
    ``probe_queue_depth``: then the plan's queue-depth probe at the highest level
    (``plan.with_probe``)."""
    plan = MeasurementPlan(budget=Budget(), segments=segments_for(levels))
    if probe_queue_depth is not None:
        plan = with_probe(plan, probe_queue_depth)
    target = SimTarget(f"sim:twin@{_scale(p)}", seed=seed, drive=drive_dict(p))
    with target:
        return measure(target, plan)


def refine(
    p: TwinParameters,
    points: list[fitmod.Point],
    simulate: Callable[[TwinParameters, list[float]], Measurement],
    *,
    iterations: int = 3,
    tolerance: float = 0.02,
    curve: fitmod.WafCurve = fitmod.waf_at,
) -> tuple[TwinParameters, Measurement, list[dict[str, float]]]:
    """Correct the twin until it reproduces the measured IOPS within ``tolerance`` (or
    ``iterations`` run out). Returns the twin, its simulation at the measured levels, and the
    history of (iteration, worst relative error). ``simulate(p, levels)``: how the twin is
    simulated (a reading's :meth:`~overprov.calibrate.predict.TwinReading.simulate`);
    ``curve``: WAF against ρ under the figures' workload."""
    floor = fitmod.fob_floor_us(points)  # the fit's FOB floor on t_cmd, from the FOB figure
    points = [pt for pt in points if not pt.fresh]  # steady points: what the twin simulates
    levels = sorted({pt.extra_op_percent for pt in points if pt.iops})
    history: list[dict[str, float]] = []
    best: tuple[float, TwinParameters, Measurement] | None = None
    for it in range(iterations + 1):
        sim = simulate(p, levels)
        by_level = {lv.extra_op_percent: lv for lv in sim.levels}
        errs = [
            by_level[pt.extra_op_percent].steady_iops / pt.iops - 1.0  # type: ignore[operator]
            for pt in points
            if pt.iops
        ]
        if reserve_plateau.ON and p.gc_reserve is not None:  # and the plateau where it binds
            miss = reserve_plateau.plateau_miss(points, p.gc_reserve.waf_floor, by_level)
            errs.append(miss if abs(miss) > reserve_plateau.TOLERANCE else 0.0)
        worst = max((abs(e) for e in errs), default=0.0)
        history.append({"iteration": it, "worst_rel_error": worst})
        if best is None or worst < best[0]:
            best = (worst, p, sim)
        if worst <= tolerance or it == iterations:
            break
        p = _corrected(p, points, by_level, curve, floor)
    assert best is not None
    return best[1], best[2], history


def _corrected(
    p: TwinParameters,
    points: list[fitmod.Point],
    by_level: dict[float, Any],
    curve: fitmod.WafCurve = fitmod.waf_at,
    floor_us: float | None = None,
) -> TwinParameters:
    """One correction step from the twin's simulated WAF and IOPS at the measured levels;
    ``floor_us``: the fit's FOB floor on t_cmd (``fit.fob_floor_us``), None: the share alone."""
    rho0 = p.native_op
    waf_points = [pt for pt in points if pt.waf is not None and pt.extra_op_percent in by_level]
    if p.gc_reserve is not None:  # the reserve's twin: its reserve, from the points off the floor
        collector = _corrected_reserve(p.native_op, p.gc_reserve, waf_points, by_level, curve)
        if reserve_plateau.ON:  # and its victim threshold, from the lowest point on the floor
            c = collector
            collector = replace(c, victim_floor=reserve_plateau.corrected_threshold(
                c.victim_floor or c.waf_floor, waf_points, c.waf_floor, by_level))  # fmt: skip
        return replace(_corrected_times(p, points, by_level, floor_us), gc_reserve=collector)
    if waf_points:
        # the most sensitive WAF point (lowest OP): scale the twin's spare space at that level
        # by the ratio of the spare ratios the measured and the simulated WAF imply
        pt = min(waf_points, key=lambda q: q.extra_op_percent)
        sim_waf = by_level[pt.extra_op_percent].waf
        if sim_waf and sim_waf > 1.0 and pt.waf and pt.waf > 1.0:
            x = pt.extra_op_percent
            r = _spare_ratio(pt.waf, sim_waf, curve)
            rho0 = max(fitmod.RHO_MIN, fitmod.native_op_for(r * fitmod.rho_eff(rho0, x), x))
    return replace(_corrected_times(p, points, by_level, floor_us), native_op=rho0)


def _spare_ratio(measured_waf: float, simulated_waf: float, curve: fitmod.WafCurve) -> float:
    """How much more spare the twin needs at a level: the ratio of the spare ratios the
    measured and the simulated WAF imply, at most 30% either way in one step."""
    r = fitmod.rho_for_waf(measured_waf, curve) / fitmod.rho_for_waf(simulated_waf, curve)
    return min(max(r, 0.7), 1.3)


def _corrected_reserve(
    native_op: float,
    collector: GcReserve,
    waf_points: list[fitmod.Point],
    by_level: dict[float, Any],
    curve: fitmod.WafCurve,
) -> GcReserve:
    """The reserve corrected as the effective twin's spare is (:func:`_corrected`), from the
    lowest level whose figure and twin are both off the floor (below 0.95 of it) and whose
    figure is sure enough (``waf_drift.anchors_reserve``); none: kept. With
    ``discard_transient.SPARE_FROM_ONSET`` a figure read after a discard counts as it does
    against the reading's curve at the spare factor it read (``discard_transient.tolerated_waf``):
    within the transient allowance above it, the twin is corrected to the reading's curve."""
    if discard_transient.SPARE_FROM_ONSET and collector.spare_factor_read is not None:
        s_read, floor = collector.spare_factor_read, collector.waf_floor
        waf_points = discard_transient.tolerated_points(
            waf_points, lambda op: min(curve(s_read / (1 - op / 100.0) - 1.0), floor)
        )
    off = [
        pt for pt in waf_points if waf_drift.anchors_reserve(pt.waf_rel_sd)
        and pt.waf and 1.0 < pt.waf < 0.95 * collector.waf_floor
        and 1.0 < (by_level[pt.extra_op_percent].waf or 0.0) < 0.95 * collector.waf_floor
    ]  # fmt: skip
    if not off:
        return collector
    pt = min(off, key=lambda q: q.extra_op_percent)
    x = pt.extra_op_percent / 100.0
    r = _spare_ratio(pt.waf, by_level[pt.extra_op_percent].waf, curve)  # type: ignore[arg-type]
    spare_factor = 1.0 + native_op - collector.reserve
    wanted = (1 - x) * (1 + r * (spare_factor / (1 - x) - 1))
    return replace(collector, reserve=max(0.0, 1.0 + native_op - wanted))


def _corrected_times(
    p: TwinParameters,
    points: list[fitmod.Point],
    by_level: dict[float, Any],
    floor: float | None = None,
) -> TwinParameters:
    """t_page and t_cmd corrected against the twin's own WAF: the measured y = t_cmd +
    W_sim · t_page, and what the twin realised with its current parameters; by their ratio
    (t_page) and difference (t_cmd), so imperfections of the parameter mapping cancel; ``floor``:
    the fit's FOB floor on t_cmd (``fit.fob_floor_us``; None: its share bound alone)."""
    ip = [pt for pt in points if pt.iops]
    wafs = [by_level[pt.extra_op_percent].waf or 1.0 for pt in ip]
    y_meas = [1e6 / pt.iops for pt in ip]  # type: ignore[operator]
    y_sim = [1e6 / by_level[pt.extra_op_percent].steady_iops for pt in ip]
    ws = [
        1.0 / (y * max(pt.iops_rel_sd, fitmod.MIN_REL_SD)) ** 2
        for pt, y in zip(ip, y_meas, strict=True)
    ]
    fit_cmd = p.t_cmd_us != 0 and len(ip) >= 2
    share = fitmod.read_share(fitmod.has_waf(points))  # the fit's bound
    cmd_target, page_target = fitmod.linear_fit(wafs, y_meas, ws, fit_cmd, share, floor)
    cmd_real, page_real = fitmod.linear_fit(wafs, y_sim, ws, fit_cmd, share, floor)
    if page_real > 0 and page_target > 0:
        t_page = p.t_page_us * page_target / page_real
        t_cmd = max(fitmod.lowest_cmd(t_page, share, floor), p.t_cmd_us + cmd_target - cmd_real)
    else:  # no WAF dependence to fit: scale both by the mean IOPS ratio
        ratio = math.exp(sum(math.log(a / b) for a, b in zip(y_meas, y_sim, strict=True)) / len(ip))
        t_page, t_cmd = p.t_page_us * ratio, p.t_cmd_us * ratio
    return replace(p, t_page_us=t_page, t_cmd_us=t_cmd)
