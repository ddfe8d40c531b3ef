"""The FIFO GC design (calibrate/fifo_gc.py): off by default, its curve Desnoyers' published
FIFO model, offered beside the uniform designs only while its flag is on (fifo_gc.OFFERED, read
at each use), its twin the core's FIFO policy."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest
from overprov import engine, models
from overprov.calibrate import fifo_gc, gc_designs, predict, spare_readings
from overprov.calibrate import fit as fitmod


def test_the_design_is_off_by_default():
    assert fifo_gc.OFFERED is False
    assert fifo_gc.NAME not in gc_designs.UNIFORM_DESIGNS
    assert fifo_gc.NAME not in spare_readings.DESIGNS


def test_its_curve_is_the_published_fifo_model_near_greedys_at_large_blocks():
    for rho in (0.05, 0.1, 0.28, 0.7):
        assert fifo_gc.curve(rho) == models.waf_fifo(rho)
    assert fifo_gc.curve(0.0) == models.waf_fifo(fitmod.RHO_MIN)
    # at fit.PAGES_PER_BLOCK FIFO's WAF lies above greedy's model by 1.04% at rho = 0.1 and
    # less beyond (the module's doc: the reading is a near twin of greedy's), 5.8% at 0.017
    for rho in (0.1, 0.2, 0.5, 1.0, 1.5):
        assert fitmod.waf_at(rho) < fifo_gc.curve(rho) <= 1.011 * fitmod.waf_at(rho)
    assert fifo_gc.curve(0.017) == pytest.approx(1.058 * fitmod.waf_at(0.017), rel=1e-3)


def test_offered_it_is_a_reading_whose_twin_the_core_runs(monkeypatch):
    monkeypatch.setattr(fifo_gc, "OFFERED", True)
    assert list(gc_designs.UNIFORM_DESIGNS)[-1] == fifo_gc.NAME
    assert spare_readings.DESIGNS[fifo_gc.NAME] == fifo_gc.FTL
    r = spare_readings.reading(predict.EFFECTIVE, fifo_gc.NAME, None, several=True)
    named = gc_designs.curve(fifo_gc.NAME)
    assert named(0.3) == fifo_gc.curve(0.3)
    assert named.to_dict()["ftl"] == {"policy": "fifo", "host_streams": "single"}
    cfg = {"ftl": r.ftl, "geometry": {"user_pages": 1 << 14, "op_ratio": 0.28,
                                       "pages_per_block": 64},
           "run": {"drive_writes": 2.0, "warmup_drive_writes": 2.0}}  # fmt: skip
    out = engine.run(engine.merge(engine.default_config(), cfg))
    assert out["config"]["ftl"]["policy"] == "fifo"
    # the core's FIFO on a small drive against the model at its spare (its own tolerance)
    assert out["measured"]["waf"] == pytest.approx(models.waf_fifo(0.28), rel=0.08)
    monkeypatch.setattr(fifo_gc, "OFFERED", False)
    assert fifo_gc.NAME not in gc_designs.UNIFORM_DESIGNS


def test_the_prediction_schema_names_its_reading():
    schema = json.loads(
        resources.files("overprov.calibrate").joinpath("prediction.schema.json").read_text()
    )
    pattern = re.compile(schema["properties"]["readings"]["propertyNames"]["pattern"])
    for spare in (predict.EFFECTIVE, predict.RAW, predict.RESERVE):
        assert pattern.match(f"{spare}:{fifo_gc.NAME}")


def test_offered_it_takes_about_greedys_weight_on_uniform_waf_figures(monkeypatch):
    # sssl-ftlsim's LRU drive at spare 0.25, as its "WAF 0+40" case types it: the FIFO reading
    # fits as greedy's does (its curve within 1% of greedy's there), so the two share the weight
    # (bench/foreign/results/fifogc/fifo/sssl-ftlsim-lru-spare025.json: 0.30 each)
    from overprov.calibrate import cli, uncertainty

    pts = cli.user_points(None, "0:2.210,40:1.181")
    form = uncertainty.model_form_for(pts, False)
    fig = predict.PredictionInput(pts, [0.0, 10.0, 20.0, 30.0, 40.0], typed=True, model_form=form)
    evs, _ = spare_readings.weigh(fig)
    assert all(r.design != fifo_gc.NAME for r in evs)
    monkeypatch.setattr(fifo_gc, "OFFERED", True)
    evs, curves = spare_readings.weigh(fig)
    w = spare_readings.class_weights(evs)
    by_design = {r.design: w[r] for r in w if r.spare == predict.EFFECTIVE}
    assert curves[fifo_gc.NAME](0.3) == fifo_gc.curve(0.3)
    assert by_design[fifo_gc.NAME] == pytest.approx(by_design["greedy"], rel=0.05)
    assert by_design[fifo_gc.NAME] > 0.2
