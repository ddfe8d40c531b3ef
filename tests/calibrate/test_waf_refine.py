"""twin.WAF_REFINE (on since its rule was met): with WAF figures only, the twin's native spare
is searched until its simulated WAF at the lowest fitted level is the figure's
(waf_refinement.refine_waf); fits with IOPS points are untouched
(bench/foreign/results/wafrefine/RULE.md, verdict.md)."""

from __future__ import annotations

import json

import pytest
from overprov.calibrate import answer, twin, waf_refinement
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from test_fitted_waf_missed import _answer, _typed  # the core's d-choices-4 drive, typed


def test_on_by_default():
    assert twin.WAF_REFINE is True


def test_a_small_spare_d4_drive_s_0pct_figure_is_reproduced_with_the_flag(monkeypatch):
    points = _typed(0.02)
    monkeypatch.setattr(twin, "WAF_REFINE", False)
    off = {lv.extra_op_percent: lv.waf for lv in _answer(points).levels}
    assert off[0.0] / points[0].waf - 1.0 > 0.05  # today: the fitted 0% level missed
    monkeypatch.setattr(twin, "WAF_REFINE", True)
    pred = _answer(points)
    on = {lv.extra_op_percent: lv.waf for lv in pred.levels}
    assert on[0.0] == pytest.approx(points[0].waf, rel=0.05)  # within the figure's error
    assert on[40.0] == pytest.approx(points[1].waf, rel=0.05)  # and 40% still
    assert pred.fit["refinement"]  # the search is recorded


def test_the_search_keeps_the_best_twin_and_stops_within_tolerance():
    """A fake twin whose WAF at 0% is 10 / native_op^0.9 · 0.03^0.9: the search lands on 3%."""
    start = twin.TwinParameters(2**30, 0.02, 10.0, 0.0, {}, "a fake twin")
    points = [fitmod.Point(0.0, waf=10.0, waf_rel_sd=0.05), fitmod.Point(40.0, waf=1.5)]
    got, history = waf_refinement.refine_waf(
        start, points, lambda p, x: 10.0 * (0.03 / p.native_op) ** 0.9
    )
    assert got.native_op == pytest.approx(0.03, rel=0.02)
    assert abs(history[-1]["rel_error"]) <= 0.01
    assert len(history) <= 5


def test_iops_carrying_fits_are_byte_identical_with_the_flag(monkeypatch):
    points = [fitmod.Point(0.0, 20_000.0, 0.03, 4.0, 0.05), fitmod.Point(40.0, 60_000.0, 0.03)]

    def text() -> str:
        fig = predmod.PredictionInput(points, [0.0, 20.0, 40.0], typed=True, jobs=1)
        return json.dumps(answer.predict(fig).document(None), sort_keys=True, default=str)

    monkeypatch.setattr(twin, "WAF_REFINE", False)
    off = text()
    monkeypatch.setattr(twin, "WAF_REFINE", True)
    assert text() == off
