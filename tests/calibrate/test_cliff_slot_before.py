"""The slot before the SLC cache's cliff carried to the dies' load before it
(``cliff_slot.BEFORE_FROM_LOAD``, with ``SLOT_FROM_LOAD`` and
``cliff_prediction.PROBES_IN_PREDICTION`` only: bench/results/cliff3level/RULE.md)."""

from __future__ import annotations

import json

import pytest
from overprov.calibrate import cliff, cliff_slot, read_probes
from test_cliff_slot import STORED, _predicted


def test_the_form_before_the_cliff_is_off_by_default():
    """Off: not met in bench/results/cliff3level/verdict.md."""
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


def _before_us() -> float:
    return json.loads((STORED / "cliff.json").read_text())["probes"]["before"]["read_us"]


def test_without_it_the_second_mix_keeps_the_probe_before_the_cliff(monkeypatch):
    befores: list[float] = []
    pred, _ = _predicted(monkeypatch, on=True, befores=befores)
    assert befores == [pytest.approx(_before_us(), abs=1e-3)] * 2
    assert "die_load_before" not in pred["slot_from_load"]


def test_with_it_the_second_mix_holds_the_slot_at_the_load_before_the_cliff(monkeypatch):
    befores: list[float] = []
    pred, slots = _predicted(monkeypatch, on=True, before_on=True, befores=befores)
    # the stub's 200,000 commands a second before the cliff, 30% writes, over the measured
    # 150,000: dies 40% busy, the probe's wait times 0.9; past it as without (1.3 times)
    assert pred["slot_from_load"]["die_load_before"] == pytest.approx(0.4)
    assert befores == [pytest.approx(_before_us(), abs=1e-3),
                       pytest.approx(0.9 * _before_us(), abs=1e-3)]  # fmt: skip
    assert slots[1] == pytest.approx(1.3 * slots[0], abs=1e-3)
