"""The SLC-cache write cliff: found in an IOPS series, fitted from a write-saturation series,
predicted under another workload.

A client drive writes host data in SLC mode while its dynamic cache has room (fast), then
programs TLC directly and folds the cache (slow): a *cliff* in the IOPS series. Two figures
describe it to a user: when it comes (seconds of the workload, or host bytes written) and how
many IOPS it costs.

- :func:`find_cliff`: the cliff in a series (the first lasting drop of at least ``min_drop``
  below the level before it, placed inside the interval that fell); the levels are medians, so
  a GC burst or a fold stall does not move them.
- :func:`fit_cache`: from a FOB → write-saturation series (4 KiB random writes from a purged
  drive, calibrate's workload), the cache's size — the host bytes written before the cliff —
  and the SLC program time that reproduces the plateau's IOPS in the drive's simulation. On a
  purged drive that is the whole cache (static region and dynamic part); the same series from
  a filled drive (``precondition="sequential"``) gives the static region alone when the
  dynamic part lives on unwritten capacity (the core's ``timing.slc.dynamic_space``).
- :func:`predict`: the drive with the fitted cache simulated under another workload (queue
  depth, read share), from a purged or a filled drive; its cliff is the prediction.

The fitted cache in a drive file (:class:`CacheFit`, :func:`with_cache`, :func:`fitted_drive`)
is ``slc_cache.py``'s.

The series come from the core (:func:`simulate_series`, a timed run of a drive file); a real
drive's series is fio's per-second IOPS log. Times and bytes of a scaled drive are converted to
the full-size drive (cache and bytes scale with capacity, the write rate does not: a scaled
drive's seconds ÷ scale are the full-size drive's, and so are IOPS × those seconds).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import replace
from typing import Any

from overprov import engine, presets
from overprov.calibrate import cliff_at_cache, read_slot
from overprov.calibrate.cliff_series import (
    Cliff,
    Series,
    buffer_fill_bytes,
    cache_step,
    find_cliff,
    find_step,
)
from overprov.calibrate.slc_cache import CacheFit, fitted_drive, hidden_cache_drive, with_cache
from overprov.errors import ConfigError

__all__ = [
    "CacheFit", "Cliff", "Series", "errors", "find_cliff", "find_step", "fit_cache",
    "fitted_drive", "predict", "read_slot_series", "simulate_series",
    "with_cache",
]  # fmt: skip


def _config(
    drive: dict[str, Any], scale: float, *, qd: int, read_percent: int, seconds: float,
    interval_s: float, precondition: str, bs_bytes: int = 4096,
) -> dict[str, Any]:  # fmt: skip
    cfg = presets._build(drive, scale)  # noqa: SLF001 - the one builder of a drive's config
    timing = cfg.setdefault("timing", {})
    timing["enabled"] = True
    timing.setdefault("host", {})["queue_depth"] = qd
    timing["duration_s"] = seconds
    timing["interval_s"] = interval_s
    workload = cfg.setdefault("workload", {})
    workload["read_percent"] = read_percent
    if bs_bytes != 4096:
        workload["request_bytes"] = bs_bytes
    cfg.setdefault("precondition", {})["kind"] = precondition
    cfg.setdefault("run", {})["warmup_drive_writes"] = 0.0
    return cfg


def simulate_series(
    drive: dict[str, Any],
    scale: float,
    *,
    qd: int = 32,
    read_percent: int = 0,
    seconds: float,
    interval_s: float,
    precondition: str = "sequential",
    bs_bytes: int = 4096,
) -> Series:
    """A timed run of ``drive`` (a preset or drive-file dict) at ``scale``, ``seconds`` of
    full-size time in intervals of ``interval_s`` (full size), random I/O of ``bs_bytes`` at
    ``qd``, ``read_percent`` reads, from ``precondition`` ("sequential": filled; "none":
    fresh). Its IOPS are requests per second (of ``bs_bytes`` each)."""
    if not 0 < scale <= 1:
        raise ConfigError(f"cliff: scale {scale} not in (0, 1]")
    cfg = _config(
        drive, scale, qd=qd, read_percent=read_percent, seconds=seconds * scale,
        interval_s=interval_s * scale, precondition=precondition, bs_bytes=bs_bytes,
    )  # fmt: skip
    engine.validate(cfg)
    rep = engine.run(cfg)
    iv = rep["timed"]["intervals"]
    return Series(
        times_s=[i["time_s"] / scale for i in iv],
        iops=[i["iops"] for i in iv],
        write_iops=[i["write_iops"] for i in iv],
        gc_started=[i["state"] != "fob" for i in iv],
    )


#: ``predict``'s read slot (µs) by default: None, off (:func:`read_slot_series`)
READ_SLOT_US: float | None = None


def read_slot_series(
    drive: dict[str, Any], scale: float, *, qd: int, read_percent: int, seconds: float,
    interval_s: float, read_slot_us: float, seed: int = 1,
    read_slot_until_bytes: float | None = None, unwritten_read_us: float | None = None,
    command_ceiling_iops: float | None = None, loop_kw: dict[str, Any] | None = None,
) -> Series:  # fmt: skip
    """:func:`simulate_series` from purged with each read of a page already written holding
    its queue slot ``read_slot_us`` (a drive's measured read time: a latency, the same at any
    ``scale``, as the simulated drive's own reads are) and booking
    nothing in the core (``read_slot``: why, and where it was checked); with
    ``read_slot_until_bytes`` (full size) only until the host has written that much, reads of
    written pages sent to the drive after (``read_probes``: a slot measured before the cliff);
    ``unwritten_read_us``: each read of a page never written holds its slot that long (a
    drive's measured read of trimmed space), not sent to the drive. ``command_ceiling_iops``:
    every command, a read holding its slot too, passes a ceiling of that many a second
    (``cliff_mix``; None: none). ``loop_kw``: more of ``read_slot.request_loop``'s arguments
    (``cliff_past``)."""
    cfg = _config(
        drive, scale, qd=qd, read_percent=0, seconds=seconds * scale,
        interval_s=interval_s * scale, precondition="none",
    )  # fmt: skip
    until = None if read_slot_until_bytes is None else read_slot_until_bytes * scale
    events, report = read_slot.request_loop(
        cfg, qd=qd, read_percent=read_percent, end_ns=int(seconds * scale * 1e9),
        read_slot_ns=int(read_slot_us * 1e3), seed=seed, read_slot_until_bytes=until,
        unwritten_slot_ns=None if unwritten_read_us is None else int(unwritten_read_us * 1e3),
        command_gap_ns=None if not command_ceiling_iops else round(1e9 / command_ceiling_iops),
        **(loop_kw or {}),
    )  # fmt: skip
    return read_slot.binned(events, report, interval_ns=interval_s * scale * 1e9, scale=scale)


#: whether :func:`fit_cache` passes over a write buffer's fill to a later step by default
PAST_BUFFER = False
#: whether :func:`fit_cache` reads the bisection's plateau past the twin's write buffer's fill
#: by default (``plateau_past_fill``: bench/results/clifflift/RULE.md)
PLATEAU_PAST_FILL = False
#: ``plateau_past_fill``: the intervals read past the fill, and the most intervals simulated
#: (as a multiple of those up to the measured cliff)
PAST_FILL_INTERVALS, PAST_FILL_MAX_FACTOR = 3, 4
#: the bisection's bounds of the SLC program time (µs per SLC page)
SLC_PROGRAM_US_RANGE = (20.0, 2000.0)
#: the bisection's bounds of the TLC program time, as factors of the twin's
TLC_PROGRAM_FACTOR_RANGE = (0.25, 4.0)
#: how closely the fitted drive must reproduce the measured cliff (time; levels before, after)
CHECK_TIME, CHECK_LEVEL = 0.15, 0.10
#: ``fit_cache(ceiling=True)``: the bound is the SLC program time at which the plateau falls
#: this far below the ceiling; the time taken, this share of it (the middle of (0, bound]: the
#: time is known only to lie there)
CEILING_MARGIN, CEILING_SHARE = 0.05, 0.5
#: how far the predictions at half the bound and at the bound may differ (time, IOPS lost);
#: also how far a hidden cache may move a fit without a cache's prediction
BOUND_SPREAD = 0.25
#: a fit without a cache (no step in the writes) is checked against caches it cannot see: of
#: these shares of the advertised capacity (log-spaced over the range client drives' dynamic
#: caches span, not fitted to any truth), their SLC programs writing as fast as the TLC ones
#: give or take a step the series was not searched for (the fit's ``min_drop``)
HIDDEN_CACHE_SHARES = (0.005, 0.01, 0.02, 0.04)


def _bisect(f, lo: float, hi: float, target: float, iterations: int) -> float | None:
    """The x in [lo, hi] (log scale) where the decreasing ``f`` meets ``target``; None: the
    target is outside ``f``'s range there, or met only in the last step next to a bound (``f``
    flat there, at a ceiling: x not identified)."""
    a, b = math.log(lo), math.log(hi)
    if f(lo) < target or f(hi) > target:
        return None
    for _ in range(iterations):
        mid = (a + b) / 2
        if f(math.exp(mid)) > target:
            a = mid
        else:
            b = mid
    if a == math.log(lo) or b == math.log(hi):
        return None
    return math.exp((a + b) / 2)


def fit_cache(
    measured: Series,
    twin: dict[str, Any],
    scale: float,
    *,
    qd: int = 32,
    iterations: int = 7,
    precondition: str = "none",
    fit_tlc: bool = True,
    read_percent: int = 0,
    bs_bytes: int = 4096,
    ceiling: bool = False,
    min_drop: float = 0.1,
    past_buffer: bool = PAST_BUFFER,
    plateau_past_fill: bool = PLATEAU_PAST_FILL,
    slc_range: tuple[float, float] = SLC_PROGRAM_US_RANGE,
    plateau_before_own_end: bool = False,
    own_step_share: float = 1.0,
) -> CacheFit:
    """Fit the SLC cache from a FOB → write-saturation series: 4 KiB random writes at ``qd``
    from a purged drive (calibrate's FOB segment run on past the cliff). On a purged drive
    the whole cache is free, so its size is the host bytes written before the cliff, less what
    the write buffer held (the twin's buffer, as simulated at ``scale``). From a filled drive
    (``precondition="sequential"``) the size is the static region's (a fit with ``static``). Its
    program time is the one at which ``twin`` (the drive's other figures, e.g. calibrate's
    twin) reproduces the plateau before the cliff (bisection in log time, 20-2000 µs); with
    ``fit_tlc``, the TLC program time the one at which it reproduces the level after it (the
    writes programmed in TLC directly; the twin's ÷4 to ×4). ``read_percent``: the measured
    series mixed reads in (a drive whose writes alone run at a controller's ceiling in SLC and
    TLC mode alike shows its cache only where reads wait for its programs); its levels are of
    all I/Os, its bytes of the writes. ``bs_bytes``: the measured series' request size (a
    larger one lifts a controller's per-command ceiling, so the dies set the rate before and
    after the cache). The cache's end is a drop or, where none is found, a rise
    (:func:`find_cliff`'s ``rise``: SLC-mode programs slower per byte than TLC ones).
    ``ceiling``: where every fast SLC program reproduces the plateau (a ceiling sets it, e.g.
    a SATA link's 550 MB/s that the dies outrun in SLC mode), the SLC program time is only
    bounded — at most the time at which the plateau falls 5% below the ceiling — and half
    that bound is taken (``slc_at_ceiling``) rather than the fit refused; the size and the
    level after are still fitted and checked. ``min_drop``: the least step looked for
    (:func:`find_cliff`'s; at 5% a write series shows a cache whose SLC-mode programs write
    5–10% off the TLC rate, which 10% misses; the fitted drive's own step is read the same).
    ``past_buffer``: a first step at the host bytes the twin's write buffer (as simulated at
    ``scale``) fills at, with a later step, is the buffer's, not the cache's; the later one is
    fitted (:func:`cliff_series.cache_step`), in the measured series and the fitted drive's.
    ``plateau_past_fill``: the bisection's plateau read past the twin's write buffer's fill
    (:func:`_past_fill_plateau`), so that an SLC program time is taken where the dies hold
    the plateau, not where a buffer fed at a ceiling just above it hides their shortfall for
    part of the series (bench/results/cliffcheck/UNDERLIFT.md). ``slc_range``,
    ``plateau_before_own_end``, ``own_step_share``: the bisection's bounds, the plateau read
    only before the big cache's own end, the fitted drive's own step looked for at that share
    of ``min_drop`` (``cliff_refit``: the defaults are the fit as it was).

    The size is corrected once to the bytes before the fitted drive's own cliff (what the
    write buffer held there depends on the workload).

    Refused (ConfigError), rather than predicting from a cache that is not the drive's: no
    cliff; a plateau the SLC program time cannot reproduce, or that every fast one reproduces
    (another limit, e.g. the controller, sets it: the bisection ends at its bound); a level
    after the TLC program time cannot reproduce, or ends at a bound; a fitted drive whose own
    series does not show the measured cliff within 15% in time and 10% in its levels."""
    # the write buffer fills before the cache does; it is not scaled with a simulated drive,
    # so at ``scale`` it holds buffer ÷ scale of full-size bytes
    buffer = twin.get("config", {}).get("timing", {}).get("buffer", {}).get("bytes", 0)
    fill = buffer / scale if past_buffer else 0.0
    target, rise, lo = cache_step(measured, bs_bytes=bs_bytes, min_drop=min_drop, buffer_bytes=fill)
    if target is None:
        raise ConfigError("cliff: the measured series shows no cliff before garbage collection")
    lo = max(lo, 1)
    cache = max(target.host_write_bytes_before - buffer / scale, 1e6)
    static = precondition != "none"
    region = cache if static else None
    # the simulations keep the measured series' grid, so that their levels are read as the
    # measured ones were: before, the median of the intervals 1 to k - 1 (k: the one that fell)
    step = measured.times_s[0]
    k = next(i for i, t in enumerate(measured.times_s) if t >= target.time_s)
    end = measured.gc_started.index(True) if any(measured.gc_started) else len(measured.iops)

    def series(drive: dict[str, Any], intervals: int) -> Series:
        return simulate_series(
            drive, scale, qd=qd, read_percent=read_percent, seconds=intervals * step,
            interval_s=step, precondition=precondition, bs_bytes=bs_bytes,
        )  # fmt: skip

    def own_cliff(s: Series) -> Cliff | None:
        drop = min_drop * own_step_share
        return cache_step(s, bs_bytes=bs_bytes, min_drop=drop, rise=rise, buffer_bytes=fill)[0]

    def big(program_us: float) -> dict[str, Any]:
        # a cache ten times the size: a faster one must not fill before the k-th interval
        big_region = None if region is None else 10 * cache
        return with_cache(twin, 10 * cache, program_us, static_bytes=big_region)

    def big_iops(program_us: float, n: int) -> list[float]:
        s = series(big(program_us), n)
        end = None
        if plateau_before_own_end:
            end = find_cliff(s, bs_bytes=bs_bytes, min_drop=min_drop)
        cut = next(i for i, t in enumerate(s.times_s) if t >= end.time_s) if end else n
        return s.iops[: max(cut, lo + 1)]  # a fast twin's big cache can end before k

    def plain_plateau(program_us: float) -> float:
        return statistics.median(big_iops(program_us, k)[lo:k])

    ceiling_iops: list[float] = []  # the level at the fastest SLC program, once

    def plateau(program_us: float, level: float = target.iops_before) -> float:
        if not plateau_past_fill:
            return plain_plateau(program_us)
        if not ceiling_iops:
            ceiling_iops.append(plain_plateau(slc_range[0]))
        return _past_fill_plateau(
            lambda n: big_iops(program_us, n), ceiling_iops[0], level, buffer / scale,
            bs_bytes * step, k, lo, 10 * cache,
        )  # fmt: skip

    slc_us = _bisect(plateau, *slc_range, target.iops_before, iterations)
    at_ceiling = False
    if slc_us is None and ceiling:
        # a ceiling: the plateau is met by every program up to some time; the bisection to a
        # target just under it finds that time (None if even the fastest falls short)
        under = target.iops_before * (1 - CEILING_MARGIN)
        bound = _bisect(lambda us: plateau(us, under), *slc_range, under, iterations)
        if bound is not None:
            slc_us = bound * CEILING_SHARE
            at_ceiling = True
    if slc_us is None:
        raise ConfigError(
            f"cliff: fit refused: no SLC program time in {slc_range} µs reproduces "
            f"the plateau of {target.iops_before:,.0f} IOPS before the drop, or any fast one "
            "does (another limit, a controller's ceiling, sets it: not identified)"
        )

    def fitted(tlc_us: float | None, size: float | None = None) -> Series:
        size = cache if size is None else size
        region_ = size if static else None
        drive = with_cache(twin, size, slc_us, static_bytes=region_, tlc_program_us=tlc_us)
        return series(drive, end)

    tlc_us = None
    if fit_tlc:
        twin_tlc = twin.get("config", {}).get("timing", {}).get("nand", {}).get("program_us")
        if twin_tlc is None:
            raise ConfigError("cliff: the twin has no timing.nand.program_us to fit from")

        def after(tlc: float) -> float:  # the level after, read as find_cliff reads it
            s = fitted(tlc)
            n = s.gc_started.index(True) if any(s.gc_started) else len(s.iops)
            return statistics.median(s.iops[k : max(n, k + 1)])

        lo, hi = (twin_tlc * f for f in TLC_PROGRAM_FACTOR_RANGE)
        tlc_us = _bisect(after, lo, hi, target.iops_after, iterations)
        if tlc_us is None:
            raise ConfigError(
                f"cliff: fit refused: no TLC program time in {lo:.0f}-{hi:.0f} µs reproduces the "
                f"level of {target.iops_after:,.0f} IOPS after the drop"
            )
    # the size, once more, to the bytes before the fitted drive's own cliff: what the buffer
    # held at the cliff depends on the workload (under a mix the writes do not outrun the dies
    # and it holds little), so the first guess (all of it) is corrected by the difference
    first = own_cliff(fitted(tlc_us))
    if first is not None:
        cache = max(cache + target.host_write_bytes_before - first.host_write_bytes_before, 1e6)
    check = own_cliff(fitted(tlc_us))
    if (
        check is None
        or abs(check.time_s / target.time_s - 1) > CHECK_TIME
        or abs(check.iops_before / target.iops_before - 1) > CHECK_LEVEL
        or abs(check.iops_after / target.iops_after - 1) > CHECK_LEVEL
    ):
        raise ConfigError(
            f"cliff: fit refused: the fitted drive ({cache / 1e9:.2f} GB, SLC {slc_us:.0f} µs) "
            f"does not reproduce the measured cliff ({target}); its own: {check}"
        )
    return CacheFit(cache, slc_us, target, static, tlc_us, bs_bytes, at_ceiling, min_drop)


def _past_fill_plateau(
    run, ceiling_iops: float, level: float, buffer_bytes: float, interval_bytes: float,
    k: int, lo: int, cache_bytes: float,
) -> float:  # fmt: skip
    """The plateau a write series holds once the drive's write buffer is full, to be compared
    with ``level`` (the measured plateau): ``run(n)`` the series' IOPS for ``n`` intervals of
    ``interval_bytes`` at 1 IOPS, ``ceiling_iops`` the same drive's level at the fastest SLC
    program (the link's or the controller's ceiling, c). A buffer of ``buffer_bytes`` (full
    size) fed at c and drained at a rate under ``level`` is full after at most ``buffer_bytes``
    × c ÷ (c − ``level``) host bytes (:func:`cliff_series.buffer_fill_bytes`): the plateau is the
    median of the intervals from there to the k-th, at least ``PAST_FILL_INTERVALS`` of them
    (the series run on past k if need be; at most ``PAST_FILL_MAX_FACTOR`` × k intervals and
    short of ``cache_bytes`` written at c), so a drive whose dies run under ``level`` reads
    under it however long its buffer hid them. With no buffer, a fill within the first
    intervals or a ceiling at or under ``level``: the median of intervals ``lo`` to k − 1, as
    without it."""
    fill = buffer_fill_bytes(ceiling_iops, level, buffer_bytes) if buffer_bytes > 0 else 0.0
    if not math.isfinite(fill):
        return statistics.median(run(k)[lo:k])
    per_interval = max(ceiling_iops, 1.0) * interval_bytes
    most = min(PAST_FILL_MAX_FACTOR * k, int(cache_bytes / per_interval))
    start = min(max(lo, math.ceil(fill / per_interval)), most - PAST_FILL_INTERVALS)
    if start <= lo:
        return statistics.median(run(k)[lo:k])
    n = max(k, start + PAST_FILL_INTERVALS)
    xs = run(n)  # shorter where a fast twin's cache ended (``plateau_before_own_end``)
    return statistics.median(xs[start:n] or xs[lo:n])


def _differ(a: Cliff | None, b: Cliff | None) -> bool:
    """Whether two predictions differ by more than ``BOUND_SPREAD`` in the time or the IOPS
    lost, or only one has a cliff."""
    if a is None or b is None:
        return (a is None) != (b is None)
    return abs(b.time_s / a.time_s - 1) > BOUND_SPREAD or abs(
        b.lost_iops - a.lost_iops
    ) > BOUND_SPREAD * abs(a.lost_iops)


def predict(
    twin: dict[str, Any],
    fit: CacheFit,
    scale: float,
    *,
    qd: int,
    read_percent: int,
    seconds: float,
    interval_s: float,
    precondition: str = "none",
    static_fit: CacheFit | None = None,
    hidden_cache_shares: tuple[float, ...] = HIDDEN_CACHE_SHARES,
    read_slot_us: float | None = READ_SLOT_US,
    read_slot_until_cache: bool = False,
    unwritten_read_us: float | None = None,
    command_ceiling_iops: float | None = None,
    loop_kw: dict[str, Any] | None = None,
    date_at_cache: bool = False,
) -> Cliff | None:
    """The cliff of ``twin`` with the fitted cache (:func:`fitted_drive`) under another
    workload, from a purged (``"none"``) or filled (``"sequential"``) drive.

    A fit whose SLC program time is only bounded (``slc_at_ceiling``: half the bound taken) is
    predicted with the bound itself too; where the two predictions differ by more than
    ``BOUND_SPREAD`` in the time or the IOPS lost (or one has no cliff), the prediction
    depends on what the ceiling hides and is refused (ConfigError), not made.

    A fit without a cache (``cache_bytes`` 0: no step in the writes) is predicted with each
    cache the writes could not have shown too (:func:`hidden_cache_drive`, of
    ``hidden_cache_shares`` of the capacity, SLC programs writing 1 ÷ (1 − m) times faster
    or 1 − m as fast as TLC ones per die-second: a step under the fit's ``min_drop`` m;
    ``()``: not checked); where one of them moves the prediction by more than
    ``BOUND_SPREAD`` (or only one has a cliff), the prediction depends on a cache the
    measurement cannot see and is refused (ConfigError).

    ``read_slot_us`` (off by default): reads of written pages as :func:`read_slot_series`
    (from purged only); ``read_slot_until_cache``: only until the host has written the fitted
    cache's bytes, sent to the drive after (``read_probes``: a slot measured before the
    cliff); ``unwritten_read_us`` (with ``read_slot_us``): reads of pages never written hold
    their slot that long (:func:`read_slot_series`), ``command_ceiling_iops`` (with
    ``read_slot_us``) every command under that ceiling, ``loop_kw`` (with ``read_slot_us``)
    the loop's other arguments (:func:`read_slot_series`); ``date_at_cache`` (with
    ``read_slot_us``) the cliff dated where the host has written the fitted cache
    (``cliff_at_cache``)."""
    slot = read_slot_us is not None and read_percent > 0
    if slot and precondition != "none":
        raise ConfigError("cliff: a read slot is predicted from a purged drive only")

    def series(drive: dict[str, Any], cache_bytes: float = 0.0) -> Cliff | None:
        if slot:
            s = read_slot_series(
                drive, scale, qd=qd, read_percent=read_percent, seconds=seconds,
                interval_s=interval_s, read_slot_us=read_slot_us,
                read_slot_until_bytes=cache_bytes if read_slot_until_cache else None,
                unwritten_read_us=unwritten_read_us, command_ceiling_iops=command_ceiling_iops,
                loop_kw=loop_kw,
            )  # fmt: skip
        else:
            s = simulate_series(
                drive, scale, qd=qd, read_percent=read_percent, seconds=seconds,
                interval_s=interval_s, precondition=precondition,
            )  # fmt: skip
        if slot and date_at_cache and cache_bytes > 0:
            return cliff_at_cache.dated(s, cache_bytes)
        return find_cliff(s)

    def run(fit_: CacheFit, static_: CacheFit | None) -> Cliff | None:
        return series(fitted_drive(twin, fit_, static_), fit_.cache_bytes)

    cliff = run(fit, static_fit)
    if fit.cache_bytes <= 0:
        rates = (1 / (1 - fit.min_drop), 1 - fit.min_drop)
        for share in hidden_cache_shares:
            for rate in rates:
                hidden = hidden_cache_drive(twin, fit, share, rate)
                other = series(hidden, share * twin["advertised_bytes"])
                if _differ(cliff, other):
                    raise ConfigError(
                        "cliff: not predicted: the writes show no step, and a cache they "
                        f"cannot see ({100 * share:g}% of the capacity, SLC writing {rate:.2f}× "
                        f"the TLC rate) moves the prediction (without a cache: {cliff}; with "
                        f"it: {other})"
                    )
        return cliff
    fits = [f for f in (fit, static_fit) if f is not None]
    if not any(f.slc_at_ceiling for f in fits):
        return cliff

    def at_bound(f: CacheFit | None) -> CacheFit | None:
        if f is None or not f.slc_at_ceiling:
            return f
        return replace(f, slc_program_us=f.slc_program_us / CEILING_SHARE)

    other = run(at_bound(fit), at_bound(static_fit))
    if _differ(cliff, other):
        raise ConfigError(
            "cliff: not predicted: the prediction depends on the SLC program time a ceiling "
            f"hides (at half its bound: {cliff}; at the bound: {other})"
        )
    return cliff


def errors(predicted: Cliff | None, true: Cliff | None) -> dict[str, float | None]:
    """Relative errors of the time to the cliff and of the IOPS lost (None: a cliff missing)."""
    if predicted is None or true is None:
        return {"time_error": None, "lost_error": None}
    return {
        "time_error": predicted.time_s / true.time_s - 1,
        "lost_error": predicted.lost_iops / true.lost_iops - 1,
    }
