"""TRIM recovery on a simulated drive: discarded space comes back as spare area; a drive
whose firmware ignores TRIM (the same model, discards not applied) gains nothing."""

from __future__ import annotations

from overprov.profile.sim_target import SimTarget
from overprov.qualify import trim_recovery
from overprov.qualify.bench import QualifySettings
from overprov.qualify.verdict import FAIL, PASS

SPEC = "sim:consumer-tlc-sata@2GiB"
SETTINGS = QualifySettings(round_seconds=10)


class IgnoresTrim(SimTarget):
    """The same simulated drive with discards dropped, as firmware without TRIM support."""

    def discard_tail(self, start_bytes: int) -> str:
        return "not discarded (this drive ignores TRIM)"


def _run(target: SimTarget):
    target.open()
    try:
        return trim_recovery.judge(*trim_recovery.measure(target, SETTINGS))
    finally:
        target.close()


def test_discarded_space_acts_as_spare_area_on_the_simulated_drive():
    v = _run(SimTarget(SPEC))
    print(v.finding)
    f = v.figures
    assert v.verdict == PASS
    # fresh > steady (the drive had a cliff) and the discard won part of it back
    assert f["fresh_iops"] > 2 * f["steady_iops"]
    assert f["without_trim_iops"] * (1 + trim_recovery.GAIN_MIN) <= f["with_trim_iops"]
    assert f["with_trim_iops"] < f["fresh_iops"]
    assert abs(f["discarded_bytes"] - SimTarget(SPEC).capacity_bytes / 4) < 4096
    assert f["steady_drive_writes"] >= SETTINGS.steady_drive_writes


def test_a_drive_that_ignores_trim_fails():
    v = _run(IgnoresTrim(SPEC))
    print(v.finding)
    assert v.verdict == FAIL
    assert abs(v.figures["gain_fraction"]) < trim_recovery.GAIN_MIN
