"""The model-form error in the skew path's intervals (victim_selection.SKEWED_FORM_ERROR, off by
default; its rule bench/intervals/RULE-skew.md) and the term it takes
(uncertainty.model_sd_at, the uniform path's)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate import uncertainty
from overprov.calibrate import victim_selection as vs


def figures(with_waf: bool, miss: float = 0.0) -> list[fitmod.Point]:
    """A surrogate's own figures at 0% and 40% and its FOB; the 40% IOPS off by ``miss``."""
    s = fitmod.Surrogate(0.10, 20.0, 5.0)
    pts = [fitmod.Point(0.0, s.iops(0.0, 1.0), 0.02, fresh=True)]
    for x in (0.0, 40.0):
        w = s.waf(x)
        iops = s.iops(x, w) * (1 + miss if x == 40.0 else 1.0)
        pts.append(fitmod.Point(x, iops, 0.02, w if with_waf else None, 0.02))
    return pts


LEVEL = SimpleNamespace(steady_iops=100.0, steady_iops_low=98.0, steady_iops_high=103.0)


def test_off_by_default_and_the_interval_as_read():
    assert vs.SKEWED_FORM_ERROR is False
    assert vs._relative_interval(LEVEL, "iops") == (0.98, 1.03)
    assert vs._relative_interval(LEVEL, "iops", 0.1) == (0.98, 1.03)  # flag off: sd ignored
    assert vs._relative_interval(None, "iops", 0.1) == (1.0, 1.0)


def test_on_it_widens_in_quadrature_as_the_uniform_path_does(monkeypatch):
    monkeypatch.setattr(vs, "SKEWED_FORM_ERROR", True)
    lo, hi = vs._relative_interval(LEVEL, "iops", 0.1)
    m = uncertainty.Z80 * 0.1
    assert lo == pytest.approx(math.exp(-math.hypot(math.log(1 / 0.98), m)))
    assert hi == pytest.approx(math.exp(math.hypot(math.log(1.03), m)))
    assert (lo, hi) == tuple(uncertainty.band(1.0, [0.98, 1.03], 0.1))
    assert vs._relative_interval(LEVEL, "iops", None) == (0.98, 1.03)


def test_the_term_is_the_uniform_paths_conditioned_form_where_the_fit_shows_a_residual():
    pts = figures(with_waf=True, miss=0.05)
    form = uncertainty.model_form_for(pts, simulated=False)
    assert form is not None and form.residual_sd is not None
    sds = uncertainty.model_sd_at(pts, [0.0, 20.0, 40.0])
    assert set(sds) == {0.0, 20.0, 40.0}
    for sd in sds.values():  # conditioned: the same at every level
        assert sd == pytest.approx(form.at(None))


def test_without_a_waf_figure_the_iops_only_term_widens_it():
    pts = figures(with_waf=False)
    form = uncertainty.model_form_for(pts, simulated=False)
    assert form is not None and form.iops_only_sd is not None
    sds = uncertainty.model_sd_at(pts, [0.0, 20.0])
    assert sds[0.0] >= form.iops_only_sd
    assert sds[20.0] >= sds[0.0]  # the distance rule grows away from the fitted levels
