"""curve_table: a design's tabulated curve is written beside the module and its path returned;
the library prints nothing (the modules' maintenance mains say what they wrote)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov.calibrate import curve_table


@pytest.fixture
def beside(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The module's folder, as write_table reads it, moved to a temporary one."""
    monkeypatch.setattr(curve_table, "__file__", str(tmp_path / "curve_table.py"))
    return tmp_path


def test_write_table_returns_its_path_and_prints_nothing(
    beside: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = curve_table.write_table({"what": "a test", "rho": [0.1], "ratio": [1.0]}, "t.json")
    assert path == beside / "t.json"
    assert json.loads(path.read_text())["ratio"] == [1.0]
    assert capsys.readouterr() == ("", "")


def test_write_ratio_table_tabulates_at_the_table_spares(
    beside: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = curve_table.write_ratio_table("r.json", "twice", lambda rho: 2.0 * rho, share=0.5)
    doc = json.loads(path.read_text())
    assert path == beside / "r.json"
    assert doc["share"] == 0.5 and doc["rho"] == curve_table.table_rhos()
    assert doc["ratio"] == [2.0 * r for r in curve_table.table_rhos()]
    assert capsys.readouterr() == ("", "")
