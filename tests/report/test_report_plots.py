"""Each figure function on fixed data: axes, units, legends, and the marks that carry meaning
(target line, recommended OP, steady window, probit ticks, model curves)."""

from __future__ import annotations

import math
from pathlib import Path
from statistics import NormalDist

import pytest
from matplotlib.collections import LineCollection
from overprov import models
from overprov.report import plots, plots_latency, plots_time, plots_waf
from overprov.report.model import Latency, Phase, Source, Span


def _profile_source(
    label: str = "sdb", iops: tuple[float, ...] = (12_900, 31_000, 36_000)
) -> Source:
    phases = []
    for k, (op, v) in enumerate(zip((0.0, 20.0, 40.0), iops, strict=True)):
        steady = k > 0
        p = Phase(
            op_percent=op,
            label=f"op{op:02.0f}",
            status="steady" if steady else "not_steady",
            steady=steady,
            steady_iops=v if steady else None,
            iops_mean=v,
            iops_min=v * 0.9,
            iops_max=v * 1.1,
            window_rounds=(2, 6),
            rounds=6,
            duration_s=360.0 + 60 * k,
            bytes_written=v * 4096 * 360,
        )
        for r in range(6):
            a = r * 61.0
            p.round_bounds_s.append((a, a + 60.0))
            p.round_iops.append(v * (1.3 if r == 0 else 1.0))
            for s in range(60):
                p.time_s.append(a + s + 1)
                p.iops.append(v * (1.0 + 0.05 * math.sin(s)))
                p.wsat_bytes.append(1e9 * k + (a + s) * v * 4096)
                p.wsat_iops.append(v)
        p.spans.append(Span(61.0, 366.0, "steady-window" if steady else "last-window"))
        p.latency = Latency(
            values_us=[50.0, 100.0, 200.0, 400.0, 800.0, 5000.0],
            counts=[100, 5000, 3000, 800, 90, 10],
            source="fixed",
        )
        phases.append(p)
    return Source(
        kind="profile",
        path=Path("/nonexistent"),
        label=label,
        title=f"profile of {label}",
        status="complete",
        date="2026-01-01",
        phases=phases,
        bs_bytes=4096,
        capacity_bytes=1e9,
        fob_iops=80_000,
    )


def _sim_source(policy: str = "greedy") -> Source:
    phases = []
    for x, rho in ((0.0, 0.0737), (20.0, 0.342)):
        waf = models.waf_greedy(rho, 64) * 1.01
        phases.append(
            Phase(
                op_percent=x,
                label=f"op{x:g}",
                status="simulated",
                steady=False,
                waf=waf,
                rho=rho,
                pages_per_block=64,
                user_bytes=1e9 * (1 - x / 100),
                physical_bytes=1.0737e9,
                erase={"min": 10, "max": 14, "mean": 12.0, "stddev": 0.8},
                erase_histogram=[(10, 5), (11, 30), (12, 40), (13, 20), (14, 5)],
                waf_drive_writes=[1.0, 1.5, 2.0],
                waf_series=[1.0, waf * 1.2, waf],
            )
        )
    return Source(
        kind="simulate",
        path=Path("/nonexistent.json"),
        label=f"sim {policy}",
        title="sim",
        status="complete",
        date="x",
        phases=phases,
        policy=policy,
        uniform_workload=True,
    )


def _legend_texts(ax_or_fig) -> list[str]:
    """The entries of an axes' legend, or of the legends below its figure (outside the data)."""
    legends = [ax_or_fig.get_legend()] if hasattr(ax_or_fig, "get_legend") else []
    legends += list(getattr(ax_or_fig, "legends", []))
    if hasattr(ax_or_fig, "get_legend") and ax_or_fig.get_legend() is None:
        legends += list(ax_or_fig.figure.legends)
    return [t.get_text() for lg in legends if lg is not None for t in lg.get_texts()]


def test_probit_is_the_inverse_normal_cdf_and_ticks_read_in_percent():
    assert plots.probit(0.5) == 0.0
    assert plots.probit(0.99) == pytest.approx(NormalDist().inv_cdf(0.99))
    assert plots.probit(0.999) == pytest.approx(3.0902, abs=1e-4)
    assert [plots.percent_text(x) for x in (0.5, 0.99, 0.999, 0.9999)] == [
        "50%",
        "99%",
        "99.9%",
        "99.99%",
    ]


def test_iops_vs_op_draws_target_line_recommended_star_and_min_max():
    fig = plots.plot_iops_vs_op([_profile_source()], target_iops=30_000, recommended=[20.0])
    ax = fig.axes[0]
    assert ax.get_xlabel() == "extra OP (% of the capacity left unused)"
    assert ax.get_ylabel() == "IOPS (4 KiB random writes)"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0%", "20%", "40%"]
    legend = _legend_texts(ax)
    for entry in (
        "sdb",
        "steady (mean of window)",
        "not steady (last window)",
        "target",
        "recommended",
    ):
        assert entry in legend
    # the target is a horizontal line at 30,000
    assert any(list(line.get_ydata()) == [30_000, 30_000] for line in ax.get_lines()), (
        "no target line"
    )
    # the star sits on the recommended OP's steady figure, and says so
    stars = [ln for ln in ax.get_lines() if ln.get_marker() == "*"]
    assert stars and list(stars[0].get_xdata()) == [20.0] and list(stars[0].get_ydata()) == [31_000]
    notes = [t.get_text() for t in ax.texts]
    assert "recommended: 20%\n31,000 IOPS" in notes
    assert "target 30,000 IOPS" in notes
    # min–max bars: one error bar per phase, spanning 0.9–1.1 × the figure
    bars = [c for c in ax.collections if isinstance(c, LineCollection)]
    spans = sorted(tuple(seg[:, 1]) for c in bars for seg in c.get_segments())
    assert spans == sorted((v * 0.9, v * 1.1) for v in (12_900, 31_000, 36_000))
    # the not-steady 0% point is hollow, the steady ones filled
    markers = [ln for ln in ax.get_lines() if ln.get_marker() == "o"]
    assert [ln.get_markerfacecolor() == "white" for ln in markers] == [True, False, False]


def test_iops_vs_op_overlays_several_sources():
    a, b = _profile_source("drive A"), _profile_source("drive B", (9_000, 20_000, 26_000))
    fig = plots.plot_iops_vs_op([a, b], target_iops=None, recommended=[20.0, None])
    legend = _legend_texts(fig.axes[0])
    assert "drive A" in legend and "drive B" in legend and "target" not in legend


def test_iops_time_has_one_panel_per_phase_with_rounds_and_steady_window():
    src = _profile_source()
    fig = plots_time.plot_iops_time(src)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == 3
    assert visible[0].get_title() == "OP 0%: NOT steady, 6 rounds"
    assert visible[1].get_title() == "OP 20%: steady at 31,000 IOPS, 6 rounds"
    for ax in visible:
        assert ax.get_xlabel() == "time in phase (min)"  # 366 s of phase → minutes
        assert ax.patches, "steady / last window not shaded"
        # 6 round-mean segments and 7 boundaries
        assert len([c for c in ax.collections if isinstance(c, LineCollection)]) == 6
        dotted = [ln for ln in ax.get_lines() if ln.get_linestyle() == ":"]
        assert len(dotted) == 7
    assert visible[0].get_ylabel() == "IOPS"
    legend = _legend_texts(fig)
    for entry in (
        "IOPS per second",
        "round mean",
        "round boundary",
        "steady-state window",
        "last window (not steady)",
    ):
        assert entry in legend


def test_timed_states_are_shaded_and_named():
    src = _profile_source()
    for p in src.phases:
        p.round_bounds_s, p.round_iops = [], []
        p.spans = [
            Span(0, 60, "fob"),
            Span(60, 200, "transition"),
            Span(200, 366, "steady"),
            Span(300, 366, "steady-window"),
        ]
    legend = _legend_texts(plots_time.plot_iops_time(src))
    assert {"fresh-out-of-box", "transition", "steady state", "steady-state window"} <= set(legend)
    assert "round mean" not in legend


def test_write_saturation_axes_in_bytes_and_drive_fills():
    fig = plots_time.plot_write_saturation(_profile_source())
    ax = fig.axes[0]
    assert ax.get_xlabel() == "host bytes written since the profile started (GB), from byte 0"
    assert ax.get_ylabel() == "IOPS"
    assert "drive fills (× 1 GB tested)" in [c.get_xlabel() for c in ax.child_axes]
    assert _legend_texts(ax) == ["OP 0%", "OP 20%", "OP 40%"]
    assert ax.get_xlim()[0] == 0


def test_write_saturation_draws_fob_and_precondition_from_byte_zero():
    src = _profile_source()
    fob = Phase(op_percent=-1.0, label="fob", status="fob", steady=False)
    fob.wsat_bytes, fob.wsat_iops = [2e8, 4e8], [90_000.0, 88_000.0]
    pre = Phase(op_percent=-1.0, label="precondition", status="precondition", steady=False)
    pre.wsat_bytes, pre.wsat_iops = [4e8, 1e9], [50_000.0, 50_000.0]
    src.wsat_before = [fob, pre]
    ax = plots_time.plot_write_saturation(src).axes[0]
    legend = _legend_texts(ax)
    fob_label, pre_label = (
        "fresh-out-of-box round (1 s IOPS)",
        "workload-independent precondition (its rate)",
    )
    assert {fob_label, pre_label, "workload-independent precondition"} <= set(legend)
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    assert list(lines[fob_label].get_xdata()) == [0.2, 0.4]  # GB, from the first byte
    assert list(lines[pre_label].get_xdata()) == [0.4, 1.0]
    assert ax.get_ylim()[1] >= 90_000
    # a fill far faster than the rest is shaded, not drawn off the scale
    pre.wsat_iops = [900_000.0, 900_000.0]
    ax = plots_time.plot_write_saturation(src).axes[0]
    assert pre_label not in _legend_texts(ax)
    assert "workload-independent precondition (rate off the scale)" in _legend_texts(ax)
    assert ax.get_ylim()[1] < 200_000


def test_latency_cdf_on_probit_axis_and_exceedance_on_log_axis():
    fig = plots_latency.plot_latency(_profile_source())
    cdf, exc = fig.axes[:2]
    assert cdf.get_xscale() == "log" and exc.get_xscale() == "log" and exc.get_yscale() == "log"
    assert cdf.get_xlabel() == "completion latency (µs, log scale)"
    assert cdf.get_ylabel() == "share of I/Os ≤ latency (probit scale)"
    assert exc.get_ylabel() == "share of I/Os ≥ latency (log scale)"
    labels = [t.get_text() for t in cdf.get_yticklabels()]
    ticks = list(cdf.get_yticks())
    assert "50%" in labels and "99%" in labels and "99.9%" in labels
    for text, y in zip(labels, ticks, strict=True):
        assert y == pytest.approx(NormalDist().inv_cdf(float(text.rstrip("%")) / 100))
    # the CDF line holds the probit of the cumulative shares (total 9,000 I/Os)
    line = cdf.get_lines()[0]
    assert list(line.get_xdata()) == [50.0, 100.0, 200.0, 400.0, 800.0]
    assert line.get_ydata()[1] == pytest.approx(NormalDist().inv_cdf(5100 / 9000))
    # the exceedance at the largest bucket is its own share (10 of 9,000)
    eline = exc.get_lines()[0]
    assert eline.get_ydata()[-1] == pytest.approx(10 / 9000)
    assert _legend_texts(cdf) == ["OP 0% (not steady)", "OP 20%", "OP 40%"]


def test_latency_from_percentiles_only_is_marked_as_such():
    src = _profile_source()
    for p in src.phases:
        p.latency = Latency(percentiles={"p50": 100.0, "p90": 150.0, "p99": 400.0, "p99_9": 900.0})
    fig = plots_latency.plot_latency(src)
    assert "dashed: quoted percentiles" in fig.get_suptitle()
    assert list(fig.axes[0].get_lines()[0].get_xdata()) == [100.0, 150.0, 400.0, 900.0]


def test_latency_vs_op_axes():
    fig = plots_latency.plot_latency_vs_op([_profile_source()])
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and ax.get_ylabel() == "completion latency (µs, log scale)"
    assert _legend_texts(ax) == ["p50", "p99", "p99.9"]


def test_phase_cost_units():
    fig = plots.plot_phase_cost([_profile_source()])
    t, b = fig.axes
    assert t.get_ylabel() == "I/O time (min)" and b.get_ylabel() == "host bytes written (GB)"
    assert [p.get_height() for p in t.patches] == pytest.approx([6.0, 7.0, 8.0])


def test_waf_vs_op_draws_models_beside_the_simulated_points():
    src = _sim_source()
    fig = plots_waf.plot_waf_vs_op([src])
    ax = fig.axes[0]
    assert ax.get_xlabel() == "total OP ρ = (T−U)/U (%)"
    assert ax.get_ylabel() == "WAF (NAND bytes / host bytes)"
    legend = _legend_texts(ax)
    assert legend[:3] == [
        "greedy model, b=64 (Bux & Iliadis)",
        "FIFO model (Desnoyers)",
        "random-victim model α/(α−1)",
    ]
    assert "sim greedy (simulated)" in legend
    greedy = ax.get_lines()[0]
    x, y = greedy.get_xdata()[100], greedy.get_ydata()[100]
    assert y == pytest.approx(models.waf_greedy(x / 100, 64))
    points = [ln for ln in ax.get_lines() if ln.get_label() == "sim greedy (simulated)"][0]
    assert list(points.get_xdata()) == pytest.approx([7.37, 34.2])


def test_d_choices_source_adds_its_model():
    src = _sim_source("d-choices")
    src.d_choices = 8
    legend = _legend_texts(plots_waf.plot_waf_vs_op([src]).axes[0])
    assert "d-choices model, d=8 (Van Houdt)" in legend


def test_erase_spread_and_waf_convergence_axes():
    fig = plots_waf.plot_erase_spread([_sim_source()])
    r, h = fig.axes
    assert (
        r.get_ylabel() == "erase count per block"
        and h.get_xlabel() == "erase count / mean erase count"
    )
    assert _legend_texts(h) == ["OP 0%", "OP 20%"]
    fig = plots_waf.plot_waf_convergence(_sim_source())
    ax = fig.axes[0]
    assert ax.get_ylabel() == "WAF per interval" and _legend_texts(ax) == ["OP 0%", "OP 20%"]


def test_latency_histogram_arithmetic():
    lat = Latency(values_us=[10.0, 20.0, 30.0], counts=[50, 40, 10])
    assert lat.cdf_points() == ([10.0, 20.0], [0.5, 0.9])
    assert lat.exceedance_points() == ([10.0, 20.0, 30.0], [1.0, 0.5, 0.1])
    assert lat.percentile(0.5) == 10.0 and lat.percentile(0.9) == 20.0
    assert lat.percentile(0.99) == 30.0


def test_figures_have_no_empty_axes():
    for fig in (
        plots.plot_iops_vs_op([_profile_source()]),
        plots_latency.plot_latency(_profile_source()),
        plots_waf.plot_waf_vs_op([_sim_source()]),
    ):
        for ax in fig.axes:
            if ax.get_visible():
                assert ax.get_lines() or ax.patches or ax.collections
