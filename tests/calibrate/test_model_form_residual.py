"""The model-form error set by what the fit itself shows (uncertainty.fit_residual_sd,
uncertainty.conditioned; bench/intervals/RULE.md) and its scale fitted leave one FTL family out
(bench/conditioned_intervals.py)."""

from __future__ import annotations

import importlib
import json
import math
import sys
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest
from overprov.calibrate import conformal_scale, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate.uncertainty import ModelForm, conditioned, fit_residual_sd

ROOT = Path(__file__).resolve().parents[2]
LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)


def on_the_form(levels=LEVELS, waf_scale=1.0) -> list[fitmod.Point]:
    """IOPS and WAF figures of a surrogate (ρ₀ 10%, t_page 20 µs, t_cmd 5 µs) at ``levels``,
    WAF times ``waf_scale`` at the lowest, and its FOB figure."""
    s = fitmod.Surrogate(0.10, 20.0, 5.0)
    pts = [fitmod.Point(0.0, s.iops(0.0, 1.0), 0.02, fresh=True)]
    for x in levels:
        w = s.waf(x) * (waf_scale if x == min(levels) else 1.0)
        pts.append(fitmod.Point(x, s.iops(x, w), 0.02, w, 0.02))
    return pts


def test_figures_on_the_surrogates_form_leave_no_residual():
    assert fit_residual_sd(on_the_form()) == pytest.approx(0.0, abs=2e-3)


def test_a_figure_off_the_form_shows_in_the_residual():
    """The lowest level's WAF 40% above the curve through the others (a GC reserve that takes
    more at low spare, as on FEMU's reserve-holding drives): a residual sd of several percent."""
    assert fit_residual_sd(on_the_form(waf_scale=1.4)) > 0.05


def test_as_many_figures_as_parameters_show_nothing():
    """calibrate's IOPS-only plan (two levels and FOB: ρ₀, t_page, t_cmd) and one WAF figure:
    no residual, so the distance rule stays."""
    two = [p for p in on_the_form((0.0, 40.0))]
    iops_only = [fitmod.Point(p.extra_op_percent, p.iops, 0.02, fresh=p.fresh) for p in two]
    assert fit_residual_sd(iops_only) is None
    assert fit_residual_sd([fitmod.Point(0.0, None, 0.02, 2.5, 0.02)]) is None
    form = ModelForm(0.16, per_log_spare=0.3)
    assert conditioned(form, iops_only, 0.9) is form


def test_the_conditioned_error_is_the_scaled_residual_at_every_level():
    form = conditioned(ModelForm(0.16, per_log_spare=0.3), on_the_form(waf_scale=1.4), 0.9)
    r = fit_residual_sd(on_the_form(waf_scale=1.4))
    assert form.residual_sd == pytest.approx(r)
    want = 0.9 * math.hypot(uncertainty.AT_FITTED_REL_SD, r)
    assert form.at(0.0) == pytest.approx(want)
    assert form.at(1.5) == pytest.approx(want)
    assert form.rel_sd == 0.16  # the evidence weights' form error is not changed
    assert "residual sd" in form.describe()


@pytest.fixture(scope="module")
def rule(bench):
    """bench/conditioned_intervals.py (it imports the corpus bench, made a module by ``bench``)."""
    if str(ROOT / "bench") not in sys.path:
        sys.path.append(str(ROOT / "bench"))
    return importlib.import_module("conditioned_intervals")


def test_the_scale_is_fitted_on_the_other_families_only(rule):
    """Family A errs by 3 residual sds, B by 1: A's intervals use B's scale (1) and B's use A's
    (3), never their own."""

    def c(family: str, k: float, sign: int) -> dict:
        r = 0.05
        return {"family": family, "name": family, "residual_sd": r, "noise_sd": 0.0,
                "log_error": sign * k * math.hypot(uncertainty.AT_FITTED_REL_SD, r)}  # fmt: skip

    cases = [c("A", 3.0, s) for s in (1, -1)] * 3 + [c("B", 1.0, s) for s in (1, -1)] * 3
    scales = rule.judge(cases)
    assert scales["A"] == pytest.approx(1.0, abs=0.01)
    assert scales["B"] == pytest.approx(3.0, abs=0.01)


def test_calibrate_uses_the_recorded_scale_when_the_fit_shows_its_misses(monkeypatch):
    """Real drives and typed figures: conditioned on the fit's residual with the recorded scale
    (bench/intervals/RULE.md; with ``conformal_scale.ON`` off, its test covers it on), the
    text naming no file; figures that leave nothing to miss, and simulated targets, keep the
    recorded forms."""
    monkeypatch.setattr(conformal_scale, "ON", False)
    doc = json.loads(
        resources.files("overprov.calibrate").joinpath("model_form_error.json").read_text()
    )
    scale = doc["fit_residual"]["scale"]
    off = uncertainty.model_form_for(on_the_form(waf_scale=1.4), simulated=False)
    assert off.residual_scale == scale and off.residual_sd > 0.05
    assert off.source.endswith(doc["fit_residual"]["source"].rsplit(", ", 1)[1])
    assert "bench/" not in off.source and ".json" not in off.source
    two = [fitmod.Point(p.extra_op_percent, p.iops, 0.02, fresh=p.fresh)
           for p in on_the_form((0.0, 40.0))]  # fmt: skip
    recorded = uncertainty.recorded_model_form(False)
    got = uncertainty.model_form_for(two, simulated=False)  # IOPS only: widened, else the same
    assert got.iops_only_sd == doc["iops_only"]["rel_sd"]
    assert replace(got, iops_only_sd=None, source=recorded.source) == recorded
    assert uncertainty.model_form_for(on_the_form(), simulated=True) == (
        uncertainty.recorded_model_form(True)
    )


class _Captured(BaseException):  # past the CLI's catch-all
    pass


@pytest.mark.parametrize(
    ("figures", "conditioned_form"),
    [
        (["--points", "0:88544,40:193215", "--waf-points", "0:2.011,40:1.155"], True),
        (["--points", "0:88544,40:193215"], False),  # three figures, three parameters
        (
            [
                "--points",
                "0:88544,40:193215",
                "--waf-points",
                "0:2.011,40:1.155",
                "--workload",
                "zipf",
            ],
            False,
        ),  # fmt: skip
    ],
)
def test_the_cli_gives_the_prediction_the_conditioned_form(monkeypatch, figures, conditioned_form):
    """EagleTree's figures (calibrate's plan with WAF, docs/calibrate-validation.md): the
    prediction is handed the form set by the fit's residual; IOPS alone, or another workload
    than uniform random writes, the recorded one (None: predict.py reads it)."""
    from overprov.calibrate import answer
    from overprov.cli import main

    got = {}

    def predict(fig):
        got["form"] = fig.model_form
        raise _Captured

    monkeypatch.setattr(answer, "predict", predict)
    with pytest.raises(_Captured):
        main(["calibrate", *figures, "--fob-iops", "249913", "--extra-op", "0,20,40"])
    form = got["form"]
    if conditioned_form:
        assert form.residual_sd is not None and form.at(0.5) < 0.05
    else:
        assert form is None or form.residual_sd is None


def test_a_waf_interval_never_names_a_waf_below_one():
    """A wide interval (SSD-iq's skewed one-figure cases reached 0.29 at 40%) under a WAF near
    1: the plain band goes below 1, the WAF band stops at 1 and keeps its high end."""
    plain = uncertainty.band(1.1, [0.4, 1.6], 0.6)
    assert plain[0] < 1.0
    low, high = uncertainty.waf_band(1.1, [0.4, 1.6], 0.6)
    assert low == uncertainty.WAF_MIN == 1.0 and high == plain[1]
    assert uncertainty.waf_band(3.0, [0.9, 1.1], 0.05) == uncertainty.band(3.0, [0.9, 1.1], 0.05)
