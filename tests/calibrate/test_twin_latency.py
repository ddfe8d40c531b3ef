"""The p99 latency calibrate predicts for a measured target: the median of the round p99s of
each level's settled window, from a twin with the write buffer its figures show or none
(calibrate/write_buffer.py). The old twin's fixed 64 MiB buffer made its p99 wander over drive
writes, and a 2-drive-write latency window was run after every level to state it; without a
buffer it holds (docs/calibrate-model.md, "The twin's p99 latency")."""

from __future__ import annotations

import statistics

from overprov.calibrate import twin as twinmod

#: The README's calibration of sim:consumer-tlc-sata@4GiB fitted this twin (its analytic
#: reading: a negative t_cmd, the NAND alone); no write buffer.
TWIN = twinmod.TwinParameters(
    advertised_bytes=999_999_488_000, native_op=0.0697, t_page_us=13.18, t_cmd_us=-1.35,
    uncertainty={}, source="test", buffer_bytes=0,
)  # fmt: skip
LEVELS = [10.0, 25.0, 40.0]


def test_the_twins_p99_is_its_windows_median_and_without_a_buffer_it_holds(monkeypatch):
    """Each level's p99 is the median of its window rounds' p99s; an unbuffered twin's rounds
    agree on it within 30% (the old buffered twin's went from 10,900 to 1,600 µs and back at
    one level) and it falls with more spare space; no latency window is written."""
    monkeypatch.setattr(twinmod, "TWIN_SIM_PHYSICAL_BYTES", 2**30)  # a small twin
    assert twinmod.drive_dict(TWIN)["config"]["timing"]["buffer"]["bytes"] == 0
    m = twinmod.simulate_levels(TWIN, LEVELS)
    assert not [r for r in m.rounds if "latency" in r.label]
    for lv in m.levels:
        x = lv.extra_op_percent
        rounds = [r.p99_latency_us for r in m.rounds if r.label.startswith(f"op{x:g}-r")]
        window = rounds[-lv.window_rounds :]
        assert lv.p99_latency_us == statistics.median(window)
        assert max(window) <= 1.3 * min(window)
    p99s = [lv.p99_latency_us for lv in m.levels]
    assert p99s == sorted(p99s, reverse=True) and p99s[-1] < p99s[0] / 2
