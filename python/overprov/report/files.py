"""The files written beside the page: figures (PNG + SVG; each embedded in the page once, as
whichever of the two is smaller) and CSVs."""

from __future__ import annotations

import base64
import csv
import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

from overprov.outputs import REPORT_PAGE
from overprov.report import html, plots

FILES_DIR = "report-files"
REPORT_NAME = REPORT_PAGE


class FilesWriter:
    """Saves figures (PNG + SVG) and CSVs into the files folder; keeps the page's blocks."""

    def __init__(self, out_dir: Path) -> None:
        self.dir = out_dir / FILES_DIR
        self.dir.mkdir(parents=True, exist_ok=True)
        self.written: list[str] = []

    def figure(self, key: str, fig: Any, title: str, caption: str) -> html.FigureBlock:
        """Save ``fig`` as PNG and SVG beside the page, and embed it once: as inline SVG
        (text kept as text, sharp at any size and in print) when that is no larger than the
        PNG as a data URI, else as the PNG (a figure of many points draws smaller as pixels).
        The two share one layout: the constrained layout the PNG was drawn with is kept for
        the SVG (run again at the SVG's 72 dpi it moved boxes by a fraction of a pixel, and
        took a tenth of a report's CPU time)."""
        png_buf, svg_buf = io.BytesIO(), io.StringIO()
        with matplotlib.rc_context(plots.STYLE):
            fig.savefig(png_buf, format="png")
            fig.set_layout_engine("none")
            fig.savefig(svg_buf, format="svg")
        png, svg = png_buf.getvalue(), svg_buf.getvalue()
        (self.dir / f"{key}.png").write_bytes(png)
        (self.dir / f"{key}.svg").write_text(svg, encoding="utf-8")
        self.written += [f"{key}.png", f"{key}.svg"]
        png_b64 = base64.b64encode(png).decode("ascii")
        inline = inline_svg(svg)
        use_svg = len(inline.encode("utf-8")) <= len(png_b64)
        return html.FigureBlock(
            key=key,
            title=title,
            caption=caption,
            png_b64="" if use_svg else png_b64,
            svg_inline=inline if use_svg else "",
            png_name=f"{key}.png",
            svg_name=f"{key}.svg",
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
