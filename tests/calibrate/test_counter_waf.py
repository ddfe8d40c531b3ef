"""Each round's WAF from the write counters (``calibrate/counter_waf.py``), against rounds worked
by hand, and as each of its callers reads it: the settling test's window
(``level_window.round_wafs``), a level's drift rows (``waf_drift.random_round_wafs``) and the
first level's burst cycle (``burst_cycle.read_first_level``), with the edge cases each handled
before it was one helper: a missing start counter, a missing round counter, a round with no
host bytes, a resumed segment."""

from __future__ import annotations

from dataclasses import replace

import pytest
from overprov.calibrate import burst_cycle, counter_waf, level_window, waf_drift
from overprov.calibrate.counter_waf import Counters, RoundWaf, round_wafs, stretch_wafs
from overprov.measurement_file import Level, Measurement, Round


def _round(label: str, host: int | None, nand: int | None, iops: float = 1000.0) -> Round:
    return Round(label, 40.0, iops, 1000, 1.0, None, host, nand)


#: Counters after each round: host 2000, 3000, 5000 and NAND 3500, 6500, 8500 from a start at
#: host 1000, NAND 1500, so each round wrote host 1000, 1000, 2000 and NAND 2000, 3000, 2000.
START = Counters(1000, 1500)
ROUNDS = [_round("op40-r001", 2000, 3500), _round("op40-r002", 3000, 6500),
          _round("op40-r003", 5000, 8500)]  # fmt: skip
#: Their WAF, worked by hand: 2000/1000, 3000/1000, 2000/2000.
WAFS = [2.0, 3.0, 1.0]


def test_a_stretch_reads_each_rounds_deltas_from_the_start_and_then_the_round_before():
    got = stretch_wafs(START, ROUNDS)
    assert got == [RoundWaf(1000, 2000, 2000), RoundWaf(2000, 3000, 3000),
                   RoundWaf(3000, 5000, 2000)]  # fmt: skip
    assert [w.waf for w in got] == WAFS
    assert [w.host_written_bytes for w in got] == [1000, 1000, 2000]
    assert stretch_wafs(START, []) == []


def test_a_missing_counter_leaves_the_rounds_unread():
    assert stretch_wafs(Counters(None, None), ROUNDS) is None  # no start counter
    assert stretch_wafs(Counters(1000, None), ROUNDS) is None  # no start NAND counter
    assert stretch_wafs(START, [ROUNDS[0], _round("op40-r002", 3000, None)]) is None
    assert round_wafs([(START, ROUNDS[0]), (ROUNDS[0], _round("x", None, 7000))]) is None


def test_a_round_with_no_host_bytes_has_no_waf_and_leaves_a_stretch_unread():
    idle = _round("op40-r002", 2000, 3600)  # host counter unchanged since the round before
    pairs = [(START, ROUNDS[0]), (ROUNDS[0], idle)]
    assert round_wafs(pairs) == [RoundWaf(1000, 2000, 2000), RoundWaf(2000, 2000, 100)]
    assert stretch_wafs(START, [ROUNDS[0], idle]) is None
    backwards = _round("op40-r002", 1500, 3600)  # a counter that went back (a reset)
    assert stretch_wafs(START, [ROUNDS[0], backwards]) is None


def test_the_settling_windows_wafs_start_at_the_segments_counters_or_the_round_before():
    start = {"host_bytes": 1000, "nand_bytes": 1500}
    assert level_window.round_wafs(ROUNDS, 3, start) == WAFS  # the window is the whole segment
    assert level_window.round_wafs(ROUNDS, 2, None) == WAFS[1:]  # after the round before
    assert level_window.round_wafs(ROUNDS, 3, None) == []  # no start counters
    assert level_window.round_wafs(ROUNDS, 3, {"host_bytes": 2000, "nand_bytes": 0}) == []  # idle
    # the level's WAF over its window starts at the same counters: 5000 / 3000, 7000 / 4000
    assert level_window.window_level(40.0, ROUNDS[1:], ROUNDS, True, 1.0, 2**30).waf == 5000 / 3000
    assert level_window.window_level(40.0, ROUNDS, ROUNDS, True, 1.0, 2**30, start).waf == 1.75
    assert level_window.window_level(40.0, ROUNDS, ROUNDS, True, 1.0, 2**30).waf is None


def _measurement(rounds: list[Round]) -> tuple[Measurement, Level]:
    m = Measurement(target="sim:t", capacity_bytes=2**30, scale_factor=1.0, bs_bytes=4096, qd=32)
    m.rounds = [_round("op0-r001", 1000, 1500), *rounds]
    level = Level(40.0, 1000.0, 0.01, 2.0, None, True, len(rounds), 0.0, 1.0)
    m.levels.append(level)
    return m, level


def test_a_levels_drift_rows_pass_over_an_idle_round_and_keep_a_resumed_segments_last_run():
    m, level = _measurement(ROUNDS)
    assert waf_drift.random_round_wafs(m, level) == [(2.0, 1000), (3.0, 1000), (1.0, 2000)]
    idle = _round("op40-r004", 5000, 8600)
    m, level = _measurement([*ROUNDS, idle, _round("op40-r005", 6000, 9600)])
    assert waf_drift.random_round_wafs(m, level) == [(2.0, 1000), (3.0, 1000), (1.0, 2000),
                                                     (1.0, 1000)]  # fmt: skip
    # run again from its first round: (9600 - 8500) / (6000 - 5000), then 2000 / 1000
    m, level = _measurement([*ROUNDS, _round("op40-r001", 6000, 9600),
                             _round("op40-r002", 7000, 11600)])  # fmt: skip
    assert waf_drift.random_round_wafs(m, level) == [(1.1, 1000), (2.0, 1000)]
    m, level = _measurement([ROUNDS[0], _round("op40-r002", None, None)])
    assert waf_drift.random_round_wafs(m, level) == []
    level.queue_depth = 4  # a probe level has no drift rows
    assert waf_drift.random_round_wafs(_measurement(ROUNDS)[0], level) == []


def _cycle_stretch(wafs: list[float]) -> list[Round]:
    """Rounds of a quarter drive write each (of the 1 GiB measurement) at these WAFs."""
    out, host, nand = [], START.host_bytes or 0, START.nand_bytes or 0
    for i, w in enumerate(wafs):
        host, nand = host + 2**28, nand + int(w * 2**28)
        out.append(_round(f"op0-r{i + 1:03d}", host, nand))
    return out


def test_the_burst_cycle_reads_a_stretch_only_where_each_round_has_a_waf(monkeypatch):
    good = _cycle_stretch([2.0, 3.0, 2.5, 1.5, 2.0, 3.0])
    bad = {
        "no host bytes": replace(good[3], host_bytes=good[2].host_bytes),
        "a missing counter": replace(good[3], nand_bytes=None),
        "no I/O": replace(good[3], iops=0.0),
    }
    for why, r in [("none", good[3]), *bad.items()]:
        stretch = [*good[:3], r, *good[4:]]
        m, _ = _measurement(stretch)
        monkeypatch.setattr(burst_cycle, "stretch_of", lambda _m, s=stretch: (s, START))
        assert burst_cycle.read_first_level(m) == (why == "none"), why
        assert (m.levels[0].waf == 2.0) == (why != "none"), why  # left as read, or read


def test_a_segment_whose_nand_counter_did_not_move_has_no_waf():
    """``segment_waf``: a NAND counter that did not move over the FOB (a drive that updates it
    late or in coarse units) or went back gives no figure, not a WAF of 0 that
    measurement.json's reader would refuse; a counter that moved gives NAND ÷ host."""
    start = {"host_bytes": 1_000_000, "nand_bytes": 5_000_000}
    assert counter_waf.segment_waf(start, counter_waf.Counters(1_400_000, 5_000_000)) is None
    assert counter_waf.segment_waf(start, counter_waf.Counters(1_400_000, 4_000_000)) is None
    assert counter_waf.segment_waf(start, counter_waf.Counters(1_000_000, 5_400_000)) is None
    assert counter_waf.segment_waf(None, counter_waf.Counters(1_400_000, 5_400_000)) is None
    got = counter_waf.segment_waf(start, counter_waf.Counters(1_400_000, 5_426_640))
    assert got == pytest.approx(1.0666)
