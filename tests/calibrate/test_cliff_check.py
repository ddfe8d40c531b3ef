"""The probe before the cliff judged free on its pure-write fill (``cliff_step.check_free_fill``,
bench/results/cliffcheck/RULE.md; with ``cliff_prediction.PROBES_IN_PREDICTION`` only): the
fill's IOPS before against past the cliff, the Little's-law form kept by name for stored runs,
and a failed check declining the cliff under reads with its reason."""

from __future__ import annotations

import argparse

import pytest
from overprov.calibrate import cliff, cliff_prediction, cliff_step, validation
from overprov.calibrate.measure import SegmentRunner
from overprov.calibrate.plan import Budget, MeasurementPlan
from overprov.measurement_file import Measurement
from overprov.profile.sim_target import SimTarget

WL = cliff_step.parse_workload("qd8,read70")
# drive 223 at 3% in bench/results/cliffnotfree/DIAGNOSIS.md: every write of the probe before
# the cliff went to SLC, yet Little's law on its 70%-read mix gave its writes 389.0 µs against
# 378.9 past the cliff; its fill ran 762 against 671 IOPS; the series' step 11.6%
BEFORE = {"qd": 8, "read_percent": 70, "iops": 5_361.0, "read_us": 472.8, "fill_iops": 762.0}
AFTER = {"qd": 8, "read_percent": 70, "iops": 5_019.0, "read_us": 521.0, "fill_iops": 671.0}
LEVELS = (100_000.0, 88_400.0)


def test_the_fill_resolves_a_small_step_little_s_law_on_the_mix_does_not():
    assert cliff_step.check_free(BEFORE, AFTER, *LEVELS)["cache_not_free"] is True
    got = cliff_step.check_free_fill(BEFORE, AFTER, *LEVELS)
    assert got["fill_iops_ratio"] == pytest.approx(671 / 762)
    assert got["fill_iops_ratio_bound"] == pytest.approx(1 - 0.5 * 0.116)
    assert got["cache_not_free"] is False and got["free_check"] == "fill_iops"
    # a fill into a full cache runs as past the cliff: not free; nor with a figure missing
    full = {**BEFORE, "fill_iops": 675.0}
    assert cliff_step.check_free_fill(full, AFTER, *LEVELS)["cache_not_free"] is True
    no_fill = {k: v for k, v in BEFORE.items() if k != "fill_iops"}
    assert cliff_step.check_free_fill(no_fill, AFTER, *LEVELS)["cache_not_free"] is True
    assert cliff_step.check_free_fill(BEFORE, AFTER, None, 88_400.0)["cache_not_free"] is True
    # judged by the form named
    assert cliff_step.judge_free("fill_iops", BEFORE, AFTER, LEVELS)["cache_not_free"] is False
    assert cliff_step.judge_free("littles_law", BEFORE, AFTER, LEVELS)["cache_not_free"] is True


def test_the_flag_plans_the_fill_check_and_a_stored_sized_plan_keeps_little_s_law(monkeypatch):
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", False)
    args = argparse.Namespace(cliff=True, cliff_workload=None, target="sim:x")
    default = cliff_prediction.planned_step(args)
    assert (default.idle_form, default.check_form) == ("fixed", "littles_law")
    assert "check_form" not in default.to_dict()  # measurement.json as before the field
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", True)
    planned = cliff_prediction.planned_step(args)
    assert (planned.idle_form, planned.check_form) == ("sized", "fill_iops")
    assert cliff_step.CliffPlan.from_dict(planned.to_dict()) == planned
    assert "sequential fill" in planned.text() and "declined" in planned.text()
    # a sized plan stored before the field (bench/results/cliffidle/) ran Little's law
    stored = {k: v for k, v in planned.to_dict().items() if k != "check_form"}
    assert cliff_step.CliffPlan.from_dict(stored).check_form == "littles_law"
    assert "writes wait less" in cliff_step.CliffPlan.from_dict(stored).text()
    with pytest.raises(Exception, match="check form"):
        cliff_step.CliffPlan(WL, idle_form="sized", check_form="reads")


def _runner(d: dict) -> tuple[SegmentRunner, Measurement, SimTarget]:
    target = SimTarget(f"sim:drive@{validation.scale_for(d, 2 * 2**30)}", drive=d)
    target.open()
    m = Measurement(target.spec, target.capacity_bytes, target.factor, 4096, 32)
    return SegmentRunner(target, MeasurementPlan(budget=Budget(drive_writes=2.0)), m), m, target


def _drive() -> dict:
    d = validation.drive(201)  # seen: the development drive of tests/calibrate/test_cliff_idle.py
    d["config"]["timing"]["controller"]["command_us"] = 1.0
    d = cliff.with_cache(d, d["advertised_bytes"] * 0.02, 200.0)
    d["config"]["timing"]["buffer"]["bytes"] = 4 * 2**20
    return d


def test_the_sized_step_measures_both_fills_and_finds_the_freed_cache_free():
    runner, m, target = _runner(_drive())
    plan = cliff_step.CliffPlan(WL, idle_form="sized", check_form="fill_iops")
    cliff_step.measure_cliff(runner, plan, target.factor)
    before, after = m.cliff["probes"]["before"], m.cliff["probes"]["after"]
    assert before["free_check"] == "fill_iops" and before["cache_not_free"] is False, before
    # the fill into the freed cache ran faster than past the cliff by more than half the step
    assert after["fill_iops"] < before["fill_iops"]
    assert before["fill_iops_ratio"] <= before["fill_iops_ratio_bound"] < 1
    # the default step keeps no fill IOPS (measurement.json as before the check)
    runner, m, target = _runner(_drive())
    cliff_step.measure_cliff(runner, cliff_step.CliffPlan(WL), target.factor)
    assert "fill_iops" not in m.cliff["probes"]["before"]
    assert "cache_not_free" not in m.cliff["probes"]["before"]


def test_a_failed_fill_check_declines_the_cliff_under_reads_with_its_reason(monkeypatch):
    runner, m, target = _runner(_drive())
    plan = cliff_step.CliffPlan(WL, idle_form="sized", check_form="fill_iops")
    cliff_step.measure_cliff(runner, plan, target.factor)
    doc = m.cliff
    before = doc["probes"]["before"]
    # as if the fill had run as past the cliff: the cache not free
    doc["probes"]["before"] = cliff_step.check_free_fill(
        {**before, "fill_iops": doc["probes"]["after"]["fill_iops"]}, doc["probes"]["after"],
        1.0, 0.5,
    )  # fmt: skip
    assert doc["probes"]["before"]["cache_not_free"] is True
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", True)
    # the drive's own other figures as the twin (no cache), its ceiling already above the
    # plateau (the lift's under-lift where the controller and dies both bind is apart)
    twin = validation.drive(201)
    twin["config"]["timing"]["controller"]["command_us"] = 1.0
    monkeypatch.setattr(cliff_prediction, "lift_ceiling", lambda t, plateau, *a: t)
    got = cliff_prediction.predict(doc, twin, str(validation.scale_for(twin, 2 * 2**30)))
    assert got["probes_in_prediction"] is False
    assert got["fit"] is not None, got["declined"]  # the cache still fitted, on the lifted twin
    for key in ("purged", "filled"):
        assert got[key]["declined"].startswith("cache_not_free: the probe before the cliff's")
        assert "1.000 of it, at most 0.750 asked" in got[key]["declined"]
    assert "from purged: declined (cache_not_free" in cliff_prediction.summary_line(got)


def test_under_writes_alone_the_flag_changes_no_figure(monkeypatch):
    """A step under a write-only workload measures no probe, so with the flag (the sized
    idle, the fill check) its series and prediction are those without it: nothing worse under
    QD8 writes alone on any drive (bench/results/cliffcheck/RULE.md, condition W1)."""
    wl = cliff_step.parse_workload("qd8,read0")
    docs = []
    for plan in (cliff_step.CliffPlan(wl),
                 cliff_step.CliffPlan(wl, idle_form="sized", check_form="fill_iops")):  # fmt: skip
        runner, m, target = _runner(_drive())
        cliff_step.measure_cliff(runner, plan, target.factor)
        docs.append(m.cliff)
    plain, flagged = ({k: v for k, v in d.items() if k != "plan"} for d in docs)
    assert plain == flagged and "not_measured" in plain["probes"]
    twin = validation.drive(201)
    twin["config"]["timing"]["controller"]["command_us"] = 1.0
    scale = str(validation.scale_for(twin, 2 * 2**30))
    off = cliff_prediction.predict(docs[0], twin, scale)
    monkeypatch.setattr(cliff_prediction, "PROBES_IN_PREDICTION", True)
    on = cliff_prediction.predict(docs[1], twin, scale)
    assert off["purged"] is not None and "time_s" in off["purged"], off
    assert on == off
