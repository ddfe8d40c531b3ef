"""`pip install .` had no way to get emulate's mfusepy (only requirements-dev.txt named it):
pyproject.toml has an `emulate` extra, and emulate's refusal names it."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from overprov.emulate import loop

ROOT = Path(__file__).resolve().parents[2]


def test_the_emulate_extra_pins_what_requirements_dev_pins():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    pins = [ln.strip() for ln in (ROOT / "requirements-dev.txt").read_text().splitlines()]
    assert extras["emulate"] == [p for p in pins if p.startswith("mfusepy==")]


def test_a_missing_mfusepy_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mfusepy", None)  # import mfusepy raises ImportError
    reasons = loop.missing()
    said = [r for r in reasons if "mfusepy" in r]
    assert len(said) == 1 and "pip install 'overprov[emulate]'" in said[0]
