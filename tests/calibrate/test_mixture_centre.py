"""The centre of several readings as their evidence-weighted mixture's median
(calibrate/mixture_centre.py, off by default) and its place in combined_prediction.combine."""

from __future__ import annotations

import math

import pytest
from overprov.calibrate import combined_prediction, mixture_centre, reading_mixture
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import PredictedLevel, Prediction

_PREDICTION = {
    "interval": "80%", "prediction_source": "x", "workload": "uniform", "workload_flags": "",
    "waf_curve": None, "recommendation": None, "fit": {"spare_efficiency": 1.0},
    "twin": "t.toml", "measurement": None,
}  # fmt: skip


def _level(waf: tuple[float, float, float], iops: tuple[float, float, float]) -> Prediction:
    (w, wl, wh), (i, il, ih) = waf, iops
    level = PredictedLevel(10.0, steady_iops=i, steady_iops_low=il, steady_iops_high=ih,
                           waf=w, waf_low=wl, waf_high=wh)  # fmt: skip
    return Prediction(levels=[level], **_PREDICTION)


_THREE = [(5.44, 4.9, 6.0), (7.97, 7.2, 8.8), (7.97, 7.3, 8.7)]  # d-4 far below the other two


def test_the_median_is_the_mixtures_fiftieth_percentile():
    got = mixture_centre.median(_THREE, [1 / 3] * 3)
    assert got == reading_mixture.quantile(_THREE, [1 / 3] * 3, 0.5)
    # two readings mirror images in log about 4, equally weighed: the median is 4
    rows = [(2.0, 2.0 / 1.1, 2.0 * 1.2), (8.0, 8.0 / 1.2, 8.0 * 1.1)]
    assert mixture_centre.median(rows, [1, 1]) == pytest.approx(4.0, rel=1e-9)
    mean = math.exp(sum(math.log(v) for v, _, _ in _THREE) / 3)
    assert got > mean and got < 7.97  # drawn to the two that agree, not past them


def test_equal_readings_far_apart_give_the_middle_one():
    rows = [(2.0, 1.9, 2.1), (3.0, 2.9, 3.1), (6.0, 5.8, 6.2)]
    assert mixture_centre.median(rows, [1, 1, 1]) == pytest.approx(3.0, rel=1e-6)


def test_readings_that_agree_give_the_mean_within_their_spread():
    rows = [(3.0, 2.5, 3.6), (3.05, 2.6, 3.6)]
    got = mixture_centre.median(rows, [0.5, 0.5])
    assert 3.0 <= got <= 3.05


def test_one_reading_or_none_with_weight_gives_nothing():
    assert mixture_centre.median([(3.0, 2.0, 4.0)], [1.0]) is None
    assert mixture_centre.median([(3.0, 2.0, 4.0), (None, None, None)], [0.5, 0.5]) is None
    assert mixture_centre.median([(3.0, 2.0, 4.0), (5.0, 4.0, 6.0)], [1.0, 0.0]) is None


def test_combine_off_is_the_mean_and_on_the_median_inside_the_interval(monkeypatch):
    keys = [predmod.TwinReading(predmod.EFFECTIVE, design=d)
            for d in ("greedy", "d-choices-8", "d-choices-4")]  # fmt: skip
    iops = [(900.0, 800.0, 1000.0), (1000.0, 900.0, 1100.0), (1500.0, 1400.0, 1600.0)]
    readings = {k: _level(w, i) for k, w, i in zip(keys, _THREE[::-1], iops, strict=True)}
    weights = dict.fromkeys(keys, 1 / 3)
    monkeypatch.setattr(mixture_centre, "ON", False)
    off = combined_prediction.combine(readings, weights=weights).levels[0]
    mean = combined_prediction.weighted_geomean([v for v, _, _ in _THREE], [1 / 3] * 3)
    assert off.waf == mean
    monkeypatch.setattr(mixture_centre, "ON", True)
    on = combined_prediction.combine(readings, weights=weights).levels[0]
    assert on.waf == mixture_centre.median(_THREE[::-1], [1 / 3] * 3) != off.waf
    assert on.steady_iops == mixture_centre.median(iops, [1 / 3] * 3)
    assert on.steady_iops < off.steady_iops  # the far IOPS reading draws it less
    if reading_mixture.ON:
        assert on.waf_low <= on.waf <= on.waf_high
        assert on.steady_iops_low <= on.steady_iops <= on.steady_iops_high
    assert on.p99_latency_us == off.p99_latency_us  # only IOPS and WAF move


def test_a_reading_below_the_span_weight_is_not_mixed(monkeypatch):
    keys = [predmod.TwinReading(predmod.EFFECTIVE),
            predmod.TwinReading(predmod.EFFECTIVE, design="d-choices-4")]  # fmt: skip
    rows = [((3.0, 2.8, 3.2), (1000.0, 900.0, 1100.0)), ((9.0, 8.0, 10.0), (50.0, 40.0, 60.0))]
    readings = {k: _level(*r) for k, r in zip(keys, rows, strict=True)}
    monkeypatch.setattr(mixture_centre, "ON", True)
    on = combined_prediction.combine(readings, weights={keys[0]: 1.0, keys[1]: 0.001}).levels[0]
    # one reading mixed: the weighted mean as before (it holds the light one's 0.1%)
    assert on.waf == combined_prediction.weighted_geomean([3.0, 9.0], [1.0, 0.001])
