"""The distance term where one reading carries a prediction (calibrate/distance_term.py; the
rule bench/foreign/results/scorecover/RULE.md, not adopted: off by default)."""

from __future__ import annotations

import math

import pytest
from overprov.calibrate import distance_term, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate.prediction import PredictedLevel, Prediction, ReadingFigures

FIT = {"native_op": 0.10, "spare_efficiency": 1.0}
POINTS = [
    fitmod.Point(0.0, 20000.0, 0.02, 3.0, 0.02),
    fitmod.Point(40.0, 50000.0, 0.02, 1.3, 0.02),
    fitmod.Point(40.0, 9000.0, 0.02, queue_depth=4),
    fitmod.Point(0.0, 90000.0, 0.02, fresh=True),
]


def _prediction(weights: list[float] | None = None) -> Prediction:
    levels = [
        PredictedLevel(x, steady_iops=v, steady_iops_low=0.9 * v, steady_iops_high=1.1 * v,
                       waf=w, waf_low=0.95 * w, waf_high=1.05 * w)
        for x, v, w in ((0, 20000.0, 3.0), (10, 30000.0, 2.2), (20, 40000.0, 1.8),
                        (40, 50000.0, 1.3))
    ]  # fmt: skip
    readings = None
    if weights is not None:
        readings = [
            ReadingFigures("effective_spare", f"d{i}", levels, FIT, None, "", "", weight=w)
            for i, w in enumerate(weights)
        ]
    return Prediction("80%", "", "uniform", "", None, levels, None, FIT, None, None, readings)


def test_one_reading_carries_when_no_second_reaches_the_carry_weight():
    assert distance_term.one_reading_carries([1.0])
    assert distance_term.one_reading_carries([0.93, 0.07, 0.0])
    assert not distance_term.one_reading_carries([0.85, 0.15])
    assert distance_term.reading_weights(_prediction()) == [1.0]


def test_the_slope_is_the_maximum_likelihood_one_beyond_the_given_interval():
    sd = 0.05
    rows = []
    for d in (0.4, 0.8, 1.6):  # errors whose square is the variance at slope 0.3, both signs
        e = math.sqrt(sd**2 + (0.3 * d) ** 2)
        rows += [(e, sd, d), (-e, sd, d)]
    assert distance_term.max_likelihood_slope(rows) == pytest.approx(0.3, abs=1e-3)
    assert distance_term.max_likelihood_slope([(0.01, sd, 1.0), (-0.02, sd, 0.8)]) == 0.0
    assert distance_term.max_likelihood_slope([]) == 0.0


def test_the_term_widens_in_quadrature_and_leaves_fitted_levels_alone():
    rows = [(0.0, 100.0, 90.0, 110.0), (10.0, 100.0, 90.0, 110.0)]
    (fit_lo, fit_hi), (lo, hi) = distance_term.iops_bounds(rows, [0.0, 40.0], 0.1, 1.0, 0.2)
    assert (fit_lo, fit_hi) == (90.0, 110.0)
    d = uncertainty.spare_distance(10.0, [0.0, 40.0], 0.1, 1.0)
    z = uncertainty.Z80 * 0.2 * d
    assert math.log(hi / 100.0) == pytest.approx(math.hypot(math.log(1.1), z))
    assert math.log(100.0 / lo) == pytest.approx(math.hypot(math.log(1 / 0.9), z))


def test_off_by_default_and_as_its_rule_recorded():
    assert distance_term.ON is False
    rec = uncertainty.recorded()["one_reading_distance"]
    assert rec["adopted"] is False and rec["per_log_spare"] == distance_term.recorded_slope()
    pred = _prediction()
    assert distance_term.apply(pred, POINTS, 0.2) is pred


def test_on_it_widens_only_the_iops_of_unfitted_levels_of_a_one_reading_prediction(monkeypatch):
    monkeypatch.setattr(distance_term, "ON", True)
    several = _prediction([0.6, 0.4])
    assert distance_term.apply(several, POINTS, 0.2) is several
    pred = _prediction([0.95, 0.05])
    got = distance_term.apply(pred, POINTS, 0.2)
    assert "one reading carries it" in got.interval
    for a, b in zip(pred.levels, got.levels, strict=True):
        assert (a.waf_low, a.waf_high, a.steady_iops) == (b.waf_low, b.waf_high, b.steady_iops)
        if a.extra_op_percent in (0, 40):  # fitted (the QD4 and FOB points are not levels)
            assert (a.steady_iops_low, a.steady_iops_high) == (
                b.steady_iops_low,
                b.steady_iops_high,
            )
        else:
            assert b.steady_iops_low < a.steady_iops_low and b.steady_iops_high > a.steady_iops_high
