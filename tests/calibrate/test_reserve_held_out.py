"""A reserve reading's leave-one-out counted only where the held-out fit keeps a floor
(calibrate/reserve_held_out.py, ``SAME_FORM_ONLY`` off): surrogate-level checks (milliseconds) on
FEMU figures the scoreboard typed (bench/foreign/results/femuweight/DIAGNOSIS.md)."""

from __future__ import annotations

import math

import pytest
from overprov.calibrate import evidence, reserve_held_out, reserve_hull, spare_readings, steep_pair
from overprov.calibrate import predict as predmod
from test_reserve_steep_pair import FEMU_6LUN, FEMU_64LUN, _cv, _fig


def _weighed(monkeypatch, same_form: bool, points=FEMU_6LUN):
    # as femuweight's rule judged it: the weights on every figure's χ², not regrouped by the
    # WAF figures' (evidence.WAF_WEIGHTS, on since wisctiming; the flag drops the held-out
    # terms from ``chi2`` only)
    monkeypatch.setattr(evidence, "WAF_WEIGHTS", False)
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", True)
    monkeypatch.setattr(reserve_held_out, "SAME_FORM_ONLY", same_form)
    evidences, _ = spare_readings.weigh(_fig(points))
    return evidences, spare_readings.class_weights(evidences)


def test_every_held_out_fit_of_the_two_levels_drops_the_floor():
    form = reserve_hull.form_of("greedy", _cv(FEMU_6LUN))
    points = _fig(FEMU_6LUN).points
    assert form.fit(points).waf_floor == pytest.approx(8.0, rel=0.01)
    assert sorted(reserve_held_out.levels_without_floor(form, points)) == [0.0, 40.0]


def test_off_the_leave_one_out_decides_and_greedy_takes_the_weight(monkeypatch):
    evidences, w = _weighed(monkeypatch, False)
    greedy = next(r for r in evidences if r.design == "greedy")
    d8 = next(r for r in evidences if r.design == "d-choices-8")
    assert w[greedy] > 0.99 and w[d8] < 1e-20
    assert spare_readings.loo_chi2(evidences[d8]) - spare_readings.loo_chi2(evidences[greedy]) > 50
    assert all("held_out_without_floor" not in ev for ev in evidences.values())


def test_on_only_the_residuals_are_left_and_the_designs_weigh_alike(monkeypatch):
    evidences, w = _weighed(monkeypatch, True)
    assert {r.spare for r in evidences} == {predmod.RESERVE}
    for ev in evidences.values():
        assert ev["held_out"] == [] and len(ev["held_out_without_floor"]) == 4
        assert ev["chi2"] == pytest.approx(ev["residual_chi2"])
    assert len(w) >= 3 and max(w.values()) - min(w.values()) < 0.05
    assert math.isclose(sum(w.values()), 1.0)


def test_on_changes_nothing_where_read_as_floor_does_not_fire(monkeypatch):
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", True)
    off, _ = spare_readings.weigh(_fig(FEMU_64LUN))  # d-choices-4 links its levels: not read
    monkeypatch.setattr(reserve_held_out, "SAME_FORM_ONLY", True)
    on, _ = spare_readings.weigh(_fig(FEMU_64LUN))
    assert {r.spare for r in on} == {predmod.EFFECTIVE}
    assert {r: e["chi2"] for r, e in on.items()} == {r: e["chi2"] for r, e in off.items()}


def test_on_with_read_as_floor_off_changes_nothing(monkeypatch):
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", False)
    off, _ = spare_readings.weigh(_fig(FEMU_6LUN))
    monkeypatch.setattr(reserve_held_out, "SAME_FORM_ONLY", True)
    on, _ = spare_readings.weigh(_fig(FEMU_6LUN))
    assert {r: e["chi2"] for r, e in on.items()} == {r: e["chi2"] for r, e in off.items()}
