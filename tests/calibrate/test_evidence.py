"""Readings weighed by their evidence (calibrate/evidence.py, combined_prediction.combine) and the
model-form error that grows away from the fitted levels (uncertainty.ModelForm, predict.py)."""

from __future__ import annotations

import math

import pytest
from overprov.calibrate import (
    answer,
    combined_prediction,
    evidence,
    mixture_centre,
    reading_mixture,
    uncertainty,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import RAW as RAW_SPARE
from overprov.calibrate.prediction import PredictedLevel, Prediction

RAW = 0.074  # a drive whose raw spare is 7.4%


def greedy_drive_points(native_op: float, t_cmd_us: float, t_page_us: float) -> list:
    """IOPS at 0%, 20% and 40% extra OP and FOB of a drive that *is* the effective-spare model
    (greedy WAF on native_op of spare, 1/IOPS = t_cmd + WAF·t_page)."""
    pts = []
    for x in (0.0, 20.0, 40.0):
        waf = fitmod.waf_at(fitmod.rho_eff(native_op, x))
        pts.append(fitmod.Point(x, 1e6 / (t_cmd_us + waf * t_page_us), 0.02))
    pts.append(fitmod.Point(0.0, 1e6 / (t_cmd_us + t_page_us), 0.02, fresh=True))
    return pts


def test_a_reading_that_misses_its_fitted_figures_loses_its_weight():
    """Figures made by a drive with 2% of effective spare (its raw NAND says 7.4%): the raw
    reading (k = 1 without WAF figures) cannot reproduce them and its weight goes to ~0; the
    effective reading fits them and carries the prediction."""
    pts = greedy_drive_points(0.02, 5.0, 8.0)
    eff = evidence.assess(evidence.ReadingForm(fitmod.waf_at), pts, 0.16)
    raw = evidence.assess(evidence.ReadingForm(fitmod.waf_at, RAW, True), pts, 0.16)
    assert eff["chi2"] < 1.0
    worst_raw = max(abs(r["log_error"]) for r in raw["residuals"])
    assert worst_raw > 0.05  # the raw reading misses a fitted figure by more than 5%
    assert len(raw["held_out"]) == 3  # each steady figure predicted from the others
    w = evidence.weights({"effective_spare": eff["chi2"], "raw_spare": raw["chi2"]})
    assert w["effective_spare"] > 0.99 and w["raw_spare"] < 0.01


def test_readings_the_figures_cannot_tell_apart_weigh_the_same():
    """One WAF figure: both readings fit it exactly and nothing can be held out."""
    pts = [fitmod.Point(0.0, None, 0.05, 2.85, 0.05)]
    chi2 = {
        "effective_spare": evidence.assess(evidence.ReadingForm(fitmod.waf_at), pts, 0.16)["chi2"],
        "raw_spare": evidence.assess(evidence.ReadingForm(fitmod.waf_at, RAW, True), pts, 0.16)[
            "chi2"
        ],
    }
    w = evidence.weights(chi2)
    assert w["effective_spare"] == pytest.approx(0.5, abs=1e-6)


def _reading(waf: float, lo: float, hi: float) -> Prediction:
    level = PredictedLevel(10.0, waf=waf, waf_low=lo, waf_high=hi)
    return Prediction(interval="80%", prediction_source="x", workload="uniform",
                      workload_flags="", waf_curve=None, levels=[level], recommendation=None,
                      fit={"spare_efficiency": 1.0}, twin="t.toml", measurement=None)  # fmt: skip


def test_combine_weighs_by_evidence_and_drops_a_refuted_reading_from_the_interval(monkeypatch):
    monkeypatch.setattr(mixture_centre, "ON", False)  # the mean (the median: test_mixture_centre)
    eff, raw = (
        predmod.TwinReading(predmod.EFFECTIVE),
        predmod.TwinReading(predmod.RAW, native_op=RAW),
    )
    readings = {eff: _reading(2.0, 1.9, 2.1), raw: _reading(4.0, 3.8, 4.2)}
    equal = combined_prediction.combine(readings)
    assert equal.levels[0].waf == pytest.approx(math.sqrt(8.0))
    # the interval: the equal-weight mixture of both readings (reading_mixture.py, on)
    mixed = reading_mixture.interval([(2.0, 1.9, 2.1), (4.0, 3.8, 4.2)], [0.5, 0.5], math.sqrt(8))
    assert (equal.levels[0].waf_low, equal.levels[0].waf_high) == pytest.approx(mixed)
    assert 1.9 < equal.levels[0].waf_low < 2.0 and 4.0 < equal.levels[0].waf_high < 4.2
    with monkeypatch.context() as m:  # off: the hull of both
        m.setattr(reading_mixture, "ON", False)
        assert combined_prediction.combine(readings).levels[0].waf_high == 4.2
    refuted = combined_prediction.combine(readings, {eff: {"chi2": 0.0}, raw: {"chi2": 30.0}})
    row = refuted.levels[0]
    assert row.waf == pytest.approx(2.0, rel=1e-5)
    assert (row.waf_low, row.waf_high) == (1.9, 2.1)  # the refuted reading left it
    assert refuted.readings is not None
    by_key = {r.key: r for r in refuted.readings}
    assert by_key["raw_spare"].spare == RAW_SPARE and by_key["raw_spare"].weight < 1e-6
    assert "evidence-weighted" in refuted.prediction_source


def test_model_form_error_is_small_at_fitted_levels_and_grows_away_from_them():
    mf = uncertainty.ModelForm(per_log_spare=0.3)
    d = [uncertainty.spare_distance(x, [20.0], 0.07) for x in (20.0, 25.0, 40.0, 60.0)]
    assert d[0] == 0.0 and d[1] < d[2] < d[3]
    sds = [mf.at(v) for v in d]
    assert sds[0] == uncertainty.AT_FITTED_REL_SD
    assert sds == sorted(sds) and sds[-1] > 0.1


def test_waf_interval_carries_the_model_form_error_and_widens_with_distance(tmp_path):
    """A WAF figure at 0%: the predicted WAF's 80% interval is no longer measurement noise
    alone (it was 4% wide for a WAF pair missed by 15–22%); it grows with the distance."""
    mf = uncertainty.ModelForm(per_log_spare=0.3)
    pred = answer.predict(predmod.PredictionInput(
        [fitmod.Point(0.0, None, 0.02, 3.0, 0.02)], [0.0, 10.0, 20.0, 40.0],
        model_form=mf, bootstrap_samples=20,
    ))  # fmt: skip
    widths = [math.log(r.waf_high / r.waf_low) for r in pred.levels]
    assert widths == sorted(widths)
    assert widths[-1] > 2 * uncertainty.Z80 * 0.2  # at 40%: more than ±20%
    assert "log spare distance" in pred.interval
    none = answer.predict(predmod.PredictionInput(
        [fitmod.Point(0.0, None, 0.02, 3.0, 0.02)], [40.0],
        model_form=uncertainty.NO_MODEL_FORM, bootstrap_samples=20,
    ))  # fmt: skip
    assert math.log(none.levels[0].waf_high / none.levels[0].waf_low) < widths[-1] / 3


def test_the_reproduction_bound_is_the_chi2_quantile():
    """The 99% quantiles of χ² at 1 and 2 degrees of freedom: z(0.995)² and −2·ln(0.01)."""
    z = 2.5758
    assert evidence.chi2_quantile(1) == pytest.approx(z * z, rel=0.01)
    assert evidence.chi2_quantile(2) == pytest.approx(-2 * math.log(0.01), rel=0.01)
    assert evidence.chi2_quantile(0) == evidence.chi2_quantile(1)  # at least one
    assert evidence.reproduces(6.0, 3, 2) and not evidence.reproduces(7.0, 3, 2)
    # a reading that reproduces is kept alone, whatever the other's likelihood
    w = evidence.weights({"a": 50.0, "b": 5.0}, {"a": True, "b": False})
    assert w == {"a": 1.0, "b": 0.0}
    assert evidence.weights({"a": 50.0, "b": 5.0}, {"a": False, "b": False})["b"] > 0.99


def test_the_model_form_error_that_widens_the_held_out_spread_is_its_rel_sd_or_none():
    assert evidence.model_form_rel_sd(None) == 0.0
    assert evidence.model_form_rel_sd(uncertainty.ModelForm(0.16)) == 0.16
    # the level-free figure, even where the form grows with the distance from fitted levels
    assert evidence.model_form_rel_sd(uncertainty.ModelForm(0.1, per_log_spare=0.5)) == 0.1


def test_weights_of_evidences_drop_a_reading_that_misses_and_count_a_bare_chi2_as_reproducing():
    """``evidence.weights_of``: the weights of the records' χ² with a reading that misses its
    fitted figures dropped where another reproduces them; a record with a χ² alone (no residual
    χ²) counts as reproducing, so it is not dropped."""
    misses = {"chi2": 5.0, "residual_chi2": 50.0, "n_figures": 3, "n_parameters": 2}
    fits = {"chi2": 50.0, "residual_chi2": 1.0, "n_figures": 3, "n_parameters": 2}
    assert evidence.weights_of({"a": misses, "b": fits}) == {"a": 0.0, "b": 1.0}
    bare = {"a": {"chi2": 5.0}, "b": fits}
    want = evidence.weights({"a": 5.0, "b": 50.0}, {"a": True, "b": True})
    assert evidence.weights_of(bare) == want and want["a"] > 0.99
