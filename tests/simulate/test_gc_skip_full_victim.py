"""``[ftl] gc_skip_full_victim`` (ftl/plane_pools.rs, docs/simulate.md): with per-plane pools, a
check whose sampled victim has no invalid page starts no collection, as MQSim's RGA. Off is not
echoed and runs as a config without the key; on, a thin-spare drive's run moves; without pools
it is refused naming the field."""

from __future__ import annotations

import pytest
from overprov import engine
from overprov.errors import ConfigError


def drive(skip: bool | None, pools: int = 2) -> dict:
    """A small drive of two pools of 32-page blocks at a thin spare (12%), d-choices victims."""
    ftl: dict = {"policy": "d-choices", "d_choices": 4, "gc_free_blocks": 8}
    if pools:
        ftl["plane_pools"] = pools
    if skip is not None:
        ftl["gc_skip_full_victim"] = skip
    return engine.merge(engine.default_config(), {
        "ftl": ftl,
        "geometry": {"page_size_bytes": 4096, "pages_per_block": 32,
                     "user_pages": 1800 * 32,
                     "physical_bytes": 2048 * 32 * 4096},
        "run": {"warmup_drive_writes": 2.0, "drive_writes": 1.0, "seed": 1},
    })  # fmt: skip


def test_off_is_the_default_and_not_echoed():
    base = engine.run(drive(None))
    explicit = engine.run(drive(False))
    assert "gc_skip_full_victim" not in str(base.get("config", {}))
    assert base["measured"] == explicit["measured"]


def test_on_starts_no_collection_of_a_full_victim_and_moves_the_run():
    off, on = engine.run(drive(False)), engine.run(drive(True))
    assert on["config"]["ftl"]["gc_skip_full_victim"] is True
    assert on["measured"] != off["measured"]
    assert on["measured"]["waf"] > 1.0


def test_without_pools_it_is_refused_naming_the_field():
    with pytest.raises(ConfigError, match="ftl.gc_skip_full_victim"):
        engine.run(drive(True, pools=0))
