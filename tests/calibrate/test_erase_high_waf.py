"""The erase-cost twins not offered where a steady WAF figure is high (calibrate/erase_reading.py,
WITHOUT_HIGH_WAF: off; weighed under bench/foreign/results/eraseall/RULE.md;
bench/foreign/results/eraseall/DIAGNOSIS.md): MQSim's retried drives the twins read pass the
1-point WITHOUT_FLOOR bound with WAF 10–19 at 0%; the NVMeVirt erase drives (5–8) and WiscSim
F keep their twins."""

from __future__ import annotations

from pathlib import Path

import pytest
from overprov.calibrate import erase_reading
from overprov.calibrate import fit as fitmod
from test_erase_floor import _erase_weight
from test_erase_floor import _plan as _plan_at

RESULTS = Path(__file__).parents[2] / "bench/foreign/results"
U768 = RESULTS / "mqsim-retry/unseen/u768x32.json"
U640 = RESULTS / "mqsim-retry/unseen/u640x16.json"
DRIVE_Q = RESULTS / "erasegreedy/nvmevirt-q.json"
DRIVE_S = RESULTS / "erasegreedy/nvmevirt-s.json"
WISC_F = RESULTS / "wiscgc/wiscsee-f.json"
SD = 0.05  # the CLI's spread of a typed figure (calibrate/cli.py, USER_POINT_REL_SD)


def _plan(path: Path, waf: bool = True) -> list[fitmod.Point]:
    """The scoreboard's plan case's QD32 figures (IOPS and WAF at 0% and 40%, FOB) at the
    CLI's spread."""
    return _plan_at(path, waf, SD)


@pytest.fixture
def on(monkeypatch):
    monkeypatch.setattr(erase_reading, "OFFERED", True)
    monkeypatch.setattr(erase_reading, "WHEN_IMPLIED_FAILS", True)
    monkeypatch.setattr(erase_reading, "WITHOUT_FLOOR", True)
    monkeypatch.setattr(erase_reading, "WITHOUT_HIGH_WAF", True)


def test_off_by_default_and_off_reads_as_before() -> None:
    assert erase_reading.WITHOUT_HIGH_WAF is False
    assert erase_reading.high_waf_in_figures(_plan(U768)) is False
    assert erase_reading.floor_in_figures(_plan(U768)) is False  # passes the 1-point bound


@pytest.mark.parametrize(
    ("path", "high"), [(U768, True), (U640, True), (DRIVE_Q, False), (WISC_F, False)]
)
def test_the_high_waf_reading(on, path, high) -> None:
    assert erase_reading.high_waf_in_figures(_plan(path)) is high


def test_without_a_waf_figure_nothing_is_read(on) -> None:
    assert erase_reading.high_waf_in_figures(_plan(U768, waf=False)) is False


def test_the_bound_is_strict(on) -> None:
    at = [fitmod.Point(0.0, 100.0, SD, waf=erase_reading.STEADY_WAF_MAX)]
    assert erase_reading.high_waf_in_figures(at) is False
    above = [fitmod.Point(0.0, 100.0, SD, waf=erase_reading.STEADY_WAF_MAX + 0.01)]
    assert erase_reading.high_waf_in_figures(above) is True


def test_mqsim_retried_takes_no_twin_with_the_condition(on, monkeypatch) -> None:
    assert _erase_weight(_plan(U768)) == 0.0
    assert erase_reading.explains(_plan(U768)) is False
    monkeypatch.setattr(erase_reading, "WITHOUT_HIGH_WAF", False)
    assert _erase_weight(_plan(U768)) > 0.5  # the scoreboard: greedy+erase 0.85


@pytest.mark.parametrize("path", [DRIVE_S, DRIVE_Q, WISC_F])
def test_erase_drives_keep_their_twins(on, path) -> None:
    assert _erase_weight(_plan(path)) > 0.5
