"""Static wear levelling as a victim-selection reading (calibrate/victim_selection.py): the
threshold read from one skewed figure, and the premise that levelling moves static data."""

from __future__ import annotations

import pytest
from overprov.calibrate import twin_runs
from overprov.calibrate import victim_selection as vs
from overprov.calibrate.twin import TwinParameters

TWIN = TwinParameters(
    advertised_bytes=999_999_488_000, native_op=0.10, t_page_us=13.0, t_cmd_us=-1.0,
    uncertainty={}, source="test", ftl=vs.VICTIM_SELECTIONS["greedy"][1],
)  # fmt: skip
#: 40% of the span filled and never written again (SSD-iq's "zones-ro 0.4").
STATIC = {
    "pattern": "zoned",
    "zones": [
        {"access_percent": 0.0, "space_percent": 40.0},
        {"access_percent": 100.0, "space_percent": 60.0},
    ],
}
HOT = {"pattern": "hot-cold", "hot_access_percent": 90.0, "hot_space_percent": 10.0}
GREEDY = vs.VictimReading("greedy", TWIN, 0.0, True, {})


def test_a_threshold_adds_the_cores_wear_keys_and_none_leaves_the_reading():
    assert vs.with_static_wl(GREEDY, None) is GREEDY
    r = vs.with_static_wl(GREEDY, 8)
    assert r.name == "greedy-static-wl-8" and r.twin is GREEDY.twin
    assert r.wear == {"static_threshold": 8, "static_check_erases": vs.STATIC_WL_CHECK_ERASES}


def test_the_threshold_read_is_the_one_nearest_the_figure_in_log_terms(monkeypatch):
    by = {None: 200.0, 2: 50.0, 4: 91.0, 8: 110.0}

    def fake(r, workload, levels, kind, jobs=None, memo=None):
        return [by[None if r.wear is None else r.wear["static_threshold"]] for _ in levels]

    monkeypatch.setattr(vs, "simulate", fake)
    rs = {t: vs.with_static_wl(GREEDY, t) for t in by}
    t, got = vs.read_threshold(rs, vs.SkewedFigure(HOT, 0.0, 100.0))
    assert t == 4 and got == by  # |ln 0.91| < |ln 1.1|
    t, _ = vs.read_threshold(rs, vs.SkewedFigure(HOT, 0.0, 400.0))
    assert t is None


def test_static_levelling_moves_static_data_and_leaves_uniform_writes_alone():
    """The premise, on the simulator (WAF-only runs): with 40% of the span static, levelling
    that checks every erase raises the greedy twin's WAF; under uniform writes it does not."""
    memo: twin_runs.Runs = {}
    wl = vs.with_static_wl(GREEDY, 2)
    waf = {r.name: [vs.simulate(r, w, [0.0], "waf", memo=memo)[0]
                    for w in ({"pattern": "uniform"}, STATIC)]
           for r in (GREEDY, wl)}  # fmt: skip
    assert waf[wl.name][0] == pytest.approx(waf["greedy"][0], rel=0.03)
    assert waf[wl.name][1] > 1.2 * waf["greedy"][1]
