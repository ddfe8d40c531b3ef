"""Fixtures of the calibrate tests: the corpus bench (bench/corpus_bench.py) as a module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "corpus_bench", ROOT / "bench" / "corpus_bench.py"
    )
    mod = importlib.util.module_from_spec(spec)
    sys.modules["corpus_bench"] = mod
    spec.loader.exec_module(mod)
    return mod
