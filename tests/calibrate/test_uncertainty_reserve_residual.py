"""The reserve reading's own residual as its model-form error (own_residual.OWN_RESERVE_RESIDUAL,
off by default; the rule bench/intervals/RULE-widthfemu.md): off, nothing changes; on, a
measured target's GC-reserve reading is widened by its own misses on its figures, not the
greedy surrogate's."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from overprov.calibrate import (
    evidence,
    gc_reserve,
    own_residual,
    reserve_reading,
    reserve_transition,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.own_residual import own_reserve_form
from overprov.calibrate.uncertainty import ModelForm, surrogate_residual_sd
from test_gc_reserve import reserve_drive_points
from test_reserve_reading import LEVELS, _measurement

GREEDY = ModelForm(0.16, residual_sd=0.3, residual_scale=0.82, source="recorded")


def _plan_points(spare_factor: float, floor: float, waf40_off: float) -> list[fitmod.Point]:
    """A reserve drive's plan figures at 0% and 40% (t_cmd 2 µs, t_page 4 µs), its 40% WAF
    read ``waf40_off`` times the drive's (a figure read high after a discard)."""
    return [
        replace(p, iops_rel_sd=0.02, waf=p.waf * (waf40_off if p.extra_op_percent else 1.0))
        for p in reserve_drive_points((0.0, 40.0), spare_factor, floor)
    ]


def _fig(points: list[fitmod.Point], onset: float) -> predmod.PredictionInput:
    m = _measurement(points, onset)
    return predmod.PredictionInput(points, LEVELS, measurement=m, model_form=GREEDY)


def test_the_residual_of_a_fitted_surrogate_counts_its_figures_less_its_parameters():
    s = fitmod.Surrogate(0.10, 20.0, 5.0)
    exact = [fitmod.Point(x, s.iops(x), 0.02, s.waf(x), 0.02) for x in (0.0, 40.0)]
    assert surrogate_residual_sd(s, exact, 3) == pytest.approx(0.0, abs=1e-12)
    off = [replace(exact[1], waf=exact[1].waf * 1.1)]
    r = math.log(1 / 1.1)
    assert surrogate_residual_sd(s, exact[:1] + off, 3) == pytest.approx(abs(r))
    assert surrogate_residual_sd(s, exact[:1] + off, 2, (0.05,)) == pytest.approx(
        math.sqrt((r * r + 0.05**2) / 3)
    )
    assert surrogate_residual_sd(s, exact, 4) is None  # nothing left to miss


def test_off_by_default_and_then_the_form_is_the_greedy_fits_itself(monkeypatch):
    assert own_residual.OWN_RESERVE_RESIDUAL is False
    monkeypatch.setattr(reserve_transition, "TRANSITION_TERM", False)  # on by default: its rule
    s = fitmod.Surrogate(0.10, 20.0, 5.0)
    pts = [fitmod.Point(x, s.iops(x) * 1.05, 0.02, s.waf(x), 0.02) for x in (0.0, 40.0)]
    assert own_reserve_form(GREEDY, s, pts, 2, 0.01) is GREEDY
    monkeypatch.setattr(own_residual, "OWN_RESERVE_RESIDUAL", True)
    distance = ModelForm(0.16, per_log_spare=0.3)  # no residual: the distance rule stays
    assert own_reserve_form(distance, s, pts, 2, 0.01) is distance
    assert own_reserve_form(None, s, pts, 2, 0.01) is None
    assert own_reserve_form(GREEDY, s, pts, 5, None) is GREEDY  # nothing to miss
    got = own_reserve_form(GREEDY, s, pts, 2, 0.01)
    want = math.sqrt((2 * math.log(1 / 1.05) ** 2 + 0.01**2) / 3)
    assert got.residual_sd == pytest.approx(want)
    assert got.residual_scale == GREEDY.residual_scale
    assert got.at(None) == pytest.approx(0.82 * math.hypot(GREEDY.floor, want))
    assert "GC-reserve reading itself" in got.source


def reserve_prepared() -> tuple[predmod.PredictionInput, predmod.TwinReading, predmod.Prepared]:
    """A reserve drive's plan figures (its 40% WAF read 6% high), its greedy reserve reading
    and that reading prepared (fitted, its twin checked)."""
    fig = _fig(_plan_points(0.9, 7.98, 1.06), onset=0.9)
    evs = reserve_reading.offered(fig, predmod.TwinReading(), fitmod.fit(fig.points))
    reserve = next(r for r in evs if r.spare == predmod.RESERVE and r.design == "greedy")
    return fig, reserve, predmod.prepare(fig, reserve, blocking_optional=True)


@pytest.mark.parametrize("on", [False, True])
def test_a_measured_targets_reserve_reading_is_widened_by_its_own_residual(monkeypatch, on):
    monkeypatch.setattr(own_residual, "OWN_RESERVE_RESIDUAL", on)
    monkeypatch.setattr(reserve_transition, "TRANSITION_TERM", False)  # this flag alone
    fig, reserve, ready = reserve_prepared()
    mfe = ready.fitted.mfe
    if not on:
        assert mfe is GREEDY
        return
    central = reserve.reserve.fit(fig.points)
    onset_error = math.log(gc_reserve.onset_spare_factor(central) / 0.9)
    n_par = evidence.n_parameters(central, reserve.reserve)
    want = surrogate_residual_sd(central, fig.points, n_par, (onset_error,))
    assert mfe.residual_sd == pytest.approx(want)
    # the 40% WAF read 6% high is what the reading misses: far less than the greedy 0.3
    assert 0.02 < mfe.residual_sd < 0.1
    # the plain (greedy) reading keeps the greedy fit's residual
    plain = predmod.prepare(fig, predmod.TwinReading(), blocking_optional=True)
    assert plain.fitted.mfe is GREEDY
