"""The reserve reading's spare taken from the onset of garbage collection from empty, and the WAF
figures read after a discard checked one-sidedly (calibrate/discard_transient.py): the plan's 40%
figure, read inside greedy's transient after the discard, neither pulls the spare nor refuses
the reading nor moves the twin's reserve while it lies within the transient allowance above the
onset's curve; off by default."""

from __future__ import annotations

import pytest
from overprov.calibrate import discard_transient, gc_reserve, reserve_reading, twin
from overprov.calibrate import fit as fitmod
from overprov.calibrate.prediction import Prediction

ONSET = 0.88  # FEMU's 10-LUN drive in form: a reserve beyond the native spare
FLOOR = 8.0
A = discard_transient.TRANSIENT_ALLOWANCE


def drive_waf(x: float) -> float:
    return min(fitmod.waf_at(ONSET / (1 - x / 100) - 1), FLOOR)


def plan_points(high_at_40: float) -> list[fitmod.Point]:
    """calibrate's plan figures (IOPS and WAF a level, at 0% and 40%, and FOB), the 40% WAF
    read ``high_at_40`` above the drive's steady WAF; the IOPS as the drive's WAF gives."""

    def iops(waf: float) -> float:
        return 1e6 / (2.5 + 3.9 * waf)

    w40 = drive_waf(40) * (1 + high_at_40)
    return [
        fitmod.Point(0, iops(1.0), 0.02, fresh=True),
        fitmod.Point(0, iops(drive_waf(0)), 0.02, drive_waf(0), 0.02),
        fitmod.Point(40, iops(w40), 0.02, w40, 0.02),
    ]


@pytest.fixture
def flag(monkeypatch):
    """Sets ``discard_transient.SPARE_FROM_ONSET`` for one test, whatever its default."""

    def set_to(on: bool) -> None:
        monkeypatch.setattr(discard_transient, "SPARE_FROM_ONSET", on)

    return set_to


def test_tolerated_waf_is_one_sided_within_the_allowance():
    assert discard_transient.tolerated_waf(2.10, 2.0) == 2.0  # 5% above: reproduced
    assert discard_transient.tolerated_waf(2.0 * (1 + A), 2.0) == pytest.approx(2.0)
    assert discard_transient.tolerated_waf(2.0 * (1 + A) * 1.1, 2.0) == pytest.approx(2.2)
    assert discard_transient.tolerated_waf(1.8, 2.0) == 1.8  # below: counts in full
    assert discard_transient.after_discard([40.0, 0.0, 20.0]) == {20.0, 40.0}
    assert discard_transient.after_discard([]) == set()


def test_a_high_40_figure_pulls_the_spare_off_the_onset_only_with_the_flag_off(flag):
    flag(False)
    pts = plan_points(0.08)  # FEMU's seen 40% figures: 4-13% above the onset's curve
    form = gc_reserve.ReserveForm(fitmod.waf_at, 0.16, onset=ONSET)
    off = form.fit(pts)
    assert 1 + off.native_op < ONSET - 0.01  # the figure outweighs the onset
    flag(True)
    on = form.fit(pts)
    assert 1 + on.native_op == pytest.approx(ONSET)
    assert on.waf_floor == pytest.approx(FLOOR, rel=0.02)
    assert on.waf(20) == pytest.approx(drive_waf(20), rel=0.02)
    checked = form.checked_points(pts)
    assert checked[2].waf == pytest.approx(on.waf(40))  # the 40% figure counts as reproduced
    assert checked[1] == pts[1] and checked[0] == pts[0]  # the lowest level and FOB as read
    assert form.called_for(pts)


def test_a_figure_beyond_the_allowance_still_refuses_the_pinned_reading(flag):
    flag(True)
    form = gc_reserve.ReserveForm(fitmod.waf_at, 0.16, onset=ONSET)
    assert form.called_for(plan_points(0.05))
    assert not form.called_for(plan_points(A + 0.25))  # 25 points beyond: its excess counts
    assert not form.called_for(plan_points(-0.2))  # below the curve: counts in full


def test_the_spare_is_fitted_as_before_without_an_onset(flag):
    flag(False)
    pts = plan_points(0.08)
    before = gc_reserve.ReserveForm(fitmod.waf_at, 0.16).fit(pts)
    flag(True)
    form = gc_reserve.ReserveForm(fitmod.waf_at, 0.16)
    assert form.fit(pts).native_op == before.native_op
    assert form.checked_points(pts) == pts


class _Level:
    def __init__(self, waf: float) -> None:
        self.waf = waf


def test_the_twins_reserve_follows_the_onsets_curve_not_a_figure_within_the_allowance(flag):
    flag(False)
    rho0, collector = twin.reserve_collector(ONSET, FLOOR)
    assert collector.spare_factor_read == pytest.approx(ONSET)
    measured = [fitmod.Point(0, None, 0.02, FLOOR, 0.02),
                fitmod.Point(40, None, 0.02, 1.08 * drive_waf(40), 0.02)]  # fmt: skip
    by_level = {0: _Level(FLOOR), 40: _Level(drive_waf(40))}  # the twin meets the onset's curve
    args = (rho0, collector, measured, by_level, fitmod.waf_at)
    moved = twin._corrected_reserve(*args)
    assert moved.reserve > collector.reserve + 0.005  # off: pulled to the high figure
    flag(True)
    assert twin._corrected_reserve(*args).reserve == pytest.approx(collector.reserve)
    by_level[40] = _Level(0.97 * drive_waf(40))  # a twin below the curve: corrected to it
    assert twin._corrected_reserve(*args).reserve > collector.reserve


def _with_twin_check(measured_40: float, twin_40: float) -> Prediction:
    pred = Prediction.__new__(Prediction)
    pred.fit = {"twin_check": [
        {"extra_op_percent": 0.0, "measured_waf": FLOOR, "twin_waf": FLOOR},
        {"extra_op_percent": 40.0, "measured_waf": measured_40, "twin_waf": twin_40},
    ]}  # fmt: skip
    return pred


def test_the_twins_waf_check_tolerates_the_figure_after_the_discard(flag):
    flag(False)
    pred = _with_twin_check(1.13 * 1.8, 1.8)  # FEMU's 14-LUN drive: 13% above
    assert reserve_reading.twin_misses_its_waf(pred) is not None
    flag(True)
    assert reserve_reading.twin_misses_its_waf(pred) is None
    assert reserve_reading.twin_misses_its_waf(_with_twin_check(0.85 * 1.8, 1.8)) is not None
