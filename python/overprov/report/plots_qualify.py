"""The qualify figure: one panel per test that has figures to draw — the cache test
(write-back against write-through IOPS; write-through red only when the test failed), TRIM
recovery (IOPS of the first pass after the purge, steady, without and with the discard), host
idle recovery (burst IOPS after each idle time against the continuous baseline) and IO
consistency (p99, p99.99 and the largest latency against the limit). The panel title carries
the verdict; the numbers are in the tables beside it."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from overprov.report.load_qualify import tests_of
from overprov.report.model import Source
from overprov.report.plots import (
    figure_title,
    new_figure,
    readable_log_axis,
    source_color,
    us_text,
)
from overprov.steady_window import window_name

VERDICT_COLORS = {
    "pass": "#2b8a3e",
    "fail": "#c92a2a",
    "inconclusive": "#e67700",
    "info": "#495057",
}


def _k(v: float, _pos: object = None) -> str:
    if v >= 1000:
        return f"{v / 1000:.3g}k"
    return f"{v:.3g}"


def _title(ax: Axes, name: str, test: dict[str, Any]) -> None:
    verdict = str(test["verdict"])
    ax.set_title(f"{name}: {verdict.upper()}", color=VERDICT_COLORS.get(verdict, "black"))


def _bars(ax: Axes, labels: list[str], values: list[float | None], color: str) -> None:
    xs = range(len(labels))
    heights = [v or 0.0 for v in values]
    ax.bar(xs, heights, color=color, width=0.6)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels)
    top = max(heights) if heights else 0.0
    for x, v in zip(xs, values, strict=True):
        if v is not None:
            ax.annotate(_k(round(v)), (x, v), ha="center", va="bottom", fontsize=8.5,
                        xytext=(0, 2), textcoords="offset points")  # fmt: skip
    ax.grid(axis="x", visible=False)
    if top > 0:
        ax.set_ylim(0, top * 1.18)


def _cache(ax: Axes, t: dict[str, Any], color: str) -> None:
    f = t["figures"]
    wb, wt = f["write_back"], f["write_through"]
    # write-through in red only when the test failed on it
    wt_color = VERDICT_COLORS["fail"] if t["verdict"] == "fail" else color
    ax.bar([0, 1], [wb["iops"], wt["iops"]], color=[color, wt_color], width=0.6)
    ax.set_yscale("log")
    ax.set_xticks([0, 1])
    ax.set_xticklabels(["write-back", "write-through"])
    for x, side in ((0, wb), (1, wt)):
        p50 = side.get("latency_p50_us")
        text = _k(round(side["iops"])) + (f"\np50 {p50:,.0f} µs" if p50 is not None else "")
        ax.annotate(text, (x, side["iops"]), ha="center", va="bottom", fontsize=8.5,
                    xytext=(0, 2), textcoords="offset points")  # fmt: skip
    low = max(1.0, min(wb["iops"], wt["iops"]) / 3)
    ax.set_ylim(low, max(wb["iops"], wt["iops"]) * 6)
    ax.set_ylabel("IOPS (log), mixed 4 KiB I/O")
    readable_log_axis(ax, "y", _k)
    ax.grid(axis="x", visible=False)


def _trim(ax: Axes, t: dict[str, Any], color: str) -> None:
    f = t["figures"]
    _bars(
        ax,
        ["first pass\nafter purge", "steady", "without\nTRIM", "with\nTRIM"],
        [f.get("fresh_iops"), f.get("steady_iops"), f.get("without_trim_iops"),
         f.get("with_trim_iops")],
        color,
    )  # fmt: skip
    ax.set_ylabel("random-write IOPS")
    ax.yaxis.set_major_formatter(FuncFormatter(_k))


def _idle(ax: Axes, t: dict[str, Any], color: str) -> None:
    waits = t["figures"].get("waits") or []
    xs = list(range(len(waits)))
    base = [w["baseline_iops"] for w in waits]
    mean = [w["mean_burst_iops"] for w in waits]
    ax.bar([x - 0.18 for x in xs], base, width=0.36, color="#adb5bd", label="continuous (baseline)")
    ax.bar([x + 0.18 for x in xs], mean, width=0.36, color=color, label="bursts after idle, mean")
    for x, w in zip(xs, waits, strict=True):
        bursts = w.get("burst_iops") or []
        ax.plot([x + 0.18] * len(bursts), bursts, "o", color="black", ms=3.5, zorder=5)
        if w.get("recovery") is not None:
            ax.annotate(f"{w['recovery']:+.0%}", (x + 0.18, max(bursts or [w["mean_burst_iops"]])),
                        ha="center", va="bottom", fontsize=8.5, xytext=(0, 2),
                        textcoords="offset points")  # fmt: skip
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{w['wait_s']:g} s" for w in waits])
    ax.set_xlabel("host idle time before each burst")
    ax.set_ylabel("random-write IOPS")
    top = max(base + [b for w in waits for b in w.get("burst_iops") or []] + mean, default=0)
    if top > 0:  # headroom above the bars and their labels for the legend: it covers no data
        ax.set_ylim(0, top * 1.45)
    ax.yaxis.set_major_formatter(FuncFormatter(_k))
    ax.grid(axis="x", visible=False)
    ax.legend(loc="upper center", ncols=2, frameon=False)


def _consistency(ax: Axes, t: dict[str, Any], color: str) -> None:
    f = t["figures"]
    values = [f.get("latency_p99_us"), f.get("latency_p99_99_us"), f.get("latency_max_us")]
    ax.set_xticks(range(3))
    ax.set_xticklabels(["p99", "p99.99", "max"])
    shown = [v for v in values if v]
    if not shown:  # a test that stopped before it measured a latency: no log axis to draw
        ax.text(0.5, 0.5, "no latency measured", transform=ax.transAxes, ha="center",
                va="center", color="#495057")  # fmt: skip
        ax.set_ylabel("write latency, µs")
        return
    ax.bar(range(3), [v or 0.0 for v in values], color=color, width=0.6)
    ax.set_yscale("log")
    for x, v in enumerate(values):
        if v:
            ax.annotate(f"{v:,.0f} µs", (x, v), ha="center", va="bottom", fontsize=8.5,
                        xytext=(0, 2), textcoords="offset points")  # fmt: skip
    limit = f.get("outlier_max_ratio")
    if limit and f.get("latency_p99_us"):
        line = f["latency_p99_us"] * limit
        ax.axhline(line, color=VERDICT_COLORS["fail"], ls="--", lw=1.2,
                   label=f"p99.99 limit: {limit:g}× p99")  # fmt: skip
        shown.append(line)
    qos = f.get("qos_p99_99_us")
    if qos:
        ax.axhline(qos, color="#e67700", ls=":", lw=1.4, label=f"QoS limit {qos:,.0f} µs")
        shown.append(qos)
    if limit or qos:
        ax.legend(loc="upper left")
    if shown:
        ax.set_ylim(min(shown) / 3, max(shown) * 8)
    ax.set_ylabel("write latency, µs (log)")
    ax.set_xlabel(f"over the {window_name(f)}")
    readable_log_axis(ax, "y", us_text)  # 1,000 µs, not 10³
    ax.grid(axis="x", visible=False)


PANELS: list[tuple[str, str, Callable[[Axes, dict[str, Any], str], None]]] = [
    ("cache", "cache (power-loss protection)", _cache),
    ("trim_recovery", "TRIM recovery", _trim),
    ("idle_recovery", "host idle recovery", _idle),
    ("consistency", "IO consistency", _consistency),
]


def drawable(source: Source) -> list[str]:
    """The tests of ``source`` this figure has a panel for (with figures to draw)."""
    tests = tests_of(source)
    out = []
    for name, _, _ in PANELS:
        t = tests.get(name)
        if t is None or not t.get("figures"):
            continue
        if name == "idle_recovery" and not t["figures"].get("waits"):
            continue
        out.append(name)
    return out


def plot_qualify(source: Source, index: int = 0) -> Figure:
    names = drawable(source)
    tests = tests_of(source)
    cols = 1 if len(names) == 1 else 2
    rows = math.ceil(len(names) / cols)
    fig = new_figure(9.6, 0.9 + 3.6 * rows)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    color = source_color(index)
    by_name = {n: (title, fn) for n, title, fn in PANELS}
    for ax, name in zip(axes, names, strict=False):
        title, fn = by_name[name]
        fn(ax, tests[name], color)
        _title(ax, title, tests[name])
    for ax in axes[len(names) :]:
        ax.set_visible(False)
    figure_title(fig, [source], f"{source.label}: the figures behind each verdict")
    return fig
