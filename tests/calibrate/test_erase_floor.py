"""The erase-cost twins not offered where no uniform GC design reads the WAF figures with one
native spare (calibrate/erase_reading.py, WITHOUT_FLOOR under OFFERED; on by
bench/foreign/results/erasefloor/RULE.md;
bench/foreign/results/erasefloor/DIAGNOSIS.md): generated GC-reserve drive R6's floor and
MQSim's WAFs are such figures, NVMeVirt erase drives' WAFs have greedy's shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov.calibrate import erase_reading, spare_readings
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod

ROOT = Path(__file__).parents[2]
RESULTS = ROOT / "bench/foreign/results"
R6 = ROOT / "bench/intervals/hullres/generated/gen-R6-reserve-sf082-floor5.5.json"
R7 = ROOT / "bench/intervals/hullres/generated/gen-R7-reserve-sf076-floor4.5.json"
MQSIM = RESULTS / "mqsim.json"
DRIVE_S = RESULTS / "erasegreedy/nvmevirt-s.json"
DRIVE_N = RESULTS / "erasegate/nvmevirt-n.json"
LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]
SD = 0.02  # a measured plan's spread a figure (bench/foreign/results/erasecheck/RULE.md)


def _plan(path: Path, waf: bool = True, sd: float = SD) -> list[fitmod.Point]:
    """The plan case's QD32 figures: IOPS (and WAF) at 0% and 40%, and FOB, each at ``sd``."""
    doc = json.loads(path.read_text())
    at = {int(r["extra_op_percent"]): r for r in doc["levels"] if r["queue_depth"] == 32}
    pts = [
        fitmod.Point(
            x,
            at[x]["steady_iops"],
            sd,
            **({"waf": at[x]["steady_waf"], "waf_rel_sd": sd} if waf else {}),
        )  # fmt: skip
        for x in (0, 40)
    ]
    return [*pts, fitmod.Point(0.0, at[0]["fob_iops"], sd, fresh=True)]


def _erase_weight(points: list[fitmod.Point]) -> float:
    fig = predmod.PredictionInput(points=points, levels=LEVELS, typed=True)
    w = spare_readings.class_weights(spare_readings.weigh(fig)[0])
    return sum(v for r, v in w.items() if r.erase)


@pytest.fixture
def on(monkeypatch):
    monkeypatch.setattr(erase_reading, "OFFERED", True)
    monkeypatch.setattr(erase_reading, "WHEN_IMPLIED_FAILS", True)
    monkeypatch.setattr(erase_reading, "WITHOUT_FLOOR", True)


def test_on_by_default_and_off_reads_no_floor(monkeypatch) -> None:
    """Adopted by bench/foreign/results/erasefloor/RULE.md (verdict.md)."""
    assert erase_reading.WITHOUT_FLOOR is True
    assert erase_reading.OFFERED is True and erase_reading.WHEN_IMPLIED_FAILS is True
    monkeypatch.setattr(erase_reading, "WITHOUT_FLOOR", False)
    assert erase_reading.floor_in_figures(_plan(R6)) is False


@pytest.mark.parametrize(("path", "floor"), [(R6, True), (R7, True), (MQSIM, True),
                                             (DRIVE_S, False), (DRIVE_N, False)])  # fmt: skip
def test_the_shape_spread_reads_a_floor(on, path, floor) -> None:
    spread = erase_reading.shape_spread(_plan(path))
    assert (spread > erase_reading.SHAPE_SPREAD_MAX) is floor
    assert erase_reading.floor_in_figures(_plan(path)) is floor


def test_without_two_waf_levels_no_floor_is_read(on) -> None:
    assert erase_reading.shape_spread(_plan(R6, waf=False)) is None
    assert erase_reading.floor_in_figures(_plan(R6, waf=False)) is False


def test_r6_takes_no_twin_with_the_condition(on, monkeypatch, femucarry_off) -> None:
    """femucarry's six flags pinned off: on by default (femumedian/verdict.md) they read R6 as a
    reserve (NONE_LINKS) whatever WITHOUT_FLOOR says, and the erase reading weighs 0 either way
    (bench/foreign/results/flipsix/CHANGED.md: R6's held-out figures then within 6%)."""
    assert _erase_weight(_plan(R6)) == 0.0
    monkeypatch.setattr(erase_reading, "WITHOUT_FLOOR", False)
    assert _erase_weight(_plan(R6)) > 0.5  # greedy+erase took the weight (erasecheck)


def test_r7_is_not_explained_at_the_gate_with_the_condition(on, monkeypatch) -> None:
    assert erase_reading.explains(_plan(R7)) is False
    monkeypatch.setattr(erase_reading, "WITHOUT_FLOOR", False)
    assert erase_reading.explains(_plan(R7)) is True


def test_by_default_r6_is_read_as_a_reserve_and_takes_no_erase_twin(monkeypatch) -> None:
    """femucarry's six flags on (femumedian/verdict.md): R6's figures read as a GC reserve, with
    WITHOUT_FLOOR on or off (bench/foreign/results/flipsix/CHANGED.md)."""
    for without_floor in (True, False):
        monkeypatch.setattr(erase_reading, "WITHOUT_FLOOR", without_floor)
        fig = predmod.PredictionInput(points=_plan(R6), levels=LEVELS, typed=True)
        w = spare_readings.class_weights(spare_readings.weigh(fig)[0])
        assert {r.spare for r in w} == {predmod.RESERVE}
        assert sum(v for r, v in w.items() if r.erase) == 0.0


def test_an_erase_drive_keeps_its_twins(on) -> None:
    assert _erase_weight(_plan(DRIVE_S)) > 0.5
