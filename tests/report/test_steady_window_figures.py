"""``overprov.steady_window`` on hand-built timed runs: the window the core marked, or the last
fifth labelled NOT steady; WAF over the window weighted by the host bytes of each interval."""

from __future__ import annotations

import pytest
from overprov.steady_window import LAST_FIFTH, STEADY, steady_window, window_percentile


def _timed(window):
    # 10 one-second intervals: 1 GB each, except interval 9 (index 8) which writes 3 GB
    host = [1, 2, 3, 4, 5, 6, 7, 8, 11, 12]
    wafs = [1.0, 1.0, 1.0, 2.0, 3.0, 4.0, 4.0, 4.0, 5.0, 2.0]
    return {
        "interval_s": 1.0,
        "steady_window": window,
        "intervals": [
            {
                "time_s": float(i + 1),
                "iops": 1000.0 + i,
                "waf": w,
                "host_bytes_total": h * 10**9,
                "drive_writes_total": h / 4,
                "latency_us": {"p99": 100.0 * (i + 1)},
            }
            for i, (h, w) in enumerate(zip(host, wafs, strict=True))
        ],
    }


def test_the_core_window_and_its_weighted_waf():
    t = _timed([6, 9])
    sw = steady_window(t)
    assert sw.steady and sw.what == STEADY and (sw.first, sw.last) == (6, 9)
    # host bytes per interval 1, 1, 3, 1 GB at WAF 4, 4, 5, 2: (4 + 4 + 15 + 2) / 6
    assert sw.waf == pytest.approx(25 / 6)
    assert sw.iops == pytest.approx(1007.5)
    assert sw.text() == (
        "steady window: intervals 7–10 of 10, 6–10 s simulated, 1.50–3.00 drive writes"
    )
    assert window_percentile(t, sw, "p99") == 900.0  # median of 700, 800, 900, 1000 (upper)
    assert sw.to_dict()["window"] == [6, 9]


def test_no_window_the_last_fifth_not_steady():
    sw = steady_window(_timed(None))
    assert not sw.steady and sw.what == LAST_FIFTH and (sw.first, sw.last) == (8, 9)
    assert sw.waf == pytest.approx((3 * 5 + 1 * 2) / 4)
    assert sw.text().startswith("last fifth (NOT steady): intervals 9–10 of 10")
    assert steady_window({"intervals": []}) is None


def test_an_interval_that_wrote_nothing_weighs_nothing():
    """A drive so slow that a whole interval passes without a write (WAF in the hundreds, the
    850 Pro's twin at 0% extra OP): that interval has no WAF and adds no bytes; the window's
    WAF is the others'. An interval that wrote bytes without a WAF still leaves it unknown."""
    from overprov.steady_window import window_waf

    ivs = [
        {"host_bytes_total": 100, "waf": 200.0},
        {"host_bytes_total": 100, "waf": None},
        {"host_bytes_total": 300, "waf": 300.0},
    ]
    assert window_waf(ivs, 0, 2) == pytest.approx((100 * 200 + 200 * 300) / 300)
    ivs[1] = {"host_bytes_total": 150, "waf": None}
    assert window_waf(ivs, 0, 2) is None
