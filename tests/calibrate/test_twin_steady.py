"""The twin under skewed writes run until its own window is steady (``twin_steady.py``,
``twin_runs.simulate_levels(until_steady=True)``; bench/corpus/RULE-skewed-steady-twin.md):
the window and its test on made-up runs, a small twin's run under hot/cold writes, and uniform
runs bit for bit those of the fixed warm-up."""

from __future__ import annotations

import pytest
from overprov.calibrate import twin as twinmod
from overprov.calibrate import twin_runs, twin_steady

HOT_COLD = {
    "pattern": "zoned",
    "zones": [
        {"access_percent": 95.0, "space_percent": 5.0},
        {"access_percent": 5.0, "space_percent": 95.0},
    ],
}


def small_twin() -> twinmod.TwinParameters:
    return twinmod.TwinParameters(
        advertised_bytes=64 * 2**20,
        native_op=0.15,
        t_page_us=4.0,
        t_cmd_us=6.0,
        uncertainty={},
        source="test",
    )


def made_up_run(iops: list[float], dw_per_interval: float = 0.01) -> dict:
    """A timed report whose intervals (1 s each) run at ``iops``; a drive of 4096·10⁵ bytes."""
    user = 4096 * 100_000
    intervals, host, t = [], 0.0, 0.0
    for v in iops:
        t += 1.0
        host += v * 4096
        intervals.append({"time_s": t, "iops": v, "host_bytes_total": host,
                          "drive_writes_total": host / user, "waf": 2.0,
                          "latency_us": {"p99": 1e6 / v}})  # fmt: skip
    return {"timed": {"intervals": intervals}}


def test_snia_criterion():
    assert twin_steady.snia_steady([100, 101, 99, 100, 100])
    assert not twin_steady.snia_steady([100, 100, 100, 100, 125])  # range 24% of the mean
    assert not twin_steady.snia_steady([100, 103, 106, 109, 112])  # excursion 11% of the mean
    assert twin_steady.snia_steady([100, 102, 104, 106, 108])  # 8%, range 8%


def test_window_is_the_last_quarter_of_host_writes():
    """A plateau at 300 then a fall to 75: the window (last 5 of 20 rounds of equal host
    writes) is the fall's end; steady only once the run has settled long enough."""
    falling = made_up_run([300.0] * 30 + [75.0] * 40)
    level = twin_steady.window_level(0.0, falling)
    # host writes 30·300 + 40·75 = 12,000: the last quarter is the 40 s at 75
    assert level.steady_iops == pytest.approx(75.0)
    assert level.waf == pytest.approx(2.0)
    assert level.window_rounds == twin_steady.WINDOW_ROUNDS
    assert level.drive_writes == pytest.approx(12_000 / 100_000)
    assert level.settled
    mid_fall = made_up_run([300.0] * 30 + [300.0 - 20 * k for k in range(12)])
    assert not twin_steady.window_level(0.0, mid_fall).settled


def test_a_round_without_an_interval_is_refused():
    with pytest.raises(ValueError, match="a round holds no interval"):
        twin_steady.window_level(0.0, made_up_run([100.0] * 8))


def test_uniform_runs_are_the_fixed_warm_up(monkeypatch):
    """Under uniform writes (and untimed under skew) ``until_steady`` changes nothing: the same
    figures, and the run-until-steady path is never taken."""
    p = small_twin()
    before = twin_runs.simulate_levels(p, [0.0], {"pattern": "uniform"}, jobs=1)

    def refuse(*_a, **_k):
        raise AssertionError("a uniform or untimed level was run until steady")

    monkeypatch.setattr(twin_runs, "run_until_steady", refuse)
    after = twin_runs.simulate_levels(p, [0.0], {"pattern": "uniform"}, jobs=1, until_steady=True)
    assert after.to_dict() == before.to_dict()
    untimed = twin_runs.simulate_levels(p, [0.0], HOT_COLD, timed=False, jobs=1, until_steady=True)
    assert untimed.levels[0].waf > 1.0


def test_a_skewed_twin_runs_until_its_window_is_steady():
    p = small_twin()
    memo: twin_runs.Runs = {}
    m = twin_runs.simulate_levels(p, [0.0], HOT_COLD, jobs=1, until_steady=True, memo=memo)
    level = m.levels[0]
    # the window ends where the run did: one of the lengths tried, the cap if never steady
    assert any(level.drive_writes == pytest.approx(d, rel=0.01) for d in twin_steady.DRIVE_WRITES)
    cap = max(twin_steady.DRIVE_WRITES)
    assert level.settled or level.drive_writes == pytest.approx(cap, rel=0.01)
    assert level.drive_writes_before_window == pytest.approx(0.75 * level.drive_writes, rel=0.05)
    assert level.steady_iops > 0 and level.waf > 1.0
    fixed = twin_runs.simulate_levels(p, [0.0], HOT_COLD, jobs=1, memo=memo)
    assert len(memo) == 2  # the two ways are kept apart in the memo
    assert fixed.levels[0].drive_writes != level.drive_writes
