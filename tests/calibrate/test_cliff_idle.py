"""The cliff step's sized idle and its probe of reads over trimmed space
(bench/results/cliffidle/RULE.md; with ``cliff_prediction.PROBES_IN_PREDICTION`` only): the
idle sized from the series, the probe before the cliff checked against the SLC plateau, a read
of a page never written holding its measured slot in the twin's loop, and the default plan
unchanged."""

from __future__ import annotations

import argparse

import pytest
from overprov.calibrate import cliff, cliff_prediction, cliff_step, read_slot, validation
from overprov.calibrate.measure import SegmentRunner
from overprov.calibrate.plan import Budget, MeasurementPlan
from overprov.measurement_file import Measurement
from overprov.profile.sim_target import SimTarget

WL = cliff_step.parse_workload("qd8,read70")


def test_the_sized_idle_is_the_cache_over_the_rate_past_it_with_margin_and_bounds():
    rounds = [{"iops": 50_000.0}] * 5 + [{"iops": 20_000.0}, {"iops": 24_000.0}, {"iops": 22_000.0}]
    # 10 GB before the cliff at the median 22,000 IOPS of 4 KiB past it (90.1 MB/s)
    got = cliff_step.sized_idle_s(rounds, 4, 10e9, 4096)
    assert got == pytest.approx(cliff_step.IDLE_MARGIN * 10e9 / (22_000 * 4096))
    assert cliff_step.sized_idle_s(rounds, 4, 1e6, 4096) == cliff_step.IDLE_SECONDS
    assert cliff_step.sized_idle_s(rounds, 4, 1e12, 4096) == cliff_step.IDLE_MAX_SECONDS
    assert cliff_step.sized_idle_s(rounds, 7, 1e9, 4096) == cliff_step.IDLE_MAX_SECONDS  # no rate


def test_the_probe_before_the_cliff_checks_its_writes_against_the_one_past_it():
    # QD8, 70% reads of 300 µs, 5,000 write IOPS: 16,667 commands a second, 480 µs each;
    # writes (480 − 0.7 × 300) ÷ 0.3 = 900 µs
    p = {"qd": 8, "read_percent": 70, "iops": 5_000.0, "read_us": 300.0}
    assert cliff_step.write_us(p) == pytest.approx((8 * 0.3 / 5_000 * 1e6 - 0.7 * 300) / 0.3)
    past = {**p, "iops": 3_000.0}  # writes 1,967 µs
    # a step from 50,000 to 20,000 IOPS (60%): the writes a quarter of it faster, 0.85 times
    free = cliff_step.check_free(p, past, 50_000.0, 20_000.0)
    assert free["write_us_bound"] == pytest.approx(cliff_step.write_us(past) * 0.85)
    assert free["cache_not_free"] is False
    assert cliff_step.check_free(past, past, 50_000.0, 20_000.0)["cache_not_free"] is True
    assert cliff_step.check_free(p, past, None, 20_000.0)["cache_not_free"] is True
    assert cliff_step.check_free({**p, "read_us": None}, past, 5e4, 2e4)["cache_not_free"] is True


def test_the_default_plan_is_unchanged_and_the_flag_plans_the_sized_idle(monkeypatch):
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", False)
    plan = cliff_step.CliffPlan(WL)
    assert "idle_form" not in plan.to_dict()  # measurement.json as before the field
    assert "60 s idle" in plan.text()
    args = argparse.Namespace(cliff=True, cliff_workload=None, target="sim:x")
    assert cliff_prediction.planned_step(args).idle_form == "fixed"
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", True)
    assert cliff_step.from_args(args).idle_form == "fixed"  # the step alone plans the fixed idle
    sized = cliff_prediction.planned_step(args)
    assert sized.idle_form == "sized" and sized.to_dict()["idle_form"] == "sized"
    assert cliff_step.CliffPlan.from_dict(sized.to_dict()) == sized
    text = sized.text()
    assert "trimmed space" in text and "× 1.5" in text and "at most 1800 s" in text
    assert "cache_not_free" in text
    with pytest.raises(Exception, match="idle form"):
        cliff_step.CliffPlan(WL, idle_form="long")


def test_a_read_of_an_unwritten_page_holds_its_measured_slot():
    drive = validation.drive(201)
    cfg = cliff._config(  # noqa: SLF001
        drive, float(validation.scale_for(drive, 2**30)), qd=8, read_percent=0, seconds=1.0,
        interval_s=1.0, precondition="none",
    )  # fmt: skip
    kw = {"qd": 8, "read_percent": 70, "end_ns": 10**12, "requests": 2000, "seed": 3}
    events, _ = read_slot.request_loop(cfg, **kw, unwritten_slot_ns=40_000)
    apart, _ = read_slot.request_loop(cfg, **kw, unwritten_slot_ns=40_000, unwritten_apart=True)
    unwritten = [a for a, e in zip(apart, events, strict=True) if a[1] == 0 and a[2] is None]
    assert len(unwritten) > 1000  # from purged nearly every read is of a page never written
    assert {e[2] for e, a in zip(events, apart, strict=True) if a[1] == 0 and a[2] is None} == {
        40_000
    }
    # the slot sets the mix's pace: a long one slows it, a short one speeds it up
    plain = max(e[0] for e in read_slot.request_loop(cfg, **kw)[0])
    slow = max(e[0] for e in read_slot.request_loop(cfg, **kw, unwritten_slot_ns=10**6)[0])
    fast = max(e[0] for e in read_slot.request_loop(cfg, **kw, unwritten_slot_ns=1)[0])
    assert fast < plain < slow


def test_the_prediction_takes_the_trimmed_probe_and_refuses_a_full_cache():
    probe = {"qd": 8, "read_percent": 70, "span_bytes": 4096 * 1000, "fill_bytes": 4096 * 1000,
             "iops": 3000.0, "duration_s": 0.02, "bytes_written": 4096 * 60}  # fmt: skip
    doc = {"rounds": [{"bytes_written": 4096 * 5000}]}
    probes = {"before": {**probe, "read_us": 300.0, "cache_not_free": False},
              "after": {**probe, "read_us": 9000.0}, "unwritten": {"read_us": 35.0}}  # fmt: skip
    got = cliff_prediction._probes(probes, doc, 0.01)
    assert got.unwritten_read_us == 35.0 and got.before.read_us == 300.0
    probes["before"]["cache_not_free"] = True
    assert cliff_prediction._probes(probes, doc, 0.01) is None


def test_the_sized_step_on_a_simulated_drive_probes_trimmed_space_and_checks_itself():
    d = validation.drive(201)
    d["config"]["timing"]["controller"]["command_us"] = 1.0
    d = cliff.with_cache(d, d["advertised_bytes"] * 0.02, 200.0)
    d["config"]["timing"]["buffer"]["bytes"] = 4 * 2**20
    target = SimTarget(f"sim:drive@{validation.scale_for(d, 2 * 2**30)}", drive=d)
    target.open()
    m = Measurement(target.spec, target.capacity_bytes, target.factor, 4096, 32)
    runner = SegmentRunner(target, MeasurementPlan(budget=Budget(drive_writes=2.0)), m)
    cliff_step.measure_cliff(runner, cliff_step.CliffPlan(WL, idle_form="sized"), target.factor)
    doc = m.cliff
    assert doc["status"] == "found"
    assert cliff_step.IDLE_SECONDS <= doc["idle_seconds"] <= cliff_step.IDLE_MAX_SECONDS
    un, before = doc["probes"]["unwritten"], doc["probes"]["before"]
    # a read of trimmed space costs no NAND: far under a read of a written page past the cliff
    assert 0 < un["read_us"] < doc["probes"]["after"]["read_us"]
    assert before["cache_not_free"] is False, before  # the sized idle freed the 2% cache
    # the probe's span a quarter of the cache in the drive's own bytes, not of the full-size
    # series' (half the scaled 2% cache before: bench/results/cliffnotfree/DIAGNOSIS.md)
    cache_bytes = d["advertised_bytes"] * 0.02 * target.factor
    # (the bytes before the cliff hold the buffer's too: 1.12 × the cache here; before, 2×)
    assert before["span_bytes"] <= 1.25 * cliff_step.PROBE_SPAN_SHARE_OF_CACHE * cache_bytes
    # each probe lasts ten drains of the unscaled 4 MiB buffer at the rate past the cliff: its
    # reads wait far less than one drain
    assert doc["probe_drain_s"] > 0
    assert before["duration_s"] >= cliff_step.PROBE_DRAINS * doc["probe_drain_s"] * 0.99
    assert before["read_us"] < doc["probe_drain_s"] * 1e6 / 4


def test_a_probe_over_a_span_smaller_than_a_fill_request_runs():
    """A step found only at 5% leaves no bytes before a 10% one: the probe's span is the
    workload's QD of pages (32 KiB), under one 128 KiB fill request (exit 2 on drive 222 at 3%
    in bench/results/cliffidle/runs.json); the fill is then written in requests of the span."""
    d = validation.drive(201)
    target = SimTarget(f"sim:drive@{validation.scale_for(d, 2**30)}", drive=d)
    target.open()
    m = Measurement(target.spec, target.capacity_bytes, target.factor, 4096, 32)
    runner = SegmentRunner(target, MeasurementPlan(budget=Budget(drive_writes=2.0)), m)
    got = cliff_step.probe(runner, "p", 0, WL, 0.001)
    assert got["span_bytes"] == 8 * 4096 and got["fill_bytes"] == 8 * 4096
    assert got["read_us"] is not None and got["read_us"] > 0
