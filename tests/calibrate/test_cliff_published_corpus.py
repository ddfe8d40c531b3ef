"""The published cliff figures (bench/corpus/cliff-published.toml): each with where it was
read, and the seed's figure the one bench/cliff_published.py predicts."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import cliff_published  # noqa: E402 - bench/ put on the path above


def test_every_figure_says_where_it_was_read():
    figs = tomllib.loads(cliff_published.CORPUS.read_text())["figure"]
    assert len(figs) >= 4
    for f in figs:
        assert f["source_title"] and f["read_from"] in ("text", "chart")
        assert ("value" in f and f["value"] > 0 and f["unit"]) or f["value_text"]
        assert not f["source_located"] or f["source_url"].startswith("https://")


def test_the_script_predicts_the_seed_s_figure():
    assert cliff_published.PUBLISHED == {"time_s": 120.0, "lost_iops": 10_000.0}
