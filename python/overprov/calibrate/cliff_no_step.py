"""A write series with no step: the drive's writes fitted without a cache (``overprov calibrate
--cliff`` where the series neither drops nor rises before garbage collection; cliff.py fits the
series that step)."""

from __future__ import annotations

import statistics
from typing import Any

from overprov.calibrate.cliff import (
    CHECK_LEVEL,
    TLC_PROGRAM_FACTOR_RANGE,
    CacheFit,
    Series,
    _bisect,
    find_step,
    fitted_drive,
    simulate_series,
)
from overprov.errors import ConfigError


def fit_without_cache(
    measured: Series,
    twin: dict[str, Any],
    scale: float,
    *,
    qd: int = 32,
    iterations: int = 7,
    precondition: str = "none",
    bs_bytes: int = 4096,
    min_drop: float = 0.1,
) -> CacheFit:
    """The drive's writes without a cache: for a write series (``qd``, ``bs_bytes``) that
    shows no step at all — neither a drop nor a rise (:func:`find_cliff`) — before garbage
    collection: whatever cache the drive has writes at the rate of its writes past it, so the
    series cannot size it, and the twin is taken without one (its SLC cache off). Its TLC
    program time is the one at which that twin reproduces the series' level (the median of
    its intervals but the first), by bisection in the twin's ÷4 to ×4.

    What this claims is only what the series shows: no step of ``min_drop`` or more in the
    bytes it wrote (:func:`predict` checks the caches that leaves unseen). A cache
    that writes at the same rate can still change a mixed workload (its SLC reads, its
    programs' share of a die); that is not identified here.

    Refused (ConfigError): a series with a step (fit it with :func:`fit_cache`), a level the
    TLC program time cannot reproduce or meets only next to a bound (a controller's or the
    link's ceiling sets it), or a twin whose own series shows a step or misses the level by
    more than 10%."""
    if find_step(measured, bs_bytes, min_drop)[0] is not None:
        raise ConfigError("cliff: the measured series shows a step: fit it with fit_cache")
    end = measured.gc_started.index(True) if any(measured.gc_started) else len(measured.iops)
    if end < 4:
        raise ConfigError("cliff: fit refused: fewer than 4 intervals before garbage collection")
    level = statistics.median(measured.iops[1:end])
    step = measured.times_s[0]
    twin_tlc = twin.get("config", {}).get("timing", {}).get("nand", {}).get("program_us")
    if twin_tlc is None:
        raise ConfigError("cliff: the twin has no timing.nand.program_us to fit from")

    def series(tlc_us: float) -> Series:
        fit = CacheFit(0.0, 0.0, None, False, tlc_us, bs_bytes)
        return simulate_series(
            fitted_drive(twin, fit), scale, qd=qd, seconds=end * step, interval_s=step,
            precondition=precondition, bs_bytes=bs_bytes,
        )  # fmt: skip

    def own_level(tlc_us: float) -> float:
        return statistics.median(series(tlc_us).iops[1:end])

    lo, hi = (twin_tlc * f for f in TLC_PROGRAM_FACTOR_RANGE)
    tlc_us = _bisect(own_level, lo, hi, level, iterations)
    if tlc_us is None:
        raise ConfigError(
            f"cliff: fit refused: no TLC program time in {lo:.0f}-{hi:.0f} µs reproduces the "
            f"level of {level:,.0f} IOPS without a step, or any fast one does (a ceiling)"
        )
    check = series(tlc_us)
    own = statistics.median(check.iops[1:end])
    stepped = find_step(check, bs_bytes, min_drop)[0]
    if stepped or abs(own / level - 1) > CHECK_LEVEL:
        raise ConfigError(
            f"cliff: fit refused: the twin without a cache (TLC {tlc_us:.0f} µs) does not "
            f"reproduce the level of {level:,.0f} IOPS without a step (its own: {own:,.0f}, "
            f"step {stepped})"
        )
    return CacheFit(0.0, 0.0, None, False, tlc_us, bs_bytes, min_drop=min_drop)
