"""`overprov emulate --dir DIR` removes, when it stops, only what it made (docs/emulate.md):
its data file and, if it made it, its mount point DIR/mnt. An empty mnt/ that was there
before (`--dir /srv`, whose /srv/mnt is a mount point of the system's) was accepted — it is
empty — and removed at the end all the same. Now it stays."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from loop_lock import attach_lock
from safety_helpers import REPO

SMALL_DRIVE = REPO / "tests" / "emulate" / "small-drive.toml"


def test_an_empty_mount_point_that_was_there_is_kept(tmp_path):
    work = tmp_path / "work"
    (work / "mnt").mkdir(parents=True)
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    argv = [sys.executable, "-m", "overprov", "emulate", str(SMALL_DRIVE), "--size", "16MiB",
            "--dir", str(work), "--quiet"]  # fmt: skip
    with attach_lock():  # it attaches a loop device (losetup --find) before its first line
        proc = subprocess.Popen(argv, env=env, text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)  # fmt: skip
        assert proc.stdout is not None
        line = proc.stdout.readline()
    if not line.startswith("device "):
        proc.kill()
        _, err = proc.communicate()
        if "cannot serve a block device here" in err:
            pytest.skip(err.strip())
        pytest.fail(f"emulate did not start: {err[-1000:]}")
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert not os.path.ismount(work / "mnt")
    assert not (work / "data.img").exists(), "its own data file is still removed"
    assert (work / "mnt").is_dir(), "emulate removed a mount point it had not made"
