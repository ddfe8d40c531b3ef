"""The GC-reserve reading offered to typed figures without an onset, the interval the hull of the
readings that reproduce them (calibrate/reserve_hull.py, ``OFFERED`` off): surrogate-level
checks (milliseconds) on gen-R1's plan figures (bench/intervals/hullres/DIAGNOSIS.md). The
``OFFERED`` tests pin femucarry's six flags off (``femucarry_off``): on by default since
bench/foreign/results/femumedian/verdict.md, they read R1 as a reserve with ``OFFERED`` off
(bench/foreign/results/flipsix/CHANGED.md)."""

from __future__ import annotations

import pytest
from overprov.calibrate import combined_prediction, evidence, reserve_hull, spare_readings
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import PredictedLevel, Prediction

SD = 0.02
#: gen-R1's plan figures (a reserve drive: spare factor 0.84, floor 6), as calibrate's command
#: gives them: IOPS and WAF at 0% and 40%, the FOB
R1 = [
    fitmod.Point(0.0, 22288.0, SD, 6.015, SD),
    fitmod.Point(40.0, 69939.0, SD, 1.965, SD),
    fitmod.Point(0.0, 133044.0, SD, fresh=True),
]


def _fig(points: list[fitmod.Point]) -> predmod.PredictionInput:
    return predmod.PredictionInput(list(points), [0.0, 10.0, 20.0, 30.0, 40.0], typed=True)


def test_the_floor_in_waf_needs_two_levels_each_with_a_waf_figure():
    assert reserve_hull.floor_in_waf(R1)
    iops_only = [fitmod.Point(p.extra_op_percent, p.iops, SD, fresh=p.fresh) for p in R1]
    assert not reserve_hull.floor_in_waf(iops_only)
    three = [*R1, fitmod.Point(20.0, 22388.0, SD, 5.99, SD)]
    assert not reserve_hull.floor_in_waf(three)  # a level the floor is not read from: LOO weighs


def test_off_offers_nothing_and_the_readings_are_as_before(monkeypatch, femucarry_off):
    monkeypatch.setattr(reserve_hull, "OFFERED", False)
    evidences, _ = spare_readings.weigh(_fig(R1))
    assert {r.spare for r in evidences} == {predmod.EFFECTIVE}
    assert reserve_hull.hull(evidences) == set()


def test_on_offers_the_reserve_reading_and_it_takes_the_weight_on_a_reserve_drive(
    monkeypatch, femucarry_off
):
    """On gen-R1 no effective spare reproduces WAF 6.0 at 0% and 2.0 at 40%; the greedy reserve
    reading, its floor read from the 0% figure, does and takes the weight."""
    monkeypatch.setattr(reserve_hull, "OFFERED", True)
    evidences, _ = spare_readings.weigh(_fig(R1))
    reserve = {r for r in evidences if r.spare == predmod.RESERVE}
    assert {r.design for r in reserve} == {"greedy", "d-choices-2", "d-choices-4", "d-choices-8"}
    within = spare_readings.class_weights(evidences)
    best = max(within, key=lambda r: within[r])
    assert best.spare == predmod.RESERVE and best.design == "greedy"
    assert within[best] > 0.99
    s = best.reserve.fit(R1)
    assert s.waf_floor == pytest.approx(6.0, rel=0.02)
    assert s.waf(20.0) == pytest.approx(6.0, rel=0.02)  # the truth holds its floor: 5.99
    # the hull: every reading that reproduces its figures (here the reserve readings alone)
    assert reserve_hull.hull(evidences) == {
        r for r, e in evidences.items()
        if evidence.reproduces(e["residual_chi2"], e["n_figures"], e["n_parameters"])
    }  # fmt: skip
    assert reserve <= reserve_hull.hull(evidences)


def test_by_default_r1_is_read_as_a_reserve_by_the_selective_designs():
    """femucarry's six flags on, ``OFFERED`` off: no plain reading links R1's levels
    (``reserve_hull.NONE_LINKS``), the selective designs' reserve readings weigh alike, each
    holding the 0% floor (WAF 6.0, the truth 5.99 at 20%). calibrate's answer on R1's plan case
    then meets its IOPS targets, WAF within 6% (bench/foreign/results/flipsix/CHANGED.md)."""
    assert not reserve_hull.OFFERED
    evidences, _ = spare_readings.weigh(_fig(R1))
    assert {r.spare for r in evidences} == {predmod.RESERVE}
    within = spare_readings.class_weights(evidences)
    assert {r.design for r in within} == {"greedy", "d-choices-4", "d-choices-8"}
    assert max(within.values()) - min(within.values()) < 0.01
    for r in within:
        assert r.reserve.fit(R1).waf_floor == pytest.approx(6.0, rel=0.02)


def test_no_reserve_reading_without_a_floor_in_the_figures(monkeypatch):
    """A greedy drive's figures (one spare curve through both) call for no floor."""
    monkeypatch.setattr(reserve_hull, "OFFERED", True)
    s = fitmod.Surrogate(0.12, 5.0, 2.0)
    pts = [fitmod.Point(x, s.iops(x), SD, s.waf(x), SD) for x in (0.0, 40.0)]
    evidences, _ = spare_readings.weigh(_fig(pts))
    assert not any(r.spare == predmod.RESERVE for r in evidences)


#: a Prediction's fields beside its levels (one reading's figures at one level)
FIELDS = {"interval": "80%", "prediction_source": "x", "workload": "uniform",
          "workload_flags": "", "waf_curve": None, "recommendation": None,
          "fit": {"spare_efficiency": 1.0}, "twin": "t.toml", "measurement": None}  # fmt: skip


def _reading(waf: float, lo: float, hi: float) -> Prediction:
    return Prediction(levels=[PredictedLevel(10.0, waf=waf, waf_low=lo, waf_high=hi)], **FIELDS)


def test_the_hull_spans_a_reading_whatever_its_weight():
    eff = predmod.TwinReading(predmod.EFFECTIVE)
    res = predmod.TwinReading(predmod.RESERVE)
    readings = {eff: _reading(3.0, 2.8, 3.2), res: _reading(6.0, 5.8, 6.2)}
    w = {eff: 1.0, res: 1e-9}
    alone = combined_prediction.combine(readings, None, w)
    assert (alone.levels[0].waf_low, alone.levels[0].waf_high) == (2.8, 3.2)
    hull = combined_prediction.combine(readings, None, w, {eff, res})
    assert (hull.levels[0].waf_low, hull.levels[0].waf_high) == (2.8, 6.2)
    assert hull.levels[0].waf == pytest.approx(3.0, rel=1e-6)  # the weights still centre it
    assert "reserve_hull.py" in hull.interval
