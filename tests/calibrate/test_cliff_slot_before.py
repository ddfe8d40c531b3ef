"""The slot before the SLC cache's cliff carried to the dies' load before it
(``cliff_slot.BEFORE_FROM_LOAD``, with ``SLOT_FROM_LOAD`` and
``cliff_prediction.PROBES_IN_PREDICTION`` only: bench/results/cliff3level/RULE.md)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from overprov.calibrate import cliff, cliff_prediction, cliff_slot, read_probes
from overprov.calibrate import twin as twinmod

#: a seen case's step measurement and twin (bench/results/cliff3level/stored.py)
STORED = Path(__file__).resolve().parents[2] / "bench/results/cliff3level/stored/246-0.03"


def test_the_form_before_the_cliff_is_off_by_default():
    assert cliff_slot.BEFORE_FROM_LOAD is False


def test_the_probe_before_the_cliff_is_carried_to_the_load_before_it():
    probe = read_probes.Probe(qd=8, read_percent=70, requests=100, writes_before_bytes=0,
                              read_us=300.0)  # fmt: skip
    measured = cliff.Cliff(10.0, 1e9, 150_000.0, 60_000.0)  # QD32 writes: 150,000 before it
    # 200,000 commands a second, 30% writes: 60,000 over 150,000, dies 40% busy
    got, load = cliff_slot.before(probe, 200_000.0, 70, measured)
    assert load == pytest.approx(0.4)
    assert got.read_us == pytest.approx(0.9 * 300.0)
    assert (got.qd, got.requests) == (probe.qd, probe.requests)


def _slots(monkeypatch, before_on: bool) -> tuple[dict[str, Any], list[tuple[float, float]]]:
    """The stored case predicted with the read probes and ``SLOT_FROM_LOAD``, its fit and mix
    stubbed (no simulation): the prediction and each mix's (slot before, slot past) in µs."""
    doc = json.loads((STORED / "cliff.json").read_text())
    drive = tomllib.loads((STORED / "twin.toml").read_text())
    scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    measured = cliff.Cliff(10.0, 1e9, 150_000.0, 60_000.0)
    fit = cliff.CacheFit(cache_bytes=1e9, slc_program_us=80.0, measured=measured)
    slots: list[tuple[float, float]] = []

    def mix(*a: Any, loop_kw: dict, **kw: Any) -> tuple[cliff.Cliff, None]:
        slots.append((a[2].read_us, loop_kw["read_slot_after_ns"] / 1e3))
        return cliff.Cliff(20.0, 2e9, 200_000.0, 160_000.0), None

    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", True)
    monkeypatch.setattr(cliff_slot, "SLOT_FROM_LOAD", True)
    monkeypatch.setattr(cliff_slot, "BEFORE_FROM_LOAD", before_on)
    monkeypatch.setattr(cliff_prediction, "fit_tried", lambda *a, **k: (fit, False))
    monkeypatch.setattr(cliff_prediction, "_seconds", lambda *a, **k: 100.0)
    monkeypatch.setattr(read_probes, "predict", mix)
    return cliff_prediction.predict(doc, drive, scale), slots


def test_without_it_the_second_mix_keeps_the_probe_before_the_cliff(monkeypatch):
    pred, slots = _slots(monkeypatch, before_on=False)
    before = json.loads((STORED / "cliff.json").read_text())["probes"]["before"]["read_us"]
    assert [s[0] for s in slots] == [pytest.approx(before, abs=1e-3)] * 2
    assert "die_load_before" not in pred["slot_from_load"]


def test_with_it_the_second_mix_holds_the_slot_at_the_load_before_the_cliff(monkeypatch):
    pred, slots = _slots(monkeypatch, before_on=True)
    probes = json.loads((STORED / "cliff.json").read_text())["probes"]
    before, after = probes["before"]["read_us"], probes["after"]["read_us"]
    # before: 60,000 writes a second over the measured 150,000 (0.4); past: 48,000 over 60,000
    assert pred["slot_from_load"]["die_load_before"] == pytest.approx(0.4)
    assert slots[0] == (pytest.approx(before, abs=1e-3), pytest.approx(after, abs=1e-3))
    assert slots[1] == (pytest.approx(0.9 * before, abs=1e-3), pytest.approx(1.3 * after, abs=1e-3))
