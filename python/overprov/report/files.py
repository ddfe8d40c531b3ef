"""The files written beside the page: figures (each drawn once, as SVG or as PNG, embedded in
the page and saved beside it) and CSVs."""

from __future__ import annotations

import base64
import csv
import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure

from overprov.outputs import REPORT_PAGE
from overprov.report import html, plots

FILES_DIR = "report-files"
REPORT_NAME = REPORT_PAGE

# What decides a figure's format, known before it is drawn: how many bytes its SVG would take.
# An SVG grows with what is drawn (a path's vertex, a marker's <use>), a PNG with the pixels
# (every figure is at least 800 x 300 px at 144 dpi). Bytes per mark, the most measured on
# synthetic figures of 1,000-12,000 points (docs/report.md, "Figure format"): a line's vertex
# 18-30 bytes (matplotlib's path simplification drops some), a scatter point 107-115.
SVG_BASE_BYTES = 40_000  # axes, ticks, text and legend of a report figure (11-66 KB measured)
SVG_BYTES_PER_VERTEX = 30
SVG_BYTES_PER_MARKER = 120
#: the SVG bound: a figure whose SVG is estimated above it is drawn as PNG (the smallest PNG
#: of the reports' figures measured 65 KB as base64, their median 140 KB)
SVG_MAX_BYTES = 150_000
#: the figure's dpi while matplotlib writes an SVG (its ``print_svg``: SVG user units are points)
SVG_DPI = 72


def svg_bytes_estimate(fig: Figure) -> int:
    """An estimate of ``fig``'s SVG size from what it will draw, without drawing it: the
    vertices of its lines, polygons and patches and the points of its markers (a figure
    heavy in text, a latency figure's probit ticks, can be up to a third above it)."""
    vertices = markers = 0
    for ax in fig.axes:
        for line in ax.lines:
            n = len(line.get_xydata())
            vertices += n
            if line.get_marker() not in (None, "None", "none", "", " "):
                markers += n
        for coll in ax.collections:
            paths = coll.get_paths()
            offsets = len(coll.get_offsets())
            if len(paths) <= 1 and offsets > 1:  # one marker stamped at each offset
                markers += offsets
            vertices += sum(len(p.vertices) for p in paths)
        vertices += sum(len(p.get_path().vertices) for p in ax.patches)
    return SVG_BASE_BYTES + SVG_BYTES_PER_VERTEX * vertices + SVG_BYTES_PER_MARKER * markers


def lay_out_once(fig: Figure, fmt: str) -> None:
    """Run ``fig``'s layout engine (constrained layout) as ``savefig`` would for a ``fmt``
    ("svg" or "png") file, then take the engine off, so that ``savefig`` draws the figure
    once, not twice. With an engine, matplotlib's ``FigureCanvasBase.print_figure`` draws a
    figure twice: a first draw with output disabled, only to run the engine, with the
    figure on the format's canvas at the format's dpi (an SVG: 72, its user units are points;
    a PNG: ``savefig.dpi``), then the real draw with the engine off. Running the engine here,
    on that canvas at that dpi, puts the axes where that first draw would have: the file
    written is the same (tests/report/test_report_figure_once.py)."""
    engine = fig.get_layout_engine()
    if engine is None:
        return
    if fig.axes:
        canvas, dpi = fig.canvas, fig.dpi
        if fmt == "svg":
            FigureCanvasSVG(fig)  # the layout measures text as the SVG renderer will
            fig.dpi = SVG_DPI
        else:
            fig.dpi = matplotlib.rcParams["savefig.dpi"]
        try:
            engine.execute(fig)
        finally:
            fig.set_canvas(canvas)
            fig.dpi = dpi
    fig.set_layout_engine(None)


class FilesWriter:
    """Saves figures (each once, SVG or PNG) and CSVs into the files folder; keeps the page's
    blocks; ``draws`` counts the figures drawn (a figure is drawn once)."""

    def __init__(self, out_dir: Path) -> None:
        self.dir = out_dir / FILES_DIR
        self.dir.mkdir(parents=True, exist_ok=True)
        self.written: list[str] = []
        self.draws = 0

    def figure(self, key: str, fig: Any, title: str, caption: str) -> html.FigureBlock:
        """Draw ``fig`` once and embed it: as inline SVG (text kept as text, sharp at any size
        and in print) when its SVG is estimated at most ``SVG_MAX_BYTES``
        (``svg_bytes_estimate``), else as a PNG data URI (a figure of many points draws
        smaller as pixels); the same file is saved beside the page."""
        use_svg = svg_bytes_estimate(fig) <= SVG_MAX_BYTES
        with matplotlib.rc_context(plots.STYLE):
            lay_out_once(fig, "svg" if use_svg else "png")
            if use_svg:
                buf: Any = io.StringIO()
                fig.savefig(buf, format="svg")
            else:
                buf = io.BytesIO()
                fig.savefig(buf, format="png")
        self.draws += 1
        name = f"{key}.svg" if use_svg else f"{key}.png"
        if use_svg:
            (self.dir / name).write_text(buf.getvalue(), encoding="utf-8")
        else:
            (self.dir / name).write_bytes(buf.getvalue())
        self.written.append(name)
        return html.FigureBlock(
            key=key,
            title=title,
            caption=caption,
            file_name=name,
            png_b64="" if use_svg else base64.b64encode(buf.getvalue()).decode("ascii"),
            svg_inline=inline_svg(buf.getvalue()) if use_svg else "",
        )

    def csv(self, name: str, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        with (self.dir / name).open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            for row in rows:
                w.writerow(["" if v is None else _cell(v) for v in row])
        self.written.append(name)


_STRUCTURAL_ID = re.compile(r' id="[A-Za-z.]+_\d+"')  # figure_1, axes_1, text_3: not referenced


def inline_svg(svg: str) -> str:
    """matplotlib's SVG made fit to sit inside an HTML page: no XML prolog, doctype or
    metadata, no namespace declarations (the HTML parser knows SVG), none of the structural
    ids every figure repeats (figure_1, axes_1, ...; the hashed ids that clip paths and markers
    refer to stay: they are unique), and sized by the page (its viewBox keeps the shape)."""
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    svg = re.sub(r' xmlns(:\w+)?="[^"]*"', "", svg)
    svg = re.sub(r'(<svg[^>]*?) width="[^"]*" height="[^"]*"', r"\1", svg, count=1)
    svg = _STRUCTURAL_ID.sub("", svg)
    return svg.strip()


def _cell(v: Any) -> Any:
    if isinstance(v, float):
        return f"{v:.10g}"
    return v


def slug(text: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in text)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")[:40] or "source"


def draw(name: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    with matplotlib.rc_context(plots.STYLE):
        return fn(*args, **kwargs)
