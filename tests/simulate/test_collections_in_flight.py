"""``[timing.gc] collections_in_flight``, ``paired_reads`` and ``lockstep_figures``
(timing/gc_in_flight.rs, timing/gc_jobs.rs, timing/gc_blocked.rs; docs/simulate.md) through the
Python engine, on a small MQSim twin (``bench/foreign/mqsim_pairing.py``'s config, 128 blocks a
plane at 10% extra OP): off not echoed and the run unchanged; the figures reported without
moving the run; on, the FTL's work unchanged and the timing moved; refused without their
domains."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from overprov import engine
from overprov.errors import ConfigError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))
import mqsim_pairing  # noqa: E402


def twin(gc: dict | None = None) -> dict:
    """mqmid's twin (per-plane pools, both timing options) of 128 × 32 at 10% extra OP, QD32."""
    cfg = mqsim_pairing.twin_config(128, 32, 10, 32, 2, -1, "victim", False, True, True, True)
    return engine.merge(cfg, {"timing": {"gc": gc or {}}})


def test_off_is_not_echoed_and_the_figures_move_nothing():
    base = engine.run(twin())
    stated = engine.run(twin({"collections_in_flight": 0, "paired_reads": False}))
    figures = engine.run(twin({"lockstep_figures": True}))
    gc = base["config"]["timing"]["gc"]
    assert "collections_in_flight" not in gc and "paired_reads" not in gc
    assert base["timed"]["measured"] == stated["timed"]["measured"]
    assert figures["timed"]["measured"] == base["timed"]["measured"]
    g = figures["timed"]["gc_blocked"]
    assert len(g["program_mix"]) == 5 and len(g["in_flight_s"]) == len(g["triggers"]) == 2
    assert "program_mix" not in base["timed"]["gc_blocked"]


def test_on_the_ftl_does_the_same_work_and_the_timing_moves():
    off = engine.run(twin({"lockstep_figures": True}))
    on = engine.run(twin({"lockstep_figures": True, "collections_in_flight": 2,
                          "paired_reads": True}))  # fmt: skip
    assert on["measured"]["waf"] == off["measured"]["waf"]
    assert on["timed"]["measured"]["iops"] != off["timed"]["measured"]["iops"]
    assert len(on["timed"]["gc_blocked"]["held_at_end"]) == 2


def test_without_domains_it_is_refused_naming_the_field():
    timing = {"enabled": True, "gc": {"collections_in_flight": 2}}
    cfg = engine.merge(engine.default_config(), {"timing": timing})
    with pytest.raises(ConfigError, match="timing.gc.collections_in_flight"):
        engine.run(cfg)
