"""A scaled drive: the same drive shrunk by a factor so that a run ends in seconds, and how exact
its WAF is.

The one scaling rule (presets use it too): scaling by a factor s multiplies every capacity by s
(advertised, physical and user capacity, and in timed runs the SLC cache) and keeps every ratio
and every per-block figure (OP, page and block size, the workload's shares of the LBA space,
dies and timings). The write buffer is not scaled: it queues work for the dies, which a scaled
drive keeps. A GC reserve a collector with a victim floor holds free (``ftl.gc_free_blocks``
with ``ftl.gc_victim_min_invalid_fraction``: NAND held back, calibrate's reserve twins) is
scaled as a capacity; the ordinary trigger of a few blocks is not. A batch of victims collected
between stop checks (``ftl.gc_batch_victims``) is scaled as a capacity too: at one share of the
blocks its WAF is within 1.2% from 256 to 2,048 blocks
(bench/foreign/results/wiscbatch/diagnose-1-2.log). By default a drive is scaled to about
:data:`DEFAULT_SCALED_PHYSICAL_BYTES` of NAND, and never below :data:`MIN_SCALED_BLOCKS` erase
blocks.

A WAF-mode run (no simulated time) whose full size would take more than
:data:`AUTO_SCALE_SECONDS` here runs scaled by default: :func:`scale_sweep` picks one factor for
all points of a sweep and says which error that costs, measured per workload class by
bench/scale_error.py (the table in docs/scale.md). ``--scale 1`` runs full size.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from overprov import engine
from overprov.errors import ConfigError
from overprov.units import factor_text, parse_size_bytes

GIB = 2**30
#: Default scaled size: physical NAND of about this many bytes.
DEFAULT_SCALED_PHYSICAL_BYTES = 32 * GIB
#: Fewest erase blocks a scaled drive may have: below this the spare pool is a handful of
#: blocks and GC's steady state departs from the full-size drive's (tests/drives/).
MIN_SCALED_BLOCKS = 256
#: A WAF-mode sweep whose full-size points would take longer than this runs scaled by default.
AUTO_SCALE_SECONDS = 30.0
#: Host page writes per wall second used to estimate a run's cost: the simulator's rate beyond
#: the CPU caches on this class of machine (5.4–7.5 M/s measured at 2^23 user pages, greedy,
#: uniform, ρ 0.07–0.28; 5.2 M/s at 64 GiB in bench/README.md), rounded down.
ESTIMATE_HOST_PAGES_PER_S = 5.0e6

#: The largest |WAF scaled − WAF full| / WAF full measured for a drive scaled to
#: DEFAULT_SCALED_PHYSICAL_BYTES, per workload class, in percent: bench/scale_error.py, the
#: table in docs/scale.md (128 GiB of NAND full size, extra OP 0 and 20 %, seed 1).
MEASURED_WAF_ERROR_PERCENT: dict[str, float] = {
    "uniform": 0.1,
    "hot-cold": 0.1,
    "zipf": 2.0,
    "jesd219": 0.1,
}

_CAPACITY_FIELDS = ("advertised_bytes", "physical_bytes", "user_bytes")
_COUNT_FIELDS = ("user_pages", "physical_blocks")


def scale_config(cfg: dict[str, Any], factor: float) -> dict[str, Any]:
    """``cfg`` with every capacity multiplied by ``factor`` (the one scaling rule, above; the
    write buffer stays); a copy. Byte sizes and counts are rounded down to whole bytes and units."""
    if not 0 < factor <= 1:
        raise ConfigError(f"--scale: must shrink the drive (0 < factor <= 1), got {factor:g}")
    out = copy.deepcopy(cfg)
    geo = out.get("geometry", {})
    for key in _CAPACITY_FIELDS + _COUNT_FIELDS:
        if geo.get(key) is not None:
            geo[key] = max(1, int(geo[key] * factor))
    ftl = out.get("ftl", {})
    if ftl.get("gc_victim_min_invalid_fraction") is not None and "gc_free_blocks" in ftl:
        # a reserve a floored collector holds free is NAND, scaled with the drive; the forced
        # count (a few blocks to collect into) is not
        forced = int(ftl.get("gc_forced_free_blocks") or 1)
        ftl["gc_free_blocks"] = max(forced + 1, round(ftl["gc_free_blocks"] * factor))
        background = out.get("timing", {}).get("background_gc_free_blocks")
        if background is not None:  # the idle-time trigger of such a collector: the same NAND
            out["timing"]["background_gc_free_blocks"] = max(forced + 1, round(background * factor))
    if ftl.get("gc_batch_victims"):  # a batch is a share of the blocks (calibrate/batch_gc.py)
        ftl["gc_batch_victims"] = max(1, round(ftl["gc_batch_victims"] * factor))
    timing = out.get("timing", {})
    slc = timing.get("slc", {})
    if slc.get("enabled"):
        for key in ("max_bytes", "static_bytes"):
            if slc.get(key) is not None:
                slc[key] = int(slc[key] * factor)
    return out


def parse_scale(scale: str | None, full_physical_bytes: float, option: str = "--scale") -> float:
    """``scale``: None (to about 32 GiB of NAND, never enlarging), a factor ("1", "1/32",
    "0.05") or a target NAND size ("64GiB"). ``option`` names it in refusals (a target's
    ``sim:NAME@SCALE`` is not ``--scale``)."""
    if scale is None:
        return min(1.0, DEFAULT_SCALED_PHYSICAL_BYTES / full_physical_bytes)
    text = scale.strip()
    try:
        if "/" in text:
            num, den = text.split("/")
            factor = float(num) / float(den)
        else:
            factor = float(text)
    except (ValueError, ZeroDivisionError):
        try:
            nand_bytes = parse_size_bytes(text, option, bare_unit="b")
        except ConfigError as exc:
            if "expected a size like" not in str(exc):  # a size, wrongly written ('4Gb')
                raise
            raise ConfigError(
                f"{option}: expected a factor (1/32, 0.05; 1 = full size) or a NAND size "
                f"(64GiB), got {scale!r}"
            ) from None
        factor = nand_bytes / full_physical_bytes
        if factor > 1:
            raise ConfigError(
                f"{option}: {scale!r} is more NAND than the drive has at full size "
                f"({full_physical_bytes / GIB:.4g} GiB): give a smaller NAND size, or 1 for "
                "full size"
            ) from None
    if not 0 < factor <= 1:
        raise ConfigError(f"{option}: must shrink the drive (0 < factor <= 1), got {scale!r}")
    return factor


def physical_bytes(cfg: dict[str, Any]) -> int:
    """The NAND size the simulator resolves ``cfg`` to (whole blocks)."""
    geo = engine.validate(cfg)["geometry"]
    return int(geo["blocks"] * geo["pages_per_block"] * geo["page_size_bytes"])


def planned_host_pages(cfg: dict[str, Any]) -> int:
    """Host page writes of a WAF-mode run: the precondition fill (unless none), warm-up and
    measured drive writes, each in user capacities."""
    resolved = engine.validate(cfg)
    user_pages = resolved["geometry"]["user_pages"]
    run = resolved["config"]["run"]
    fill = 0.0 if resolved["config"]["precondition"]["kind"] == "none" else 1.0
    return int(user_pages * (fill + run["warmup_drive_writes"] + run["drive_writes"]))


def estimated_seconds(cfg: dict[str, Any]) -> float:
    """About how long a WAF-mode run of ``cfg`` takes here (see ESTIMATE_HOST_PAGES_PER_S)."""
    return planned_host_pages(cfg) / ESTIMATE_HOST_PAGES_PER_S


def is_timed(cfg: dict[str, Any]) -> bool:
    return bool(cfg.get("timing", {}).get("enabled"))


def workload_class(cfg: dict[str, Any]) -> str:
    """The row of MEASURED_WAF_ERROR_PERCENT a config's workload falls in ("zoned" is its own
    class, with no measured bound)."""
    return str(engine.validate(cfg)["config"]["workload"]["pattern"])


@dataclass(frozen=True)
class ScaledSweep:
    configs: list[dict[str, Any]]
    factor: float  # 1.0: full size
    note: str | None  # what was scaled and the error that costs, for the output


def scale_sweep(configs: Sequence[dict[str, Any]], scale: str | None) -> ScaledSweep:
    """One factor for every point of a sweep. ``scale`` given: that factor or NAND size
    (relative to the largest drive of the sweep). ``scale`` None: WAF-mode sweeps whose
    longest full-size point would take more than AUTO_SCALE_SECONDS are scaled to about
    DEFAULT_SCALED_PHYSICAL_BYTES of NAND; others run full size."""
    configs = list(configs)
    if not configs:
        return ScaledSweep(configs, 1.0, None)
    full = max(physical_bytes(c) for c in configs)
    if scale is None:
        if any(is_timed(c) for c in configs):
            return ScaledSweep(configs, 1.0, None)
        seconds = max(estimated_seconds(c) for c in configs)
        factor = parse_scale(None, full)
        if seconds <= AUTO_SCALE_SECONDS or factor >= 1.0:
            return ScaledSweep(configs, 1.0, None)
        why = f"full size would take about {seconds:.0f} s a point here"
    else:
        factor = parse_scale(scale, full)
        if factor >= 1.0:
            return ScaledSweep(configs, 1.0, None)
        why = f"--scale {scale}"
    scaled = [scale_config(c, factor) for c in configs]
    for i, cfg in enumerate(scaled, start=1):
        try:
            blocks = engine.validate(cfg)["geometry"]["blocks"]
        except ConfigError as exc:
            raise ConfigError(f"--scale: point {i} scaled by {factor:.4g}: {exc}") from exc
        if blocks < MIN_SCALED_BLOCKS:
            raise ConfigError(
                f"--scale {scale}: point {i} would have {blocks} erase blocks, fewer than the "
                f"{MIN_SCALED_BLOCKS} that keep GC's steady state; scale less"
            )
    classes = sorted({workload_class(c) for c in scaled})
    bounds = []
    for name in classes:
        if name in MEASURED_WAF_ERROR_PERCENT:
            bounds.append(f"{name} ≤ {MEASURED_WAF_ERROR_PERCENT[name]:.1f} %")
        else:
            bounds.append(f"{name}: not measured")
    small = max(physical_bytes(c) for c in scaled)
    note = (
        f"scaled drive: {factor_text(factor)} of full size ({small / GIB:.1f} GiB of NAND instead "
        f"of {full / GIB:.1f} GiB; {why}). WAF error of drives scaled to about "
        f"{DEFAULT_SCALED_PHYSICAL_BYTES / GIB:.0f} GiB, measured against full size "
        f"(docs/scale.md): {', '.join(bounds)}. --scale 1 runs full size."
    )
    if small < 0.9 * DEFAULT_SCALED_PHYSICAL_BYTES:
        note += (
            f" This drive is smaller than that ({small / GIB:.3g} GiB): its error is larger "
            "(the table in docs/scale.md shows how much at 8 and 2 GiB)."
        )
    return ScaledSweep(scaled, factor, note)
