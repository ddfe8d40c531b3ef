"""The batch GC design (calibrate/batch_gc.py): off by default, its curve the core's, offered
beside the uniform designs while its flag is on, its share of the blocks a count of each twin's."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest
from overprov import engine, scaled_drive
from overprov.calibrate import batch_gc, gc_blocking, gc_designs, predict, spare_readings, twin
from overprov.calibrate import fit as fitmod


def test_the_design_is_off_by_default():
    assert batch_gc.OFFERED is False
    assert batch_gc.NAME not in gc_designs.UNIFORM_DESIGNS
    assert batch_gc.NAME not in spare_readings.DESIGNS
    assert list(gc_designs.UNIFORM_DESIGNS) == [
        "greedy",
        "d-choices-2",
        "d-choices-4",
        "d-choices-8",
    ]


def test_the_flag_offers_it_at_each_use(monkeypatch):
    monkeypatch.setattr(batch_gc, "OFFERED", True)  # as EVALUATE_FLAGS sets it, after import
    assert list(gc_designs.UNIFORM_DESIGNS)[-1] == batch_gc.NAME
    assert spare_readings.DESIGNS[batch_gc.NAME] == batch_gc.FTL
    named = gc_designs.curve(batch_gc.NAME)
    assert named(0.3) == batch_gc.curve(0.3)
    assert named.to_dict()["ftl"] == batch_gc.FTL
    r = spare_readings.reading(predict.EFFECTIVE, batch_gc.NAME, None, several=True)
    assert r.ftl[batch_gc.SHARE_KEY] == batch_gc.BATCH_SHARE
    monkeypatch.setattr(batch_gc, "OFFERED", False)
    assert batch_gc.NAME not in gc_designs.UNIFORM_DESIGNS


def test_its_curve_is_the_cores_simulated_ratio_over_greedy():
    rhos, ratios = batch_gc._table()["rho"], batch_gc._table()["ratio"]
    # one of the table's points simulated again: the same ratio (the core is deterministic)
    assert batch_gc.simulated_ratio(rhos[30]) == pytest.approx(ratios[30], rel=1e-9)
    first = next(i for i, q in enumerate(ratios) if q is not None)
    assert rhos[first] >= batch_gc.TABLE_RHO_MIN > rhos[first - 1]
    for rho, q in zip(rhos, ratios, strict=True):  # the greedy model times its ratio
        want = fitmod.waf_at(rho) * (ratios[first] if q is None else q)
        assert batch_gc.curve(rho) == pytest.approx(want, rel=1e-12)
    # above greedy everywhere, the excess smaller at much spare than at little
    assert min(ratios[first:]) > 1.0
    assert ratios[-1] < ratios[first] - 0.05


def test_resolve_counts_the_share_of_a_drives_blocks():
    assert batch_gc.resolve(None, 100) is None
    plain = {"policy": "greedy"}
    assert batch_gc.resolve(plain, 100) is plain
    got = batch_gc.resolve(batch_gc.FTL, 115)
    assert got == {"policy": "greedy", "host_streams": "single", "gc_batch_victims": 12}
    assert batch_gc.resolve({batch_gc.SHARE_KEY: 0.1}, 3) == {"gc_batch_victims": 1}


def test_a_twin_with_the_design_runs_the_cores_batch_stop():
    p = twin.TwinParameters(512 * 2**30, 0.2, 100.0, 20.0, {}, "test", ftl=dict(batch_gc.FTL))
    drive = twin.drive_dict(p)
    blocks = drive["physical_bytes"] // (twin.PAGE_BYTES * fitmod.PAGES_PER_BLOCK)
    assert drive["config"]["ftl"]["gc_batch_victims"] == round(0.1 * blocks)
    assert batch_gc.SHARE_KEY not in drive["config"]["ftl"]
    cfg = twin.sim_config(p)  # simulated scaled: the count scaled with the blocks
    ppb = cfg["geometry"]["pages_per_block"]
    sim_blocks = cfg["geometry"]["physical_bytes"] // (cfg["geometry"]["page_size_bytes"] * ppb)
    assert cfg["ftl"]["gc_batch_victims"] == pytest.approx(0.1 * sim_blocks, rel=0.01)
    engine.validate(cfg)
    blocking = gc_blocking.config(0.2, 0.0, 2, 500.0, 32, ftl=batch_gc.FTL)
    assert blocking["ftl"]["gc_batch_victims"] == round(0.1 * gc_blocking._physical_blocks(0.2))
    engine.validate(blocking)


def test_scaling_a_drive_scales_its_batch():
    cfg = {"geometry": {"user_pages": 1000}, "ftl": {"gc_batch_victims": 40}}
    assert scaled_drive.scale_config(cfg, 0.25)["ftl"]["gc_batch_victims"] == 10
    assert scaled_drive.scale_config(cfg, 0.001)["ftl"]["gc_batch_victims"] == 1
    assert "gc_batch_victims" not in scaled_drive.scale_config({"ftl": {}}, 0.5)["ftl"]


def test_the_prediction_schema_names_its_reading():
    schema = json.loads(
        resources.files("overprov.calibrate").joinpath("prediction.schema.json").read_text()
    )
    pattern = re.compile(schema["properties"]["readings"]["propertyNames"]["pattern"])
    assert pattern.match(f"{predict.EFFECTIVE}:{batch_gc.NAME}")
    assert pattern.match(f"{predict.EFFECTIVE}:{batch_gc.NAME}+erase")
