"""``reserve_plateau`` (on since bench/foreign/results/femumedian/verdict.md, with femucarry's
other five flags; alone not met: bench/foreign/results/femutwin/verdict.md): a reserve twin's
victim threshold corrected to its reading's WAF plateau in ``twin.refine``; the d-choices twin's
plateau under the threshold 1/W_floor lies below W_floor
(bench/foreign/results/femutwin/DIAGNOSIS.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate import gc_reserve, reserve_plateau, twin, twin_runs
from test_twin_reserve import _figures, _twin


class _Sim:
    def __init__(self, waf: float, iops: float = 1.0) -> None:
        self.waf, self.steady_iops = waf, iops


def _points() -> list[fitmod.Point]:
    return [p for p in _figures() if p.extra_op_percent in (0.0, 40.0)]


def test_the_lowest_figure_on_the_floor_sets_the_threshold():
    pts = _points()
    floor = pts[0].waf
    assert reserve_plateau.floor_point(pts, floor, {0.0: _Sim(6.0), 40.0: _Sim(1.7)}) is pts[0]
    assert reserve_plateau.plateau_miss(pts, floor, {0.0: _Sim(0.8 * floor)}) == pytest.approx(-0.2)
    # a twin 20% under the plateau: the threshold raised by 1/0.8; within 2%: kept
    assert reserve_plateau.corrected_threshold(8.0, pts, floor, {0.0: _Sim(0.8 * floor)}) == (
        pytest.approx(10.0)
    )
    assert reserve_plateau.corrected_threshold(8.0, pts, floor, {0.0: _Sim(0.99 * floor)}) == 8.0
    # at most MAX_STEP a step; no figure on the floor: kept
    assert reserve_plateau.corrected_threshold(8.0, pts, floor, {0.0: _Sim(0.2 * floor)}) == (
        pytest.approx(8.0 * reserve_plateau.MAX_STEP)
    )
    assert reserve_plateau.corrected_threshold(8.0, pts, 99.0, {0.0: _Sim(1.5)}) == 8.0


def test_on_by_default():
    """femucarry's six flags on with ``mixture_centre.ON`` (femumedian/verdict.md: met)."""
    assert reserve_plateau.ON is True


def test_the_correction_acts_only_when_on(monkeypatch):
    s = gc_reserve.ReserveForm(fitmod.waf_at, 0.16).fit(_figures())
    t = _twin(s, 2**30)
    pts = _points()
    low = {p.extra_op_percent: _Sim(p.waf * (0.8 if p.extra_op_percent == 0 else 1.0), p.iops)
           for p in pts}  # fmt: skip
    monkeypatch.setattr(reserve_plateau, "ON", False)  # on by default since femumedian/verdict.md
    assert twin._corrected(t, pts, low).gc_reserve.victim_floor is None  # off: as before
    monkeypatch.setattr(reserve_plateau, "ON", True)
    got = twin._corrected(t, pts, low).gc_reserve
    assert got.victim_floor == pytest.approx(s.waf_floor / 0.8)
    assert got.waf_floor == t.gc_reserve.waf_floor  # the reading's plateau is kept
    notes = twin.drive_dict(replace(t, gc_reserve=got))["notes"]["calibration"]
    assert notes["gc_reserve"]["victim_floor"] == got.victim_floor
    assert "victim_floor" not in twin.drive_dict(t)["notes"]["calibration"]["gc_reserve"]
    keys = got.ftl_keys(2**30)
    assert keys["gc_victim_min_invalid_fraction"] == round(512 / got.victim_floor) / 512


def test_a_d_choices_twin_plateaus_below_its_threshold_and_the_corrected_one_at_it():
    """The diagnosis on a 1 GiB twin: d-choices-8 at 0% under the threshold 1/W gives about
    0.8 W; a threshold raised by 1/0.8 brings it within 5% of W."""
    s = gc_reserve.ReserveForm(fitmod.waf_at, 0.16).fit(_figures())
    t = _twin(s, 2**30)
    t.ftl = {"policy": "d-choices", "d_choices": 8}
    plain = twin_runs.simulate_levels(t, [0.0], {"pattern": "uniform"}, timed=False, jobs=1)
    assert plain.levels[0].waf < 0.9 * s.waf_floor
    t.gc_reserve = twin.GcReserve(
        t.gc_reserve.reserve, t.gc_reserve.waf_floor, victim_floor=s.waf_floor / 0.8
    )
    fixed = twin_runs.simulate_levels(t, [0.0], {"pattern": "uniform"}, timed=False, jobs=1)
    print(plain.levels[0].waf, fixed.levels[0].waf, s.waf_floor)
    assert fixed.levels[0].waf == pytest.approx(s.waf_floor, rel=0.05)
