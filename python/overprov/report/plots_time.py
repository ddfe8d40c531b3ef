"""Figures over time: IOPS per phase (rounds, windows, the SNIA convergence bands, the timed
simulator's states) and write saturation (IOPS against host bytes written, from byte 0)."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")  # before anything else of matplotlib is imported

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

from overprov.report.model import Source, op_text  # noqa: E402
from overprov.report.plots import (  # noqa: E402
    SPAN_STYLE,
    _byte_scale,
    _k,
    _time_scale,
    figure_title,
    legend_below,
    new_figure,
    op_colors,
)
from overprov.units import human_bytes  # noqa: E402

# -------------------------------------------------------------------------- IOPS vs time


def plot_iops_time(source: Source) -> Figure:
    """Per phase: 1-second IOPS points, round means and boundaries, the steady-state window
    shaded (or the timed simulator's fob / transition / steady states)."""
    phases = [p for p in source.phases if p.iops or p.round_iops]
    n = max(1, len(phases))
    ncols = 1 if n == 1 else 2
    nrows = math.ceil(n / ncols)
    fig = new_figure(9.6, 1.0 + 2.6 * nrows)
    axes = fig.subplots(nrows, ncols, sharey=True, squeeze=False).ravel()
    colors = op_colors([p.op_percent for p in source.phases])
    top = max(
        [v for p in phases for v in (p.iops or [])] + [v for p in phases for v in p.round_iops],
        default=1.0,
    )
    max_t = max((p.wall_s or (p.time_s[-1] if p.time_s else 0.0) for p in phases), default=1.0)
    div, unit = _time_scale(max_t)
    seen_spans: set[str] = set()
    for ax, p in zip(axes, phases, strict=False):
        color = colors[p.op_percent]
        for span in p.spans:
            style = SPAN_STYLE.get(span.kind, {"color": "#eeeeee", "alpha": 0.5})
            hatch = style.get("hatch")
            ax.axvspan(
                span.start_s / div,
                span.end_s / div,
                facecolor=style["color"],
                alpha=style["alpha"],
                lw=0,
                hatch=hatch,
                edgecolor="#ffa8a8" if hatch else "none",
                zorder=0,
            )
            seen_spans.add(span.kind)
        for k, (a, b) in enumerate(p.round_bounds_s):
            ax.axvline(a / div, color="#adb5bd", lw=0.7, ls=":", zorder=1)
            ax.hlines(p.round_iops[k], a / div, b / div, color="#212529", lw=1.6, zorder=3)
        if p.round_bounds_s:
            ax.axvline(p.round_bounds_s[-1][1] / div, color="#adb5bd", lw=0.7, ls=":", zorder=1)
        if p.iops:
            ax.plot(
                [t / div for t in p.time_s],
                p.iops,
                "-o",
                color=color,
                ms=2.5 if len(p.iops) < 400 else 0,
                lw=1.0,
                zorder=2,
            )
        window = [sp for sp in p.spans if sp.kind in ("steady-window", "last-window")]
        if window and p.iops_mean:
            # SNIA convergence view: the window's mean with ±10% and ±20% of it
            a, b = window[-1].start_s / div, window[-1].end_s / div
            m = p.iops_mean
            for share, color, alpha in ((0.2, "#74c0fc", 0.18), (0.1, "#339af0", 0.22)):
                ax.fill_between(
                    [a, b],
                    m * (1 - share),
                    m * (1 + share),
                    color=color,
                    alpha=alpha,
                    lw=0,
                    zorder=1,
                    gid=f"band-{share:g}",
                )
            ax.plot([a, b], [m, m], color="#1864ab", lw=1.2, ls="--", zorder=4)
            seen_spans.add("bands")
        verdict = (
            f"steady at {p.steady_iops:,.0f} IOPS"
            if p.steady_iops is not None
            else ("skipped" if p.status == "skipped" else "NOT steady")
        )
        if source.kind == "profile":
            verdict += f", {p.rounds} round{'s' if p.rounds != 1 else ''}"
        ax.set_title(f"OP {op_text(p.op_percent, source.op_axis)}: {verdict}", fontsize=9.5)
        ax.set_ylim(0, top * 1.12)
        ax.yaxis.set_major_formatter(FuncFormatter(_k))
        ax.set_xlabel(f"time in phase ({unit})")
    for ax in axes[len(phases) :]:
        ax.set_visible(False)
    for row in range(nrows):
        axes[row * ncols].set_ylabel("IOPS")
    handles = [Line2D([], [], color="#495057", marker="o", ms=3, lw=1, label="IOPS per second")]
    if any(p.round_iops for p in phases):
        handles.append(Line2D([], [], color="#212529", lw=1.6, label="round mean"))
        handles.append(Line2D([], [], color="#adb5bd", lw=0.9, ls=":", label="round boundary"))
    if "bands" in seen_spans:
        handles.append(Line2D([], [], color="#1864ab", lw=1.2, ls="--", label="window mean"))
        handles.append(Patch(facecolor="#339af0", alpha=0.4, label="±10% of the mean"))
        handles.append(Patch(facecolor="#74c0fc", alpha=0.25, label="±20% of the mean"))
    for kind in ("fob", "transition", "steady", "steady-window", "last-window"):
        if kind in seen_spans:
            st = SPAN_STYLE[kind]
            handles.append(
                Patch(
                    facecolor=st["color"],
                    alpha=st["alpha"],
                    hatch=st.get("hatch"),
                    edgecolor="#ffa8a8" if st.get("hatch") else "none",
                    label=st["label"],
                )
            )
    legend_below(fig, handles=handles, ncols=4)
    figure_title(fig, [source], f"{source.label}: IOPS over time, per phase")
    return fig


# ----------------------------------------------------------------------- write saturation


def plot_write_saturation(source: Source) -> Figure:
    """IOPS against host bytes written: for a profile since its start (FOB and precondition
    included, phases one after the other); for a simulation each OP level from its own start,
    in drive writes of that level's user capacity."""
    fig = new_figure(9.6, 3.6)
    ax = fig.add_subplot()
    colors = op_colors([p.op_percent for p in source.phases])
    phases = [p for p in source.phases if p.wsat_bytes]
    top = max((v for p in phases for v in p.wsat_iops), default=1.0)
    if source.kind == "profile":
        max_b = max((b for p in phases for b in p.wsat_bytes), default=1.0)
        div, unit = _byte_scale(max_b)
        before_styles = {
            "fob": ("#495057", "o-", "fresh-out-of-box round (1 s IOPS)"),
            "precondition": ("#a0522d", "-", "workload-independent precondition (its rate)"),
        }
        # the precondition's rate (in I/Os of the profile's size) is drawn only when it fits
        # the scale of the rest: a sequential fill can run ten times faster than random writes
        others = max(
            [top]
            + [v for st in source.wsat_before if st.label != "precondition" for v in st.wsat_iops]
        )
        for step in source.wsat_before:
            color, style, label = before_styles.get(step.label, ("#868e96", "-", step.label))
            if step.label == "precondition":
                ax.axvspan(
                    step.wsat_bytes[0] / div,
                    step.wsat_bytes[-1] / div,
                    color="#f4e1d2",
                    alpha=0.5,
                    lw=0,
                    zorder=0,
                    label="workload-independent precondition"
                    + ("" if max(step.wsat_iops) <= 1.5 * others else " (rate off the scale)"),
                )
                if max(step.wsat_iops) > 1.5 * others:
                    continue
            ax.plot(
                [b / div for b in step.wsat_bytes],
                step.wsat_iops,
                style,
                ms=2.5,
                lw=1.6,
                color=color,
                label=label,
            )
            top = max([top, *step.wsat_iops])
        for p in phases:
            ax.plot(
                [b / div for b in p.wsat_bytes],
                p.wsat_iops,
                "o-",
                ms=2.5,
                lw=0.8,
                color=colors[p.op_percent],
                label=f"OP {op_text(p.op_percent)}",
            )
            ax.axvline(p.wsat_bytes[0] / div, color="#adb5bd", lw=0.7, ls=":")
        ax.set_xlim(left=0)
        ax.set_xlabel(f"host bytes written since the profile started ({unit}), from byte 0")
        fill = (source.capacity_bytes or 0) * source.members
        if fill > 0:
            sec = ax.secondary_xaxis(
                "top", functions=(lambda x: x * div / fill, lambda f: f * fill / div)
            )
            sec.set_xlabel(f"drive fills (× {human_bytes(fill)} tested)")
    else:
        for p in phases:
            user = p.user_bytes or 1.0
            ax.plot(
                [b / user for b in p.wsat_bytes],
                p.wsat_iops,
                "-",
                lw=1.2,
                color=colors[p.op_percent],
                label=f"OP {op_text(p.op_percent, source.op_axis)}",
            )
        ax.set_xlim(left=0)
        ax.set_xlabel(
            "host writes after the precondition (drive writes of the user capacity; "
            "the fill itself is not timed)"
        )
    ax.set_ylim(0, top * 1.12)
    ax.set_ylabel("IOPS")
    ax.yaxis.set_major_formatter(FuncFormatter(_k))
    figure_title(fig, [source], f"{source.label}: write saturation (IOPS vs bytes written)")
    legend_below(fig, ax)
    return fig
