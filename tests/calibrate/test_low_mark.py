"""The low-mark GC design (calibrate/low_mark.py): off by default, its curve the core's, offered
beside the uniform designs only when asked (low_mark.offer)."""

from __future__ import annotations

from collections import ChainMap

import pytest
from overprov import engine
from overprov.calibrate import fit as fitmod
from overprov.calibrate import gc_designs, low_mark, predict, spare_readings


def test_the_design_is_off_by_default():
    assert low_mark.OFFERED is False
    assert low_mark.NAME not in gc_designs.UNIFORM_DESIGNS
    assert low_mark.NAME not in spare_readings.DESIGNS


def test_its_curve_is_the_cores_simulated_ratio_over_greedy():
    table = low_mark._table()
    i = 30  # ρ ≈ 0.29, a simulated point
    rho = table["rho"][i]
    assert low_mark.curve(rho) == pytest.approx(fitmod.waf_at(rho) * table["ratio"][i])
    # the table's point simulated again (other seeds would differ by the run's noise only)
    assert low_mark.simulated_ratio(rho) == pytest.approx(table["ratio"][i], rel=1e-9)
    # above greedy wherever the mark can be held, falling with spare; beyond it, steep
    rhos = [r for r in table["rho"] if r > low_mark.min_rho()]
    wafs = [low_mark.curve(r) for r in rhos]
    assert all(w > fitmod.waf_at(r) for r, w in zip(rhos, wafs, strict=True))
    assert wafs == sorted(wafs, reverse=True)
    assert low_mark.curve(0.05) > 10 * fitmod.waf_at(0.05)


def test_offered_it_is_a_reading_whose_twin_the_core_runs(monkeypatch):
    uniform = dict(gc_designs.UNIFORM_DESIGNS)
    monkeypatch.setattr(gc_designs, "UNIFORM_DESIGNS", uniform)
    monkeypatch.setattr(gc_designs, "OFFERED_CURVES", {})
    monkeypatch.setattr(spare_readings, "DESIGNS", ChainMap(uniform, spare_readings.GC_DESIGNS))
    monkeypatch.setattr(low_mark, "OFFERED", False)
    low_mark.offer()
    assert low_mark.NAME in gc_designs.UNIFORM_DESIGNS
    assert spare_readings.DESIGNS[low_mark.NAME] == low_mark.FTL
    r = spare_readings.reading(predict.EFFECTIVE, low_mark.NAME, None, several=True)
    assert r.ftl["gc_until_free_fraction"] == low_mark.GAP
    assert isinstance(gc_designs.curve(low_mark.NAME), low_mark.LowMarkCurve)
    cfg = {"ftl": r.ftl, "geometry": {"user_pages": 1 << 16, "op_ratio": 0.2,
                                       "pages_per_block": fitmod.PAGES_PER_BLOCK}}  # fmt: skip
    resolved = engine.validate(engine.merge(engine.default_config(), cfg))
    assert resolved["config"]["ftl"]["gc_until_free_fraction"] == low_mark.GAP


def test_the_prediction_schema_names_its_reading():
    # a prediction holding the reading was refused by the schema's key pattern before it named
    # it (bench/foreign/results/wiscgc/runs.log: drive C with the reading, 01:16 UTC)
    import json
    import re
    from importlib import resources

    schema = json.loads(
        resources.files("overprov.calibrate").joinpath("prediction.schema.json").read_text()
    )
    pattern = re.compile(schema["properties"]["readings"]["propertyNames"]["pattern"])
    for design in [*gc_designs.UNIFORM_DESIGNS, low_mark.NAME]:
        assert pattern.match(f"{predict.EFFECTIVE}:{design}"), design
