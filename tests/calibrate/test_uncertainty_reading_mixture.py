"""The interval of several readings as their evidence-weighted mixture (calibrate/
reading_mixture.py, on by default) and its place in combined_prediction.combine."""

from __future__ import annotations

import math

import pytest
from overprov.calibrate import combined_prediction, reading_mixture, uncertainty
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import PredictedLevel, Prediction


def _mixture_cdf(readings, weights, x: float) -> float:
    """The mixture's CDF at x worked out apart from the module: each reading a normal in log of
    sd (ln figure − ln low)/Z80 below its figure and (ln high − ln figure)/Z80 above."""
    total = 0.0
    for (v, lo, hi), w in zip(readings, weights, strict=True):
        c, y = math.log(v), math.log(x)
        sd = (c - math.log(lo) if y < c else math.log(hi) - c) / uncertainty.Z80
        total += w * 0.5 * (1 + math.erf((y - c) / sd / math.sqrt(2)))
    return total / sum(weights)


def test_one_reading_keeps_its_own_interval():
    assert reading_mixture.interval([(100.0, 80.0, 130.0)], [1.0], 100.0) == (80.0, 130.0)
    # two equal readings: each one's interval, to the bisection's precision
    lo, hi = reading_mixture.interval([(100.0, 80.0, 130.0)] * 2, [0.5, 0.5], 100.0)
    assert lo == pytest.approx(80.0, rel=1e-9) and hi == pytest.approx(130.0, rel=1e-9)


def test_the_percentiles_are_the_mixtures():
    readings = [(100.0, 90.0, 112.0), (150.0, 120.0, 160.0), (70.0, 60.0, 75.0)]
    weights = [0.5, 0.3, 0.2]
    lo = reading_mixture.quantile(readings, weights, 0.1)
    hi = reading_mixture.quantile(readings, weights, 0.9)
    assert abs(reading_mixture.LOW_P - 0.1) < 1e-4
    assert _mixture_cdf(readings, weights, lo) == pytest.approx(0.1, abs=1e-9)
    assert _mixture_cdf(readings, weights, hi) == pytest.approx(0.9, abs=1e-9)


def test_the_mixture_lies_within_the_hull_and_a_light_reading_barely_moves_it():
    heavy, light = (100.0, 90.0, 110.0), (200.0, 180.0, 220.0)
    lo, hi = reading_mixture.interval([heavy, light], [0.98, 0.02], 101.0)
    assert lo >= 90.0 and hi <= 220.0  # within the hull
    assert hi < 112.0  # the hull's end would be 220
    # the prediction itself is kept inside
    lo2, hi2 = reading_mixture.interval([heavy, light], [0.98, 0.02], 150.0)
    assert hi2 == 150.0 and lo2 == pytest.approx(lo)


def test_readings_without_a_figure_or_weight_are_left_out():
    got = reading_mixture.interval([(None, None, None), (5.0, 4.0, 6.0)], [0.5, 0.5], 5.0)
    assert got == (4.0, 6.0)
    # no weight anywhere: the readings' span, as the hull gave (a review found (None, None))
    assert reading_mixture.interval([(5.0, 4.0, 6.0)], [0.0], 5.0) == (4.0, 6.0)
    assert reading_mixture.interval([(None, None, None)], [1.0], None) == (None, None)


#: what a one-level prediction needs beside its level (combined_prediction.combine reads the levels)
_PREDICTION = {
    "interval": "80%", "prediction_source": "x", "workload": "uniform", "workload_flags": "",
    "waf_curve": None, "recommendation": None, "fit": {"spare_efficiency": 1.0},
    "twin": "t.toml", "measurement": None,
}  # fmt: skip


def _waf_only(figures: tuple[float, float, float]) -> Prediction:
    waf, low, high = figures
    return Prediction(levels=[PredictedLevel(10.0, waf=waf, waf_low=low, waf_high=high)],
                      **_PREDICTION)  # fmt: skip


def test_combine_off_is_the_hull_and_on_the_mixture(monkeypatch):
    a, b = (
        predmod.TwinReading(predmod.EFFECTIVE),
        predmod.TwinReading(predmod.EFFECTIVE, design="d-choices-4"),
    )
    readings = {a: _waf_only((2.0, 1.8, 2.2)), b: _waf_only((3.0, 2.7, 3.3))}
    weights = {a: 0.9, b: 0.1}
    monkeypatch.setattr(reading_mixture, "ON", False)
    off = combined_prediction.combine(readings, weights=weights).levels[0]
    assert (off.waf_low, off.waf_high) == (1.8, 3.3)
    monkeypatch.setattr(reading_mixture, "ON", True)
    on_pred = combined_prediction.combine(readings, weights=weights)
    on = on_pred.levels[0]
    assert on.waf == off.waf  # the figure is the same weighted mean
    want = reading_mixture.interval([(2.0, 1.8, 2.2), (3.0, 2.7, 3.3)], [0.9, 0.1], off.waf)
    assert (on.waf_low, on.waf_high) == want
    assert on.waf_low >= 1.8 and on.waf_high < 3.3
    assert "mixture" in on_pred.interval


def test_no_weight_anywhere_gives_the_readings_span_not_nothing():
    assert reading_mixture.interval([(100, 90, 110), (120, 100, 130)], [0, 0], 110) == (90, 130)


def test_an_end_that_is_not_positive_is_taken_as_its_figure():
    low, high = reading_mixture.interval([(100, 90, 110), (120, 0.0, 130)], [0.5, 0.5], 110)
    assert 90 < low < 100 and 120 < high <= 130
