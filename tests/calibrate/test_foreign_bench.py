"""The foreign-FTL drivers' own arithmetic (bench/foreign): the settling rule and the parsing of
a simulator's cumulative counters into per-interval IOPS and WAF. The simulators themselves are
built and run outside the repository; these tests need none of them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import common  # noqa: E402
import simplessd  # noqa: E402


def test_settle_flat_series_is_settled():
    series = [{"iops": 100.0 + (i % 2), "waf": 3.0} for i in range(12)]
    w = common.settle(series)
    assert w["settled"] is True
    assert w["first_index"] == 4
    assert w["iops_mean"] == pytest.approx(100.5)
    assert w["waf_mean"] == pytest.approx(3.0)


def test_settle_rising_waf_is_not_settled():
    # WAF still climbing 1% a round: each value is within 3% of its neighbours, the window's
    # range and trend are not
    series = [{"iops": 100.0, "waf": 3.0 * 1.01**i} for i in range(12)]
    w = common.settle(series)
    assert w["settled"] is False
    assert w["waf_trend"] > common.WINDOW_TOLERANCE


def test_settle_needs_a_full_window():
    with pytest.raises(ValueError, match="needs 8"):
        common.settle([{"iops": 1.0, "waf": 1.0}] * 7)


def printout(tick_ps: int, writes: int, copies: int, gcs: int) -> str:
    return (
        f"Periodic log printout @ tick {tick_ps}\n"
        f"hil.write.request_count                 \t{writes}\tdesc\n"
        f"ftl.page_mapping.gc.count               \t{gcs}\tdesc\n"
        f"ftl.page_mapping.gc.page_copies         \t{copies}\tdesc\n"
        f"End of log @ tick {tick_ps}\n"
    )


def test_simplessd_rounds_from_cumulative_counters():
    # 1000 writes per ms of simulated time; no GC in the first half, then 2 copies per write
    text = "".join(
        printout(k * 10**9, 1000 * k, max(0, 2000 * (k - 4)), max(0, k - 4)) for k in range(1, 9)
    )
    rows = simplessd.parse_log(text)
    assert len(rows) == 8 and rows[-1]["hil.write.request_count"] == 8000
    rounds = simplessd.rounds_of(rows, span=4000, n_rounds=4)
    assert [r["span_writes"] for r in rounds] == [0.5, 1.0, 1.5, 2.0]
    assert [r["iops"] for r in rounds] == pytest.approx([1e6] * 4)  # 2000 writes per 2 ms
    assert [r["waf"] for r in rounds] == pytest.approx([1.0, 1.0, 3.0, 3.0])
    assert rounds[0]["gc_runs"] == 0 and rounds[2]["gc_runs"] == 2
