"""A file target whose run would fill its file system is refused (file_location.check_room,
docs/safety.md "Files"): a sparse file, or one `--size` creates or extends, grows by every
byte the run writes, and a full file system makes every other program writing there fail.
Refused before anything is written or extended: the file's size and the file system's free
space stay what they were, and a file the run created is gone again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from safety_helpers import MIB, QUICK_PROFILE, cli, mkfs_ext4, sh, tool

pytestmark = [pytest.mark.root]

COMMANDS = ("profile", "qualify", "calibrate")


def command(which: str, path: Path, out: Path, *size: str) -> list[str]:
    extra = {"profile": [*size, *QUICK_PROFILE], "qualify": list(size), "calibrate": list(size)}
    return [which, str(path), *extra[which], "--out", str(out)]


def free_bytes(where: Path) -> int:
    vfs = os.statvfs(where)
    return vfs.f_bavail * vfs.f_frsize


@pytest.mark.parametrize("which", COMMANDS)
def test_a_sparse_file_larger_than_the_free_space_is_refused(which, tmpfs_mount, tmp_path):
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    fs = tmpfs_mount("4m")
    (fs / "other.txt").write_bytes(b"someone else's data\n" * 1000)
    target = fs / "test.img"
    with open(target, "wb") as f:
        f.truncate(64 * MIB)  # sparse: shown empty, needs no confirmation
    free = free_bytes(fs)
    size = ["--size", "8MiB"] if which != "calibrate" else []
    proc = cli(*command(which, target, tmp_path / "out", *size))
    assert proc.returncode == 1, proc.stderr[-1000:]
    assert f"refusing to write to {target}: the run writes up to" in proc.stderr
    assert f"its file system ({fs}) has" in proc.stderr
    assert "it would fill that file system" in proc.stderr
    assert free_bytes(fs) == free  # nothing was written
    assert os.stat(target).st_blocks == 0 and os.path.getsize(target) == 64 * MIB


def test_size_neither_creates_nor_extends_a_file_the_file_system_cannot_hold(loop_device, tmp_path):
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    dev = loop_device(size_bytes=16 * MIB)
    mkfs_ext4(dev)
    where = tmp_path / "small-fs"
    where.mkdir()
    sh("mount", dev, str(where))  # unmounted by the fixture
    new, short = where / "new.img", where / "short.img"
    with open(short, "wb") as f:
        f.truncate(MIB)
    free = free_bytes(where)
    for target in (new, short):
        proc = cli(*command("profile", target, tmp_path / f"out-{target.stem}", "--size", "64MiB"))
        assert proc.returncode == 1, proc.stderr[-1000:]
        assert "it would fill that file system" in proc.stderr
    assert not new.exists()  # created for the run, removed when refused
    assert os.path.getsize(short) == MIB  # not extended
    assert free_bytes(where) == free


def test_the_dry_run_says_the_run_would_fill_the_file_system(tmpfs_mount, tmp_path):
    fs = tmpfs_mount("4m")
    target = fs / "test.img"
    with open(target, "wb") as f:
        f.truncate(64 * MIB)
    proc = cli("profile", str(target), "--dry-run", "--extra-op", "0", "--out", str(tmp_path / "o"))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout + proc.stderr
    assert "it would fill that file system" in text and "(refused)" in text
