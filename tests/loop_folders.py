"""Where the ``loop_device`` fixture keeps its backing files: a folder ``overprov-loop-*`` on
/dev/shm (RAM: a loop device there is not over a disk that reports itself rotational, which
needs --allow-hdd, overprov.hard_disk) when it has room for twice the file, else the test's
tmp_path; and the sweep of such folders that an interrupted run left behind. A folder is
removed only when no file in it backs an attached loop device (``losetup -j FILE``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

SHM = Path("/dev/shm")
PREFIX = "overprov-loop-"
#: A folder younger than this may be another run's, between making its file and attaching it.
STALE_AFTER_S = 600.0


def has_room(folder: Path, size_bytes: int) -> bool:
    """Whether ``folder`` is writable and has at least twice ``size_bytes`` free."""
    if not (folder.is_dir() and os.access(folder, os.W_OK)):
        return False
    try:
        return shutil.disk_usage(folder).free >= 2 * size_bytes
    except OSError:
        return False


def make_folder(shm: Path = SHM) -> Path:
    return Path(tempfile.mkdtemp(prefix=PREFIX, dir=shm))


def backs_a_loop_device(path: Path) -> bool:
    """Whether ``path`` backs an attached loop device; True where losetup cannot say (hands
    off what cannot be checked)."""
    losetup = shutil.which("losetup") or "/usr/sbin/losetup"
    try:
        proc = subprocess.run(
            [losetup, "-j", str(path)], capture_output=True, text=True, check=False
        )
    except OSError:
        return True
    return proc.returncode != 0 or bool(proc.stdout.strip())


def remove_if_unattached(folder: Path) -> bool:
    """Remove ``folder`` if none of its files backs an attached loop device; whether it did."""
    try:
        files = [p for p in folder.iterdir() if p.is_file()]
    except OSError:
        return False
    if any(backs_a_loop_device(p) for p in files):
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True


def sweep_stale(shm: Path = SHM, now_s: float | None = None) -> list[Path]:
    """Remove the ``overprov-loop-*`` folders on ``shm`` older than :data:`STALE_AFTER_S`
    whose files back no attached loop device; the ones removed."""
    now_s = time.time() if now_s is None else now_s
    removed = []
    for folder in sorted(shm.glob(PREFIX + "*")):
        try:
            age_s = now_s - folder.stat().st_mtime
        except OSError:
            continue
        if folder.is_dir() and age_s >= STALE_AFTER_S and remove_if_unattached(folder):
            removed.append(folder)
    return removed
