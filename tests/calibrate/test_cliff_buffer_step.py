"""A write buffer's step whose fill falls inside a round, read by the bytes the series wrote
above the level after it (``cliff_series.PAST_BUFFER_STEP``, off by default:
bench/results/cliffbuffer/RULE.md; the shape of generated drive 264 at 3%'s series,
bench/results/cliffbuffer/DIAGNOSIS.md)."""

from __future__ import annotations

import pytest
from overprov.calibrate import cliff_series, cliff_step
from overprov.calibrate.cliff_series import Series, cache_step, excess_bytes

BS = 4096
ROUND_S = 2.757
LINK, DIES_SLC, DIES_TLC = 134_188.0, 92_070.0, 50_000.0
# the buffer fills 31.7% into the third round: that round's IOPS are a mix of both levels
SHARE = 0.317
MIXED = SHARE * LINK + (1 - SHARE) * DIES_SLC
BUFFER = (2 + SHARE) * ROUND_S * (LINK - DIES_SLC) * BS


def _series(y: list[float]) -> Series:
    return Series(
        times_s=[ROUND_S * (i + 1) for i in range(len(y))],
        iops=y,
        write_iops=list(y),
        gc_started=[False] * len(y),
    )


BUFFER_ONLY = [LINK, LINK, MIXED] + [DIES_SLC] * 12
# the cache's end a few rounds in (later, with many rounds past it, the median level after
# the buffer's step is the TLC one, and that step is no longer found at all)
WITH_CACHE = BUFFER_ONLY + [DIES_TLC] * 4


def test_the_excess_bytes_are_what_the_buffer_holds():
    s = _series(BUFFER_ONLY)
    assert excess_bytes(s, 2, DIES_SLC, BS) == pytest.approx(BUFFER)
    assert excess_bytes(s, 1, DIES_SLC, BS) < BUFFER


def _cache_step(monkeypatch, flag: bool, y: list[float], buffer: float = BUFFER):
    monkeypatch.setattr(cliff_series, "PAST_BUFFER_STEP", flag)
    return cache_step(_series(y), bs_bytes=BS, buffer_bytes=buffer)


def test_without_the_flag_the_straddled_fill_is_taken_for_the_cache(monkeypatch):
    step, rise, start = _cache_step(monkeypatch, False, WITH_CACHE)
    assert not rise and start == 0
    # the level before is the median of rounds 1-3, which straddle the fill
    assert (step.iops_before, step.iops_after) == pytest.approx((MIXED, DIES_SLC))


def test_with_the_flag_the_buffer_s_step_is_passed_over_to_the_cache_s(monkeypatch):
    step, rise, start = _cache_step(monkeypatch, True, WITH_CACHE)
    assert not rise and start == 3
    assert (step.iops_before, step.iops_after) == pytest.approx((DIES_SLC, DIES_TLC))
    assert step.time_s == pytest.approx(15 * ROUND_S)
    assert step.host_write_bytes_before == pytest.approx(BUFFER + 15 * ROUND_S * DIES_SLC * BS)


def test_with_the_flag_a_series_showing_only_the_buffer_has_no_cache_step(monkeypatch):
    s = _series(BUFFER_ONLY)
    monkeypatch.setattr(cliff_series, "PAST_BUFFER_STEP", False)
    assert cliff_step.found(s, BS, BUFFER) == 2  # the series would stop here
    monkeypatch.setattr(cliff_series, "PAST_BUFFER_STEP", True)
    assert cache_step(s, bs_bytes=BS, buffer_bytes=BUFFER) == (None, True, 0)
    assert cliff_step.found(s, BS, BUFFER) is None  # it runs on, to its drive-write bound


@pytest.mark.parametrize("factor", [0.25, 2.0])
def test_with_the_flag_a_step_the_buffer_does_not_explain_is_kept(monkeypatch, factor):
    step, _, start = _cache_step(monkeypatch, True, WITH_CACHE, BUFFER * factor)
    assert start == 0 and step.iops_after == pytest.approx(DIES_SLC)


def test_with_the_flag_a_cache_step_far_past_the_buffer_is_kept(monkeypatch):
    # no buffer step (the link under the dies' SLC rate): the cache's step, with many times
    # the buffer's bytes written above its level after, is the one found
    step, _, start = _cache_step(monkeypatch, True, [DIES_SLC] * 20 + [DIES_TLC] * 12)
    assert start == 0 and step.iops_after == pytest.approx(DIES_TLC)
