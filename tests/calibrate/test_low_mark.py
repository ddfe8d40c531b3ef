"""The low-mark GC design (calibrate/low_mark.py): off by default, its curve the core's, offered
beside the uniform designs only while its flag is on (low_mark.OFFERED, read at each use)."""

from __future__ import annotations

import pytest
from overprov import engine
from overprov.calibrate import batch_gc, gc_designs, low_mark, predict, spare_readings
from overprov.calibrate import fit as fitmod


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
    monkeypatch.setattr(low_mark, "OFFERED", True)  # as --low-mark-reading sets it, after import
    assert list(gc_designs.UNIFORM_DESIGNS)[-1] == low_mark.NAME
    assert spare_readings.DESIGNS[low_mark.NAME] == low_mark.FTL
    r = spare_readings.reading(predict.EFFECTIVE, low_mark.NAME, None, several=True)
    assert r.ftl["gc_until_free_fraction"] == low_mark.GAP
    named = gc_designs.curve(low_mark.NAME)
    assert named(0.3) == low_mark.curve(0.3)
    assert named.to_dict() == {
        "description": "greedy GC collecting from its trigger until 0.08 of the blocks are free "
        "(a low mark, WiscSim's form), under uniform random writes, simulated by the core",
        "ftl": low_mark.FTL,
    }
    cfg = {"ftl": r.ftl, "geometry": {"user_pages": 1 << 16, "op_ratio": 0.2,
                                       "pages_per_block": fitmod.PAGES_PER_BLOCK}}  # fmt: skip
    resolved = engine.validate(engine.merge(engine.default_config(), cfg))
    assert resolved["config"]["ftl"]["gc_until_free_fraction"] == low_mark.GAP
    monkeypatch.setattr(low_mark, "OFFERED", False)
    assert low_mark.NAME not in gc_designs.UNIFORM_DESIGNS


def test_both_offered_designs_follow_the_set_ones_in_a_fixed_order(monkeypatch):
    # the order they had when low_mark.offer() added its design to the set ones and the batch
    # design followed them all
    monkeypatch.setattr(low_mark, "OFFERED", True)
    monkeypatch.setattr(batch_gc, "OFFERED", True)
    assert list(gc_designs.UNIFORM_DESIGNS) == [
        "greedy",
        "d-choices-2",
        "d-choices-4",
        "d-choices-8",
        low_mark.NAME,
        batch_gc.NAME,
    ]
    assert {low_mark.NAME, batch_gc.NAME} <= set(spare_readings.DESIGNS)


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
