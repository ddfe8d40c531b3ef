"""The SLC cache seen through other write series (calibrate/cliff.py): a rise at the cache's
end, a larger request lifting a controller's per-command ceiling, a step under 10%, and a
series with no step fitted as the twin without a cache, predicted only where no cache it
cannot see moves the prediction."""

from __future__ import annotations

from dataclasses import replace

import pytest
from overprov.calibrate import cliff, cliff_no_step, validation
from overprov.errors import ConfigError


def _series(iops: list[float]) -> cliff.Series:
    return cliff.Series(
        times_s=[10.0 * (i + 1) for i in range(len(iops))],
        iops=iops,
        write_iops=iops,
        gc_started=[False] * len(iops),
    )


def test_a_rise_at_the_cache_s_end_is_found_only_when_asked_for():
    # SLC-mode programs writing fewer bytes per die-second than TLC ones: the writes speed up
    # past the cache; the step lands half-way (in time per I/O) into the sixth interval
    y = [90_000.0] + [20_000.0] * 4 + [1e6 / 37.5] + [40_000.0] * 5
    assert cliff.find_cliff(_series(y)) is None
    c = cliff.find_cliff(_series(y), rise=True)
    assert c is not None
    assert c.iops_before == pytest.approx(20_000) and c.iops_after == pytest.approx(40_000)
    assert c.lost_iops == pytest.approx(-20_000)
    assert c.time_s == pytest.approx(55.0)
    written = (90_000 + 4 * 20_000) * 10 + 0.5 * 10 * 20_000
    assert c.host_write_bytes_before == pytest.approx(written * 4096)
    # a drop is not a rise
    drop = [90_000.0] + [40_000.0] * 5 + [20_000.0] * 5
    assert cliff.find_cliff(_series(drop), rise=True) is None


@pytest.fixture(scope="module")
def small_drive():
    d = validation.drive(1)  # 4 dies of 16 KiB pages, TLC 1,303 µs per page
    d["config"]["timing"]["buffer"]["bytes"] = 4 * 2**20
    return d, float(validation.scale_for(d, 4 * 2**30))


def test_a_larger_request_lifts_a_command_ceiling_and_shows_the_cache(small_drive):
    """Generated drive 1 with a controller of 10,000 commands/s (below its dies' 4 KiB SLC and
    TLC rates, 26,600 and 12,300 writes/s) and a cache of 1% at 180 µs: 4 KiB writes run at
    the ceiling before and after the cache (no step); 32 KiB writes lift it (328 MB/s of
    commands against 109 and 50 MB/s of dies), and the fit from them finds the cache's size
    and both program times within 10%."""
    d, scale = small_drive
    truth = cliff.with_cache(d, d["advertised_bytes"] * 0.01, 180.0)
    truth["config"]["timing"]["controller"] = {"contexts": 1, "command_us": 100.0}
    run = {"qd": 32, "seconds": 150.0, "interval_s": 2.5, "precondition": "none"}
    small = cliff.simulate_series(truth, scale, **run)
    assert cliff.find_cliff(small) is None and cliff.find_cliff(small, rise=True) is None
    large = cliff.simulate_series(truth, scale, **run, bs_bytes=32768)
    twin = cliff.with_cache(truth, 1e9, 200.0)
    fit = cliff.fit_cache(large, twin, scale, bs_bytes=32768)
    assert fit.cache_bytes == pytest.approx(d["advertised_bytes"] * 0.01, rel=0.10)
    assert fit.slc_program_us == pytest.approx(180.0, rel=0.10)
    tlc = d["config"]["timing"]["nand"]["program_us"]
    assert fit.tlc_program_us == pytest.approx(tlc, rel=0.10)
    assert fit.bs_bytes == 32768


@pytest.fixture(scope="module")
def no_step_fit(small_drive):
    """A cache whose SLC-mode programs write as many bytes per die-second as its TLC ones
    (SLC 434 µs per third of a page, TLC 1,303 µs per page), its QD32 writes fitted as the
    twin without a cache (the twin's TLC 30% off): (twin, fit)."""
    d, scale = small_drive
    tlc = d["config"]["timing"]["nand"]["program_us"]
    truth = cliff.with_cache(d, d["advertised_bytes"] * 0.01, tlc / 3)
    measured = cliff.simulate_series(
        truth, scale, qd=32, seconds=150.0, interval_s=2.5, precondition="none"
    )
    twin = cliff.with_cache(d, 1e9, 200.0, tlc_program_us=1.3 * tlc)
    return twin, cliff_no_step.fit_without_cache(measured, twin, scale)


def test_a_series_without_a_step_gives_the_twin_without_a_cache(small_drive, no_step_fit):
    """That cache shows no step in the writes: the fit without a cache recovers the TLC
    program time from the level within 10%; a series with a step is refused."""
    d, scale = small_drive
    tlc = d["config"]["timing"]["nand"]["program_us"]
    twin, fit = no_step_fit
    assert fit.cache_bytes == 0 and fit.measured is None
    assert fit.tlc_program_us == pytest.approx(tlc, rel=0.10)
    assert cliff.fitted_drive(twin, fit)["config"]["timing"]["slc"]["enabled"] is False
    stepped = _series([90_000.0] + [30_000.0] * 5 + [10_000.0] * 5)
    with pytest.raises(ConfigError, match="shows a step"):
        cliff_no_step.fit_without_cache(stepped, twin, scale)


def test_a_plateau_at_the_link_is_fitted_with_the_slc_time_bounded(small_drive):
    """Generated drive 1 behind a link of 80 MB/s: its dies write 109 MB/s in SLC mode (180
    µs) and 50 MB/s in TLC, so the plateau is the link's and no SLC program time is
    identified — refused by default; with ``ceiling=True`` the size and the TLC program time
    are fitted within 10% and the SLC program time taken under the bound at which 4 dies
    reach 80 MB/s (4 × 16 KiB / 3 per 273 µs)."""
    d, scale = small_drive
    truth = cliff.with_cache(d, d["advertised_bytes"] * 0.01, 180.0)
    truth["config"]["timing"]["host"]["link_mb_s"] = 80.0
    measured = cliff.simulate_series(
        truth, scale, qd=32, seconds=200.0, interval_s=200.0 / 60, precondition="none"
    )
    twin = cliff.with_cache(truth, 1e9, 200.0)
    with pytest.raises(ConfigError, match="no SLC program time"):
        cliff.fit_cache(measured, twin, scale)
    fit = cliff.fit_cache(measured, twin, scale, ceiling=True)
    assert fit.slc_at_ceiling and fit.slc_program_us < 273.0
    assert fit.cache_bytes == pytest.approx(d["advertised_bytes"] * 0.01, rel=0.10)
    tlc = d["config"]["timing"]["nand"]["program_us"]
    assert fit.tlc_program_us == pytest.approx(tlc, rel=0.10)


@pytest.mark.parametrize("slower", [1.08, 0.93])
def test_a_step_under_ten_percent_is_found_at_five_and_fitted(small_drive, slower):
    """SLC-mode programs writing 8% slower (a rise past the cache) or 7% faster (a drop) per
    die-second than the TLC ones: no step of 10% in the writes, one of 5%, and the fit from it
    recovers the cache's size and both program times within 5% (the twin's TLC 30% off); a fit
    without a cache is refused there."""
    d, scale = small_drive
    tlc = d["config"]["timing"]["nand"]["program_us"]
    cache = d["advertised_bytes"] * 0.01
    truth = cliff.with_cache(d, cache, tlc / 3 * slower)
    measured = cliff.simulate_series(
        truth, scale, qd=32, seconds=150.0, interval_s=2.5, precondition="none"
    )
    assert cliff.find_step(measured)[0] is None
    step, rise = cliff.find_step(measured, min_drop=0.05)
    assert step is not None and rise == (slower > 1)
    twin = cliff.with_cache(d, 1e9, 200.0, tlc_program_us=1.3 * tlc)
    fit = cliff.fit_cache(measured, twin, scale, min_drop=0.05)
    assert fit.cache_bytes == pytest.approx(cache, rel=0.05)
    assert fit.slc_program_us == pytest.approx(tlc / 3 * slower, rel=0.05)
    assert fit.tlc_program_us == pytest.approx(tlc, rel=0.05)
    assert fit.min_drop == 0.05
    with pytest.raises(ConfigError, match="shows a step"):
        cliff_no_step.fit_without_cache(measured, twin, scale, min_drop=0.05)


def test_a_fit_without_a_cache_is_not_predicted_where_a_cache_it_cannot_see_moves_it(
    small_drive, no_step_fit
):
    """The twin without a cache (the rate-matched cache above) predicts no cliff under QD8
    70:30 for 150 s; a cache of 1% whose SLC programs write 1.11× the TLC rate — a step under
    the 10% the series was searched for — gives one after 145 s: refused. The hidden caches'
    SLC time is the fitted TLC time ÷ 3 ÷ the rate."""
    d, scale = small_drive
    twin, fit = no_step_fit
    hidden = cliff.hidden_cache_drive(twin, fit, 0.01, 1 / 0.9)["config"]["timing"]
    assert hidden["slc"]["program_us"] == pytest.approx(fit.tlc_program_us / 3 * 0.9)
    assert hidden["slc"]["max_bytes"] == int(0.01 * d["advertised_bytes"])
    mix = {"qd": 8, "read_percent": 70, "seconds": 150.0, "interval_s": 2.5}
    assert cliff.predict(twin, fit, scale, **mix, hidden_cache_shares=()) is None
    with pytest.raises(ConfigError, match="cannot see"):
        cliff.predict(twin, fit, scale, **mix)
    with pytest.raises(ConfigError, match="2.00× the TLC rate"):
        cliff.predict(twin, replace(fit, min_drop=0.5), scale, **mix)
