"""A lifted twin's controller ceiling put just above the fastest round of the write series before
its cache's step, not its plateau (``cliff_fastest.LIFT_TO_FASTEST``, off; with
``cliff_prediction.PROBES_IN_PREDICTION`` only: bench/results/cliffplateau/RULE.md)."""

from __future__ import annotations

import pytest
from overprov.calibrate import cliff, cliff_fastest, cliff_prediction, validation
from overprov.calibrate.cliff_series import Cliff, Series
from overprov.calibrate.cliff_step import measured_step
from overprov.errors import ConfigError

BUFFER_BYTES = 4 * 2**20


def _series(iops: list[float]) -> Series:
    return Series([float(i + 1) for i in range(len(iops))], iops, iops, [False] * len(iops))


def test_the_fastest_round_before_the_step_or_the_plateau():
    s = _series([100.0, 40.0, 41.0, 40.0, 20.0, 150.0])
    step = Cliff(time_s=4.5, host_write_bytes_before=1.0, iops_before=40.0, iops_after=20.0)
    assert cliff_fastest.lift_iops(s, step, 40.0) == 100.0  # the round after the step not read
    assert cliff_fastest.lift_iops(s, step, 120.0) == 120.0  # a faster plateau (a rise's)
    assert cliff_fastest.lift_iops(s, None, 40.0) == 40.0


def test_off_by_default_and_the_lift_s_level(monkeypatch):
    assert cliff_fastest.LIFT_TO_FASTEST is False
    s = _series([100.0, 40.0, 40.0, 40.0, 40.0, 20.0, 20.0, 20.0])
    assert cliff_prediction.lifted_to(s, 4096, 0.0, 40.0) is None  # the plateau's, as before
    monkeypatch.setattr(cliff_fastest, "LIFT_TO_FASTEST", True)
    assert cliff_prediction.lifted_to(s, 4096, 0.0, 40.0) == 100.0
    twin = {"config": {"timing": {"controller": {"contexts": 1, "command_us": 50.0}}}}
    lifted = cliff_prediction.lift_ceiling(twin, 40_000.0, True, to_iops=100_000.0)
    assert cliff_prediction.controller_ceiling_iops(lifted) == pytest.approx(100_000 / 0.95)
    # a twin whose ceiling is not under the plateau is not lifted, whatever the level
    fast = {"config": {"timing": {"controller": {"contexts": 1, "command_us": 10.0}}}}
    assert cliff_prediction.lift_ceiling(fast, 40_000.0, True, to_iops=500_000.0) is fast


def test_a_die_bound_plateau_fitted_on_a_twin_lifted_to_the_fastest_round():
    """Drive 201 (seen: tests/calibrate/test_cliff_idle.py's development drive) with a fast
    controller, a 1% cache of 150-µs SLC programs and a 4 MiB buffer: its series runs at the
    link (134,217) while the buffer fills, then at its dies' SLC rate (60,082), then TLC. A twin
    whose controller is under the plateau, lifted to the plateau ÷ 0.95, keeps its buffer filling
    at 5% over the dies' rate through the cache: its own cliff 42% late, the fit refused. Lifted
    to the fastest round ÷ 0.95 its buffer fills as the drive's did, and the fit takes the
    drive's cache and SLC time."""
    d = validation.drive(201)
    d["config"]["timing"]["controller"]["command_us"] = 2.0
    truth = cliff.with_cache(d, d["advertised_bytes"] * 0.01, 150.0)
    truth["config"]["timing"]["buffer"]["bytes"] = BUFFER_BYTES
    scale = float(validation.scale_for(truth, 2**30))
    measured = cliff.simulate_series(truth, scale, seconds=60, interval_s=1, precondition="none")
    fill = BUFFER_BYTES / scale
    step = measured_step(measured, 4096, fill)
    timing = {k: v for k, v in truth["config"]["timing"].items() if k != "slc"}
    timing["controller"] = {**timing["controller"], "command_us": 2e6 / step.iops_before}
    twin = {**truth, "config": {**truth["config"], "timing": timing}}
    kw = {"plateau_past_fill": True, "past_buffer": True}
    at_plateau = cliff_prediction.lift_ceiling(twin, step.iops_before, True)
    with pytest.raises(ConfigError, match="does not reproduce the measured cliff"):
        cliff.fit_cache(measured, at_plateau, scale, **kw)
    to = cliff_fastest.lift_iops(measured, step, step.iops_before)
    assert to > 2 * step.iops_before  # the buffer's fill, at the link
    fastest = cliff_prediction.lift_ceiling(twin, step.iops_before, True, to)
    fit = cliff.fit_cache(measured, fastest, scale, **kw)
    assert fit.cache_bytes == pytest.approx(truth["config"]["timing"]["slc"]["max_bytes"], rel=0.02)
    assert fit.slc_program_us == pytest.approx(150.0, rel=0.05)
