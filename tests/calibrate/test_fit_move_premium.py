"""A GC move that costs several host writes (a collection holding a channel shared by chips):
the fit's bound on t_cmd (``fit.MAX_READ_SHARE``) and the twin's mapping of it onto the NAND."""

from __future__ import annotations

import pytest
from overprov.calibrate import fit, twin


def _points(made: fit.Surrogate) -> list[fit.Point]:
    """IOPS and WAF at 0 and 40% and FOB: calibrate's plan figures of a drive made with ``made``."""
    pts = [fit.Point(x, made.iops(x), 0.01, made.waf(x), 0.01) for x in (0.0, 40.0)]
    return [*pts, fit.Point(0.0, made.iops(0.0, 1.0), fresh=True)]


def test_the_bound_is_a_share_below_one():
    """The host write's cost t_cmd + t_page stays > 0 at the bound."""
    assert 0.5 <= fit.MAX_READ_SHARE < 1.0
    wide = fit.MAX_READ_SHARE_WITH_WAF
    assert wide is None or fit.MAX_READ_SHARE <= wide < 1.0


@pytest.mark.parametrize("share", [0.66, 0.8])
def test_a_move_costing_several_host_writes_is_fitted_within_the_bound(monkeypatch, share):
    """A drive made with t_cmd = −share·t_page (a move costs 1/(1 − share) host writes) is read
    back inside a 0.9 bound; a 0.5 bound puts t_cmd on −0.5·t_page and misses the fitted IOPS.
    (``MAX_READ_SHARE`` alone: the bound with WAF figures off; the FOB floor pinned off, as
    before bench/foreign/results/readshare/RULE.md: test_fit_fob_floor.py tests it.)"""
    monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", None)
    made = fit.Surrogate(0.25, 200.0, -share * 200.0)
    pts = _points(made)
    monkeypatch.setattr(fit, "MAX_READ_SHARE_WITH_WAF", None)
    monkeypatch.setattr(fit, "MAX_READ_SHARE", 0.9)
    got = fit.fit(pts)
    assert got.t_cmd_us == pytest.approx(made.t_cmd_us, rel=0.02)
    assert got.t_page_us == pytest.approx(made.t_page_us, rel=0.02)
    assert got.iops(0.0) == pytest.approx(made.iops(0.0), rel=0.01)
    monkeypatch.setattr(fit, "MAX_READ_SHARE", 0.5)
    bounded = fit.fit(pts)
    assert bounded.t_cmd_us == pytest.approx(-0.5 * bounded.t_page_us)
    misses = [abs(bounded.iops(x) / made.iops(x) - 1) for x in (0.0, 40.0)]
    assert max(misses) > 0.03


def test_a_fit_inside_the_old_bound_is_the_same_under_the_new_one(monkeypatch):
    """Where the unconstrained t_cmd is above −0.5·t_page the bound does not act."""
    pts = _points(fit.Surrogate(0.15, 500.0, -0.2 * 500.0))
    monkeypatch.setattr(fit, "MAX_READ_SHARE_WITH_WAF", None)
    monkeypatch.setattr(fit, "MAX_READ_SHARE", 0.5)
    old = fit.fit(pts)
    monkeypatch.setattr(fit, "MAX_READ_SHARE", 0.9)
    new = fit.fit(pts)
    assert (new.native_op, new.t_page_us, new.t_cmd_us) == (old.native_op, old.t_page_us,
                                                            old.t_cmd_us)  # fmt: skip


def test_the_twin_maps_a_large_premium_onto_a_read_longer_than_the_program():
    """t_cmd = −0.66·t_page: per moved unit a read of 0.66·t_page and a program of 0.34·t_page,
    so a host write costs t_page + t_cmd and a move t_page (``twin.drive_dict``)."""
    p = twin.TwinParameters(2**30, 0.25, 200.0, -132.0, {}, "test")
    nand = twin.drive_dict(p)["config"]["timing"]["nand"]
    per_page = twin.DIES * twin.UNITS_PER_FLASH_PAGE
    assert nand["read_us"] == pytest.approx(132.0 * per_page)
    assert nand["program_us"] == pytest.approx(68.0 * per_page)
    assert (nand["read_us"] + nand["program_us"]) / per_page == pytest.approx(200.0)


def test_the_wider_bound_acts_only_where_a_figure_carries_a_waf(monkeypatch):
    """``MAX_READ_SHARE_WITH_WAF``: a fit with WAF figures reads a move costing three host
    writes back inside it; the same drive's IOPS alone are fitted as with the constant off, to
    the bit (from IOPS alone the wider bound let t_cmd trade against the spare). The FOB floor
    pinned off: the share bound alone, as before bench/foreign/results/readshare/RULE.md."""
    monkeypatch.setattr(fit, "CMD_FLOOR_FOB_SHARE", None)
    made = fit.Surrogate(0.25, 200.0, -0.66 * 200.0)
    pts = _points(made)
    iops_only = [fit.Point(p.extra_op_percent, p.iops, 0.01, fresh=p.fresh) for p in pts]
    monkeypatch.setattr(fit, "MAX_READ_SHARE_WITH_WAF", None)
    off = fit.fit(iops_only)
    assert fit.fit(pts).t_cmd_us == pytest.approx(-0.5 * fit.fit(pts).t_page_us)
    monkeypatch.setattr(fit, "MAX_READ_SHARE_WITH_WAF", 0.9)
    assert fit.read_share(False) == fit.MAX_READ_SHARE and fit.read_share(True) == 0.9
    with_waf = fit.fit(pts)
    assert with_waf.t_cmd_us == pytest.approx(made.t_cmd_us, rel=0.02)
    on = fit.fit(iops_only)
    same = (on.native_op, on.t_page_us, on.t_cmd_us, on.cost)
    assert same == (off.native_op, off.t_page_us, off.t_cmd_us, off.cost)


def test_the_twins_refinement_takes_the_bound_of_its_figures(monkeypatch):
    """The refinement's t_cmd floor is −0.9·t_page with a WAF figure, −0.5·t_page without."""
    monkeypatch.setattr(fit, "MAX_READ_SHARE_WITH_WAF", 0.9)
    p = twin.TwinParameters(2**30, 0.25, 200.0, -100.0, {}, "test")

    class Level:
        def __init__(self, waf: float, iops: float) -> None:
            self.waf, self.steady_iops = waf, iops

    # the twin realises the IOPS of t_cmd = 0 at each level: the refinement lowers t_cmd a lot
    by_level = {0.0: Level(4.0, 1e6 / 800.0), 40.0: Level(1.5, 1e6 / 300.0)}
    made = [
        fit.Point(0.0, 1e6 / (4.0 * 200 - 190.0), 0.01),
        fit.Point(40.0, 1e6 / (1.5 * 200 - 190.0), 0.01),
    ]
    with_waf = [
        fit.Point(x.extra_op_percent, x.iops, 0.01, w, 0.01)
        for x, w in zip(made, (4.0, 1.5), strict=True)
    ]
    low = twin._corrected_times(p, with_waf, by_level)
    high = twin._corrected_times(p, made, by_level)
    assert low.t_cmd_us == pytest.approx(-0.9 * low.t_page_us)
    assert high.t_cmd_us == pytest.approx(-0.5 * high.t_page_us)
