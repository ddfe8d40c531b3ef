"""The report's figures: one function per figure, each returning a matplotlib ``Figure``.

Figures are made with the object API on the Agg canvas (no pyplot, no global state), so the
report can be written from any thread and never opens a window. Every function takes the
loaded :class:`~overprov.report.model.Source` objects (or plain numbers) and draws only what
they hold; the callers decide which figures apply.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

import matplotlib
import numpy as np

matplotlib.use("Agg")  # before anything else of matplotlib is imported

from matplotlib import colormaps  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.textpath import text_to_path  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

from overprov.report.model import Source  # noqa: E402

STYLE = {
    "font.size": 9.5,
    "axes.titlesize": 10.5,
    "axes.titleweight": "bold",
    "axes.labelsize": 9.5,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": 8.5,
    "legend.framealpha": 0.9,
    "figure.dpi": 100,
    "savefig.dpi": 144,
    "svg.fonttype": "none",
}

SOURCE_COLORS = [
    "#1f5fa8",
    "#d9480f",
    "#2b8a3e",
    "#862e9c",
    "#c92a2a",
    "#0b7285",
    "#e67700",
    "#495057",
]
SOURCE_MARKERS = ["o", "s", "D", "^", "v", "P", "X", "*"]
TARGET_COLOR = "#c92a2a"
RECOMMEND_COLOR = "#2b8a3e"
SPAN_STYLE = {
    "steady-window": {"color": "#8ce99a", "alpha": 0.5, "label": "steady-state window"},
    "steady": {"color": "#ebfbee", "alpha": 0.9, "label": "steady state"},
    "last-window": {
        "color": "#fff0f0",
        "alpha": 0.8,
        "hatch": "///",
        "label": "last window (not steady)",
    },
    "fob": {"color": "#d0ebff", "alpha": 0.6, "label": "fresh-out-of-box"},
    "transition": {"color": "#ffe8cc", "alpha": 0.6, "label": "transition"},
}
PROBIT_TICKS = (0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999, 0.999999)
PROBIT_FLOOR = 0.001  # the CDF panel shows shares from 0.1% up: the tail is what matters
_NORMAL = NormalDist()


def new_figure(width: float, height: float) -> Figure:
    """A figure on the Agg canvas with constrained layout."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def figure_title(fig: Figure, sources: Sequence[Source], text: str) -> None:
    """The figure's title; for simulated data a second line names it SIMULATED with the
    drive, the scale and "illustrative" or "calibrated twin" (every chart of simulated data).
    A title that may not fit across the figure wraps (:func:`may_be_wider_than_figure`)."""
    tags = list(dict.fromkeys(s.sim_tag for s in sources if s.sim_tag))
    if tags:
        title = fig.suptitle(text + "\n" + "; ".join(tags), fontweight="bold", color="#8a1c1c")
    else:
        title = fig.suptitle(text, fontweight="bold")
    title.set_wrap(may_be_wider_than_figure(fig, title))


#: a line narrower than this share of the figure's width, measured as the SVG renderer
#: measures it, is narrower than the figure at any dpi (a PNG's hinted glyphs differ by a few %)
WRAP_WIDTH_SHARE = 0.9


def may_be_wider_than_figure(fig: Figure, text: Text) -> bool:
    """Whether a line of ``text`` may be wider than ``fig``. matplotlib's ``wrap=True`` measures
    each line's every prefix of words at every draw, wrapped or not; a text whose lines all
    fit is drawn the same without it, so it wraps only the ones that may not fit."""
    widths_pt = [
        text_to_path.get_text_width_height_descent(line, text.get_fontproperties(), False)[0]
        for line in text.get_text().split("\n")
    ]
    return max(widths_pt) > WRAP_WIDTH_SHARE * fig.get_figwidth() * 72  # 72 points an inch


def legend_below(
    fig: Figure, ax: object = None, handles: Sequence[object] | None = None, ncols: int = 4
) -> None:
    """The legend below the axes, outside the data (constrained layout makes room for it)."""
    if handles is None:
        handles, _ = ax.get_legend_handles_labels()  # type: ignore[attr-defined]
    if not handles:
        return
    # as many columns as fit across the figure: about 140 characters of legend text per row
    longest = max(len(str(h.get_label())) for h in handles)  # type: ignore[attr-defined]
    fit = max(1, int(fig.get_size_inches()[0] / 9.6 * 140 / (longest + 6)))
    fig.legend(
        handles=list(handles),
        loc="outside lower center",
        ncols=max(1, min(ncols, fit, len(handles))),
        frameon=False,
    )


def source_color(i: int) -> str:
    return SOURCE_COLORS[i % len(SOURCE_COLORS)]


def op_colors(ops: Sequence[float]) -> dict[float, tuple[float, float, float, float]]:
    """OP levels ascending → dark to bright on a sequential map (order stays visible)."""
    cmap = colormaps["viridis"]
    ordered = sorted(set(ops))
    if len(ordered) == 1:
        return {ordered[0]: cmap(0.35)}
    return {op: cmap(0.05 + 0.8 * i / (len(ordered) - 1)) for i, op in enumerate(ordered)}


def _k(value: float, _pos: object = None) -> str:
    if abs(value) >= 1e6:
        return f"{value / 1e6:g}M"
    if abs(value) >= 1e3:
        return f"{value / 1e3:g}k"
    return f"{value:g}"


class InViewLogLocator(LogLocator):
    """A ``LogLocator`` that gives only the ticks in the axis's view: matplotlib's gives a
    decade more on either side, and the axis makes, positions and labels a tick for each of
    them at every layout pass and draw, then draws only those in view. The ticks drawn are
    the same (matplotlib draws a tick within 1e-10 of the view's span, in the axis's log
    coordinates, of its ends; this keeps those within 1e-9)."""

    def tick_values(self, vmin: float, vmax: float) -> Any:
        ticks = super().tick_values(vmin, vmax)
        lo, hi = sorted((vmin, vmax))
        if not (lo > 0 and hi > 0) or len(ticks) == 0:
            return ticks
        log_lo, log_hi = math.log10(lo), math.log10(hi)
        slack = 1e-9 * max(log_hi - log_lo, 1e-300)
        logs = np.log10(np.maximum(ticks, 1e-300))
        return ticks[(logs >= log_lo - slack) & (logs <= log_hi + slack)]


def readable_log_axis(ax: object, which: str, fmt: object = None) -> None:
    """Ticks of a log axis that read as plain numbers ("2k", "5,000", "0.1%"; never 10³ or
    3×10²) and are enough to read it without touching each other: the densest of every 1–9,
    1-2-5, 1-3 and decades alone whose closest two labels (9 and 10, 2 and 1, ...) are a
    label apart (its width across, its height up) on the length the laid-out axis will have
    (about 90% of its width, 75% of its height). Call it when the axis's limits are set."""
    lo, hi = sorted(ax.get_ylim() if which == "y" else ax.get_xlim())  # type: ignore[attr-defined]
    fmt = fmt or _k
    decades = max(math.log10(hi / lo), 0.1) if lo > 0 and hi > 0 else 3.0
    fig_w, fig_h = ax.figure.get_size_inches()  # type: ignore[attr-defined]
    box = ax.get_position()  # type: ignore[attr-defined]
    if which == "y":  # the layout takes room for titles and legends: a quarter of the height
        room, label = 0.75 * fig_h * box.height, 0.3  # inches per label, up the axis
    else:
        chars = max(len(str(fmt(v, None))) for v in (lo, hi, math.sqrt(lo * hi)))  # type: ignore[operator]
        room, label = 0.9 * fig_w * box.width, 0.075 * chars + 0.1
    per_decade = room / decades  # inches per decade
    subs: tuple[float, ...] = (1.0,)
    for option in ((1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 5), (1, 3), (1,)):
        marks = [*option, 10]
        closest = min(math.log10(b / a) for a, b in zip(marks, marks[1:], strict=False))
        if per_decade * closest >= label:
            subs = tuple(float(k) for k in option)
            break
    axis = ax.yaxis if which == "y" else ax.xaxis  # type: ignore[attr-defined]
    axis.set_major_locator(InViewLogLocator(base=10, subs=subs, numticks=30))
    axis.set_major_formatter(FuncFormatter(fmt))
    axis.set_minor_locator(InViewLogLocator(base=10, subs=tuple(range(1, 10)), numticks=100))
    axis.set_minor_formatter(NullFormatter())


#: an overlay whose figures span more than this factor is drawn on a log axis: on a linear one
#: the slower drive is a flat line at the bottom
LOG_RANGE = 10.0


def us_text(value: float, _pos: object = None) -> str:
    return f"{value:,.0f}" if value >= 1 else f"{value:g}"


def iops_axis_label(sources: Sequence[Source]) -> str:
    sizes = {s.bs_bytes for s in sources if s.bs_bytes}
    if len(sizes) == 1:
        bs = sizes.pop()
        unit = f"{bs // 1024} KiB" if bs % 1024 == 0 else f"{bs} B"
        return f"IOPS ({unit} random writes)"
    return "IOPS (random writes)"


def op_axis_label(sources: Sequence[Source]) -> str:
    axes = {s.op_axis for s in sources}
    if axes == {"extra"}:
        return "extra OP (% of the capacity left unused)"
    if axes == {"rho"}:
        return "total OP ρ = (T−U)/U (%)"
    return "OP (%): extra OP, or total ρ for --rho sweeps"


def probit(share: float) -> float:
    """The normal-probability (probit) transform: the inverse normal CDF of a share."""
    return _NORMAL.inv_cdf(share)


def percent_text(share: float) -> str:
    pct = 100.0 * share
    text = f"{pct:.6f}".rstrip("0").rstrip(".")
    return f"{text}%"


def _byte_scale(max_bytes: float) -> tuple[float, str]:
    for unit, size in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if max_bytes >= size:
            return size, unit
    return 1.0, "B"


def _time_scale(max_s: float) -> tuple[float, str]:
    if max_s >= 2 * 86400:
        return 86400.0, "days"
    if max_s >= 2 * 3600:
        return 3600.0, "h"
    if max_s >= 180:
        return 60.0, "min"
    return 1.0, "s"


# ---------------------------------------------------------------------------- IOPS vs OP


def plot_iops_vs_op(
    sources: Sequence[Source],
    target_iops: float | None = None,
    recommended: Sequence[float | None] | None = None,
) -> Figure:
    """Steady-state IOPS per OP level with the window's min–max, the target line and each
    source's recommended OP highlighted. Not-steady phases are drawn hollow (their last
    window's mean), skipped ones as crosses. Drives whose figures span more than
    :data:`LOG_RANGE` times share a log axis (each keeps its shape)."""
    fig = new_figure(9.6, 4.6)
    ax = fig.add_subplot()
    recommended = list(recommended or [None] * len(sources))
    many = len(sources) > 1
    n = len(sources)
    all_ops = sorted({p.op_percent for s in sources for p in s.phases})
    step = min((b - a for a, b in zip(all_ops, all_ops[1:], strict=False)), default=10.0)
    top = 0.0
    shown = [
        v
        for s in sources
        for p in s.phases
        for v in (p.iops_figure, p.iops_min, p.fob_iops)
        if v is not None and v > 0
    ] + [s.fob_iops for s in sources if s.fob_iops]
    log = many and bool(shown) and max(shown) / min(shown) > LOG_RANGE
    last_op = all_ops[-1] if all_ops else None
    for i, s in enumerate(sources):
        color = source_color(i)
        marker = SOURCE_MARKERS[i % len(SOURCE_MARKERS)]
        dx = (i - (n - 1) / 2) * step * 0.06 if many else 0.0
        xs, ys = [], []
        for p in s.phases:
            y = p.iops_figure
            if y is None:
                continue
            x = p.op_percent + dx
            xs.append(x)
            ys.append(y)
            lo = p.iops_min if p.iops_min is not None else y
            hi = p.iops_max if p.iops_max is not None else y
            top = max(top, hi, y)
            ax.errorbar(
                [x],
                [y],
                yerr=[[max(0.0, y - lo)], [max(0.0, hi - y)]],
                fmt="none",
                ecolor=color,
                elinewidth=1.4,
                capsize=5,
                alpha=0.8,
                zorder=3,
            )
            if p.status == "skipped":
                ax.plot([x], [y], "x", color=color, ms=9, mew=2, zorder=4)
            else:
                ax.plot(
                    [x],
                    [y],
                    marker,
                    color=color,
                    ms=8,
                    mfc=color if p.steady else "white",
                    mew=1.8,
                    zorder=4,
                )
        ax.plot(xs, ys, "-", color=color, lw=2, alpha=0.85, zorder=2, label=s.label)
        fob = [(p.op_percent + dx, p.fob_iops) for p in s.phases if p.fob_iops]
        if fob:
            ax.plot(
                [x for x, _ in fob],
                [y for _, y in fob],
                ":",
                marker=marker,
                ms=5,
                color=color,
                alpha=0.6,
                lw=1.2,
                zorder=2,
            )
            top = max(top, max(y for _, y in fob))
        rec = recommended[i] if i < len(recommended) else None
        if rec is not None:
            match = [p for p in s.phases if p.op_percent == rec and p.iops_figure is not None]
            if match:
                p = match[0]
                y = p.iops_figure or 0.0
                ax.axvspan(rec - step * 0.3, rec + step * 0.3, color=RECOMMEND_COLOR, alpha=0.12)
                ax.plot([rec + dx], [y], "*", color=RECOMMEND_COLOR, ms=22, mec="white", zorder=5)
                at_right = rec == last_op and len(all_ops) > 1  # its label goes left
                ax.annotate(
                    f"recommended: {rec:g}%\n{y:,.0f} IOPS",
                    (rec + dx, y),
                    xytext=(-14 if at_right else 14, -26 if many and i % 2 else 14),
                    textcoords="offset points",
                    ha="right" if at_right else "left",
                    color=RECOMMEND_COLOR,
                    fontweight="bold",
                    fontsize=9,
                    bbox={"boxstyle": "round,pad=0.25", "fc": "white", "ec": "none", "alpha": 0.85},
                    zorder=6,
                )
        if s.fob_iops:
            ax.axhline(s.fob_iops, color=color if many else "#868e96", ls=":", lw=1.2, zorder=1)
            top = max(top, s.fob_iops)
        if s.fob_iops and not many:  # several drives: their FOB lines are named in the legend
            ax.annotate(
                (f"{s.label}: " if many else "") + f"fresh-out-of-box {s.fob_iops:,.0f} IOPS",
                (0.0, s.fob_iops),
                xycoords=("axes fraction", "data"),
                xytext=(4, -3),
                textcoords="offset points",
                ha="left",
                va="top",
                fontsize=8,
                color="#495057",
            )
    if target_iops:
        ax.axhline(target_iops, color=TARGET_COLOR, ls="--", lw=1.6, zorder=1)
        ax.annotate(
            f"target {target_iops:,.0f} IOPS",
            (0.0, target_iops),
            xycoords=("axes fraction", "data"),
            xytext=(4, 4),
            textcoords="offset points",
            color=TARGET_COLOR,
            fontweight="bold",
            fontsize=9,
        )
        top = max(top, target_iops)
    if log:
        ax.set_yscale("log")
        low = min(shown + ([target_iops] if target_iops else []))
        ax.set_ylim(low / 1.6, top * 2.2)  # room above for the labels
        readable_log_axis(ax, "y", _k)
    else:
        ax.set_ylim(0, top * 1.18 if top > 0 else 1)
        ax.yaxis.set_major_formatter(FuncFormatter(_k))
    if all_ops:
        ax.set_xticks(all_ops)
        ax.set_xticklabels([f"{x:g}%" for x in all_ops])
        ax.set_xlim(all_ops[0] - step * 0.6, all_ops[-1] + step * 0.6)
    ax.set_xlabel(op_axis_label(sources))
    ax.set_ylabel(iops_axis_label(sources) + (", log scale" if log else ""))
    figure_title(fig, sources, "Steady-state IOPS vs OP")
    handles = [
        Line2D([], [], color=source_color(i), lw=2, marker=SOURCE_MARKERS[i % 8], label=s.label)
        for i, s in enumerate(sources)
    ]
    handles += [
        Line2D([], [], ls="none", marker="o", color="#495057", label="steady (mean of window)"),
        Line2D(
            [],
            [],
            ls="none",
            marker="o",
            mfc="white",
            color="#495057",
            label="not steady (last window)",
        ),
        Line2D([], [], color="#495057", marker="|", ms=10, ls="none", label="min–max of window"),
    ]
    if any(p.fob_iops for s in sources for p in s.phases):
        handles.append(
            Line2D([], [], color="#495057", ls=":", marker="o", ms=4, label="fresh-out-of-box")
        )
    if many:
        handles += [
            Line2D([], [], color=source_color(i), ls=":", lw=1.2,
                   label=f"{s.label}: fresh-out-of-box {s.fob_iops:,.0f} IOPS")
            for i, s in enumerate(sources)
            if s.fob_iops
        ]  # fmt: skip
    if any(p.status == "skipped" for s in sources for p in s.phases):
        handles.append(Line2D([], [], ls="none", marker="x", color="#495057", label="skipped"))
    if target_iops:
        handles.append(Line2D([], [], color=TARGET_COLOR, ls="--", label="target"))
    if any(r is not None for r in recommended):
        handles.append(
            Line2D([], [], ls="none", marker="*", ms=12, color=RECOMMEND_COLOR, label="recommended")
        )
    legend_below(fig, handles=handles, ncols=4)
    return fig


# ------------------------------------------------------------------- duration and bytes


def plot_phase_cost(sources: Sequence[Source]) -> Figure:
    """Duration (I/O time) and host bytes written per phase, grouped by source."""
    fig = new_figure(9.6, 3.4)
    ax_t, ax_b = fig.subplots(1, 2)
    ops = sorted({p.op_percent for s in sources for p in s.phases})
    index = {op: k for k, op in enumerate(ops)}
    n = len(sources)
    width = 0.8 / max(1, n)
    max_t = max((p.duration_s or 0.0 for s in sources for p in s.phases), default=0.0)
    max_b = max((p.bytes_written or 0.0 for s in sources for p in s.phases), default=0.0)
    t_div, t_unit = _time_scale(max_t)
    b_div, b_unit = _byte_scale(max_b)
    for i, s in enumerate(sources):
        off = (i - (n - 1) / 2) * width
        xs = [index[p.op_percent] + off for p in s.phases]
        t = [(p.duration_s or 0.0) / t_div for p in s.phases]
        b = [(p.bytes_written or 0.0) / b_div for p in s.phases]
        kw = {"width": width * 0.92, "color": source_color(i), "label": s.label}
        bars_t = ax_t.bar(xs, t, **kw)
        bars_b = ax_b.bar(xs, b, **kw)
        if n <= 2 and len(ops) <= 8:
            ax_t.bar_label(bars_t, fmt="%.3g", fontsize=7.5, padding=2)
            ax_b.bar_label(bars_b, fmt="%.3g", fontsize=7.5, padding=2)
        for x, p in zip(xs, s.phases, strict=True):
            if p.status in ("skipped", "not_steady"):
                ax_t.annotate(
                    "skipped" if p.status == "skipped" else "not steady",
                    (x, 0),
                    xytext=(0, 3),
                    textcoords="offset points",
                    rotation=90,
                    ha="center",
                    va="bottom",
                    fontsize=7,
                    color="white"
                    if (p.duration_s or 0) / (t_div or 1) > max_t / t_div * 0.4
                    else "#495057",
                )
    for ax in (ax_t, ax_b):
        ax.set_xticks(range(len(ops)))
        ax.set_xticklabels([f"{x:g}%" for x in ops])
        ax.set_xlabel(op_axis_label(sources))
        ax.grid(axis="x", visible=False)
        ax.margins(y=0.15)
    ax_t.set_ylabel(f"I/O time ({t_unit})")
    ax_t.set_title("Duration per phase")
    ax_b.set_ylabel(f"host bytes written ({b_unit})")
    ax_b.set_title("Bytes written per phase")
    figure_title(fig, sources, "Duration and bytes written per phase")
    if n > 1:
        legend_below(fig, ax_b)
    return fig


# --------------------------------------------------------------------------------- latency


# ----------------------------------------------------------------------------- calibration


def plot_calibration(source: Source) -> Figure:
    """A calibration (``overprov calibrate``): the measured points, the predicted curve and its
    band, for steady IOPS (when the fit had IOPS points) and for WAF."""
    pred = source.prediction
    assert pred is not None, "a calibration's source holds its prediction"
    levels = sorted(pred.levels, key=lambda r: r.extra_op_percent)
    points = pred.fit.get("points") or []
    panels = [("steady_iops", "iops", "steady IOPS (4 KiB random writes, QD32)")]
    panels = [p for p in panels if any(getattr(r, p[0]) for r in levels)]
    panels.append(("waf", "waf", "WAF (NAND bytes / host bytes)"))
    fig = new_figure(9.6, 3.9)
    axes = fig.subplots(1, len(panels), squeeze=False).ravel()
    for ax, (key, point_key, ylabel) in zip(axes, panels, strict=True):
        rows = [r for r in levels if getattr(r, key) is not None]
        xs = [r.extra_op_percent for r in rows]
        lo = [getattr(r, f"{key}_low") for r in rows]
        hi = [getattr(r, f"{key}_high") for r in rows]
        if all(v is not None for v in lo + hi):
            ax.fill_between(xs, lo, hi, color=SOURCE_COLORS[0], alpha=0.2, lw=0,
                            label="predicted, 80% interval")  # fmt: skip
        ax.plot(xs, [getattr(r, key) for r in rows], "-", marker=".", color=SOURCE_COLORS[0],
                lw=1.8, label="predicted")  # fmt: skip
        if key == "steady_iops" and all(r.twin_iops for r in rows):
            ax.plot(xs, [r.twin_iops for r in rows], "--", color="#495057", lw=1,
                    label="twin, simulated")  # fmt: skip
        measured = [p for p in points if p.get(point_key)]
        ax.plot([p["extra_op_percent"] for p in measured], [p[point_key] for p in measured],
                "o", color="black", ms=7, label="measured (fitted)", zorder=5)  # fmt: skip
        target = pred.recommendation.target_iops if pred.recommendation else None
        if key == "steady_iops" and target:
            ax.axhline(target, color=TARGET_COLOR, ls="--", lw=1.4, label="target")
        ticks = xs if len(xs) <= 8 else xs[:: math.ceil(len(xs) / 7)]
        ax.set_xticks(ticks)
        ax.set_xticklabels([f"{x:g}%" for x in ticks])
        ax.set_xlabel("extra OP (% of the capacity left unused)")
        ax.set_ylabel(ylabel)
        if key == "steady_iops":
            ax.set_ylim(bottom=0)
            ax.yaxis.set_major_formatter(FuncFormatter(_k))
        else:
            ax.set_ylim(bottom=1.0)
    figure_title(fig, [source], f"{source.label}: measured points and the predicted curve")
    legend_below(fig, axes[0])
    return fig
