"""Where a profile may create its test file: only on a disk-backed file system.

A misspelt device name (``/dev/sdx``) given with ``--size`` would otherwise become a regular
file in /dev — devtmpfs, in RAM — and be "profiled"; so would a file on tmpfs. The mount
table is read by :func:`overprov.mount_table.mount_holding`.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from overprov.errors import ConfigError, UnsafeDeviceError
from overprov.mount_table import MountEntry, mount_holding, read_mounts
from overprov.outputs import nearest_existing
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


# File systems that are the kernel's interfaces, not storage: a "file" there is a control. A
# write to one changes the system (/proc/sys/kernel/hostname, /proc/sysrq-trigger: "o" powers
# the machine off; efivarfs: firmware variables), so no confirmation lets a run write there.
KERNEL_INTERFACES = {
    "proc": "the kernel's process and control files (/proc/sys, /proc/sysrq-trigger)",
    "sysfs": "the kernel's device and driver controls",
    "devtmpfs": "the kernel's device-node file system (what /dev is); a regular file there "
    "is not a device",
    "devpts": "the kernel's terminal devices",
    "debugfs": "the kernel's debugging controls",
    "tracefs": "the kernel's tracing controls",
    "securityfs": "the kernel's security-module controls",
    "selinuxfs": "SELinux's controls",
    "configfs": "the kernel's configuration objects",
    "cgroup": "the kernel's control groups",
    "cgroup2": "the kernel's control groups",
    "efivarfs": "the firmware's UEFI variables (a bad write can leave the machine unbootable)",
    "bpf": "the kernel's BPF objects",
    "pstore": "the kernel's crash records",
    "binfmt_misc": "the kernel's executable formats",
    "fusectl": "the kernel's FUSE controls",
    "mqueue": "the kernel's message queues",
    "nsfs": "the kernel's namespaces",
}


def check_storage_file(name: str, st: os.stat_result) -> None:
    """Refuse (UnsafeDeviceError), whatever is confirmed, a file target that is not storage:
    not a regular file (a FIFO, a device, a directory, what a checked name was swapped for
    before it was opened), or a file on one of :data:`KERNEL_INTERFACES` (by the device
    number ``st_dev``, looked up in the mount table)."""
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeDeviceError(f"refusing to write to {name}: it is not a regular file")
    dev = f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
    entry = next((e for e in read_mounts() if e.dev == dev), None)
    if entry is not None and entry.fs_type in KERNEL_INTERFACES:
        raise UnsafeDeviceError(
            f"refusing to write to {name}: it is on {entry.mount_point} ({entry.fs_type}, "
            f"{KERNEL_INTERFACES[entry.fs_type]}), not storage: a write there changes the "
            "running system, so no confirmation allows it. Give a block device or a file "
            "on a disk-backed file system"
        )


def open_file_target(name: str, path: str) -> int:
    """Open the existing file ``path`` (resolved from the target ``name``) for a run: read and
    write, not following a symbolic link put in its place since it was checked (refused,
    UnsafeDeviceError), not waiting on a FIFO put there (:func:`check_storage_file` refuses
    it). Returns the descriptor, in blocking mode."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        raise UnsafeDeviceError(
            f"refusing to write to {name}: {path} became a symbolic link after it was checked"
        ) from None
    os.set_blocking(fd, True)
    return fd


def check_file_creatable(path: str) -> MountEntry | None:
    """Refuse (ConfigError) to create a regular file at ``path`` unless its directory is on a
    disk-backed file system: never in /dev, devtmpfs, tmpfs, ramfs, proc or sysfs. Returns the
    mount that will hold the file (None when the mount table cannot be read)."""
    real = os.path.realpath(path)
    parent = os.path.dirname(real) or "."
    if real == "/dev" or real.startswith("/dev/"):
        raise ConfigError(
            f"target: {path} does not exist, and overprov does not create files in /dev: "
            f"{_file_system_of(parent)}. Check the device name (lsblk lists the block devices)"
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


def _file_system_of(folder: str) -> str:
    """The file system a file made in ``folder`` would be on, in words: its mount point and
    type (/dev is devtmpfs, /dev/shm a tmpfs; a folder still to make, its nearest existing
    ancestor's), and what that file system is when :data:`NOT_ON_A_DISK` says."""
    entry = mount_holding(str(nearest_existing(Path(folder))))
    if entry is None:
        return "the mount table cannot be read"
    what = NOT_ON_A_DISK.get(entry.fs_type)
    return f"{entry.mount_point} is {entry.fs_type}" + (f", {what}" if what else "")


def check_missing_target(path: str, *, size_given: bool) -> MountEntry | None:
    """A target (or RAID member) that does not exist: refused (ConfigError) unless ``--size``
    is given and a file may be created there (:func:`check_file_creatable`; a name in /dev is
    a mistyped device, with or without ``--size``). The same line for a run and a dry run."""
    real = os.path.realpath(path)
    if size_given or real == "/dev" or real.startswith("/dev/"):
        entry = check_file_creatable(path)
        if size_given:
            return entry
    raise ConfigError(f"target: {path} does not exist; give --size to create it")


def target_kind(path: str) -> str:
    """``block`` or ``file`` for a target that exists; anything else is refused (ConfigError)."""
    st = os.stat(path)
    if stat.S_ISBLK(st.st_mode):
        return "block"
    if stat.S_ISREG(st.st_mode):
        check_storage_file(path, st)
        return "file"
    raise ConfigError(f"target: {path} is neither a block device nor a regular file")


def less_than_a_block(spec: str, bs_bytes: int, *, size_given: bool) -> ConfigError:
    """The error for a target that holds less than one block to test."""
    if size_given:
        return ConfigError(f"--size: less than one block ({bs_bytes} bytes)")
    return ConfigError(
        f"target: {spec} holds less than one block ({bs_bytes} bytes); give --size to grow a "
        "file to the size to test"
    )


def check_capacity(
    spec: str, capacity_bytes: int, bs_bytes: int, marker_end_bytes: int, *, size_given: bool
) -> None:
    """Refuse (ConfigError) a target that leaves nothing to test after the run marker (the
    first ``marker_end_bytes``, docs/safety.md): the marker itself would be written in part
    and the run stopped only then. The node of a DOS extended partition is such a target —
    1 KiB, the table of the logical partitions, which may be mounted."""
    if capacity_bytes <= 0:
        raise less_than_a_block(spec, bs_bytes, size_given=size_given)
    if capacity_bytes <= marker_end_bytes:
        raise ConfigError(
            f"target: {spec} holds {capacity_bytes} bytes to test, and the run marker takes "
            f"the first {marker_end_bytes}: nothing would be left (the node of an extended "
            "partition is 1 KiB, the table of its logical partitions)"
        )


def check_room(members: list[tuple[str, int]]) -> None:
    """Refuse (UnsafeDeviceError) file targets whose run would fill their file system.
    ``members``: (path, bytes the run may write to it). A run writes every tested byte, so a
    sparse file (or one ``--size`` creates or extends) grows by what it does not hold yet;
    when that is more than the file system has free for ordinary users (``f_bavail``, summed
    per file system), every other program writing there would fail with ENOSPC mid-way: a
    database, a log, the system itself. A file system that reports no size (``f_blocks`` 0,
    some FUSE ones) is not judged."""
    by_fs: dict[int, list[tuple[str, int]]] = {}
    where: dict[int, str] = {}
    for path, planned in members:
        real = os.path.realpath(path)
        if not os.path.exists(real):  # created by the run: on the file system of its folder
            real = os.path.dirname(real) or "."
        st = os.stat(real)
        held = min(st.st_blocks * 512, planned) if stat.S_ISREG(st.st_mode) else 0
        by_fs.setdefault(st.st_dev, []).append((path, planned - held))
        where.setdefault(st.st_dev, real)
    for dev, group in by_fs.items():
        vfs = os.statvfs(where[dev])
        need = sum(growth for _, growth in group)
        free = vfs.f_bavail * vfs.f_frsize
        if vfs.f_blocks == 0 or need <= free:
            continue
        names = ", ".join(name for name, _ in group)
        mount = mount_holding(where[dev])
        fs = f"its file system ({mount.mount_point})" if mount else "its file system"
        raise UnsafeDeviceError(
            f"refusing to write to {names}: the run writes up to {need:,} bytes "
            f"({human_bytes(need)}) that it does not hold yet, and {fs} has {free:,} bytes "
            f"({human_bytes(free)}) free: it would fill that file system, "
            "and every program writing there would fail; give a smaller --size or free space"
        )
