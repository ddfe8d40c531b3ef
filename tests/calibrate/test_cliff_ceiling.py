"""A cliff step's write series at a ceiling (calibrate/cliff_ceiling.py): a flat series told
from one that steps, the decline saying what it means and what shows the cache, and the
larger-request series (``LARGER_REQUEST``, off: bench/results/cliffdecline/verdict.md) finding
the cache a per-command ceiling hides at 4 KiB."""

from __future__ import annotations

import pytest
from overprov.calibrate import cliff, cliff_ceiling, cliff_prediction, cliff_step, validation
from overprov.calibrate.plan import Budget, MeasurementPlan
from test_cliff_step import _measure


def _rounds(iops: list[float]) -> list[dict]:
    return [{"iops": v, "bytes_written": 1, "duration_s": 1.0, "waf": 1.0, "gc": False}
            for v in iops]  # fmt: skip


def _bound_doc(iops: list[float]) -> dict:
    plan = cliff_step.CliffPlan(cliff_step.parse_workload("qd8,read70"))
    return {"plan": plan.to_dict(), "status": "bound", "scale_factor": 1.0, "bs_bytes": 4096,
            "rounds": _rounds(iops)}  # fmt: skip


def test_a_flat_series_is_at_a_ceiling_and_a_stepped_or_short_one_is_not():
    assert cliff_ceiling.at_ceiling(_rounds([134_061.0] * 10))
    assert cliff_ceiling.at_ceiling(_rounds([13_180.0, 13_277.0] * 5))  # 0.7% apart
    assert not cliff_ceiling.at_ceiling(_rounds([23_161.0] * 5 + [13_180.0] * 5))
    assert not cliff_ceiling.at_ceiling(_rounds([100.0] * 3))


def test_the_decline_of_a_flat_series_says_what_it_means_and_what_shows_the_cache():
    out = cliff_prediction.predict(_bound_doc([134_061.0] * 10), {}, "1")
    said = out["declined"]
    assert said.startswith("no step in the series within the step's bound of 0.5 drive writes")
    assert "134,061 IOPS of 4 KiB (549 MB/s)" in said
    assert "ceiling" in said and "larger requests" in said and "measuring that workload" in said


def test_a_series_that_wanders_keeps_the_bounds_own_reason():
    out = cliff_prediction.predict(_bound_doc([100_000.0, 90_000.0, 110_000.0, 95_000.0]), {}, "1")
    assert "ceiling" not in out["declined"]
    assert "no cache found (or one larger than the bound" in out["declined"]


def test_the_flag_is_off_and_on_raises_the_budget_by_a_second_bound(monkeypatch):
    assert cliff_ceiling.LARGER_REQUEST is False  # bench/results/cliffdecline/verdict.md
    step = cliff_step.CliffPlan(cliff_step.parse_workload(cliff_step.DEFAULT_WORKLOAD))
    monkeypatch.setattr(cliff_ceiling, "LARGER_REQUEST", True)
    plan = cliff_step.with_cliff_budget(MeasurementPlan(budget=Budget(drive_writes=2.0)), step)
    assert plan.budget.drive_writes == pytest.approx(2.0 + 2 * cliff_step.MAX_DRIVE_WRITES)


def _per_command_ceiling() -> dict:
    """Generated drive 201 (4 dies: TLC about 127 MB/s, SLC at 200 µs about 218 MB/s) with a
    2% cache and a controller of 40 µs a command: 4 KiB writes capped near 100 MB/s, under
    the TLC rate; 32 KiB ones not."""
    d = validation.drive(201)
    d["config"]["timing"]["controller"]["command_us"] = 40.0
    d = cliff.with_cache(d, d["advertised_bytes"] * 0.02, 200.0)
    d["config"]["timing"]["buffer"]["bytes"] = 4 * 2**20
    return d


def test_a_per_command_ceiling_hides_the_cache_at_4k_and_the_flag_finds_it_at_32k(monkeypatch):
    step = cliff_step.CliffPlan(cliff_step.parse_workload("qd8,read70"), max_drive_writes=0.05)
    monkeypatch.setattr(cliff_ceiling, "LARGER_REQUEST", False)
    off, _ = _measure(_per_command_ceiling(), step)
    assert off["status"] == "bound" and cliff_ceiling.at_ceiling(off["rounds"])
    assert "ceiling_series" not in off and off["bs_bytes"] == 4096
    monkeypatch.setattr(cliff_ceiling, "LARGER_REQUEST", True)
    on, _ = _measure(_per_command_ceiling(), step)
    assert on["status"] == "found" and on["bs_bytes"] == cliff_ceiling.LARGER_REQUEST_BYTES
    assert on["ceiling_series"]["rounds"] == off["rounds"]  # the 4 KiB series, kept
    assert on["drive_writes"] > off["drive_writes"]


def test_the_flag_leaves_a_series_that_steps_as_it_was(monkeypatch):
    d = _per_command_ceiling()
    d["config"]["timing"]["controller"]["command_us"] = 1.0  # the dies set the rate
    step = cliff_step.CliffPlan(cliff_step.parse_workload("qd8,read70"), max_drive_writes=0.05)
    monkeypatch.setattr(cliff_ceiling, "LARGER_REQUEST", False)
    off, _ = _measure(d, step)
    monkeypatch.setattr(cliff_ceiling, "LARGER_REQUEST", True)
    on, _ = _measure(d, step)
    assert off["status"] == "found" and on == off


def test_per_command_keeps_the_4k_ceiling_and_adds_nothing_per_byte():
    twin = {"config": {"timing": {"controller": {"contexts": 1, "command_us": 0.75,
                                                 "data_us_per_4kib": 0.25,
                                                 "map_update_us": 10.0}}}}  # fmt: skip
    moved = cliff_ceiling.per_command(twin)
    ctrl = moved["config"]["timing"]["controller"]
    assert ctrl["command_us"] == pytest.approx(11.0)
    assert ctrl["data_us_per_4kib"] == 0.0 and ctrl["map_update_us"] == 0.0
    assert cliff_prediction.controller_ceiling_iops(moved) == pytest.approx(
        cliff_prediction.controller_ceiling_iops(twin)
    )
    assert twin["config"]["timing"]["controller"]["map_update_us"] == 10.0  # not changed
    assert cliff_ceiling.per_command({"config": {"timing": {}}}) == {"config": {"timing": {}}}
