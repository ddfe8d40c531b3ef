"""A reader that needs the emulated drive's counters taken after its call (calibrate reads the
write counters after every round) asks the server for a fresh status file by looking up
``MNT/refresh-status``, and gets it at once, not at the next half-second write.

The server's file-system calls are made here directly, without a FUSE mount: no root."""

from __future__ import annotations

import json
import time

import pytest

from .conftest import SMALL_DRIVE


def test_a_lookup_of_refresh_status_rewrites_the_status_file_at_once(tmp_path, monkeypatch):
    mfusepy = pytest.importorskip("mfusepy", reason="mfusepy (and libfuse) not installed")
    from overprov.emulate import fuse_device
    from overprov.emulate.cli import drive_config
    from overprov.emulate.loop import REFRESH_NAME

    monkeypatch.setattr(fuse_device, "STATUS_INTERVAL_S", 60.0)  # no periodic write meanwhile
    status = tmp_path / "status.json"
    config = drive_config(str(SMALL_DRIVE), "16MiB", 0.0)
    drive = fuse_device.EmulatedDrive(config, tmp_path / "data.img", status, 1.0)
    drive.init("/")  # the status thread, as at mount
    try:
        for _ in range(3):
            asked_ns = time.time_ns()
            with pytest.raises(mfusepy.FuseOSError):  # the name is never there
                drive.getattr("/" + REFRESH_NAME)
            deadline = time.monotonic() + 10.0
            while time.monotonic() < deadline:
                if (
                    status.exists()
                    and json.loads(status.read_text())["counters_unix_ns"] >= asked_ns
                ):
                    break
                time.sleep(0.005)
            else:
                pytest.fail("no status file written after the lookup")
        # one refresh counted per lookup (what tests/emulate/test_round_readings.py counts)
        assert drive.status_document()["status_refreshes"] == 3
    finally:
        drive.destroy("/")
