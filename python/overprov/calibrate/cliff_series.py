"""Steps in an IOPS series: the SLC cache's cliff (or rise) and, in a scaled drive's write
series, the write buffer's fill.

- :func:`find_cliff`: the first lasting drop of at least ``min_drop`` below the level before it,
  placed inside the interval that fell; the levels are medians, so a GC burst or a fold stall
  does not move them. :func:`find_step`: a drop or, where there is none, a rise.
- :func:`buffer_fill_bytes` and :func:`cache_step`: a write buffer takes host writes at the
  link's or the controller's rate while the dies drain it at theirs, so a buffer of B bytes is
  full after B × before ÷ (before − after) host bytes, and the series steps down there. At full
  size (a real drive's fio log) that is a fraction of a second; in a drive simulated at scale s
  the buffer is not scaled (``overprov.presets``), so it holds B ÷ s of full-size bytes and its
  fill is a step of its own before the cache's (the 32 MiB buffer of the consumer-tlc-sata
  preset at 1/125: a 30-s step at the SATA link after 16.5 GB, its 42 GB cache's end after
  46 GB; docs/calibrate-cliff.md, "The consumer presets' step: the write buffer's fill").
  :func:`cache_step` passes over such a step to the one after it.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass

#: how close a step's host bytes must come to the buffer's fill to be taken for it
BUFFER_FILL_TOLERANCE = 0.15
#: With this flag (off by default: bench/results/cliffbuffer/RULE.md), :func:`cache_step` also
#: takes a first drop for the write buffer's where the host bytes the series wrote above the
#: level after it, up to the interval that fell (:func:`excess_bytes`: what a buffer fed at the
#: series' rate and drained at the level after holds), come within
#: :data:`BUFFER_FILL_TOLERANCE` of the buffer's bytes: a test that needs no level before, which
#: a median over a few intervals straddling the fill misreads
#: (bench/results/cliffbuffer/DIAGNOSIS.md). The calibrate step's series then runs on past it
#: (``cliff_step.found``), to the cache's step or its drive-write bound.
PAST_BUFFER_STEP = False


@dataclass(frozen=True)
class Cliff:
    """A cliff at ``time_s`` (full-size seconds of the workload) after
    ``host_write_bytes_before`` host bytes written (full size), from ``iops_before`` to
    ``iops_after`` (all I/Os, reads included)."""

    time_s: float
    host_write_bytes_before: float
    iops_before: float
    iops_after: float

    @property
    def lost_iops(self) -> float:
        return self.iops_before - self.iops_after

    def to_dict(self) -> dict[str, float]:
        return {**asdict(self), "lost_iops": self.lost_iops}


@dataclass(frozen=True)
class Series:
    """Per-interval figures of one timed run, full-size time."""

    times_s: list[float]
    """End of each interval."""
    iops: list[float]
    write_iops: list[float]
    gc_started: list[bool]
    """Whether garbage collection had run by the interval (the core's state past "fob")."""


def find_cliff(
    series: Series,
    *,
    bs_bytes: int = 4096,
    min_drop: float = 0.1,
    before_gc: bool = True,
    min_before: int = 3,
    rise: bool = False,
    start: int = 0,
) -> Cliff | None:
    """The first lasting drop in ``series``: the first interval after which the median of the
    next three is at least ``min_drop`` below the median of those before it (but the first,
    and at least ``min_before`` of them: one interval is no level, and the one after the
    write buffer's burst is often still on its way down to the plateau).
    The level after is the median over the rest of the analysed intervals (at least three), and
    the next three must have come at least half-way down to it (a noisy dip before the cliff is
    below the level before, but not yet at the level after).
    None: no such drop (a cliff inside the first ``min_before`` intervals is not found: log
    finer intervals).
    ``before_gc``: only the intervals before garbage collection first ran (the cache's cliff,
    not the FOB → steady-state one).
    ``rise``: the cache's end as a lasting *rise* instead (a drive whose SLC-mode programs
    write fewer bytes per die-second than its TLC ones writes faster past its cache): found as
    a drop of the time per I/O, so a rise of at least 1 / (1 − ``min_drop``) − 1; the
    returned levels are IOPS, ``lost_iops`` negative.
    ``start``: the level before is read from interval ``start`` on (past an earlier step:
    :func:`cache_step`); the host bytes and the time still count from the series' start."""
    n = len(series.iops)
    if before_gc and any(series.gc_started):
        n = series.gc_started.index(True)
    y = series.iops[:n]
    if rise:
        y = [1e6 / v if v > 0 else math.inf for v in y]
    lo = max(1, start)
    first = lo + max(1, min_before)
    for k in range(first, n - 2):
        # the first interval is left out of the level before: it holds the write buffer's
        # filling (a burst at the controller's speed), not the cache's plateau
        before = statistics.median(y[lo:k])
        if statistics.median(y[k : k + 3]) < before * (1 - min_drop):
            after = statistics.median(y[k:])
            if after >= before * (1 - min_drop):
                continue  # a dip, not a cliff
            if statistics.median(y[k : k + 3]) > (before + after) / 2:
                continue  # a noisy dip before the cliff: not yet half-way down to the level after
            # the first interval that fell: at the first candidate, it may be among the
            # ``min_before`` intervals of the level before
            while k == first and k > lo + 1 and y[k - 1] < before * (1 - min_drop / 2):
                k -= 1
                first = k
            while y[k] >= before * (1 - min_drop / 2):
                k += 1
            dt = [t - (series.times_s[i - 1] if i else 0.0) for i, t in enumerate(series.times_s)]
            written = sum(series.write_iops[i] * dt[i] for i in range(k)) * bs_bytes
            # the drop falls inside interval k: the share of it still at the level before
            share = min(1.0, max(0.0, (y[k] - after) / (before - after)))
            w_before = statistics.median(series.write_iops[lo:k])
            written += share * dt[k] * w_before * bs_bytes
            if rise:
                before, after = 1e6 / before, 1e6 / after
            return Cliff(series.times_s[k - 1] + share * dt[k], written, before, after)
    return None


def find_step(
    s: Series, bs_bytes: int = 4096, min_drop: float = 0.1, start: int = 0
) -> tuple[Cliff | None, bool]:
    """The cache's end in a write series: a drop (:func:`find_cliff`) or, where there is none,
    a rise (``rise=True``); with whether it is the rise. (None, True): no step either way."""
    drop = find_cliff(s, bs_bytes=bs_bytes, min_drop=min_drop, start=start)
    if drop is not None:
        return drop, False
    return find_cliff(s, bs_bytes=bs_bytes, min_drop=min_drop, rise=True, start=start), True


def buffer_fill_bytes(iops_in: float, iops_out: float, buffer_bytes: float) -> float:
    """The host bytes after which a write buffer of ``buffer_bytes`` (full-size bytes) is
    full, taking writes at ``iops_in`` and drained at ``iops_out`` (the same request size);
    inf where it does not fill."""
    if iops_out >= iops_in:
        return math.inf
    return buffer_bytes * iops_in / (iops_in - iops_out)


def excess_bytes(s: Series, k: int, after_iops: float, bs_bytes: int = 4096) -> float:
    """The host bytes ``s`` wrote above ``after_iops`` over its intervals 0 to ``k``
    (included): a write buffer fed at the series' rate and drained at ``after_iops`` holds
    these at the end of interval ``k`` (the one its fill fell in), whatever the levels were."""
    dt = [t - (s.times_s[i - 1] if i else 0.0) for i, t in enumerate(s.times_s)]
    return sum((s.write_iops[i] - after_iops) * dt[i] for i in range(k + 1)) * bs_bytes


def cache_step(
    s: Series, *, bs_bytes: int = 4096, min_drop: float = 0.1, rise: bool | None = None,
    buffer_bytes: float = 0.0,
) -> tuple[Cliff | None, bool, int]:  # fmt: skip
    """The cache's end in a write series, with whether it is a rise and the interval its
    level before is read from. The first step (:func:`find_step`, or of the kind ``rise``
    says) is passed over where it is a drop at the host bytes a write buffer of
    ``buffer_bytes`` (full-size bytes: a simulated drive's buffer ÷ its scale) fills at, taking
    writes at the level before and drained at the level of the next three intervals (within
    ``BUFFER_FILL_TOLERANCE``; with :data:`PAST_BUFFER_STEP` also where the
    :func:`excess_bytes` up to the interval that fell come within it of ``buffer_bytes``):
    then the step after it, its level before read from the
    interval after the one the buffer's fill fell in, or (None, True, 0) where none follows
    (the series shows the buffer, not the cache; a cache ending just where the buffer would
    fill is not told from it, and is left unfitted rather than mistaken)."""

    def step(start: int) -> tuple[Cliff | None, bool]:
        if rise is None:
            return find_step(s, bs_bytes, min_drop, start)
        return find_cliff(s, bs_bytes=bs_bytes, min_drop=min_drop, rise=rise, start=start), rise

    first, is_rise = step(0)
    if first is None or is_rise or buffer_bytes <= 0:
        return first, is_rise, 0
    k = next((i for i, t in enumerate(s.times_s) if t >= first.time_s), len(s.times_s))
    # drained at the level just after the fill (the rest of the series may step again)
    drained = s.iops[k + 1 : k + 4]
    if not drained:
        return first, is_rise, 0
    fill = buffer_fill_bytes(first.iops_before, statistics.median(drained), buffer_bytes)
    near = abs(first.host_write_bytes_before / fill - 1) <= BUFFER_FILL_TOLERANCE
    if not near and PAST_BUFFER_STEP:
        held = excess_bytes(s, k, statistics.median(drained), bs_bytes)
        near = abs(held / buffer_bytes - 1) <= BUFFER_FILL_TOLERANCE
    if not near:
        return first, is_rise, 0
    later, later_rise = step(k + 1)
    if later is None:
        return None, True, 0
    return later, later_rise, k + 1
