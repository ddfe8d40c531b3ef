"""SNIA steady-state detector on hand-built series (SNIA SSS PTS; docs/concepts.md)."""

from __future__ import annotations

import math

import pytest
from overprov.profile.steady import (
    SNIA,
    SteadyStateCriteria,
    assess,
    criteria_like_fio_iops_slope,
    fio_slope_criterion_percent,
    first_steady_round,
    snia_equivalent_fio_slope_percent,
)
from overprov.steady_window import least_squares_slope


def test_flat_series_is_steady_with_its_figures():
    v = assess([10_000, 10_100, 9_900, 10_050, 9_950])
    assert v.steady and not v.gave_up
    assert v.window_first_round == 1 and v.rounds == 5
    assert v.mean == pytest.approx(10_000)
    assert v.range_fraction == pytest.approx(200 / 10_000)
    assert v.range_ok and v.slope_ok
    assert "steady in rounds 1–5" in v.reason


def test_only_the_last_window_counts():
    # a write cliff: high FOB rounds, then a stable low plateau
    series = [90_000, 60_000, 30_000, 20_000, 20_500, 19_800, 20_200, 20_100]
    v = assess(series)
    assert v.steady
    assert v.window_first_round == 4
    assert v.window == (20_000, 20_500, 19_800, 20_200, 20_100)
    assert v.mean == pytest.approx(20_120)
    # and the round-by-round replay finds the first round where it held
    first = first_steady_round(series)
    assert first.steady and first.rounds == 8


def test_drifting_series_fails_the_slope_rule_but_not_the_range_rule():
    # +4% per round: range 16% (≤ 20%) but the fitted line moves 16% (> 10%) of the mean
    series = [10_000 * (1 + 0.04 * i) for i in range(5)]
    v = assess(series)
    assert not v.steady
    assert v.range_ok is True
    assert v.slope_ok is False
    assert v.slope_per_round == pytest.approx(400)
    assert v.slope_excursion_fraction == pytest.approx(1600 / 10_800)
    assert "fitted line moves" in v.reason


def test_noisy_series_without_trend_fails_the_range_rule():
    series = [10_000, 13_000, 9_000, 12_500, 10_500]
    v = assess(series)
    assert not v.steady
    assert v.range_ok is False
    assert v.range_fraction == pytest.approx(4_000 / 11_000)
    assert v.slope_ok is True  # no trend: the slope rule alone would pass
    assert "range (max − min)" in v.reason


def test_too_short():
    v = assess([10_000, 10_000, 10_000])
    assert not v.steady and not v.gave_up
    assert v.reason.startswith("too short: 3 rounds")
    assert v.mean == pytest.approx(10_000)
    empty = assess([])
    assert not empty.steady and empty.mean is None and empty.rounds == 0


def test_gives_up_after_max_rounds_and_says_so():
    crit = SteadyStateCriteria(max_rounds=6)
    series = [10_000, 14_000, 9_000, 13_000, 8_000, 12_000]
    v = assess(series, crit)
    assert not v.steady and v.gave_up
    assert v.reason.startswith("not steady after 6 rounds")
    # a steady series at max_rounds is steady, not given up
    assert not assess([10_000] * 6, crit).gave_up


def test_boundaries_are_inclusive():
    # range exactly 20% of the mean, no slope: steady
    series = [9_000, 11_000, 10_000, 11_000, 9_000]
    v = assess(series)
    assert v.range_fraction == pytest.approx(0.2)
    assert v.steady


def test_nothing_written_is_not_steady():
    v = assess([0, 0, 0, 0, 0])
    assert not v.steady and "nothing was written" in v.reason


def test_rejects_non_finite_and_bad_criteria():
    with pytest.raises(ValueError):
        assess([1.0, math.nan, 1.0, 1.0, 1.0])
    with pytest.raises(ValueError):
        SteadyStateCriteria(window_rounds=1)
    with pytest.raises(ValueError):
        SteadyStateCriteria(window_rounds=5, max_rounds=4)


def test_least_squares_slope_and_fio_criterion():
    assert least_squares_slope([1, 2, 3, 4]) == pytest.approx(1.0)
    assert least_squares_slope([5, 5, 5]) == pytest.approx(0.0)
    # fio: 100 × slope / mean; fio 3.33 reported 2.212657% for this very window
    assert fio_slope_criterion_percent([165115, 168304, 172579]) == pytest.approx(2.212657, 1e-6)


def test_fio_like_criteria_reproduce_fios_rule():
    window = [165115, 168304, 172579]  # criterion 2.21%
    assert assess(window, criteria_like_fio_iops_slope(2.3, 3)).steady
    assert not assess(window, criteria_like_fio_iops_slope(2.2, 3)).steady


def test_snia_equivalent_fio_limit():
    # the line may move 10% of the mean across the window: 10% / (n − 1) per sample
    assert snia_equivalent_fio_slope_percent(5) == pytest.approx(2.5)
    assert snia_equivalent_fio_slope_percent(61) == pytest.approx(10 / 60)
    assert SNIA.window_rounds == 5 and SNIA.max_rounds == 25
