"""The slot past the SLC cache's cliff carried to the workload's die load (``cliff_slot``; with
``cliff_prediction.PROBES_IN_PREDICTION`` only: bench/results/cliffslot/RULE.md)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from overprov.calibrate import cliff, cliff_prediction, cliff_slot, read_probes
from overprov.calibrate import twin as twinmod

#: a seen case's step measurement and twin (bench/results/cliffslot/stored.py)
STORED = Path(__file__).resolve().parents[2] / "bench/results/cliffslot/stored/258-0.01"


def test_the_form_is_off_by_default():
    """Off: not met in bench/results/cliffslot/verdict.md."""
    assert cliff_slot.SLOT_FROM_LOAD is False


def test_the_die_load_is_the_mix_s_writes_over_the_measured_write_rate_past_the_cliff():
    # 100,000 commands a second, 30% writes, against 60,000 writes a second at QD32
    assert cliff_slot.die_load(100_000.0, 70, 60_000.0) == pytest.approx(0.5)
    assert cliff_slot.die_load(400_000.0, 70, 60_000.0) == 1.0  # at most one
    assert cliff_slot.die_load(100_000.0, 100, 60_000.0) == 0.0  # reads alone: no programs
    with pytest.raises(ValueError, match="no level past its cliff"):
        cliff_slot.die_load(100_000.0, 70, 0.0)


def test_the_probe_s_wait_holds_at_half_load_and_grows_with_it():
    assert cliff_slot.slot_us(400.0, cliff_slot.HALF_LOAD) == pytest.approx(400.0)
    assert cliff_slot.slot_us(400.0, 0.25) == pytest.approx(300.0)
    assert cliff_slot.slot_us(400.0, 1.0) == pytest.approx(600.0)


def _predicted(
    monkeypatch, on: bool, before_on: bool = False, befores: list[float] | None = None
) -> tuple[dict[str, Any], list[float | None]]:
    """The stored case predicted with the read probes, its fit and the purged mix stubbed (no
    simulation): the prediction and the slot past the cliff each mix was run with (and in
    ``befores`` the slot before it; ``before_on``: ``cliff_slot.BEFORE_FROM_LOAD``)."""
    doc = json.loads((STORED / "cliff.json").read_text())
    drive = tomllib.loads((STORED / "twin.toml").read_text())
    scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    measured = cliff.Cliff(10.0, 1e9, 150_000.0, 60_000.0)  # QD32 writes: 60,000 past it
    fit = cliff.CacheFit(cache_bytes=1e9, slc_program_us=80.0, measured=measured)
    slots: list[float | None] = []

    def mix(*a: Any, loop_kw: dict | None = None, **kw: Any) -> tuple[cliff.Cliff, None]:
        slots.append(loop_kw["read_slot_after_ns"] / 1e3 if loop_kw else None)
        if befores is not None:
            befores.append(a[2].read_us)
        return cliff.Cliff(20.0, 2e9, 200_000.0, 160_000.0), None  # 48,000 writes past it

    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", True)
    monkeypatch.setattr(cliff_slot, "SLOT_FROM_LOAD", on)
    monkeypatch.setattr(cliff_slot, "BEFORE_FROM_LOAD", before_on)
    monkeypatch.setattr(cliff_prediction, "fit_tried", lambda *a, **k: (fit, False))
    monkeypatch.setattr(cliff_prediction, "_seconds", lambda *a, **k: 100.0)
    monkeypatch.setattr(read_probes, "predict", mix)
    return cliff_prediction.predict(doc, drive, scale), slots


def test_off_the_mix_runs_once_with_the_probe_s_wait(monkeypatch):
    pred, slots = _predicted(monkeypatch, on=False)
    after = json.loads((STORED / "cliff.json").read_text())["probes"]["after"]["read_us"]
    assert slots == [pytest.approx(after, abs=1e-3)]
    assert "slot_from_load" not in pred


def test_on_the_mix_runs_again_with_the_slot_at_its_die_load(monkeypatch):
    pred, slots = _predicted(monkeypatch, on=True)
    after = json.loads((STORED / "cliff.json").read_text())["probes"]["after"]["read_us"]
    # 48,000 writes a second past the cliff over the measured 60,000: dies 80% busy, the
    # probe's wait times 1.3 (half load and 0.3 over it)
    assert pred["slot_from_load"]["die_load"] == pytest.approx(0.8)
    assert slots == [pytest.approx(after, abs=1e-3), pytest.approx(1.3 * after, abs=1e-3)]
    assert pred["purged"]["iops_after"] == 160_000.0
