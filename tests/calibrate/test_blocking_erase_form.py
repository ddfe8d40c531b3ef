"""blocking_erase_form: the analytic reading weighed against the blocking-GC one with FOB read
by the erase-cost form where FOB lies below the steady line (on by default)."""

from __future__ import annotations

import pytest
from overprov.calibrate import blocking_erase_form as bef
from overprov.calibrate import closed_loop as loopmod
from overprov.calibrate import erase_reading, evidence
from overprov.calibrate import fit as fitmod

SD = 0.05
QD = 32
#: WiscSim E's plan figures (bench/foreign/results/scoreboard/cases-mix): FOB far below the
#: steady line through 0% and 40% (no erase, no GC read in a fresh drive).
STEADY = [
    fitmod.Point(0.0, 2339.0, SD, 3.574, SD),
    fitmod.Point(40.0, 7393.0, SD, 1.270, SD),
]
FOB_BELOW = fitmod.Point(0.0, 13258.0, SD, fresh=True)


@pytest.fixture
def on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bef, "ON", True)


def _form() -> evidence.ReadingForm:
    return evidence.ReadingForm(fitmod.waf_at)


def test_on_by_default_and_off_is_the_plain_assessment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bef.ON is True
    monkeypatch.setattr(bef, "ON", False)
    points = [*STEADY, FOB_BELOW]
    got, _ = bef.assess(_form(), points, 0.0, [], QD)
    want, _ = loopmod.assess(_form(), points, 0.0, [], QD)
    assert got == want


def test_fob_below_the_line_is_read_by_the_erase_cost_form(on: None) -> None:
    points = [*STEADY, FOB_BELOW]
    plain, _ = loopmod.assess(_form(), points, 0.0, [], QD)
    got, _ = bef.assess(_form(), points, 0.0, [], QD)
    assert bef.erase_us_per_page(_form(), points) > 0
    assert got["erase_form"] is True
    assert got["n_parameters"] == plain["n_parameters"] + 1  # t_erase counted
    assert got["chi2"] + bef.PARAMETER_CHARGE < plain["chi2"]
    # the erase-cost form holds FOB: its residual there is ~0, the plain form's is not
    fob = [r for r in got["residuals"] if r["fresh"]]
    plain_fob = [r for r in plain["residuals"] if r["fresh"]]
    assert abs(fob[0]["log_error"]) < 0.01 < abs(plain_fob[0]["log_error"])


def test_fob_on_the_line_keeps_the_plain_form(on: None) -> None:
    s = fitmod.fit(STEADY, curve=fitmod.waf_at)  # the steady line's value at WAF 1
    fob = fitmod.Point(0.0, 1e6 / (s.t_cmd_us + s.t_page_us), SD, fresh=True)
    points = [*STEADY, fob]
    got, _ = bef.assess(_form(), points, 0.0, [], QD)
    want, _ = loopmod.assess(_form(), points, 0.0, [], QD)
    assert bef.erase_us_per_page(_form(), points) == pytest.approx(0.0, abs=1e-6)
    assert got == want


def test_without_fob_nothing_changes(on: None) -> None:
    got, _ = bef.assess(_form(), STEADY, 0.0, [], QD)
    want, _ = loopmod.assess(_form(), STEADY, 0.0, [], QD)
    assert bef.erase_us_per_page(_form(), STEADY) == 0.0
    assert got == want


def test_an_erase_cost_twin_is_weighed_as_it_was(on: None) -> None:
    form = erase_reading.erase_form(_form())
    points = [*STEADY, FOB_BELOW]
    assert not bef.applies(form, points)
    got, _ = bef.assess(form, points, 0.0, [], QD)
    want, _ = loopmod.assess(form, points, 0.0, [], QD)
    assert got == want


def test_the_charge_keeps_a_small_gain_plain(on: None, monkeypatch: pytest.MonkeyPatch) -> None:
    points = [*STEADY, FOB_BELOW]
    plain, _ = loopmod.assess(_form(), points, 0.0, [], QD)
    monkeypatch.setattr(bef, "PARAMETER_CHARGE", plain["chi2"])  # no gain can beat it
    got, _ = bef.assess(_form(), points, 0.0, [], QD)
    assert got == plain


def test_the_erase_form_is_fitted_to_the_figures_once(
    on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    points = [*STEADY, FOB_BELOW]
    want, _ = bef.assess(_form(), points, 0.0, [], QD)
    whole = []
    fit = erase_reading.EraseForm.fit

    def counted(self: erase_reading.EraseForm, pts: list[fitmod.Point]) -> fitmod.Surrogate:
        whole.append(len(pts) == len(points))
        return fit(self, pts)

    monkeypatch.setattr(erase_reading.EraseForm, "fit", counted)
    got, _ = bef.assess(_form(), points, 0.0, [], QD)
    assert got == want and got["erase_form"] is True
    assert whole.count(True) == 1  # the fit reading t_erase is the assessment's
    assert whole.count(False) >= 1  # leave-one-out fits are the form's own


def test_a_fitted_form_is_equal_only_to_itself() -> None:
    """Two fits of different figures with the same curve and spare are not equal (EraseForm's
    field equality would call them so); each is hashable and equal to itself."""
    a = bef.erase_fit(_form(), [*STEADY, FOB_BELOW])
    b = bef.erase_fit(_form(), [STEADY[0], FOB_BELOW, fitmod.Point(40.0, 7000.0, SD, 1.3, SD)])
    assert a is not None and b is not None
    assert (a.curve, a.native_op, a.fit_efficiency) == (b.curve, b.native_op, b.fit_efficiency)
    assert a == a and a != b and len({a, b}) == 2
