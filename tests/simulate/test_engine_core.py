"""The engine's calls into the core: a config validated once (``engine.check``) and the
counters a profiler round reads (``Simulator.totals``), each against what it replaces."""

from __future__ import annotations

import json

import pytest
from overprov import engine
from overprov.errors import ConfigError
from overprov.profile.target_kinds import make_target
from overprov.profile.targets import RoundSpec


def _small(**run: float) -> dict:
    return engine.merge(
        engine.default_config(),
        {
            "geometry": {"user_pages": 8192, "pages_per_block": 64, "op_ratio": 0.2},
            "run": {"warmup_drive_writes": 0.5, "drive_writes": 1.0, **run},
        },
    )


def test_totals_are_the_reports_totals_at_every_step():
    sim = engine.simulator(_small())
    seen = 0
    while True:
        assert sim.totals() == json.loads(sim.report_json())["totals"]
        seen += 1
        if sim.step(3000):
            break
    assert sim.totals() == json.loads(sim.report_json())["totals"]
    assert sim.totals()["host_pages"] > 0 and seen > 3


def test_a_sim_targets_counters_are_the_reports_after_rounds():
    t = make_target("sim:enterprise-tlc-nvme@2GiB", None)
    t.open()
    try:
        for n in range(3):
            t.run(
                RoundSpec(label=f"r{n}", rw="randwrite", bs_bytes=4096, qd=32, jobs=1,
                          span_bytes=t.capacity_bytes, seconds=0.02)
            )  # fmt: skip
            totals = json.loads(t._need_open().report_json())["totals"]
            nand_pages = totals["host_pages"] + totals["gc_pages"] + totals["wl_pages"]
            assert t.write_counters() == {
                "host_bytes": totals["host_pages"] * t.page_bytes,
                "nand_bytes": nand_pages * t.page_bytes,
            }
            assert t.nand_bytes_written() == nand_pages * t.page_bytes > 0
    finally:
        t.close()


def test_a_checked_config_runs_as_its_dict_and_resolves_as_validate():
    cfg = _small()
    checked = engine.check(cfg)
    assert checked.resolved == engine.validate(cfg)
    assert checked.config == cfg
    a = engine.run(cfg)
    b = engine.run(checked)
    for r in (a, b):
        r.pop("wall_seconds"), r.pop("host_pages_per_wall_second")
    assert a == b
    # one handle builds several simulators, each from the start
    assert engine.simulator(checked).totals() == engine.simulator(checked).totals()


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"ftl": {"policy": "nope"}}, "ftl.policy"),
        ({"ftl": {"gc_free_blocks": 0}}, "ftl.gc_free_blocks"),
        ({"run": {"drive_writes": "many"}}, "run.drive_writes"),
        ({"geometry": {"no_such_field": 1}}, "no_such_field"),
    ],
)
def test_check_rejects_what_validation_rejected_naming_the_field(override, field):
    cfg = engine.merge(_small(), override)
    with pytest.raises(ConfigError) as checked:
        engine.check(cfg)
    with pytest.raises(ConfigError) as built:
        engine.simulator(cfg)
    assert field in str(checked.value)
    assert str(checked.value) == str(built.value)
