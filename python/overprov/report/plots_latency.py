"""Latency figures: the CDF of each phase on a probit axis, and percentiles against OP."""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # before anything else of matplotlib is imported

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter  # noqa: E402

from overprov.report.model import Source, op_text  # noqa: E402
from overprov.report.plots import (  # noqa: E402
    PROBIT_FLOOR,
    PROBIT_TICKS,
    figure_title,
    legend_below,
    new_figure,
    op_axis_label,
    op_colors,
    percent_text,
    probit,
    readable_log_axis,
    source_color,
    us_text,
)


def _probit_axis(ax: object, lo: float, hi: float) -> None:
    ticks = [t for t in PROBIT_TICKS if lo * 0.5 <= t <= 1 - (1 - hi) * 0.5] or [0.5, 0.99]
    ax.yaxis.set_major_locator(FixedLocator([probit(t) for t in ticks]))  # type: ignore[attr-defined]
    ax.yaxis.set_major_formatter(FixedFormatterList([percent_text(t) for t in ticks]))  # type: ignore[attr-defined]
    ax.yaxis.set_minor_formatter(NullFormatter())  # type: ignore[attr-defined]


class FixedFormatterList(FuncFormatter):
    """Labels for a FixedLocator, by position (FixedFormatter without its warning)."""

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = list(labels)
        super().__init__(lambda _v, pos: self.labels[pos] if pos < len(self.labels) else "")


def plot_latency(source: Source) -> Figure:
    """Completion-latency CDF on a normal-probability (probit) axis, and the exceedance
    (share of I/Os at or above a latency) on a log axis; one curve per phase."""
    fig = new_figure(9.6, 4.2)
    ax_c, ax_e = fig.subplots(1, 2)
    colors = op_colors([p.op_percent for p in source.phases])
    lo, hi = 0.5, 0.5
    min_e = 1.0
    x_lo, x_hi = math.inf, 0.0
    only_percentiles = False
    for p in source.phases:
        lat = p.latency
        if lat is None:
            continue
        pts = [(x, y) for x, y in zip(*lat.cdf_points(), strict=True) if y >= PROBIT_FLOOR]
        if not pts:
            continue
        xs, ys = [x for x, _ in pts], [y for _, y in pts]
        style = "-" if lat.curve_from_histogram else "--o"
        only_percentiles |= not lat.curve_from_histogram
        label = f"OP {op_text(p.op_percent, source.op_axis)}" + (
            "" if p.steady or source.kind != "profile" else " (not steady)"
        )
        ax_c.plot(
            xs,
            [probit(y) for y in ys],
            style,
            color=colors[p.op_percent],
            lw=1.5,
            ms=4,
            label=label,
        )
        lo, hi = min(lo, min(ys)), max(hi, max(ys))
        x_lo = min(x_lo, xs[0])
        ex, ey = lat.exceedance_points()
        x_hi = max([x_hi, *ex, xs[-1]])
        pairs = [(x, y) for x, y in zip(ex, ey, strict=True) if y > 0]
        if pairs:
            ax_e.plot(
                [x for x, _ in pairs],
                [y for _, y in pairs],
                style,
                color=colors[p.op_percent],
                lw=1.5,
                ms=4,
                drawstyle="steps-post" if lat.curve_from_histogram else "default",
                label=label,
            )
            min_e = min(min_e, min(y for _, y in pairs))
    lo = max(lo, PROBIT_FLOOR)
    hi = min(hi, 1 - 1e-7)
    _probit_axis(ax_c, lo, hi)
    ax_c.set_ylim(
        probit(max(PROBIT_FLOOR * 0.8, lo * 0.8)), probit(min(1 - 1e-7, 1 - (1 - hi) * 0.7))
    )
    for ax in (ax_c, ax_e):
        ax.set_xscale("log")
        ax.set_xlabel("completion latency (µs, log scale)")
        ax.grid(True, which="major", alpha=0.35)
        ax.grid(True, which="minor", alpha=0.1)
    if 0 < x_lo < x_hi:
        # both panels over the same latencies: from where the CDF passes 0.1% to the largest
        for ax in (ax_c, ax_e):
            ax.set_xlim(x_lo / 1.3, x_hi * 1.3)
    for ax in (ax_c, ax_e):
        readable_log_axis(ax, "x", us_text)
    ax_c.set_ylabel("share of I/Os ≤ latency (probit scale)")
    ax_c.set_title("Latency CDF (normal-probability axis)")
    ax_e.set_yscale("log")
    ax_e.set_ylim(max(min_e * 0.5, 1e-9), 1.5)
    readable_log_axis(ax_e, "y", lambda v, _p: percent_text(v))
    ax_e.set_ylabel("share of I/Os ≥ latency (log scale)")
    ax_e.set_title("Latency exceedance (1 − CDF)")
    legend_below(fig, ax_c, ncols=5)
    note = " — dashed: quoted percentiles" if only_percentiles else ""
    figure_title(fig, [source], f"{source.label}: completion latency per phase{note}")
    return fig


def plot_latency_vs_op(sources: Sequence[Source]) -> Figure:
    """p50, p99 and p99.9 completion latency per OP level, one colour per source."""
    fig = new_figure(9.6, 3.6)
    ax = fig.add_subplot()
    styles = (("p50", "p50", ":", "o"), ("p99", "p99", "-", "s"), ("p99_9", "p99.9", "--", "^"))
    for i, s in enumerate(sources):
        for key, name, ls, marker in styles:
            pts = []
            for p in s.phases:
                if p.latency is None:
                    continue
                share = {"p50": 0.5, "p99": 0.99, "p99_9": 0.999}[key]
                v = p.latency.percentile(share)
                if v:
                    pts.append((p.op_percent, v))
            if pts:
                ax.plot(
                    [x for x, _ in pts],
                    [y for _, y in pts],
                    ls=ls,
                    marker=marker,
                    color=source_color(i),
                    label=f"{s.label} {name}" if len(sources) > 1 else name,
                )
    ops = sorted({p.op_percent for s in sources for p in s.phases})
    ax.set_xticks(ops)
    ax.set_xticklabels([f"{x:g}%" for x in ops])
    ax.set_yscale("log")
    readable_log_axis(ax, "y", us_text)
    ax.set_xlabel(op_axis_label(sources))
    ax.set_ylabel("completion latency (µs, log scale)")
    figure_title(fig, sources, "Latency percentiles vs OP")
    legend_below(fig, ax, ncols=3)
    return fig
