"""The model-form error from the readings' own residuals by their evidence weights
(reading_residual.WEIGHTED, off by default; bench/intervals/RULE-weighted-residual.md) and the
bench's rebuilding of an interval under another model-form sd (bench/intervals/
weighted_residual.py)."""

from __future__ import annotations

import importlib
import math
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate import gc_designs, predict, reading_residual, uncertainty
from overprov.calibrate.reading_residual import WeighedReading

ROOT = Path(__file__).resolve().parents[2]


def figures(waf_scale: float = 1.15) -> list[fitmod.Point]:
    """IOPS and WAF figures at 0, 20 and 40% of a surrogate (ρ₀ 10%, t_page 20 µs, t_cmd 5
    µs), the WAF at 0% times ``waf_scale`` (something for the fit to miss), and FOB."""
    s = fitmod.Surrogate(0.10, 20.0, 5.0)
    pts = [fitmod.Point(0.0, s.iops(0.0, 1.0), 0.02, fresh=True)]
    for x in (0.0, 20.0, 40.0):
        w = s.waf(x) * (waf_scale if x == 0.0 else 1.0)
        pts.append(fitmod.Point(x, s.iops(x), 0.02, waf=w, waf_rel_sd=0.02))
    return pts


def recorded_form(pts):
    form = uncertainty.model_form_for(pts, simulated=False)
    assert form is not None and form.residual_sd is not None
    return form


def test_off_by_default_and_then_the_very_same_form_and_input():
    assert reading_residual.WEIGHTED is False
    pts = figures()
    form = recorded_form(pts)
    d4 = WeighedReading(gc_designs.curve("d-choices-4"), None, 1.0)
    assert reading_residual.weighted_form(form, pts, [d4]) is form
    fig = predict.PredictionInput(pts, [0.0, 20.0, 40.0], typed=True, model_form=form)
    r = predict.TwinReading(predict.EFFECTIVE, "d-choices-4")
    assert reading_residual.weighted_input(fig, {r: 1.0}, {"d-choices-4": d4.curve}) is fig


def test_the_weighted_residual_is_the_readings_second_moment():
    pts = figures()
    d4 = gc_designs.curve("d-choices-4")
    greedy = uncertainty.fit_residual_sd(pts)
    own = uncertainty.fit_residual_sd(pts, curve=d4)
    assert greedy is not None and own is not None and greedy != own
    one = [WeighedReading(None, None, 1.0)]
    assert reading_residual.weighted_residual_sd(pts, one) == pytest.approx(greedy)
    both = [WeighedReading(None, None, 0.25), WeighedReading(d4, None, 0.75)]
    want = math.sqrt(0.25 * greedy**2 + 0.75 * own**2)
    assert reading_residual.weighted_residual_sd(pts, both) == pytest.approx(want)
    # a reading without weight counts for nothing
    none = [WeighedReading(None, None, 0.0), WeighedReading(d4, None, 2.0)]
    assert reading_residual.weighted_residual_sd(pts, none) == pytest.approx(own)


def test_a_raw_spare_reading_counts_its_efficiency_only_when_a_waf_fits_it():
    pts = figures()
    got = uncertainty.fit_residual_sd(pts, native_op=0.10, fit_efficiency=True)
    assert got is not None and got > 0
    # IOPS at three levels and FOB, no WAF: the effective fit has 4 figures and 3 parameters,
    # the raw spare held (k stays 1) 2 parameters, so one more degree of freedom
    iops_only = [replace(p, waf=None) for p in pts]
    assert uncertainty.fit_residual_sd(iops_only) is not None
    assert uncertainty.fit_residual_sd(iops_only, native_op=0.10, fit_efficiency=True)


def test_on_the_form_takes_the_readings_residual_and_the_recorded_scale(monkeypatch):
    monkeypatch.setattr(reading_residual, "WEIGHTED", True)
    pts = figures()
    form = recorded_form(pts)
    d4 = gc_designs.curve("d-choices-4")
    got = reading_residual.weighted_form(form, pts, [WeighedReading(d4, None, 1.0)])
    assert got.residual_sd == pytest.approx(uncertainty.fit_residual_sd(pts, curve=d4))
    assert got.residual_scale == reading_residual.recorded_scale(-1.0) != -1.0
    assert got.floor == form.floor and got.per_log_spare == form.per_log_spare
    # figures that leave the greedy fit nothing to miss keep their form
    # (IOPS at 0 and 40% and FOB: three figures, three parameters)
    few = [replace(p, waf=None) for p in pts if p.extra_op_percent != 20.0]
    plain = uncertainty.model_form_for(few, simulated=False)
    assert plain is not None and plain.residual_sd is None
    assert reading_residual.weighted_form(plain, few, [WeighedReading(d4, None, 1.0)]) is plain


@pytest.fixture(scope="module")
def wr(bench):
    """bench/intervals/weighted_residual.py (it imports the corpus bench, made a module by
    ``bench``)."""
    for p in (ROOT / "bench", ROOT / "bench" / "foreign", ROOT / "bench" / "intervals"):
        if str(p) not in sys.path:
            sys.path.append(str(p))
    return importlib.import_module("weighted_residual")


@pytest.mark.parametrize("kind", ["iops", "waf"])
def test_the_bench_rebuilds_a_band_under_another_model_form_sd(wr, kind):
    value, ratios = 3.0, [0.93, 1.12]
    old = uncertainty.band(value, ratios, 0.09)
    assert wr.rebanded(value, *old, 0.09, 0.09, kind == "waf") == pytest.approx(old)
    for m in (0.03, None):
        want = uncertainty.band(value, ratios, m)
        got = wr.rebanded(value, *old, 0.09, m or 0.0, kind == "waf")
        assert got == pytest.approx(want, rel=1e-9)


def test_the_bench_keeps_a_waf_low_end_held_at_one(wr):
    lo, hi = wr.rebanded(1.05, 1.0, 1.6, 0.2, 0.05, True)
    assert lo == 1.0 and hi < 1.6
