"""A write buffer's fill in a scaled drive's write series is not the SLC cache's end
(calibrate/cliff_series.py; docs/calibrate-cliff.md, "The consumer presets' step: the write
buffer's fill")."""

from __future__ import annotations

import copy

import pytest
from overprov import presets
from overprov.calibrate import cliff
from overprov.calibrate.cliff_series import Series, cache_step, find_cliff

BS = 32768


def _series(levels: list[tuple[int, float]]) -> Series:
    """One-second intervals at each (count, IOPS) level in turn; writes only."""
    y = [v for n, v in levels for _ in range(n)]
    return Series(
        times_s=[float(i + 1) for i in range(len(y))],
        iops=y,
        write_iops=y,
        gc_started=[False] * len(y),
    )


# the link's 16,800 IOPS until the buffer is full, the SLC dies' 12,500, then TLC's 10,800
TWO_STEPS = [(10, 16_800.0), (20, 12_500.0), (30, 10_800.0)]
# a buffer that fills after the first 10 intervals' bytes, taking 16,800 and drained at 12,500
FILLED_AFTER = 10 * 16_800.0 * BS
BUFFER = FILLED_AFTER * (16_800.0 - 12_500.0) / 16_800.0


def test_the_step_at_the_buffer_s_fill_is_passed_over_to_the_cache_s():
    s = _series(TWO_STEPS)
    first = find_cliff(s, bs_bytes=BS)
    assert first is not None and first.time_s == pytest.approx(10.0, abs=0.5)
    step, rise, start = cache_step(s, bs_bytes=BS, buffer_bytes=BUFFER)
    assert not rise and start == 11
    assert step.time_s == pytest.approx(30.0)
    assert step.iops_before == pytest.approx(12_500.0)
    assert step.iops_after == pytest.approx(10_800.0)
    assert step.host_write_bytes_before == pytest.approx(FILLED_AFTER + 20 * 12_500.0 * BS)


def test_a_step_the_buffer_does_not_explain_is_kept():
    s = _series(TWO_STEPS)
    for buffer in (0.0, BUFFER / 2, BUFFER * 2):
        step, _, start = cache_step(s, bs_bytes=BS, buffer_bytes=buffer)
        assert start == 0 and step.time_s == pytest.approx(10.0, abs=0.5)


def test_a_buffer_s_fill_with_no_step_after_it_is_no_cache_step():
    s = _series([(10, 16_800.0), (50, 12_500.0)])
    assert find_cliff(s, bs_bytes=BS) is not None
    assert cache_step(s, bs_bytes=BS, buffer_bytes=BUFFER) == (None, True, 0)


def test_fit_cache_past_the_buffer_sizes_a_consumer_drive_s_cache():
    """The consumer preset given a 20 GB cache of 250-µs SLC programs and 900-µs TLC ones (not
    a preset case nor a held-out drive of the bench): at 8 GiB of NAND its 32 MiB buffer holds
    4.19 GB of full-size writes, filled at the link's 550 MB/s and drained at the SLC dies'
    350, so it is full after 11.5 GB, a step of its own before the cache's end (at 24 GB);
    read past it, 32 KiB writes fit the cache and both program times."""
    d = copy.deepcopy(presets.get("consumer-tlc-sata"))
    d["config"]["timing"]["slc"].update(max_bytes=20 * 10**9, program_us=250.0)
    d["config"]["timing"]["nand"]["program_us"] = 900.0
    scale = 8 * 2**30 / presets.physical_bytes(d)
    twin = cliff.with_cache(d, 1e9, 200.0, tlc_program_us=700.0)
    measured = cliff.simulate_series(
        d, scale, seconds=180.0, interval_s=3.0, precondition="none", bs_bytes=BS
    )
    first = find_cliff(measured, bs_bytes=BS)
    assert first.host_write_bytes_before == pytest.approx(11.5e9, rel=0.1)
    fit = cliff.fit_cache(measured, twin, scale, bs_bytes=BS, past_buffer=True)
    assert fit.cache_bytes == pytest.approx(20e9, rel=0.05)
    assert fit.slc_program_us == pytest.approx(250.0, rel=0.1)
    assert fit.tlc_program_us == pytest.approx(900.0, rel=0.1)
    # read the old way, the buffer's fill is the step: its plateau at the link is refused, or
    # with the SLC time bounded fitted as a cache of a quarter of the size
    old = cliff.fit_cache(measured, twin, scale, bs_bytes=BS, ceiling=True)
    assert old.slc_at_ceiling and old.cache_bytes < 0.5 * 20e9
