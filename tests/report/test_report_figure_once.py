"""A figure laid out once before ``savefig`` (files.lay_out_once) is written the same as one
that ``savefig`` lays out in a first draw of its own: the same SVG (text, paths' vertices,
positions) and the same PNG pixels, for figures of every kind the report draws."""

from __future__ import annotations

import io
import re

import matplotlib
import pytest
from overprov.report import files, plots, plots_latency, plots_time
from PIL import Image
from test_report_plots import _profile_source

FIGURES = {
    "latency": lambda s: plots_latency.plot_latency(s),
    "iops-vs-op": lambda s: plots.plot_iops_vs_op([s], target_iops=30_000, recommended=[20.0]),
    "iops-time": lambda s: plots_time.plot_iops_time(s),
}
_RANDOM_ID = re.compile(r"\b[hmp][0-9a-f]{10}\b")  # clip paths', markers', hatches' ids: salted


def _same_ids(svg: str) -> str:
    """The SVG with its salted ids numbered in order of appearance, and no metadata (a date)."""
    ids: dict[str, str] = {}
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    return _RANDOM_ID.sub(lambda m: ids.setdefault(m.group(0), f"id{len(ids)}"), svg)


def _saved(name: str, fmt: str, once: bool) -> bytes | str:
    with matplotlib.rc_context(plots.STYLE):
        fig = FIGURES[name](_profile_source())
        if once:
            files.lay_out_once(fig, fmt)
            assert fig.get_layout_engine() is None  # savefig will not lay it out again
        else:
            assert fig.get_layout_engine() is not None
        buf: io.StringIO | io.BytesIO = io.StringIO() if fmt == "svg" else io.BytesIO()
        fig.savefig(buf, format=fmt)
    return buf.getvalue()


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_an_svg_laid_out_once_is_the_same_file(name):
    before, after = _saved(name, "svg", once=False), _saved(name, "svg", once=True)
    assert isinstance(before, str) and isinstance(after, str)
    assert "<path" in after and "<text" in after
    assert _same_ids(after) == _same_ids(before)


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
