"""The mounts and swaps the kernel has: ``/proc/self/mountinfo`` read into :class:`MountEntry`
rows (the one mount-table reader of the package), the mount points of a device, the mount that
holds a path, and whether a device is active swap (``/proc/swaps``). ``blockdev.identify`` and
``file_location.py`` read them; nothing here writes."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path


def _unescape_mount(text: str) -> str:
    """Mount points in /proc/self/mountinfo escape space, tab, newline and backslash as octal."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), text)


@dataclass(frozen=True)
class MountEntry:
    """One line of /proc/self/mountinfo (proc(5)): what is mounted where."""

    dev: str  # "major:minor" of the mounted file system (st_dev of every file on it)
    mount_point: str
    fs_type: str
    source: str  # e.g. /dev/sda1, tmpfs, proc


def read_mounts() -> list[MountEntry]:
    """Every mount this process sees, from /proc/self/mountinfo; [] if it cannot be read.
    The one mount-table reader of the package."""
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        left, _, right = line.partition(" - ")
        fields = left.split()
        rest = right.split()
        if len(fields) < 5 or not rest:
            continue
        source = _unescape_mount(rest[1]) if len(rest) >= 2 else ""
        found.append(MountEntry(fields[2], _unescape_mount(fields[4]), rest[0], source))
    return found


def mounts_of(dev: str, dev_path: str) -> tuple[str, ...]:
    """Mount points whose source is this device (by major:minor, or by source path: btrfs
    reports an anonymous device number in mountinfo)."""
    found: list[str] = []
    for entry in read_mounts():
        same_source = False
        if entry.source.startswith("/dev/"):
            try:
                same_source = os.path.realpath(entry.source) == dev_path
            except OSError:
                same_source = False
        if (entry.dev == dev or same_source) and entry.mount_point not in found:
            found.append(entry.mount_point)
    return tuple(found)


def mount_holding(path: str) -> MountEntry | None:
    """The mount whose file system holds ``path`` (an existing file or directory): matched by
    device number (st_dev), else by the longest mount point that is a prefix of the path."""
    real = os.path.realpath(path)
    mounts = read_mounts()
    try:
        st = os.stat(real)
        dev = f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
    except OSError:
        dev = None
    best: MountEntry | None = None
    for entry in mounts:
        mp = entry.mount_point
        under = real == mp or real.startswith(mp.rstrip("/") + "/")
        if not under or (dev is not None and entry.dev != dev):
            continue
        if best is None or len(mp) >= len(best.mount_point):
            best = entry
    if best is None and dev is not None:  # bind mounts of a sub-tree: the device decides
        best = next((e for e in reversed(mounts) if e.dev == dev), None)
    return best


def is_swap(dev_path: str) -> bool:
    """Whether the device node ``dev_path`` (symlinks resolved) is active swap (/proc/swaps)."""
    try:
        lines = Path("/proc/swaps").read_text().splitlines()[1:]
    except OSError:
        return False
    for line in lines:
        parts = line.split()
        if parts and parts[0].startswith("/dev/") and os.path.realpath(parts[0]) == dev_path:
            return True
    return False
