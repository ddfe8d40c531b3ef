"""The surrogate fit: it recovers the parameters that made a curve, and the WAF model's inverse."""

from __future__ import annotations

import pytest
from overprov import models
from overprov.calibrate import fit
from overprov.errors import ConfigError


def _curve(native_op, t_page, t_cmd, levels, with_waf=True):
    s = fit.Surrogate(native_op, t_page, t_cmd)
    return [fit.Point(x, s.iops(x), 0.01, s.waf(x) if with_waf else None, 0.01) for x in levels]


@pytest.mark.parametrize("native_op", [0.02, 0.0737, 0.28])
def test_recovers_known_parameters(native_op):
    points = _curve(native_op, 12.0, 3.0, [0, 40])
    s = fit.fit(points)
    assert s.native_op == pytest.approx(native_op, rel=0.01)
    assert s.t_page_us == pytest.approx(12.0, rel=0.01)
    assert s.t_cmd_us == pytest.approx(3.0, abs=0.1)


def test_without_waf_three_iops_points_fit_all_three():
    points = _curve(0.10, 8.0, 2.0, [0, 20, 40], with_waf=False)
    s = fit.fit(points)
    assert s.native_op == pytest.approx(0.10, rel=0.05)
    assert s.iops(60) == pytest.approx(fit.Surrogate(0.10, 8.0, 2.0).iops(60), rel=0.01)


def test_two_iops_points_hold_t_cmd_at_zero():
    points = _curve(0.07, 10.0, 0.0, [0, 20], with_waf=False)
    s = fit.fit(points)
    assert s.t_cmd_us == 0.0 and any("t_cmd" in f for f in s.fixed)
    assert s.native_op == pytest.approx(0.07, rel=0.02)


def test_a_held_gc_move_premium_recovers_a_drive_made_with_it(monkeypatch):
    """With HELD_CMD_SHARE s, too few figures hold t_cmd at −s·t_page (a GC move costs its
    read more than a host write): one steady figure and FOB of a drive made with that share
    give back its spare and times, which the held-at-0 fit (the default) does not."""
    made = fit.Surrogate(0.38, 7.0, -0.3 * 7.0)
    pts = [fit.Point(20.0, made.iops(20.0)), fit.Point(0.0, made.iops(0.0, 1.0), fresh=True)]
    at_zero = fit.fit(pts)
    assert at_zero.t_cmd_us == 0.0 and at_zero.native_op < 0.3  # reads the premium as WAF
    monkeypatch.setattr(fit, "HELD_CMD_SHARE", 0.3)
    got = fit.fit(pts)
    assert got.t_cmd_us == pytest.approx(-0.3 * got.t_page_us)
    assert got.fixed[0].startswith("t_cmd_us = −0.3·t_page")  # counted as held (evidence.py)
    assert got.native_op == pytest.approx(0.38, rel=0.01)
    assert got.t_page_us == pytest.approx(7.0, rel=0.01)
    assert got.waf(0.0) == pytest.approx(made.waf(0.0), rel=0.01)
    # figures that fit t_cmd do not use the share: the same fit with it on or off
    three = [*pts, fit.Point(40.0, made.iops(40.0))]
    assert fit.fit(three).t_cmd_us == pytest.approx(-2.1, abs=0.05)
    monkeypatch.setattr(fit, "HELD_CMD_SHARE", 0.0)
    assert fit.fit(three).t_cmd_us == pytest.approx(-2.1, abs=0.05)


def test_waf_model_is_the_greedy_mean_field_model():
    # the surrogate's WAF is models.waf_greedy at the effective spare ratio
    rho = fit.rho_eff(0.0737, 20)
    assert rho == pytest.approx(1.0737 / 0.8 - 1)
    assert fit.waf_at(rho) == pytest.approx(models.waf_greedy(rho, fit.PAGES_PER_BLOCK), rel=1e-4)
    assert fit.waf_at(fit.rho_for_waf(2.85)) == pytest.approx(2.85, rel=1e-6)


def test_refuses_what_it_cannot_fit():
    with pytest.raises(ConfigError, match="no measured points"):
        fit.fit([fit.Point(0)])
    with pytest.raises(ConfigError, match="one point"):
        fit.fit([fit.Point(0, 10_000)])
    with pytest.raises(ConfigError, match="WAF must be at least 1"):
        fit.fit([fit.Point(0, 10_000, waf=0.5), fit.Point(20, 20_000)])


@pytest.mark.parametrize("native_op", [0.002, 0.05])
def test_one_steady_figure_and_fob_fix_native_op_and_nand_time(native_op):
    """A fresh-out-of-box figure has WAF 1 whatever the spare space: with one steady figure it
    pins both unknowns (t_cmd held at 0), down to a native OP near 0 (the 850 Pro's 0.2%)."""
    s = fit.Surrogate(native_op, 11.0, 0.0)
    fob = fit.Point(0.0, 1e6 / 11.0, 0.05, fresh=True)
    got = fit.fit([fit.Point(20.0, s.iops(20.0), 0.05), fob])
    assert got.native_op == pytest.approx(native_op, rel=0.05)
    assert got.t_page_us == pytest.approx(11.0, rel=0.01)
    assert got.iops(40.0) == pytest.approx(s.iops(40.0), rel=0.01)


@pytest.mark.parametrize("design", ["greedy", "d-choices-2"])
def test_the_bootstrap_s_remembered_curve_changes_no_figure(design, monkeypatch):
    """The bootstrap's refits look the curve's values up (``fit.remembered``) instead of
    working them out again: every figure is the one the curve itself gives, to the last bit
    (the same refits with the curve called each time, for a WAF figure and the raw spare's k
    and for IOPS figures with a FOB one)."""
    from overprov.calibrate import gc_designs, uncertainty

    curve = gc_designs.curve(design) or fit.waf_at
    cases = [
        ([fit.Point(0.0, None, waf=2.85)], {"native_op": 0.0737, "fit_efficiency": True}),
        (
            [fit.Point(20.0, 25000.0, 0.05), fit.Point(40.0, 50000.0, 0.05, waf=1.6),
             fit.Point(0.0, 90000.0, 0.05, fresh=True)],
            {"fob_iops": 90000.0},
        ),
    ]  # fmt: skip
    for points, kw in cases:
        got = uncertainty.bootstrap(points, [0.0, 20.0], samples=8, curve=curve, **kw)
        with monkeypatch.context() as m:
            m.setattr(fit, "remembered", lambda c: c)
            plain = uncertainty.bootstrap(points, [0.0, 20.0], samples=8, curve=curve, **kw)
        assert repr(got) == repr(plain)
        remembered = fit.remembered(curve)
        assert fit.fit(points, curve=remembered, **kw) == fit.fit(points, curve=curve, **kw)
        assert remembered.cache_info().currsize  # it was asked, and kept what it gave


@pytest.mark.parametrize("waf", [None, 0.0, 1.0, 2.5])
@pytest.mark.parametrize("fresh", [False, True])
def test_a_steady_waf_figure_is_a_waf_not_fresh(waf, fresh):
    """``Point.has_steady_waf`` is the test the calibrate modules wrote out, on every input
    (a None WAF, a zero one, a fresh point's)."""
    p = fit.Point(10.0, 1000.0, waf=waf, fresh=fresh)
    assert p.has_steady_waf is (p.waf is not None and not p.fresh)
    assert p.has_steady_waf is (waf is not None and not fresh)
