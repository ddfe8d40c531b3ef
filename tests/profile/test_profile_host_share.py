"""A profile phase's host share on an emulated drive (``record.window_host_share``): its
window's rounds' shares weighted by their durations, none when a round has none. The rounds'
own shares are read on a real emulated drive in tests/emulate/test_round_readings.py."""

from __future__ import annotations

from overprov.profile.record import window_host_share


def test_a_phases_host_share_is_its_windows_rounds_weighted_by_duration():
    rounds = [{"duration_seconds": 1.0, "host_share": 0.2},
              {"duration_seconds": 3.0, "host_share": 0.6}]  # fmt: skip
    assert window_host_share(rounds) == 0.5  # (0.2 × 1 + 0.6 × 3) ÷ 4
    assert window_host_share([*rounds, {"duration_seconds": 1.0, "host_share": None}]) is None
    assert window_host_share([]) is None
