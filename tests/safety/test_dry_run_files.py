"""`--dry-run` of `profile`, `qualify` and `calibrate` on file targets writes nothing: a
confirmed file of random bytes keeps its SHA-256 (whole, first and last MiB), its size and
its modification time, and a missing file given with `--size` (profile, qualify) is not
created. (The same on
loop devices: tests/profile/test_dry_run.py.)"""

from __future__ import annotations

import os

import pytest
from safety_helpers import MIB, Digests, cli

COMMANDS = ("profile", "qualify", "calibrate")
CONFIRM = "--i-understand-this-destroys-data"


@pytest.mark.parametrize("which", COMMANDS)
def test_dry_run_on_files_writes_nothing(which, tmp_path):
    data = tmp_path / "data.img"
    data.write_bytes(os.urandom(16 * MIB))
    os.utime(data, (1_000_000_000, 1_000_000_000))
    before = Digests.of(data), os.stat(data).st_mtime_ns, os.path.getsize(data)
    proc = cli(which, str(data), "--dry-run", "--out", str(tmp_path / "out1"), CONFIRM, str(data))
    assert proc.returncode == 0, proc.stderr
    assert (Digests.of(data), os.stat(data).st_mtime_ns, os.path.getsize(data)) == before
    assert not (tmp_path / "out1").exists()
    if which == "calibrate":
        return  # calibrate measures what exists: it has no --size to create a file
    missing = tmp_path / "new.img"
    proc = cli(which, str(missing), "--size", "16MiB", "--dry-run", "--out", str(tmp_path / "o2"))
    assert proc.returncode == 0, proc.stderr
    assert not missing.exists()
    assert not (tmp_path / "o2").exists()
