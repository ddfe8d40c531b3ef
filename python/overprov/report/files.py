"""The files written beside the page: figures (PNG + SVG, embedded in the page too) and CSVs."""

from __future__ import annotations

import base64
import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

from overprov.report import html, plots

FILES_DIR = "report-files"
REPORT_NAME = "report.html"


class FilesWriter:
    """Saves figures (PNG + SVG) and CSVs into the files folder; keeps the page's blocks."""

    def __init__(self, out_dir: Path) -> None:
        self.dir = out_dir / FILES_DIR
        self.dir.mkdir(parents=True, exist_ok=True)
        self.written: list[str] = []

    def figure(self, key: str, fig: Any, title: str, caption: str) -> html.FigureBlock:
        """Save ``fig`` as PNG and SVG, and a narrow layout of it (panels stacked, for
        phones) embedded in the page only."""
        buf = io.BytesIO()
        narrow = io.BytesIO()
        with matplotlib.rc_context(plots.STYLE):
            fig.savefig(buf, format="png")
            fig.savefig(self.dir / f"{key}.svg", format="svg")
            plots.restack_narrow(fig)
            fig.savefig(narrow, format="png")
        png = buf.getvalue()
        (self.dir / f"{key}.png").write_bytes(png)
        self.written += [f"{key}.png", f"{key}.svg"]
        return html.FigureBlock(
            key=key,
            title=title,
            caption=caption,
            png_b64=base64.b64encode(png).decode("ascii"),
            narrow_png_b64=base64.b64encode(narrow.getvalue()).decode("ascii"),
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
