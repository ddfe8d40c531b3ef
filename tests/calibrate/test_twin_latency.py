"""The p99 latency calibrate predicts for a measured target: the twin's latency window
(``twin.latency_window``), not the median of a level's 8 window rounds (about 0.3 drive
writes), through which the twin's round p99s wander (docs/calibrate-model.md, "The twin's p99
latency")."""

from __future__ import annotations

import statistics

from overprov.calibrate import twin as twinmod

#: The README's calibration of sim:consumer-tlc-sata@4GiB fitted this twin (its analytic
#: reading: a negative t_cmd, the NAND alone).
TWIN = twinmod.TwinParameters(
    advertised_bytes=999_999_488_000, native_op=0.0697, t_page_us=13.18, t_cmd_us=-1.35,
    uncertainty={}, source="test",
)  # fmt: skip
LEVELS = [10.0, 25.0, 40.0]


def test_the_twins_p99_is_stated_from_its_latency_window_with_its_range(monkeypatch):
    """Each level's p99 is the median of the p99s of the rounds written after the level was
    kept, over at least LATENCY_DRIVE_WRITES, with the lowest and highest median of its parts;
    the level's IOPS and WAF stay those of its own window (the first level's exactly, the later
    ones within 1%: the drive wrote on before them). Over steps of 15% extra OP the p99 falls
    past its range. The old sweep stated the median of 8 rounds and no range."""
    monkeypatch.setattr(twinmod, "TWIN_SIM_PHYSICAL_BYTES", 2**30)  # a small twin
    plain = twinmod.simulate_levels(TWIN, LEVELS)
    m = twinmod.simulate_levels(TWIN, LEVELS, latency=True)
    for before, lv in zip(plain.levels, m.levels, strict=True):
        x = lv.extra_op_percent
        assert isinstance(lv, twinmod.TwinLevel)
        assert lv.latency_drive_writes >= twinmod.LATENCY_DRIVE_WRITES
        rounds = [r.p99_latency_us for r in m.rounds if r.label.startswith(f"op{x:g}-latency-")]
        assert len(rounds) >= 2 * twinmod.LATENCY_PARTS
        assert lv.p99_latency_us == statistics.median(rounds)
        assert lv.p99_latency_us_low <= lv.p99_latency_us <= lv.p99_latency_us_high
        assert abs(lv.steady_iops / before.steady_iops - 1) < 0.01
        assert abs(lv.waf / before.waf - 1) < 0.01
    assert (m.levels[0].steady_iops, m.levels[0].waf) == (
        plain.levels[0].steady_iops,
        plain.levels[0].waf,
    )
    for lower, higher in zip(m.levels, m.levels[1:], strict=False):
        assert higher.p99_latency_us_high < lower.p99_latency_us_low
