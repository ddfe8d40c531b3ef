"""The FOB floor beside the share bound on t_cmd (``fit.CMD_FLOOR_FOB_SHARE``): where WAF figures
pin the line, t_cmd may go below −share·t_page as long as the line's WAF-1 value stays at least
a share of the FOB's time per write (bench/foreign/results/readshare/RULE.md)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from overprov.calibrate import fit, twin


def _points(made: fit.Surrogate, fob: bool = True) -> list[fit.Point]:
    """IOPS and WAF at 0 and 40% (and FOB): the plan figures of a drive made with ``made``."""
    pts = [fit.Point(x, made.iops(x), 0.01, made.waf(x), 0.01) for x in (0.0, 40.0)]
    return [*pts, fit.Point(0.0, made.iops(0.0, 1.0), fresh=True)] if fob else pts


def _record(s: fit.Surrogate) -> tuple[float, float, float, float]:
    return (s.native_op, s.t_page_us, s.t_cmd_us, s.cost)


# a GC move costing 20 host writes (t_cmd = −0.95·t_page), as many chips sharing host writes
MANY_CHIPS = fit.Surrogate(0.12, 400.0, -0.95 * 400.0)


def test_the_floor_is_on_by_default_and_reads_the_many_chips_drive_back():
    """Adopted (bench/foreign/results/readshare/verdict.md): 0.5, with the 0.9 share beside."""
    assert fit.CMD_FLOOR_FOB_SHARE == 0.5 and fit.MAX_READ_SHARE_WITH_WAF == 0.9
    got = fit.fit(_points(MANY_CHIPS))
    assert got.t_cmd_us == pytest.approx(MANY_CHIPS.t_cmd_us, rel=0.02)


def test_the_floor_applies_only_with_a_waf_figure_and_a_fob(monkeypatch):
    pts = _points(MANY_CHIPS)
    monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", None)
    assert fit.fob_floor_us(pts) is None
    monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", 0.5)
    t_fob = 1e6 / MANY_CHIPS.iops(0.0, 1.0)
    assert fit.fob_floor_us(pts) == pytest.approx(0.5 * t_fob)
    assert fit.fob_floor_us(_points(MANY_CHIPS, fob=False)) is None
    iops_only = [fit.Point(p.extra_op_percent, p.iops, 0.01, fresh=p.fresh) for p in pts]
    assert fit.fob_floor_us(iops_only) is None


def test_a_move_costing_twenty_host_writes_is_read_back_with_the_floor(monkeypatch):
    """The 0.9 share alone puts t_cmd on −0.9·t_page and misses the fitted IOPS; with the floor
    (the line's WAF-1 value 20 µs, the floor 10 µs) the made drive is read back."""
    pts = _points(MANY_CHIPS)
    monkeypatch.setattr(fit, "MAX_READ_SHARE_WITH_WAF", 0.9)
    monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", None)
    bounded = fit.fit(pts)
    assert bounded.t_cmd_us == pytest.approx(-0.9 * bounded.t_page_us)
    assert max(abs(bounded.iops(x) / MANY_CHIPS.iops(x) - 1) for x in (0.0, 40.0)) > 0.1
    monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", 0.5)
    got = fit.fit(pts)
    assert got.t_cmd_us == pytest.approx(MANY_CHIPS.t_cmd_us, rel=0.02)
    assert got.t_page_us == pytest.approx(MANY_CHIPS.t_page_us, rel=0.02)
    assert got.iops(0.0) == pytest.approx(MANY_CHIPS.iops(0.0), rel=0.01)


def test_iops_only_fits_and_fits_inside_the_share_are_the_same_to_the_bit(monkeypatch):
    """RULE.md's clause I: without a WAF figure (t_cmd on the 0.5 bound here), without a FOB
    (the many-chips drive's IOPS and WAF at 0% and 40%: its line past the 0.9 share, so on the
    bound both ways), and with WAF figures whose line lies within the 0.9 share, the floor
    changes nothing."""
    made = fit.Surrogate(0.25, 200.0, -0.66 * 200.0)
    pts = _points(made)
    iops_only = [fit.Point(p.extra_op_percent, p.iops, 0.01, fresh=p.fresh) for p in pts]
    no_fob = _points(MANY_CHIPS, fob=False)
    assert fit.has_waf(no_fob) and not any(p.fresh for p in no_fob)
    for many in (iops_only, no_fob):
        monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", None)
        off = fit.fit(many)
        monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", 0.5)
        assert _record(fit.fit(many)) == _record(off)
    monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", None)
    off = fit.fit(pts)
    monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", 0.5)
    on = fit.fit(pts)
    assert _record(on) == _record(off)
    assert on.t_cmd_us == pytest.approx(made.t_cmd_us, rel=0.02)


def test_a_line_below_both_bounds_lies_on_the_better_of_them():
    """A line whose WAF-1 value (5 µs) is under the floor (10 µs) and past the share: the fit
    takes the boundary line with the smaller residual, here the floor's; with a floor above the
    share's line at these t_page, the share's."""
    wafs, ys, ws = [5.0, 1.5], [5.0 + 4.0 * 400.0, 5.0 + 0.5 * 400.0], [1.0, 1.0]
    t_cmd, t_page = fit.linear_fit(wafs, ys, ws, True, 0.9, 10.0)
    assert t_cmd + t_page == pytest.approx(10.0)
    assert fit.linear_fit(wafs, ys, ws, True, 0.9, None) == fit.linear_fit(wafs, ys, ws, True, 0.9)
    on_share = fit.linear_fit(wafs, ys, ws, True, 0.9)
    assert on_share[0] == pytest.approx(-0.9 * on_share[1])
    assert fit.linear_fit(wafs, ys, ws, True, 0.9, 100.0) == on_share
    assert fit.lowest_cmd(400.0, 0.9, 10.0) == pytest.approx(-390.0)
    assert fit.lowest_cmd(400.0, 0.9, 100.0) == pytest.approx(-360.0)
    assert fit.lowest_cmd(400.0, 0.9) == pytest.approx(-360.0)


def test_the_twins_refinement_takes_the_floor(monkeypatch):
    """The refinement's lowest t_cmd is the floor's where it is the looser bound."""
    monkeypatch.setattr(fit, "MAX_READ_SHARE_WITH_WAF", 0.9)
    monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", 0.5)
    p = twin.TwinParameters(2**30, 0.12, 400.0, -300.0, {}, "test")
    # the twin realises t_cmd = 0 at each level; the figures have the line's WAF-1 value 2 µs
    by_level = {
        x: SimpleNamespace(waf=w, steady_iops=1e6 / (w * 400.0))
        for x, w in ((0.0, 5.0), (40.0, 1.4))
    }
    pts = [
        fit.Point(0.0, 1e6 / (5.0 * 400 - 398.0), 0.01, 5.0, 0.01),
        fit.Point(40.0, 1e6 / (1.4 * 400 - 398.0), 0.01, 1.4, 0.01),
    ]
    fob = fit.Point(0.0, 1e6 / 20.0, fresh=True)  # 20 µs a write: the floor 10 µs
    floor = fit.fob_floor_us([*pts, fob])
    assert floor == pytest.approx(10.0)
    got = twin._corrected_times(p, pts, by_level, floor)  # refine drops FOB from the points
    assert got.t_cmd_us + got.t_page_us == pytest.approx(10.0)
    assert got.t_cmd_us < -0.9 * got.t_page_us
    share_alone = twin._corrected_times(p, pts, by_level)
    assert share_alone.t_cmd_us == pytest.approx(-0.9 * share_alone.t_page_us)
