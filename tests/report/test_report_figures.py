"""The page's figures as a reader meets them: an overlay of unlike drives on a log axis, log
axes ticked in plain numbers that do not touch, each figure drawn and embedded once (inline SVG,
or PNG when its SVG would be large) and a 5-level profile's page under 1 MB."""

from __future__ import annotations

import base64
import contextlib
import io
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox
from overprov.report import files, plots, plots_latency
from overprov.report.load import load_inputs
from report_checks import MAX_PAGE_BYTES, check_page, figure_keys
from test_report_plots import _profile_source


def _log_tick_labels(fig: Figure) -> list[tuple[str, list[str]]]:
    """(axes title, its log axis's tick labels inside the view) for every log axis, after
    checking that no two labels of an axis touch."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    out = []
    for ax in fig.axes:
        for axis, scale, (lo, hi) in (
            (ax.xaxis, ax.get_xscale(), ax.get_xlim()),
            (ax.yaxis, ax.get_yscale(), ax.get_ylim()),
        ):
            if scale != "log":
                continue
            k = 1 if axis is ax.yaxis else 0
            labels = [
                t
                for t in axis.get_ticklabels(which="both")
                if t.get_text() and min(lo, hi) <= t.get_position()[k] <= max(lo, hi)
            ]
            boxes = [t.get_window_extent(renderer) for t in labels]
            for i, a in enumerate(boxes):
                for b in boxes[i + 1 :]:
                    inter = Bbox.intersection(a, b)
                    assert inter is None or inter.width < 1 or inter.height < 1, (
                        ax.get_title(), [t.get_text() for t in labels]
                    )  # fmt: skip
            out.append((ax.get_title(), [t.get_text() for t in labels]))
    return out


def _plain(labels: list[str]) -> bool:
    return not any("$" in x or "^" in x or "×10" in x or "e+" in x or "e-" in x for x in labels)


def test_an_overlay_of_unlike_drives_is_drawn_on_a_log_axis():
    """Two drives 55× apart (the steady IOPS of a simulated enterprise NVMe and an older MLC
    SATA drive at 0–40%): a log axis ticked in plain numbers, each drive's fresh-out-of-box
    line named in the legend (labels over the data would sit on each other)."""
    fast = _profile_source("nvme", (130_126, 214_396, 283_810))
    slow = _profile_source("mlc", (5_226, 20_559, 33_488))
    fast.fob_iops, slow.fob_iops = 417_448.0, 64_086.0
    fig = plots.plot_iops_vs_op([fast, slow], 30_000, [0.0, 40.0])
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    ((_, labels),) = _log_tick_labels(fig)
    assert len(labels) >= 4 and _plain(labels), labels
    assert not [t for t in ax.texts if "fresh-out-of-box" in t.get_text()]
    legend = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert "nvme: fresh-out-of-box 417,448 IOPS" in legend
    # drives within 10× of each other keep the linear axis from zero
    like = _profile_source("sdc", (14_000, 33_000, 38_000))
    fig = plots.plot_iops_vs_op([_profile_source(), like], 30_000)
    assert fig.axes[0].get_yscale() == "linear" and fig.axes[0].get_ylim()[0] == 0


@pytest.mark.parametrize(
    "span", [(700.0, 900.0), (300.0, 3_000.0), (80_225.0, 626_274.0), (50.0, 400_000.0)]
)
@pytest.mark.parametrize("which", ["x", "y"])
def test_a_log_axis_has_several_plain_ticks_whatever_its_span(span, which):
    """Within a decade, over one, over several, across and up: at least three labels, none in
    scientific notation, none touching another — on a panel laid out as the page's are (a
    title above, a legend below: 80,225–626,274 µs up a latency-vs-OP panel once put 90,000 on
    100,000), the page's width and one of two panels."""
    for width in (9.6, 4.4):
        fig = plots.new_figure(width, 3.6)
        ax = fig.add_subplot()
        ax.plot(span, [1, 2]) if which == "x" else ax.plot([1, 2], span, label="p99")
        ax.set_xscale("log") if which == "x" else ax.set_yscale("log")
        (ax.set_xlim if which == "x" else ax.set_ylim)(*span)
        plots.figure_title(fig, [], "Latency percentiles vs OP")
        plots.legend_below(fig, ax)
        plots.readable_log_axis(ax, which, plots.us_text)
        ((_, labels),) = _log_tick_labels(fig)
        assert len(labels) >= 3 and _plain(labels), (span, width, labels)


def test_the_latency_figures_of_a_timed_run_tick_in_plain_numbers(timed_real_json):
    (src,) = load_inputs([timed_real_json])
    for fig in (plots_latency.plot_latency(src), plots_latency.plot_latency_vs_op([src])):
        for title, labels in _log_tick_labels(fig):
            assert len(labels) >= 3 and _plain(labels), (title, labels)


def test_a_figure_of_few_points_is_svg_and_one_of_many_png_each_drawn_once(tmp_path, monkeypatch):
    """A bar chart is estimated small as SVG and embedded so; a line of 40,000 points is
    estimated far over the bound and drawn as pixels. Neither is drawn a second time."""
    saved: list[tuple[int, str]] = []
    savefig = Figure.savefig

    def counted(fig: Figure, fname, **kw):
        saved.append((id(fig), kw["format"]))
        return savefig(fig, fname, **kw)

    monkeypatch.setattr(Figure, "savefig", counted)
    w = files.FilesWriter(tmp_path)
    bars_fig = plots.plot_phase_cost([_profile_source()])
    dense = plots.new_figure(9.6, 4.0)
    ax = dense.add_subplot()
    xs = list(range(40_000))
    ax.plot(xs, [(x * 7919) % 1000 for x in xs], lw=0.5)
    assert files.svg_bytes_estimate(bars_fig) <= files.SVG_MAX_BYTES
    assert files.svg_bytes_estimate(dense) > files.SVG_MAX_BYTES
    bars = w.figure("cost", bars_fig, "t", "c")
    series = w.figure("dense", dense, "t", "c")
    assert saved == [(id(bars_fig), "svg"), (id(dense), "png")] and w.draws == 2
    assert bars.svg_inline and not bars.png_b64 and bars.file_name == "cost.svg"
    assert series.png_b64 and not series.svg_inline and series.file_name == "dense.png"
    on_disk_names = sorted(p.name for p in (tmp_path / "report-files").iterdir())
    assert on_disk_names == w.written == ["cost.svg", "dense.png"]
    on_disk = (tmp_path / "report-files" / "dense.png").read_bytes()
    assert on_disk[:8] == b"\x89PNG\r\n\x1a\n" and base64.b64decode(series.png_b64) == on_disk
    svg = (tmp_path / "report-files" / "cost.svg").read_text()
    assert files.inline_svg(svg) == bars.svg_inline
    assert "<?xml" not in bars.svg_inline and 'id="figure_1"' not in bars.svg_inline
    assert bars.svg_inline.startswith("<svg") and "viewBox" in bars.svg_inline


def test_a_report_draws_each_figure_once(sim_json, tmp_path, monkeypatch):
    """Every figure of a report is saved by matplotlib exactly once (one format, one draw),
    and what it drew is what the page embeds."""
    from overprov.report import build

    saved: list[int] = []
    savefig = Figure.savefig

    def counted(fig: Figure, fname, **kw):
        saved.append(id(fig))
        return savefig(fig, fname, **kw)

    monkeypatch.setattr(Figure, "savefig", counted)
    built = build.build([sim_json], tmp_path / "rep")
    text = check_page(tmp_path / "rep")
    assert len(saved) == len(set(saved)) == text.count("<figure ") >= 3
    assert len(built.files) == len(set(built.files))


@pytest.fixture(scope="module")
def five_level_profile(made_once) -> Path:
    """A profile of a simulated drive at five OP levels (0–40%), 5 s rounds; it writes its
    report itself. In-process (``cli.main``): a child would import the report's modules again
    (about 1.7 CPU s); the profile command's own page as a child writes it is ``sim_profile``'s
    (tests/conftest.py)."""
    from overprov import cli

    def make(d: Path) -> None:
        argv = ["profile", "sim:consumer-tlc-sata@1GiB", "--extra-op", "0,10,20,30,40",
                "--round-seconds", "5000", "--target-iops", "20000",
                "--out", str(d / "prof")]  # fmt: skip
        with contextlib.redirect_stdout(io.StringIO()):
            assert cli.main(argv) == 0

    return made_once("report-five-levels", make) / "prof"


def test_a_five_level_profile_page_is_under_a_megabyte(five_level_profile):
    page = five_level_profile / "report.html"
    size = page.stat().st_size
    assert size < MAX_PAGE_BYTES, size
    text = check_page(five_level_profile)  # every figure once, the same limit
    assert text.count("<figure ") == len(figure_keys(five_level_profile))
