"""Where a profile may create its test file: only on a disk-backed file system.

A misspelt device name (``/dev/sdx``) given with ``--size`` would otherwise become a regular
file in /dev — devtmpfs, in RAM — and be "profiled"; so would a file on tmpfs. The mount
table is read by :func:`overprov.blockdev.mount_holding`.
"""

from __future__ import annotations

import os

from overprov.blockdev import MountEntry, mount_holding
from overprov.errors import ConfigError, UnsafeDeviceError
from overprov.units import human_bytes

# File systems that live in memory or are the kernel's own views: a file created there is not
# on a drive, so profiling it measures nothing and (in /dev) shadows a device name.
NOT_ON_A_DISK = {
    "devtmpfs": "the kernel's device-node file system (what /dev is): a file there is not a "
    "device and lives in RAM",
    "tmpfs": "a RAM file system: nothing written there reaches a drive",
    "ramfs": "a RAM file system: nothing written there reaches a drive",
    "proc": "the kernel's process information, not storage",
    "sysfs": "the kernel's device information, not storage",
}


def check_file_creatable(path: str) -> MountEntry | None:
    """Refuse (ConfigError) to create a regular file at ``path`` unless its directory is on a
    disk-backed file system: never in /dev, devtmpfs, tmpfs, ramfs, proc or sysfs. Returns the
    mount that will hold the file (None when the mount table cannot be read)."""
    real = os.path.realpath(path)
    parent = os.path.dirname(real) or "."
    if real == "/dev" or real.startswith("/dev/"):
        raise ConfigError(
            f"target: {path} does not exist, and overprov does not create files in /dev: "
            "it is the kernel's device-node directory (devtmpfs, in RAM). Check the device "
            "name (lsblk lists the block devices)"
        )
    if not os.path.isdir(parent):
        raise ConfigError(f"target: cannot create {path}: {parent} is not a directory")
    entry = mount_holding(parent)
    if entry is not None and entry.fs_type in NOT_ON_A_DISK:
        raise ConfigError(
            f"target: will not create {path}: {entry.mount_point} is {entry.fs_type}, "
            f"{NOT_ON_A_DISK[entry.fs_type]}; create the file on a disk-backed file system"
        )
    return entry


def check_room(members: list[tuple[str, int, int]]) -> None:
    """Refuse (UnsafeDeviceError) file targets whose run would fill their file system.
    ``members``: (name, open descriptor, bytes the run may write to it). A run writes every
    tested byte, so a sparse file (or one ``--size`` extends) grows by what it does not hold
    yet; when that is more than the file system has free for ordinary users (``f_bavail``,
    summed per file system), every other program writing there would fail with ENOSPC
    mid-way: a database, a log, the system itself. A file system that reports no size
    (``f_blocks`` 0, some FUSE ones) is not judged."""
    by_fs: dict[int, list[tuple[str, int, int]]] = {}
    for name, fd, planned in members:
        st = os.fstat(fd)
        growth = max(0, planned - min(st.st_blocks * 512, planned))
        by_fs.setdefault(st.st_dev, []).append((name, fd, growth))
    for group in by_fs.values():
        vfs = os.fstatvfs(group[0][1])
        need = sum(growth for _, _, growth in group)
        free = vfs.f_bavail * vfs.f_frsize
        if vfs.f_blocks == 0 or need <= free:
            continue
        names = ", ".join(name for name, _, _ in group)
        where = mount_holding(os.path.dirname(os.path.realpath(group[0][0])) or ".")
        fs = f"its file system ({where.mount_point})" if where else "its file system"
        raise UnsafeDeviceError(
            f"refusing to write to {names}: the run writes up to {need:,} bytes "
            f"({human_bytes(need)}) that it does not hold yet, and {fs} has {free:,} bytes "
            f"({human_bytes(free)}) free: it would fill that file system, "
            "and every program writing there would fail; give a smaller --size or free space"
        )
