"""The PTS view of a queue-depth sweep (``overprov simulate --qd 1,2,4,...``): a PTS-style test
header, latency against IOPS with one line per OP level and each point labelled by its queue
depth, the knee marked (``overprov.qd_sweep``), and the table behind it."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # before anything else of matplotlib is imported

from matplotlib.figure import Figure  # noqa: E402

from overprov.qd_sweep import (  # noqa: E402
    QdPoint,
    find_knee,
    knee_rule_text,
    pts_header,
    sweep_levels,
)
from overprov.report import html  # noqa: E402
from overprov.report.files import FILES_DIR, FilesWriter, draw, slug  # noqa: E402
from overprov.report.model import Source  # noqa: E402
from overprov.report.plots import (  # noqa: E402
    figure_title,
    legend_below,
    new_figure,
    op_colors,
    readable_log_axis,
    us_text,
)


def plot_qd_sweep(source: Source, levels: dict[float, list[QdPoint]]) -> Figure:
    """p99 (solid) and mean (dotted) latency against IOPS per OP level; QD beside each p99
    point; the knee ringed."""
    fig = new_figure(9.6, 4.4)
    ax = fig.add_subplot()
    colors = op_colors(list(levels))
    for op, pts in levels.items():
        c = colors[op]
        p99 = [(p.iops, p.p99_us, p.qd) for p in pts if p.p99_us]
        ax.plot([x for x, _, _ in p99], [y for _, y, _ in p99], "-o", color=c, label=f"{op:g}% p99")
        mean = [(p.iops, p.mean_us) for p in pts if p.mean_us]
        ax.plot([x for x, _ in mean], [y for _, y in mean], ":", color=c, label=f"{op:g}% mean")
        for x, y, qd in p99:
            ax.annotate(
                f"QD{qd}", (x, y), xytext=(-4, 6), textcoords="offset points", ha="right",
                fontsize=7, color=c,
            )  # fmt: skip
        knee = find_knee(pts)
        if knee is not None and knee.p99_us:
            ax.plot(
                [knee.iops], [knee.p99_us], "o", ms=14, mfc="none", mec="#c0392b", mew=2,
                label="knee" if op == next(iter(levels)) else None,
            )  # fmt: skip
    ax.set_yscale("log")
    readable_log_axis(ax, "y", us_text)
    ax.set_xlim(left=0)
    ax.xaxis.set_major_formatter(lambda v, _p: f"{v:,.0f}")
    ax.set_xlabel("IOPS (steady window)")
    ax.set_ylabel("completion latency (µs, log scale)")
    ax.grid(True, which="major", alpha=0.3)
    figure_title(fig, [source], "Latency vs IOPS as queue depth rises")
    handles, labels = ax.get_legend_handles_labels()
    if "knee" not in labels:  # a knee ringed on a later level only: name it once
        handles = [h for h in handles if h.get_label() != "knee"]
    legend_below(fig, ax, handles=handles, ncols=4)
    return fig


def _table(levels: dict[float, list[QdPoint]]) -> html.Table:
    rows, marked = [], set()
    for op, pts in levels.items():
        knee = find_knee(pts)
        for p in pts:
            if p is knee:
                marked.add(len(rows))
            rows.append(
                [
                    f"{op:g}%",
                    str(p.qd),
                    f"{p.iops:,.0f}",
                    *("-" if v is None else f"{v:,.0f}" for v in (p.mean_us, p.p99_us, p.p99_9_us)),
                    ("knee; " if p is knee else "") + ("steady" if p.steady else "NOT steady"),
                ]
            )
    return html.Table(
        ["OP", "QD", "IOPS", "mean µs", "p99 µs", "p99.9 µs", "window"],
        rows,
        numeric={1, 2, 3, 4, 5},
        highlight=marked,
    )


def knee_text(levels: dict[float, list[QdPoint]]) -> str:
    """Where latency takes off, per OP level, in one sentence."""
    parts = []
    for op, pts in levels.items():
        knee = find_knee(pts)
        parts.append(
            f"{op:g}%: QD{knee.qd} ({knee.iops:,.0f} IOPS, p99 {knee.p99_us:,.0f} µs)"
            if knee is not None and knee.p99_us is not None
            else f"{op:g}%: no knee up to QD{pts[-1].qd}"
        )
    return "Knee — " + "; ".join(parts) + ". The knee is " + knee_rule_text() + "."


def pts_section(w: FilesWriter, sources: Sequence[Source]) -> html.Section | None:
    """One block per simulate file that swept the queue depth; None when none did."""
    body = []
    for s in sources:
        levels = sweep_levels(s.qd_runs) if s.qd_runs else {}
        if not levels:
            continue
        key = slug(s.path.stem)
        body.append(f"<h3>{html.esc(s.path.name)}: PTS-style test header</h3>")
        body.append(html.kv_html(pts_header(s.qd_runs, s.qd_preset)))
        body.append(f"<p>{html.esc(knee_text(levels))}</p>")
        body.append(
            html.figure_html(
                w.figure(
                    f"qd-sweep-{key}",
                    draw("qd", plot_qd_sweep, s, levels),
                    "Latency vs IOPS as queue depth rises",
                    "One line per OP level: p99 (solid, each point labelled by its queue depth) "
                    "and mean latency (dotted, Little's law) against steady IOPS; the ringed "
                    "point is the knee, past which more queued I/O only waits.",
                ),
                FILES_DIR,
            )
        )
        body.append(html.table_html(_table(levels)))
        w.csv(
            f"qd-sweep-{key}.csv",
            ["op_percent", "qd", "iops", "mean_latency_us", "p99_us", "p99_9_us", "steady", "knee"],
            [
                [op, p.qd, p.iops, p.mean_us, p.p99_us, p.p99_9_us, p.steady, p is find_knee(pts)]
                for op, pts in levels.items()
                for p in pts
            ],
        )
    if not body:
        return None
    return html.Section("pts", "Queue depth (PTS)", body)
