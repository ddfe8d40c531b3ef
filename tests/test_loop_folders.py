"""The loop_device fixture's folders on /dev/shm (tests/loop_folders.py): room checked, stale
ones swept, none removed while a file in it backs an attached loop device (review8)."""

from __future__ import annotations

import os
from pathlib import Path

import loop_folders
import pytest

MIB = 2**20


def _folder(shm: Path, name: str, age_s: float) -> Path:
    folder = shm / (loop_folders.PREFIX + name)
    folder.mkdir()
    (folder / "loop-backing-0.img").write_bytes(b"")
    then = folder.stat().st_mtime - age_s
    os.utime(folder, (then, then))
    return folder


def test_only_old_folders_backing_nothing_are_swept(tmp_path, monkeypatch) -> None:
    old = _folder(tmp_path, "old", 2 * loop_folders.STALE_AFTER_S)
    young = _folder(tmp_path, "young", 0)
    busy = _folder(tmp_path, "busy", 2 * loop_folders.STALE_AFTER_S)
    other = tmp_path / "someone-else"
    other.mkdir()
    os.utime(other, (0, 0))
    monkeypatch.setattr(loop_folders, "backs_a_loop_device", lambda p: p.parent == busy)
    assert loop_folders.sweep_stale(tmp_path) == [old]
    assert not old.exists() and young.exists() and busy.exists() and other.exists()


def test_room_is_twice_the_file(tmp_path) -> None:
    free = os.statvfs(tmp_path).f_bavail * os.statvfs(tmp_path).f_frsize
    assert loop_folders.has_room(tmp_path, 1)
    assert not loop_folders.has_room(tmp_path, free)  # fits once, not twice
    assert not loop_folders.has_room(tmp_path / "missing", 1)


@pytest.mark.root
def test_a_folder_backing_a_loop_device_is_kept(loop_device) -> None:
    dev = loop_device(size_bytes=4 * MIB)
    backing = Path(loop_device.backing_file(dev))
    assert loop_folders.backs_a_loop_device(backing)
    assert not loop_folders.remove_if_unattached(backing.parent)
    assert backing.exists()
