"""A figure laid out once before ``savefig`` (files.lay_out_once), its title wrapped only when
it may not fit (plots.may_be_wider_than_figure), is written the same as one that ``savefig``
lays out in a first draw of its own with its title always wrapped: the same SVG (text, paths'
vertices, positions) and the same PNG pixels, for figures of every kind the report draws."""

from __future__ import annotations

import functools
import io
import re

import matplotlib
import pytest
from matplotlib.text import Text
from matplotlib.ticker import LogLocator
from overprov.report import files, plots, plots_latency, plots_time
from PIL import Image
from test_report_plots import _profile_source

LONG_LABEL = "sdb " + "on a drive with a long name " * 6
FIGURES = {
    "latency": lambda s: plots_latency.plot_latency(s),
    # IOPS over time (spans, hatches) with a label that makes the title wider than the
    # figure: the title wraps
    "iops-time-long-title": lambda s: plots_time.plot_iops_time(_profile_source(LONG_LABEL)),
}
_RANDOM_ID = re.compile(r"\b[hmp][0-9a-f]{10}\b")  # clip paths', markers', hatches' ids: salted


def _same_ids(svg: str) -> str:
    """The SVG with its salted ids numbered in order of appearance, and no metadata (a date)."""
    ids: dict[str, str] = {}
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    return _RANDOM_ID.sub(lambda m: ids.setdefault(m.group(0), f"id{len(ids)}"), svg)


@functools.cache
def _saved(name: str, fmt: str, once: bool) -> bytes | str:
    with matplotlib.rc_context(plots.STYLE):
        fig = FIGURES[name](_profile_source())
        title_text = fig.get_suptitle()
        assert title_text
        if once:
            files.lay_out_once(fig, fmt)
            assert fig.get_layout_engine() is None  # savefig will not lay it out again
        else:  # as it was: the title always wrapped, the layout left to savefig
            assert fig.get_layout_engine() is not None
            titles = fig.findobj(lambda a: isinstance(a, Text) and a.get_text() == title_text)
            assert len(titles) == 1
            titles[0].set_wrap(True)
        buf: io.StringIO | io.BytesIO = io.StringIO() if fmt == "svg" else io.BytesIO()
        fig.savefig(buf, format=fmt)
    return buf.getvalue()


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_an_svg_laid_out_once_is_the_same_file(name):
    before, after = _saved(name, "svg", once=False), _saved(name, "svg", once=True)
    assert isinstance(before, str) and isinstance(after, str)
    assert "<path" in after and "<text" in after
    assert _same_ids(after) == _same_ids(before)


def test_only_a_title_that_may_not_fit_is_wrapped():
    with matplotlib.rc_context(plots.STYLE):
        short = FIGURES["latency"](_profile_source())
        long = FIGURES["iops-time-long-title"](None)
    wrapped = [
        [t.get_wrap() for t in fig.findobj(Text) if t.get_text() == fig.get_suptitle()]
        for fig in (short, long)
    ]
    assert wrapped == [[False], [True]]
    svg = _saved("iops-time-long-title", "svg", once=True)
    assert isinstance(svg, str) and LONG_LABEL not in svg  # broken across lines
    assert "on a drive with a long name on a" in svg


def test_a_png_laid_out_once_has_the_same_pixels():
    before, after = _saved("latency", "png", once=False), _saved("latency", "png", once=True)
    a, b = Image.open(io.BytesIO(before)), Image.open(io.BytesIO(after))
    assert a.size == b.size and a.size[0] >= 800
    assert a.tobytes() == b.tobytes()


def test_the_ids_are_numbered_not_dropped():
    # the comparison above forgets nothing but the ids' salt: two different ids stay two
    use = '<use xlink:href="#{}"/>'
    svg = "".join(use.format(i) for i in ("m0123456789", "h9876543210", "m0123456789"))
    assert _same_ids(svg) == "".join(use.format(i) for i in ("id0", "id1", "id0"))


@pytest.mark.parametrize("view", [(3.0, 4.5e4), (1e-9, 1.5), (0.7, 0.9), (20.0, 2e6)])
def test_a_log_axis_makes_only_the_ticks_in_view(view):
    lo, hi = view
    for subs in ((1.0,), (1.0, 2.0, 5.0), tuple(range(1, 10))):
        every = LogLocator(base=10, subs=subs, numticks=100).tick_values(lo, hi)
        in_view = plots.InViewLogLocator(base=10, subs=subs, numticks=100).tick_values(lo, hi)
        assert list(in_view) == [t for t in every if lo * (1 - 1e-12) <= t <= hi * (1 + 1e-12)]
        if hi / lo > 10:  # matplotlib's goes a decade beyond either end (a narrower view is
            assert len(in_view) < len(every)  # ticked linearly, within it)
