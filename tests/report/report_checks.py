"""Checks shared by the report tests: the page is self-contained and every figure is real."""

from __future__ import annotations

import base64
import csv
import re
import struct
from pathlib import Path

_ATTR = re.compile(r'\b(?:src|href)="([^"]*)"')
_IMG = re.compile(r"<img\b[^>]*>")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def check_page(out: Path) -> str:
    """Assert the report in ``out`` is one self-contained page whose every figure is a PNG
    embedded as a data URI, also written beside it with its SVG; returns the HTML."""
    page = out / "report.html"
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    lowered = text.lower()
    assert "<script" not in lowered and "<link" not in lowered and "@import" not in lowered
    assert "http://" not in lowered and "https://" not in lowered and "url(" not in lowered
    files = out / "report-files"
    for ref in _ATTR.findall(text):
        if ref.startswith("#"):
            continue
        if ref.startswith("data:"):
            assert ref.startswith("data:image/png;base64,"), ref[:40]
            continue
        assert ref.startswith("report-files/") and (out / ref).is_file(), ref
    imgs = _IMG.findall(text)
    pngs = sorted(files.glob("*.png"))
    assert len(imgs) == len(pngs) > 0
    for tag in imgs:
        uri = re.search(r'src="data:image/png;base64,([^"]+)"', tag)
        assert uri, tag[:80]
        data = base64.b64decode(uri.group(1))
        w, h = png_size(data)
        assert w >= 800 and h >= 300, (w, h)
        assert len(data) > 20_000, "a figure this small is blank"
        alt = re.search(r'alt="([^"]+)"', tag)
        assert alt and alt.group(1)
    for png in pngs:
        svg = png.with_suffix(".svg")
        assert svg.is_file() and "<path" in svg.read_text()
    return text


def figure_keys(out: Path) -> set[str]:
    return {p.stem for p in (out / "report-files").glob("*.png")}


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))
