"""Checks shared by the report tests: the page is self-contained and every figure is real."""

from __future__ import annotations

import base64
import csv
import re
import struct
from pathlib import Path

_IMG = re.compile(r"<img\b[^>]*>")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


_FIGURE = re.compile(r'<figure id="fig-([^"]+)"><div class="art">(.*?)</div><figcaption>', re.S)
_REF_ATTR = re.compile(r'\b(?:src|href|xlink:href)="([^"]*)"')
#: the most a page may weigh: each figure embedded once (a 5-level profile's page is ~0.35 MB)
MAX_PAGE_BYTES = 1_000_000


def check_page(out: Path) -> str:
    """Assert the report in ``out`` is one self-contained page whose every figure is embedded
    once — inline SVG or a PNG data URI — and written beside it in that format; returns the
    HTML."""
    page = out / "report.html"
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    lowered = text.lower()
    assert "<script" not in lowered and "<link" not in lowered and "@import" not in lowered
    assert "http://" not in lowered and "https://" not in lowered
    # the only url() are an inline SVG's references to its own clip paths
    assert all(u.startswith("#") for u in re.findall(r"url\(([^)]*)\)", text))
    files = out / "report-files"
    for ref in _REF_ATTR.findall(text):
        if ref.startswith("#"):
            continue
        if ref.startswith("data:"):
            assert ref.startswith("data:image/png;base64,"), ref[:40]
            continue
        assert ref.startswith("report-files/") and (out / ref).is_file(), ref
    figures = _FIGURE.findall(text)
    drawn = {p.stem: p for p in files.iterdir() if p.suffix in (".png", ".svg")}
    assert {k for k, _ in figures} == set(drawn) and len(figures) == len(drawn) > 0
    for key, art in figures:
        assert art.count("<svg") + art.count("<img") == 1, key  # embedded once
        if art.startswith("<svg"):
            assert 'role="img" aria-label="' in art and "<text" in art, key
            assert "viewBox" in art and "<path" in art, key
            assert drawn[key].suffix == ".svg" and "<path" in drawn[key].read_text(), key
        else:
            tag = _IMG.search(art)
            assert tag, key
            uri = re.search(r'src="data:image/png;base64,([^"]+)"', tag.group(0))
            assert uri, tag.group(0)[:80]
            data = base64.b64decode(uri.group(1))
            w, h = png_size(data)
            assert w >= 800 and h >= 300, (w, h)
            assert len(data) > 20_000, "a figure this small is blank"
            alt = re.search(r'alt="([^"]+)"', tag.group(0))
            assert alt and alt.group(1)
            assert drawn[key].suffix == ".png" and drawn[key].read_bytes() == data, key
    assert page.stat().st_size < MAX_PAGE_BYTES, page.stat().st_size
    return text


def figure_keys(out: Path) -> set[str]:
    return {p.stem for p in (out / "report-files").iterdir() if p.suffix in (".png", ".svg")}


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))
