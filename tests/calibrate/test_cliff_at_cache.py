"""The twin's mixed cliff dated where its host has written its fitted cache
(``cliff_at_cache.AT_CACHE``, off; with ``cliff_prediction.PROBES_IN_PREDICTION`` only:
bench/results/clifffall/RULE.md)."""

from __future__ import annotations

from typing import Any

import pytest
from overprov.calibrate import cliff, cliff_at_cache, read_probes, validation
from overprov.calibrate.cliff_series import Series, find_cliff


def _series(iops: list[float], write_share: float = 0.3) -> Series:
    """One-second intervals; ``write_share`` of each interval's commands 4 KiB writes."""
    n = len(iops)
    return Series([float(i + 1) for i in range(n)], iops, [x * write_share for x in iops],
                  [False] * n)  # fmt: skip


# 100 before; past interval 10 a slow fall (a few % an interval) to 60
SLOW = [150.0] + [100.0] * 9 + [92.0, 86.0, 81.0, 77.0] + [60.0] * 10


def test_off_by_default():
    assert cliff_at_cache.AT_CACHE is False


def test_a_slow_fall_dated_at_the_cache_not_where_it_is_half_way_down():
    s = _series(SLOW)
    later = find_cliff(s)
    assert later is not None and later.time_s > 12.0  # the first intervals of the fall passed over
    # the host has written 30 writes a second × 4096 bytes over the first nine intervals at
    # 100 IOPS, after the first at 150: the cache of 10 intervals' bytes ends in interval 10
    cache = (150 * 0.3 + 9 * 100 * 0.3) * 4096
    got = cliff_at_cache.cliff_at(s, cache)
    assert got is not None
    assert got.time_s == pytest.approx(10.0)
    assert got.host_write_bytes_before == cache
    assert got.iops_before == 100.0 and got.iops_after == 60.0
    # half-way into interval 11: the time interpolated by its bytes
    half = cliff_at_cache.cliff_at(s, cache + 0.5 * 92 * 0.3 * 4096)
    assert half is not None and half.time_s == pytest.approx(10.5)
    assert cliff_at_cache.dated(s, cache) == got


def test_no_drop_at_the_cache_is_find_cliff_s():
    s = _series(SLOW)
    # the cache's bytes crossed in the fourth interval: too few intervals before for a level
    early = (150 + 3 * 100) * 0.3 * 4096
    assert cliff_at_cache.cliff_at(s, early) is None
    assert cliff_at_cache.dated(s, early) == find_cliff(s)
    # past the series' end
    assert cliff_at_cache.cliff_at(s, 1e12) is None
    # a level after only 5% under the one before: no cliff there, none found either
    shallow = _series([150.0] + [100.0] * 9 + [95.0] * 10)
    assert cliff_at_cache.cliff_at(shallow, (150 + 9 * 100) * 0.3 * 4096) is None
    assert cliff_at_cache.dated(shallow, (150 + 9 * 100) * 0.3 * 4096) is None


def test_read_probes_hands_the_flag_to_the_prediction(monkeypatch):
    drive = validation.drive(201)
    fit = cliff.CacheFit(cache_bytes=3e9, slc_program_us=30.0, measured=None)
    chosen = read_probes.Selection("unit", drive, fit, 300.0)
    seen: dict[str, Any] = {}
    monkeypatch.setattr(read_probes, "select_program", lambda *a, **k: chosen)
    monkeypatch.setattr(cliff, "predict", lambda *a, **k: seen.update(k))
    probe = read_probes.Probe(8, 70, 100, 0, 300.0)
    kw = {"fit_qd": 32, "qd": 8, "read_percent": 70, "seconds": 30.0, "interval_s": 0.5}
    read_probes.predict(drive, None, probe, probe, **kw)
    assert seen["date_at_cache"] is False
    monkeypatch.setattr(cliff_at_cache, "AT_CACHE", True)
    read_probes.predict(drive, None, probe, probe, **kw)
    assert seen["date_at_cache"] is True


def test_the_prediction_dates_its_series_at_the_cache(monkeypatch):
    s = _series(SLOW)
    cache = (150 + 9 * 100) * 0.3 * 4096
    monkeypatch.setattr(cliff, "read_slot_series", lambda *a, **k: s)
    monkeypatch.setattr(cliff, "fitted_drive", lambda d, f, *a: d)
    fit = cliff.CacheFit(cache_bytes=cache, slc_program_us=30.0, measured=None)
    kw = {"qd": 8, "read_percent": 70, "seconds": 24.0, "interval_s": 1.0, "read_slot_us": 300.0,
          "read_slot_until_cache": True}  # fmt: skip
    assert cliff.predict({}, fit, 1.0, **kw) == find_cliff(s)
    on = cliff.predict({}, fit, 1.0, **kw, date_at_cache=True)
    assert on == cliff_at_cache.cliff_at(s, cache)
    # without a read slot (the core's own series) the flag does nothing
    monkeypatch.setattr(cliff, "simulate_series", lambda *a, **k: s)
    plain = {k: v for k, v in kw.items() if k not in ("read_slot_us", "read_slot_until_cache")}
    assert cliff.predict(
        {}, fit, 1.0, **plain, read_slot_us=None, date_at_cache=True
    ) == find_cliff(s)
