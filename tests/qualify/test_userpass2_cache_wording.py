"""userpass2: ``qualify`` on a loop device over a file said "FAIL flushes wait for NAND": there
is no NAND behind it. The finding now says what was measured (write-through's share of
write-back's IOPS) and names a target with no FTL of its own."""

from __future__ import annotations

import pytest
from overprov.qualify import cache, session
from overprov.qualify.bench import QualifySettings
from overprov.qualify.verdict import FAIL, PASS


def _figures(wb: float, wt: float) -> dict:
    side = {"latency_p50_us": 100.0}
    return {"write_back": {**side, "iops": wb}, "write_through": {**side, "iops": wt}}


LOOP = "/dev/loop9 (a loop device over the file /tmp/x.img)"


def test_a_slow_flush_is_said_as_measured():
    v = cache.judge(_figures(10_000, 300), "m")
    assert v.verdict == FAIL
    assert v.finding.startswith("flush/write-through is slow: 3% of write-back's IOPS (under 50%)")
    assert "on an SSD, flushes wait for NAND" in v.finding


def test_a_loop_device_over_a_file_is_named_not_called_nand():
    v = cache.judge(_figures(10_000, 300), "m", LOOP)
    assert v.verdict == FAIL and "NAND" not in v.finding
    assert f"the target is {LOOP}, with no flash translation layer of its own" in v.finding
    fast = cache.judge(_figures(10_000, 9_000), "m", LOOP)
    assert fast.verdict == PASS and "protected buffer" not in fast.finding
    assert fast.finding.startswith("flush/write-through keeps 90% of write-back's IOPS")


@pytest.mark.root
@pytest.mark.fio
def test_qualify_names_a_loop_target(tmp_path, loop_device, need_fio, monkeypatch):
    """The session passes the target's identity to the judge (the measurement itself is
    replaced: only the wording is under test)."""
    dev = loop_device(size_bytes=16 * 2**20)
    monkeypatch.setattr(cache, "measure_fio", lambda target, s: (_figures(10_000, 300), "m"))
    options = {"confirm": [dev], "allow_hdd": True}
    _, verdicts = session.run(
        dev, ["cache"], QualifySettings(), out_dir=tmp_path / "q", target_options=options
    )
    backing = loop_device.backing_file(dev)
    assert f"the target is {dev} (a loop device over the file {backing})" in verdicts[0].finding
