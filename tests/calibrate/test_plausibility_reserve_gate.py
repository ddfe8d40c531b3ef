"""``plausibility.RESERVE_READING_GATE``: the gate ``calibrate`` runs before any twin
(``plausibility.fit_misses_its_points``) passes figures a reserve reading explains where the onset
of garbage collection from empty offers one (dated below 1), and is the plain fit's gate
otherwise. The figures are FEMU's 14 LUNs × 224 blocks case (80% namespace) as calibrate reads
them (bench/foreign/results/femu-end-to-end/, bench/foreign/results/femu40/refused_case.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest
from overprov.calibrate import answer
from overprov.calibrate import plausibility as pl
from overprov.calibrate.fit import Point
from overprov.cli import main
from overprov.errors import NoAnswerError

#: 14 × 224's QD32 points (predict.points_from of its measurement), its FOB and its onset
POINTS = [Point(0.0, 343.152, 0.0861, 8.0904, 0.02), Point(40.0, 907.745, 0.0224, 3.0608, 0.02)]
FOB_IOPS = 2797.46
ONSET = 0.74866
CASE = Path(__file__).parents[2] / (
    "bench/foreign/results/femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80-on"
)


@pytest.fixture
def gate_on(monkeypatch):
    monkeypatch.setattr(pl, "RESERVE_READING_GATE", True)


def test_on_by_default():
    """On since bench/foreign/results/gatefix/RULE.md was met (verdict.md there)."""
    assert pl.RESERVE_READING_GATE is True


def test_off_the_plain_fit_refuses(monkeypatch):
    monkeypatch.setattr(pl, "RESERVE_READING_GATE", False)
    why = pl.fit_misses_its_points(POINTS, FOB_IOPS, ONSET)
    assert why is not None and "misses its WAF point at 40% by -55%" in why


def test_on_a_reserve_reading_that_explains_the_figures_passes(gate_on):
    assert pl.fit_misses_its_points(POINTS, FOB_IOPS, ONSET) is None


@pytest.mark.parametrize("onset", [None, 1.0, 1.08])
def test_on_without_a_reserve_reading_offered_the_plain_fit_decides(gate_on, onset, femucarry_off):
    """femucarry's six flags pinned off: on by default (femumedian/verdict.md) they offer a reserve
    reading without an onset too (test_by_default_the_six_flags_pass_the_figures_without_onset)."""
    why = pl.fit_misses_its_points(POINTS, FOB_IOPS, onset)
    assert why is not None and "misses its WAF point at 40%" in why


def test_by_default_the_six_flags_pass_the_figures_without_onset(gate_on):
    """femucarry's six flags on: with no onset from empty, the reserve reading
    ``steep_pair.READ_AS_FLOOR`` / ``reserve_hull.NONE_LINKS`` offers explains the figures."""
    assert pl.fit_misses_its_points(POINTS, FOB_IOPS, None) is None


def test_on_figures_no_reading_explains_are_still_refused(gate_on):
    bad = [Point(0, 1000, 0.05), Point(1, 100000, 0.05)]
    why = pl.fit_misses_its_points(bad, None, ONSET)
    assert why is not None and "misses its IOPS point at 0% by +1464%" in why


def test_on_figures_the_plain_fit_explains_pass_as_before(gate_on):
    good = [Point(0, 8500, 0.05), Point(40, 59000, 0.05)]
    assert pl.fit_misses_its_points(good, None, ONSET) is None


@pytest.mark.parametrize("on", [False, True])
def test_calibrate_from_the_case_gates_on_its_onset(tmp_path, monkeypatch, capsys, on):
    """``calibrate --from`` the stored case: exit 3 before any twin with the flag off; with it
    on (the default) the figures reach the prediction (stopped there: no twin is simulated)."""
    monkeypatch.setattr(pl, "RESERVE_READING_GATE", on)
    reached = []

    def stop(fig):
        reached.append(fig)
        raise NoAnswerError("stopped where the twin would be built")

    monkeypatch.setattr(answer, "predict", stop)
    assert main(["calibrate", "--from", str(CASE), "--out", str(tmp_path / "fit")]) == 3
    err = capsys.readouterr().err
    assert bool(reached) is on
    assert ("misses its WAF point at 40%" in err) is not on
