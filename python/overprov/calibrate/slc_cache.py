"""The SLC cache in a twin's drive file (``cliff.py``): what :func:`cliff.fit_cache` fits
(:class:`CacheFit`), a drive with a cache put in its place (:func:`with_cache`), the twin with
the fitted cache (:func:`fitted_drive`), and one with a cache a write series without a step
cannot see (:func:`hidden_cache_drive`, which ``cliff.predict`` checks a fit without a cache
against)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from overprov.calibrate.cliff_series import Cliff


@dataclass(frozen=True)
class CacheFit:
    cache_bytes: float
    """The SLC cache the drive had in the measured state (full size)."""
    slc_program_us: float
    measured: Cliff | None
    """The measured cliff; None: a fit without a cache (``cliff_no_step.fit_without_cache``)."""
    static: bool = False
    """Fitted on a filled drive: ``cache_bytes`` is the static region (the dynamic part on
    unwritten capacity is gone there)."""
    tlc_program_us: float | None = None
    """The TLC program time (per flash page) that reproduces the level after the cliff, the
    drive's writes programmed in TLC directly; None: the twin's kept."""
    bs_bytes: int = 4096
    """The measured series' request size."""
    slc_at_ceiling: bool = False
    """The plateau was at a ceiling (the link's or the controller's): ``slc_program_us`` is
    not identified, only bounded (below)."""
    min_drop: float = 0.1
    """The least step looked for in the series (a fit without a cache: it showed none)."""


def with_cache(
    drive: dict[str, Any], cache_bytes: float, program_us: float, *,
    static_bytes: float | None = None, tlc_program_us: float | None = None,
) -> dict[str, Any]:  # fmt: skip
    """``drive`` with its SLC cache replaced by one of ``cache_bytes`` and ``program_us``:
    dynamic only, or with a static region of ``static_bytes`` and the dynamic part on
    unwritten capacity; with ``tlc_program_us``, its TLC program time (per flash page) too."""
    d = copy.deepcopy(drive)
    timing = d.setdefault("config", {}).setdefault("timing", {})
    slc = timing.setdefault("slc", {})
    slc.update(enabled=True, max_bytes=int(cache_bytes), program_us=float(program_us))
    slc.pop("static_bytes", None)
    slc.pop("dynamic_space", None)
    if static_bytes is not None:
        slc.update(static_bytes=int(static_bytes), dynamic_space="unwritten")
    slc.setdefault("read_us", 30.0)
    if tlc_program_us is not None:
        timing.setdefault("nand", {})["program_us"] = float(tlc_program_us)
    return d


def fitted_drive(
    twin: dict[str, Any], fit: CacheFit, static_fit: CacheFit | None = None
) -> dict[str, Any]:
    """``twin`` with the fitted cache: ``fit`` from a purged drive (the whole cache) and, if
    given, ``static_fit`` from a filled one (its static region); or ``fit`` alone from a filled
    drive (a static region, no dynamic part). The TLC program time is ``fit``'s if it has one.
    A fit without a cache (``cache_bytes`` 0): the twin with its SLC cache switched off."""
    tlc = fit.tlc_program_us
    if fit.cache_bytes <= 0:
        d = with_cache(twin, 1e9, 200.0, tlc_program_us=tlc)
        d["config"]["timing"]["slc"]["enabled"] = False
        return d
    if fit.static:
        return with_cache(
            twin, fit.cache_bytes, fit.slc_program_us, static_bytes=fit.cache_bytes,
            tlc_program_us=tlc,
        )  # fmt: skip
    static = None if static_fit is None else min(static_fit.cache_bytes, fit.cache_bytes)
    return with_cache(
        twin, fit.cache_bytes, fit.slc_program_us, static_bytes=static, tlc_program_us=tlc
    )


def hidden_cache_drive(
    twin: dict[str, Any], fit: CacheFit, share: float, rate: float = 1.0
) -> dict[str, Any]:
    """``twin`` with a cache a write series without a step cannot see: ``share`` of its
    capacity, its SLC programs (a third of a flash page) writing ``rate`` times the bytes per
    die-second of the fitted TLC ones (at 1 the core's drive is the same as without it)."""
    tlc = fit.tlc_program_us
    if tlc is None:
        tlc = twin["config"]["timing"]["nand"]["program_us"]
    size = share * twin["advertised_bytes"]
    return with_cache(twin, size, tlc / 3 / rate, tlc_program_us=tlc)
