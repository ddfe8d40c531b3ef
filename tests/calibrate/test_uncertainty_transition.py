"""The GC-reserve reading's transition term (reserve_transition.TRANSITION_TERM, on by default
since the rule bench/intervals/RULE-widthtrans.md was met): off, nothing changes; on, a
measured target's reserve reading is widened by its own residual and, near the level where it
leaves its victim floor, by a term that falls away from it."""

from __future__ import annotations

import math

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate import gc_reserve, own_residual, reserve_transition, uncertainty
from overprov.calibrate import predict as predmod
from overprov.calibrate.reserve_transition import EDGE_REL_SD, FloorEdge, floor_edge
from test_uncertainty_reserve_residual import GREEDY, reserve_prepared


def _edge(floor: float = 7.9) -> FloorEdge:
    return FloorEdge(-0.1, 1.0, fitmod.waf_at, floor)


def test_the_term_peaks_where_the_curve_meets_the_floor_and_falls_away_from_it():
    e = _edge()
    # the level where the greedy curve reaches the floor: ρ(x) = rho_for_waf(floor)
    rho = fitmod.rho_for_waf(7.9)
    x_edge = 100 * (1 - 0.9 / (1 + rho))
    assert e.log_waf_from_floor(x_edge) == pytest.approx(0.0, abs=1e-3)
    assert e.sd_at(x_edge) == pytest.approx(EDGE_REL_SD, rel=1e-2)
    assert e.sd_at(x_edge + 5) < e.sd_at(x_edge + 1) < e.sd_at(x_edge)
    assert e.sd_at(x_edge - 1) < e.sd_at(x_edge)
    assert e.sd_at(40.0) < 0.2 * EDGE_REL_SD  # far up the curve
    assert e.sd_at(0.0) == 0.0  # no spare left: deep on the floor
    d = e.log_waf_from_floor(30.0)
    assert e.sd_at(30.0) == pytest.approx(EDGE_REL_SD * math.exp(d / 0.5))


def test_the_form_adds_the_term_at_a_level_inside_the_scale():
    form = uncertainty.ModelForm(0.16, residual_sd=0.03, residual_scale=0.82, edge=_edge())
    x = 16.0
    want = 0.82 * math.hypot(0.02, 0.03, _edge().sd_at(x))
    assert form.at(None, x) == pytest.approx(want)
    assert form.at(None) == pytest.approx(0.82 * math.hypot(0.02, 0.03))  # no level: no term
    assert "victim floor" in form.describe()


def test_the_edge_of_a_reserve_surrogate_is_its_uncapped_curve_and_floor():
    s = gc_reserve.ReserveSurrogate(-0.1, 4.0, 2.0, waf_floor=7.9)
    s.curve = gc_reserve.CappedCurve(fitmod.waf_at, 7.9)
    e = floor_edge(s)
    assert e is not None and e.curve is fitmod.waf_at and e.waf_floor == 7.9
    assert floor_edge(fitmod.Surrogate(0.1, 4.0, 2.0)) is None


@pytest.mark.parametrize("on", [False, True])
def test_a_measured_targets_reserve_reading_carries_the_term_only_with_the_flag(monkeypatch, on):
    assert reserve_transition.TRANSITION_TERM is True  # on by default: RULE-widthtrans met
    assert own_residual.OWN_RESERVE_RESIDUAL is False
    monkeypatch.setattr(reserve_transition, "TRANSITION_TERM", on)
    fig, _reserve, ready = reserve_prepared()
    mfe = ready.fitted.mfe
    if not on:
        assert mfe is GREEDY
        sds = {ready.fitted.model_sd(x) for x in (10.0, 20.0, 30.0)}
        assert len(sds) == 1  # the same at every level
        return
    assert mfe.edge is not None and mfe.edge.waf_floor == pytest.approx(7.98, rel=0.01)
    assert 0.02 < mfe.residual_sd < 0.1  # its own residual, not the greedy 0.3
    x_edge = next(x / 10 for x in range(400) if mfe.edge.log_waf_from_floor(x / 10) < 0)
    sds = {x: ready.fitted.model_sd(x) for x in (0.0, 10.0, x_edge, 30.0, 40.0)}
    base = mfe.residual_scale * math.hypot(mfe.floor, mfe.residual_sd)
    assert sds[0.0] == pytest.approx(base)  # deep on the floor
    edge = mfe.residual_scale * math.hypot(mfe.floor, mfe.residual_sd, EDGE_REL_SD)
    assert sds[x_edge] == pytest.approx(edge, rel=0.01) and edge > base * 1.2
    for x, sd in sds.items():
        assert sd == pytest.approx(mfe.residual_scale * math.hypot(
            mfe.floor, mfe.residual_sd, mfe.edge.sd_at(x)))  # fmt: skip
    plain = predmod.prepare(fig, predmod.TwinReading(), blocking_optional=True)
    assert plain.fitted.mfe is GREEDY  # the plain reading keeps the greedy form
