"""Blocking GC domains' figures in the timed report (``timed.gc_blocked``,
crates/overprov-sim/src/timing/gc_blocked.rs), and the SSDsim twin of
bench/foreign/results/pwtiming/ssdsim_iops.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from overprov import engine

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign" / "results" / "pwtiming"))
import ssdsim_iops  # noqa: E402


def _timed(blocking: str, trigger: str) -> dict:
    config = engine.merge(engine.default_config(), {
        "geometry": {"user_pages": 8192, "op_ratio": 0.12, "pages_per_block": 64},
        "ftl": {"gc_frontier": "shared", "gc_free_blocks": 4, "gc_trigger": trigger},
        "timing": {"enabled": True, "host": {"queue_depth": 4}, "buffer": {"bytes": 0},
                   "gc": {"blocking": blocking, "domains": 4}},
        "run": {"warmup_drive_writes": 1.0, "drive_writes": 1.0, "seed": 5},
    })  # fmt: skip
    return engine.run(config)["timed"]


@pytest.mark.parametrize("trigger", ["batched", "per-write"])
def test_the_figures_cover_the_measured_phase_only_with_blocking_domains(trigger):
    assert "gc_blocked" not in _timed("none", trigger)
    g = _timed("domain", trigger)["gc_blocked"]
    assert len(g["jobs"]) == 4 and len(g["seconds_with_k_blocked"]) == 5
    assert sum(g["jobs"]) > 0 and g["relocations"] > 0
    assert sum(g["seconds_with_k_blocked"]) == pytest.approx(g["span_s"], rel=1e-9)
    refusing = sum(k * s for k, s in enumerate(g["seconds_with_k_blocked"]))
    assert sum(g["blocked_s"]) >= refusing - 1e-6
    assert g["host_units"] == 8192 and 0 < g["waited_units"] <= g["host_units"]
    assert g["job_booked_us"] >= g["job_work_us"] > 0


def test_the_ssdsim_twin_has_one_die_a_chip_and_the_channel_s_transfer():
    doc = ssdsim_iops.ssdsim_doc("k", "uniform")
    level = doc["levels"][0]
    config = ssdsim_iops.twin(doc, level, "uniform", "per-write", "channel")
    nand = engine.validate(config)["config"]["timing"]["nand"]
    # SSDsim k: 1 channel x 2 chips, no advanced commands: two dies, one plane each
    assert (nand["channels"], nand["dies_per_channel"], nand.get("planes_per_die", 1)) == (1, 2, 1)
    assert 4096 / (nand["channel_mb_s"] * 1e6) == pytest.approx(102.4e-6)
    assert config["timing"]["gc"]["domains"] == 1
    assert config["ftl"]["gc_free_blocks"] == round(0.05 * 1792)


def test_the_simulate_document_with_blocking_domains_meets_its_schema(overprov_cli, tmp_path):
    """`timed.gc_blocked` is in python/overprov/schemas/simulate.schema.json: a document with it
    validates, and a figure of the wrong type is refused naming the field."""
    import json

    from overprov.errors import InputError
    from overprov.json_schemas import validate_document

    config = tmp_path / "blocking.toml"
    config.write_text('[timing]\nenabled = true\n[timing.gc]\nblocking = "domain"\ndomains = 4\n')
    out = tmp_path / "run.json"
    rc, _, err = overprov_cli("simulate", "--config", str(config), "--advertised", "32M",
                              "--pages-per-block", "64", "--extra-op", "10", "--drive-writes",
                              "1", "--no-progress", "--json", str(out))  # fmt: skip
    assert rc == 0, err
    doc = json.loads(out.read_text())
    g = doc["runs"][0]["timed"]["gc_blocked"]
    assert len(g["jobs"]) == 4
    validate_document(doc, "overprov.simulate", str(out))
    g["jobs"] = "four"
    with pytest.raises(InputError, match="gc_blocked.jobs"):
        validate_document(doc, "overprov.simulate", str(out))
