"""Host idle recovery: writes at half the steady rate on a simulated drive and on a file with
real fio (``rate_iops``)."""

from __future__ import annotations

import pytest
from overprov.profile.fio_target import FioTarget
from overprov.qualify import idle_recovery
from overprov.qualify.bench import QualifySettings
from overprov.qualify.verdict import FAIL, PASS


def test_simulated_drive_with_idle_time_serves_writes_as_when_fresh():
    s = QualifySettings()
    figures, method = idle_recovery.measure_sim("sim:consumer-tlc-sata@2GiB", s)
    v = idle_recovery.judge(figures, method)
    print(v.finding)
    # the open loop really ran at half the closed-loop steady rate
    assert figures["idle_iops"] == pytest.approx(figures["steady_iops"] / 2, rel=0.02)
    assert v.verdict == PASS and v.figures["latency_ratio"] <= idle_recovery.RECOVERED_MAX_RATIO


def test_the_rule_fails_a_drive_whose_idle_latency_stays_high():
    figures = {"steady_iops": 1000.0, "arrival_iops": 500.0, "idle_latency_p99_us": 900.0,
               "fresh_latency_p99_us": 100.0}  # fmt: skip
    assert idle_recovery.judge(figures, "rule").verdict == FAIL
    figures["idle_latency_p99_us"] = 150.0
    assert idle_recovery.judge(figures, "rule").verdict == PASS


@pytest.mark.fio
def test_fio_rate_limited_rounds_on_a_file(need_fio, tmp_path):
    s = QualifySettings(round_seconds=1, steady_drive_writes=1.0, max_rounds=2)
    target = FioTarget(str(tmp_path / "t.img"), tmp_path / "fio", size_bytes=16 << 20)
    target.open()
    try:
        figures, method = idle_recovery.measure_fio(target, s)
    finally:
        target.close()
    rate = int(figures["arrival_iops"])
    assert f"rate_iops={rate}" in (tmp_path / "fio" / "idle-rated.fio").read_text()
    # fio held the round to the rate it was given (it may fall short, never go over much)
    assert figures["idle_iops"] <= rate * 1.1
    assert figures["idle_latency_p99_us"] > 0 and figures["fresh_latency_p99_us"] > 0
    assert idle_recovery.judge(figures, method).verdict in (PASS, FAIL)
