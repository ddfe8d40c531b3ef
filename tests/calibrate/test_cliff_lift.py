"""The lifted twin's fit read past its write buffer's fill (``cliff.fit_cache(plateau_past_fill=)``;
with ``cliff_prediction.PROBES_IN_PREDICTION`` only: bench/results/clifflift/RULE.md,
bench/results/cliffcheck/UNDERLIFT.md). The lift only under the plateau:
tests/calibrate/test_cliff_probes_in_prediction.py."""

from __future__ import annotations

import pytest
from overprov.calibrate import cliff, cliff_prediction, validation
from overprov.calibrate.cliff_series import cache_step
from overprov.errors import ConfigError


def _bound_by_its_controller() -> tuple[cliff.Series, dict, float]:
    """Drive 201 (seen: the development drive of tests/calibrate/test_cliff_idle.py) with a 2%
    cache of 100-µs SLC programs under a controller ceiling of 45,000 commands a second: its
    plateau is that ceiling. The twin: its controller at half that (calibrate's steady fit
    under-reaching it), lifted to the plateau ÷ 0.95, with the drive's 4 MiB buffer."""
    d = validation.drive(201)
    ctrl = d["config"]["timing"]["controller"]
    ctrl["command_us"] = 1e6 / 45_000 - ctrl["data_us_per_4kib"] - ctrl["map_update_us"]
    truth = cliff.with_cache(d, d["advertised_bytes"] * 0.02, 100.0)
    truth["config"]["timing"]["buffer"]["bytes"] = 4 * 2**20
    scale = float(validation.scale_for(truth, 2**30))
    measured = cliff.simulate_series(truth, scale, seconds=120, interval_s=2, precondition="none")
    timing = {k: v for k, v in truth["config"]["timing"].items() if k != "slc"}
    timing["controller"] = {**ctrl, "command_us": 2 * ctrl["command_us"]}
    twin = {**truth, "config": {**truth["config"], "timing": timing}}
    plateau = cache_step(measured)[0].iops_before
    assert plateau == pytest.approx(45_000, rel=0.01)
    return measured, cliff_prediction.lift_ceiling(twin, plateau, only_under=True), scale


def test_the_plateau_read_past_the_buffer_s_fill_fits_the_lifted_twin():
    """Read over intervals 1 to k − 1, the lifted twin's buffer, fed at the ceiling 5% over the
    plateau, hides dies that run under it: the SLC time taken leaves the fitted drive's own
    plateau under the measured one and the fit is refused (UNDERLIFT.md). Read past the fill,
    the dies are held to the plateau and the fit reproduces the measured cliff."""
    measured, lifted, scale = _bound_by_its_controller()
    with pytest.raises(ConfigError, match="does not reproduce the measured cliff"):
        cliff.fit_cache(measured, lifted, scale)
    assert cliff.PLATEAU_PAST_FILL is False  # the default fit reads as before
    fit = cliff.fit_cache(measured, lifted, scale, plateau_past_fill=True)
    own = cliff.fitted_drive(lifted, fit)
    tail = cliff.simulate_series(own, scale, seconds=120, interval_s=2, precondition="none")
    # the fitted drive's dies alone (its buffer full) write the plateau, within the check's 10%
    dies = sorted(tail.iops[: int(fit.measured.time_s / 2) - 1])[0]
    assert dies == pytest.approx(fit.measured.iops_before, rel=cliff.CHECK_LEVEL)
    assert fit.tlc_program_us == pytest.approx(
        validation.drive(201)["config"]["timing"]["nand"]["program_us"], rel=0.05
    )


def test_a_twin_without_a_buffer_reads_its_plateau_as_before():
    got = cliff._past_fill_plateau(
        lambda n: [9.0] + [5.0] * (n - 1), 20.0, 4.0, 0.0, 1.0, 10, 1, 1e9
    )
    assert got == 5.0
    # a ceiling at or under the level: the buffer never fills, read as before
    assert cliff._past_fill_plateau(lambda n: [4.0] * n, 4.0, 5.0, 1e6, 1.0, 10, 1, 1e9) == 4.0
    # a buffer of 100 fed at 20 and drained under 10: full after 200 host bytes, interval 10 on
    seen: list[int] = []

    def run(n: int) -> list[float]:
        seen.append(n)
        return [20.0] * 10 + [9.0] * (n - 10)

    assert cliff._past_fill_plateau(run, 20.0, 10.0, 100.0, 1.0, 5, 1, 1e9) == 9.0
    assert seen == [13]  # run on past the cliff's interval (5) to read three past the fill
