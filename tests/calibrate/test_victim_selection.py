"""The victim selection read from one skewed figure (calibrate/victim_selection.py): readings that
uniform figures cannot tell apart, weighed by how well each reproduces the skewed figure."""

from __future__ import annotations

import math

import pytest
from overprov.calibrate import evidence, twin_runs
from overprov.calibrate import victim_selection as vs
from overprov.calibrate.twin import TwinParameters

TWIN = TwinParameters(
    advertised_bytes=999_999_488_000, native_op=0.10, t_page_us=13.0, t_cmd_us=-1.0,
    uncertainty={}, source="test",
)  # fmt: skip
HOT = {"pattern": "hot-cold", "hot_access_percent": 90.0, "hot_space_percent": 10.0}
#: 40% of the span filled and never written again (SSD-iq's "zones-ro 0.4").
STATIC = {
    "pattern": "zoned",
    "zones": [
        {"access_percent": 0.0, "space_percent": 40.0},
        {"access_percent": 100.0, "space_percent": 60.0},
    ],
}


def reading(name: str, chi2: float = 0.0, reproduces: bool = True) -> vs.VictimReading:
    design, ftl = vs.VICTIM_SELECTIONS[name]
    return vs.VictimReading(name, TwinParameters(**{**TWIN.__dict__, "ftl": ftl}), chi2,
                            reproduces, {})  # fmt: skip


@pytest.fixture
def figures(monkeypatch):
    """Each reading's figure set by hand (no simulation): greedy 100, FIFO 50, d-choices-4 80."""
    by = {"greedy": 100.0, "fifo": 50.0, "d-choices-4": 80.0}

    def fake(r, workload, levels, kind, jobs=None, memo=None):
        return [by[r.name] for _ in levels]

    monkeypatch.setattr(vs, "simulate", fake)
    return by


def test_the_skewed_figure_takes_the_weight_to_the_reading_that_reproduces_it(figures):
    readings = [reading("greedy"), reading("fifo"), reading("d-choices-4")]
    got = vs.weigh(readings, vs.SkewedFigure(HOT, 0.0, 52.0, "iops", 0.05))
    assert got["fifo"]["weight"] > 0.99
    assert got["fifo"]["skewed_chi2"] == pytest.approx((math.log(50 / 52) / 0.05) ** 2)
    # the weights are evidence.weights of the uniform χ² plus the skewed term
    want = evidence.weights({k: g["chi2"] for k, g in got.items()})
    assert {k: g["weight"] for k, g in got.items()} == pytest.approx(want)


def test_uniform_evidence_still_counts_and_a_reading_that_misses_its_uniform_figures_is_out(
    figures,
):
    fig = vs.SkewedFigure(HOT, 0.0, 70.0, "iops", 0.05)  # between FIFO's 50 and greedy's 100
    even = vs.weigh([reading("greedy"), reading("d-choices-4")], fig)
    assert even["d-choices-4"]["weight"] > even["greedy"]["weight"]
    out = vs.weigh([reading("greedy"), reading("d-choices-4", reproduces=False)], fig)
    assert out["d-choices-4"]["weight"] == 0.0 and out["greedy"]["weight"] == 1.0
    heavy = vs.weigh([reading("greedy"), reading("d-choices-4", chi2=60.0)], fig)
    assert heavy["greedy"]["weight"] > 0.99


def test_uniform_only_weighs_the_uniform_designs_alone():
    readings = [reading("greedy"), reading("fifo"), reading("d-choices-4", chi2=2.0)]
    w = vs.uniform_weights(readings)
    assert w["fifo"] == 0.0
    assert w["greedy"] == pytest.approx(1 / (1 + math.exp(-1.0)))


def test_a_held_out_figure_is_the_weighted_geometric_mean_of_the_kept_readings(figures):
    readings = [reading("greedy"), reading("fifo"), reading("d-choices-4")]
    (got,) = vs.predict(readings, {"greedy": 0.5, "fifo": 0.5, "d-choices-4": 0.001}, HOT, [10.0])
    assert got["value"] == pytest.approx(math.sqrt(100 * 50))
    assert (got["low"], got["high"]) == (50.0, 100.0)
    assert set(got["readings"]) == {"greedy", "fifo"}  # d-choices-4 below 1% of the top


def test_greedy_and_fifo_twins_share_the_uniform_waf_and_part_under_skew():
    """The premise, on the simulator: one twin, greedy or FIFO victims (WAF-only runs), under
    uniform writes and with 40% of the span static."""
    memo: twin_runs.Runs = {}
    waf = {}
    for name in ("greedy", "fifo"):
        r = reading(name)
        waf[name] = [vs.simulate(r, w, [0.0], "waf", memo=memo)[0]
                     for w in ({"pattern": "uniform"}, STATIC)]  # fmt: skip
    assert waf["fifo"][0] == pytest.approx(waf["greedy"][0], rel=0.05)
    assert waf["fifo"][1] > 1.2 * waf["greedy"][1]
