"""An erase-cost reading's own residual as its model-form error (own_erase_residual.ON, off by
default; the rule bench/foreign/results/formterm/RULE.md): off, nothing changes; on, an
erase-cost reading is widened by its own misses on its figures, not the greedy surrogate's."""

from __future__ import annotations

import pytest
from overprov.calibrate import erase_reading, evidence, own_erase_residual, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate.uncertainty import ModelForm

USER_SD = 0.02
#: NVMeVirt drive C's plan figures (bench/foreign/results/scoreboard/cases-final): FOB far above
#: the steady line the greedy form draws through them, as a costly erase puts it
POINTS = [
    fitmod.Point(0.0, 14983.0, USER_SD, waf=5.231, waf_rel_sd=USER_SD),
    fitmod.Point(40.0, 63640.0, USER_SD, waf=1.332, waf_rel_sd=USER_SD),
    fitmod.Point(0.0, 146009.0, USER_SD, fresh=True),
]


def _erase_fit() -> tuple[fitmod.Surrogate, int]:
    with erase_reading.fitting():
        central = fitmod.fit(POINTS)
    n = evidence.n_parameters(central, evidence.ReadingForm(fitmod.waf_at, None, False))
    return central, n + (central.erase_us_per_page > 0)


@pytest.fixture
def flag_on(monkeypatch):
    monkeypatch.setattr(own_erase_residual, "ON", True)


def test_off_by_default_and_unchanged():
    form = uncertainty.model_form_for(POINTS, simulated=False)
    central, n = _erase_fit()
    assert own_erase_residual.ON is False
    assert own_erase_residual.erase_reading_form(form, central, POINTS, n) is form


def test_on_the_reading_own_residual_narrows_where_it_fits(flag_on):
    form = uncertainty.model_form_for(POINTS, simulated=False)
    greedy = uncertainty.fit_residual_sd(POINTS)
    assert form.residual_sd == pytest.approx(greedy)
    central, n = _erase_fit()
    assert central.erase_us_per_page > 0 and n == 4  # t_erase counted
    got = own_erase_residual.erase_reading_form(form, central, POINTS, n)
    own = uncertainty.surrogate_residual_sd(central, POINTS, n)
    assert got.residual_sd == pytest.approx(own)
    assert got.residual_scale == form.residual_scale  # the scale unchanged
    assert own < 0.1 * greedy  # the erase cost explains what greedy misses
    assert got.at(None) < 0.5 * form.at(None)
    assert "erase-cost reading itself" in got.source


def test_on_keeps_a_form_not_set_by_a_residual(flag_on):
    central, n = _erase_fit()
    distance = ModelForm(0.16, per_log_spare=0.3, source="distance rule")
    assert own_erase_residual.erase_reading_form(distance, central, POINTS, n) is distance
    assert own_erase_residual.erase_reading_form(None, central, POINTS, n) is None


def test_on_keeps_the_form_where_nothing_is_left_to_miss(flag_on):
    form = ModelForm(0.16, residual_sd=0.3, residual_scale=0.82, source="recorded")
    central, _ = _erase_fit()
    # as many parameters as figures: the residual is not defined
    assert own_erase_residual.erase_reading_form(form, central, POINTS, 5) is form
