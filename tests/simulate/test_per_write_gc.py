"""`overprov simulate --gc-trigger`: when GC runs (``ftl.gc_trigger``, docs/simulate.md), and the
skew path's per-write reading behind its flag (calibrate/victim_selection.py)."""

from __future__ import annotations

import json

import pytest
from overprov import engine
from overprov.calibrate import victim_selection as vs
from overprov.errors import ConfigError

SMALL = ("--user-pages", "32768", "--pages-per-block", "64", "--rho", "0.2", "--warmup", "2",
         "--drive-writes", "2", "--no-progress", "--gc-frontier", "shared",
         "--hot", "90/10")  # fmt: skip


def test_per_write_runs_from_the_command_line_and_is_echoed(overprov_cli, tmp_path):
    wafs = {}
    for trigger in ("batched", "per-write"):
        out_json = tmp_path / f"{trigger}.json"
        rc, _, err = overprov_cli(
            "simulate", *SMALL, "--gc-trigger", trigger, "--json", str(out_json)
        )
        assert rc == 0, err
        run = json.loads(out_json.read_text())["runs"][0]
        # the default is left out of the report's config, as the victim floor is
        assert run["config"]["ftl"].get("gc_trigger", "batched") == trigger
        wafs[trigger] = run["measured"]["waf"]
    # hot pages' survivors mixed with host pages cost WAF (bench/foreign/results/hotcold/)
    assert wafs["per-write"] > wafs["batched"]


def test_per_write_with_a_victim_floor_is_refused_naming_the_field():
    ftl = {"gc_trigger": "per-write", "gc_free_blocks": 8,
           "gc_victim_min_invalid_fraction": 0.125, "gc_forced_free_blocks": 2}  # fmt: skip
    with pytest.raises(ConfigError, match="ftl.gc_trigger"):
        engine.check(engine.merge(engine.default_config(), {"ftl": ftl}))


def test_the_per_write_reading_is_off_and_its_twin_config_is_valid():
    assert vs.PER_WRITE_READING is False and "greedy-per-write" not in vs.VICTIM_SELECTIONS
    design, ftl = vs.PER_WRITE_SELECTION
    assert design in vs.VICTIM_SELECTIONS and ftl["gc_trigger"] == "per-write"
    resolved = engine.validate(engine.merge(engine.default_config(), {"ftl": ftl}))
    assert resolved["config"]["ftl"]["gc_trigger"] == "per-write"
