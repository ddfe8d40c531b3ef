"""The steady window of a timed simulation and the figures over it: one definition for
``overprov simulate`` (its table and ``--json``), the report and calibrate's twin.

A timed run's ``timed.steady_window`` [first, last] (interval indexes, from the core) is the
last window of five rounds that met the SNIA steady-state rule (range within 20% and the fitted
excursion within 10% of the mean IOPS; a round is ``timing.state_round_drive_writes`` of host
writes). Its figures:

- IOPS: the mean of the window's intervals (the core's ``steady_iops``);
- WAF: NAND bytes ÷ host bytes over the window, i.e. each interval's WAF weighted by the host
  bytes it wrote. Not the whole measured part: without a precondition or a warm-up that holds
  the fresh-out-of-box stretch at WAF 1.

A run that never met the rule has no steady window; its last fifth of intervals stands in,
labelled NOT steady.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

STEADY = "steady window"
LAST_FIFTH = "last fifth (NOT steady)"


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def timed_intervals(timed: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The intervals of a timed run that carry an IOPS figure (the ones windows index)."""
    return [iv for iv in timed.get("intervals") or [] if _number(iv.get("iops")) is not None]


def window_waf(intervals: Sequence[Mapping[str, Any]], first: int, last: int) -> float | None:
    """NAND bytes / host bytes over intervals ``first``..``last``: each interval's WAF weighted
    by the host bytes it wrote (``host_bytes_total`` differences). An interval that wrote
    nothing has no WAF and weighs nothing (a drive so slow that no write completes in it)."""
    prev = _number(intervals[first - 1].get("host_bytes_total")) if first > 0 else 0.0
    host = nand = 0.0
    for iv in intervals[first : last + 1]:
        total = _number(iv.get("host_bytes_total"))
        waf = _number(iv.get("waf"))
        if waf is None and total is not None and total == prev:
            continue
        if total is None or waf is None or prev is None:
            return None
        host += total - prev
        nand += (total - prev) * waf
        prev = total
    return nand / host if host > 0 else None


@dataclass(frozen=True)
class SteadyWindow:
    """The window a timed run's steady figures come from, and those figures."""

    first: int
    """Index of the window's first interval (0-based)."""
    last: int
    intervals: int
    """Intervals in the run."""
    steady: bool
    """False: no window met the rule, the last fifth stands in."""
    what: str
    """:data:`STEADY` or :data:`LAST_FIFTH`."""
    iops: float
    """Mean IOPS of the window's intervals."""
    waf: float | None
    """NAND ÷ host bytes over the window (None when the intervals carry no WAF)."""
    time_s: tuple[float, float] | None
    """Simulated seconds from the window's start to its end."""
    drive_writes: tuple[float, float] | None
    """Host writes (in user capacities) at the window's start and end."""

    def text(self) -> str:
        """The window named: "steady window: intervals 301–400 of 400, 300–400 s simulated,
        4.00–5.00 drive writes"."""
        out = f"{self.what}: intervals {self.first + 1:,}–{self.last + 1:,} of {self.intervals:,}"
        if self.time_s is not None:
            out += f", {self.time_s[0]:,.0f}–{self.time_s[1]:,.0f} s simulated"
        if self.drive_writes is not None:
            out += f", {self.drive_writes[0]:.2f}–{self.drive_writes[1]:.2f} drive writes"
        return out

    def to_dict(self) -> dict[str, Any]:
        """The window as simulate's JSON gives it (``timed.steady_window_figures``)."""
        return {
            "window": [self.first, self.last],
            "steady": self.steady,
            "text": self.text(),
            "iops": self.iops,
            "waf": self.waf,
        }


def steady_window(timed: Mapping[str, Any]) -> SteadyWindow | None:
    """The steady window of a timed run (``timed`` as the core reports it), or its last fifth
    when no window met the rule; None when the run has no intervals."""
    intervals = timed_intervals(timed)
    if not intervals:
        return None
    window = timed.get("steady_window")
    if (
        isinstance(window, Sequence)
        and len(window) == 2
        and all(isinstance(k, int) for k in window)
        and 0 <= window[0] <= window[1] < len(intervals)
    ):
        first, last, steady, what = window[0], window[1], True, STEADY
    else:
        first = len(intervals) - max(1, len(intervals) // 5)
        last, steady, what = len(intervals) - 1, False, LAST_FIFTH
    values = [float(iv["iops"]) for iv in intervals[first : last + 1]]
    t_b = _number(intervals[last].get("time_s"))
    t_a = (_number(intervals[first].get("time_s")) or 0.0) - (
        _number(timed.get("interval_s")) or 1.0
    )
    dw_a = _number(intervals[first - 1].get("drive_writes_total")) if first > 0 else 0.0
    dw_b = _number(intervals[last].get("drive_writes_total"))
    return SteadyWindow(
        first=first,
        last=last,
        intervals=len(intervals),
        steady=steady,
        what=what,
        iops=sum(values) / len(values),
        waf=window_waf(intervals, first, last),
        time_s=(max(t_a, 0.0), t_b) if t_b is not None else None,
        drive_writes=(dw_a, dw_b) if dw_a is not None and dw_b is not None else None,
    )


def window_percentile(timed: Mapping[str, Any], window: SteadyWindow, key: str) -> float | None:
    """The median over ``window`` of each interval's latency percentile ``key`` (µs): how
    simulate, the report and calibrate quote a timed run's steady latency."""
    values = sorted(
        float(v)
        for iv in timed_intervals(timed)[window.first : window.last + 1]
        if (v := _number((iv.get("latency_us") or {}).get(key))) is not None
    )
    return values[len(values) // 2] if values else None


def window_name(figures: dict[str, Any]) -> str:
    """The name of the window the latency percentiles cover, from the states its intervals
    had (``window_states``): "steady window" only when every interval of it was steady; a
    window the simulator marked transition is "last drive write (transition, not steady)"; a
    fio run (no states) is "last round" (its steady state is not judged)."""
    states = list(figures.get("window_states") or [])
    if states == ["steady"]:
        return "steady window"
    if not states:
        return "last round"
    return f"last drive write ({', '.join(states)}, not steady)"


def least_squares_slope(values: Sequence[float]) -> float:
    """Slope of the least-squares line through (i, values[i]), i = 0, 1, …; needs 2+ values."""
    n = len(values)
    if n < 2:
        raise ValueError("a slope needs at least two values")
    x_mean = (n - 1) / 2.0
    y_mean = math.fsum(values) / n
    sxy = math.fsum((i - x_mean) * (y - y_mean) for i, y in enumerate(values))
    sxx = math.fsum((i - x_mean) ** 2 for i in range(n))
    return sxy / sxx
