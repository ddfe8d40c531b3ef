"""Simulation figures: WAF against OP beside the analytic models, WAF convergence and the
spread of erase counts."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # before anything else of matplotlib is imported

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from overprov import models  # noqa: E402
from overprov.report.model import Source, op_text  # noqa: E402
from overprov.report.plots import (  # noqa: E402
    SOURCE_MARKERS,
    figure_title,
    legend_below,
    new_figure,
    op_axis_label,
    op_colors,
    source_color,
)

# ------------------------------------------------------------------------------ simulation


def model_curves(
    sources: Sequence[Source], rhos: Sequence[float]
) -> list[tuple[str, list[float], str, str]]:
    """(label, WAF per ρ, line style, colour) of the analytic models to draw beside the
    simulated points: greedy for each pages-per-block in the sources, FIFO, random, and
    d-choices when a source used it."""
    out: list[tuple[str, list[float], str, str]] = []
    sources = [s for s in sources if s.uniform_workload]
    if not sources:
        return out
    blocks = sorted({p.pages_per_block for s in sources for p in s.phases if p.pages_per_block})
    greedy, fifo, rand = (models.WAF_MODELS[k] for k in ("greedy", "fifo", "random"))
    for b in blocks:
        out.append((greedy.label(b), [greedy.waf(r, b, 0) for r in rhos], "-", "#343a40"))
    for m, style in ((fifo, "--"), (rand, ":")):
        out.append((m.label(256), [m.waf(r, 256, 0) for r in rhos], style, "#868e96"))
    dch = models.WAF_MODELS["d-choices"]
    for d in sorted({s.d_choices for s in sources if s.policy == "d-choices" and s.d_choices}):
        b = blocks[0] if blocks else 256
        out.append((dch.label(b, d), [dch.waf(r, b, d) for r in rhos], "-.", "#5c940d"))
    return out


def plot_waf_vs_op(sources: Sequence[Source]) -> Figure:
    """Measured WAF against total OP ρ, the analytic models drawn alongside."""
    fig = new_figure(9.6, 4.4)
    ax = fig.add_subplot()
    rhos_all = [p.rho for s in sources for p in s.phases if p.rho]
    lo = max(0.01, min(rhos_all) * 0.85)
    hi = max(rhos_all) * 1.12
    grid = [lo + (hi - lo) * k / 200 for k in range(201)]
    for label, ys, ls, color in model_curves(sources, grid):
        ax.plot([100 * r for r in grid], ys, ls=ls, color=color, lw=1.3, label=label, zorder=1)
    top = 1.0
    for i, s in enumerate(sources):
        pts = [(100 * p.rho, p.waf, p) for p in s.phases if p.rho and p.waf]
        if not pts:
            continue
        ax.plot(
            [x for x, _, _ in pts],
            [y for _, y, _ in pts],
            SOURCE_MARKERS[i % 8],
            ls="none",
            color=source_color(i),
            ms=9,
            label=f"{s.label} (simulated)",
            zorder=3,
        )
        top = max(top, max(y for _, y, _ in pts))
        if s.op_axis == "extra" and len(sources) == 1:
            for x, y, p in pts:
                ax.annotate(
                    f"{p.op_percent:g}% extra\nWAF {y:.2f}",
                    (x, y),
                    xytext=(8, 6),
                    textcoords="offset points",
                    fontsize=7.5,
                    color=source_color(i),
                )
    ax.set_xlim(100 * lo, 100 * hi)
    ax.set_ylim(1.0, top * 1.15)
    ax.set_xlabel("total OP ρ = (T−U)/U (%)")
    ax.set_ylabel("WAF (NAND bytes / host bytes)")
    modelled = any(s.uniform_workload for s in sources)
    figure_title(
        fig,
        sources,
        "Write amplification vs OP: simulation" + (" and analytic models" if modelled else ""),
    )
    legend_below(fig, ax, ncols=3)
    return fig


def plot_waf_convergence(source: Source) -> Figure:
    """WAF per interval against drive writes: the warm-up reaching steady WAF."""
    fig = new_figure(9.6, 3.2)
    ax = fig.add_subplot()
    colors = op_colors([p.op_percent for p in source.phases])
    for p in source.phases:
        if not p.waf_series:
            continue
        c = colors[p.op_percent]
        ax.plot(
            p.waf_drive_writes,
            p.waf_series,
            "-",
            color=c,
            lw=1.2,
            label=f"OP {op_text(p.op_percent, source.op_axis)}",
        )
        if p.waf:
            ax.axhline(p.waf, color=c, lw=0.8, ls="--", alpha=0.7)
    ax.set_xlabel("host writes (drive writes of the user capacity, precondition included)")
    ax.set_ylabel("WAF per interval")
    figure_title(
        fig, [source], f"{source.label}: WAF during warm-up and measurement (dashed: quoted WAF)"
    )
    ax.set_ylim(bottom=0.9)
    legend_below(fig, ax)
    return fig


def plot_erase_spread(sources: Sequence[Source]) -> Figure:
    """Erase counts per block: min–max, mean ± std per OP; and the spread around the mean."""
    fig = new_figure(9.6, 3.6)
    ax_r, ax_h = fig.subplots(1, 2)
    n = len(sources)
    all_ops = sorted({p.op_percent for s in sources for p in s.phases})
    step = min((b - a for a, b in zip(all_ops, all_ops[1:], strict=False)), default=10.0)
    styles = ["-", "--", ":", "-."]
    colors = op_colors(all_ops)
    for i, s in enumerate(sources):
        off = (i - (n - 1) / 2) * step * 0.15
        for p in s.phases:
            e = p.erase
            if not e:
                continue
            x = p.op_percent + off
            ax_r.vlines(x, e["min"], e["max"], color=source_color(i), lw=1.2)
            ax_r.vlines(
                x,
                e["mean"] - e["stddev"],
                e["mean"] + e["stddev"],
                color=source_color(i),
                lw=6,
                alpha=0.5,
            )
            ax_r.plot([x], [e["mean"]], "o", color=source_color(i), ms=5)
            if p.erase_histogram and e["mean"] > 0:
                total = sum(c for _, c in p.erase_histogram)
                ax_h.plot(
                    [v / e["mean"] for v, _ in p.erase_histogram],
                    [c / total for _, c in p.erase_histogram],
                    styles[i % 4],
                    drawstyle="steps-mid",
                    color=colors[p.op_percent],
                    label=f"OP {op_text(p.op_percent, s.op_axis)}"
                    + (f" {s.label}" if n > 1 else ""),
                )
    ax_r.set_xticks(all_ops)
    ax_r.set_xticklabels([f"{x:g}%" for x in all_ops])
    ax_r.set_xlabel(op_axis_label(sources))
    ax_r.set_ylabel("erase count per block")
    ax_r.set_title("Erase counts: min–max, mean ± std")
    handles = [
        Line2D([], [], color=source_color(i), lw=2, label=s.label) for i, s in enumerate(sources)
    ]
    ax_h.set_xlabel("erase count / mean erase count")
    ax_h.set_ylabel("share of blocks")
    ax_h.set_title("Spread of erase counts around the mean")
    figure_title(fig, sources, "Erase counts per block")
    # one legend below both panels: the sources' colours (left), the OP levels' lines (right)
    spread, _ = ax_h.get_legend_handles_labels()
    legend_below(fig, handles=(handles if n > 1 else []) + spread, ncols=3)
    return fig
