"""Rotational devices among the targets of the commands that write (docs/safety.md): a hard disk
(a rotational device that is not a loop device), where over-provisioning means nothing, is
refused unless ``--allow-hdd`` (confirming a device does not say the user knows it is a hard
disk). Every loop device is checked by what backs it, whatever it reports itself (a loop device
copies its backing's flag on some kernels, and reports 0 over an overlay): over a rotational
device (the disk holding its backing file, or the block device it is set up over) it needs
``--allow-hdd``; over a device whose flag is unknown (a file system with no disk of its own in
sysfs, an anonymous ``0:N`` device number: overlay, btrfs, NFS, fuse; a deleted backing file) it
needs ``--allow-hdd`` too, unless the mount table says its file is in RAM (tmpfs, ramfs) or on
overprov's own emulated drive (``overprov emulate``'s FUSE mount); a loop device that reports
itself rotational over something that is not needs only the confirmation."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from overprov import mount_table
from overprov.device_users import loop_backing

LOOP_MAJOR = "7"  # the kernel's block major number of loop devices (devices.txt)
LOOP_REASON = "is rotational (a loop device that reports itself as one)"
#: How every reason that only ``--allow-hdd`` lifts ends (:func:`needs_allow_hdd`).
ALLOW_HDD_TAIL = "give --allow-hdd to accept it"
HARD_DISK_REASON = (
    "is rotational (a hard disk: over-provisioning does not apply); " + ALLOW_HDD_TAIL
)
#: A loop device whose backing device is rotational (:func:`backing_rotational`).
LOOP_OVER_ROTATIONAL_REASON = (
    "is a loop device over {backing}, which is rotational (a hard disk or a virtual disk "
    "reporting itself rotational: over-provisioning does not apply); give --allow-hdd to "
    "accept it"
)
#: A loop device over something whose rotational flag cannot be read (:func:`reason`).
LOOP_OVER_UNKNOWN_REASON = (
    "is a loop device over {backing}, and whether the disk under it is rotational cannot be "
    "read ({why}; it may be a hard disk, where over-provisioning does not apply); " + ALLOW_HDD_TAIL
)
#: File systems in RAM: a loop device over a file on one has no disk under it to be rotational.
RAM_FILE_SYSTEMS = frozenset({"tmpfs", "ramfs"})
#: The FUSE file system name ``overprov emulate`` mounts its drive under
#: (python/overprov/emulate/fuse_device.py): a loop device over it is overprov's own emulated
#: SSD, in RAM and simulated, not a disk that may be rotational.
EMULATED_DRIVE_SOURCE = "overprov-emulate"
#: sysfs: block devices by name under class/block, by number (MAJOR:MINOR) under dev/block.
SYS_ROOT = Path("/sys")  # each function's ``sys_root`` where None (a test's tree otherwise)


class LoopFacts(Protocol):
    """What this module reads of a ``blockdev.DeviceInfo`` (a Protocol: blockdev imports this
    module)."""

    name: str
    dev: str
    rotational: bool
    parent: str | None
    backing_file: str | None
    backing_device: int | None


def is_loop(name: str, dev: str, parent: str | None) -> bool:
    """True for a loop device or a partition of one: major 7, or (a partition's extended
    device number, major 259) the kernel name loopN / loopNpM of it or of its disk."""
    if dev.split(":", 1)[0] == LOOP_MAJOR:
        return True
    return any(re.fullmatch(r"loop\d+(p\d+)?", n) for n in (name, parent or ""))


def backing(info: LoopFacts, sys_root: Path | None = None) -> tuple[str | None, int | None]:
    """(the backing file of the loop device ``info``, or of its disk for a partition of one;
    the device number of what backs it: the block device it is set up over (its node's
    st_rdev), else the device holding the file (st_dev, ``DeviceInfo.backing_device``)); Nones
    where unknown."""
    name, number = info.backing_file, info.backing_device
    if name is None and info.parent:  # a partition: its loop device's backing file
        name, number, _ = loop_backing((sys_root or SYS_ROOT) / "class" / "block" / info.parent)
    if name:
        try:
            st = os.stat(name)
        except OSError:
            st = None
        if st is not None and stat.S_ISBLK(st.st_mode):
            return name, st.st_rdev
    return name, number


def backing_rotational(number: int | None, sys_root: Path | None = None) -> bool | None:
    """The rotational flag of the block device numbered ``number`` (a partition's is its
    disk's: ``queue/rotational`` of the device, else of its parent in sysfs); None where there
    is none or the flag cannot be read."""
    if number is None:
        return None
    sysdir = (sys_root or SYS_ROOT) / "dev" / "block" / f"{os.major(number)}:{os.minor(number)}"
    for queue in (sysdir / "queue", sysdir / ".." / "queue"):
        try:
            return (queue / "rotational").read_text().strip() == "1"
        except OSError:
            continue
    return None


def needs_allow_hdd(why: str) -> bool:
    """Whether the refusal reason ``why`` is one only ``--allow-hdd`` lifts (a hard disk, a
    loop device over one or over an unknown disk): shown in a group of its own."""
    return why.endswith(ALLOW_HDD_TAIL)


def refused_groups(reasons: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Refusals no confirmation lifts, grouped as every message shows them: ("in use now",
    reasons) and ("needs --allow-hdd", the ones only ``--allow-hdd`` lifts), empty groups left
    out."""
    busy = [r for r in reasons if not needs_allow_hdd(r)]
    hdd = [r for r in reasons if needs_allow_hdd(r)]
    return [(head, got) for head, got in (("in use now", busy), ("needs --allow-hdd", hdd)) if got]


def refused_text(reasons: Sequence[str]) -> str:
    """:func:`refused_groups` on one line, as a plan or a dry run shows them ("in use now: …;
    needs --allow-hdd: …")."""
    return "; ".join(f"{head}: {'; '.join(got)}" for head, got in refused_groups(reasons))


def backing_file_system(name: str | None, number: int | None) -> mount_table.MountEntry | None:
    """The mount holding a loop device's backing: by its device number (``0:N`` for overlay,
    btrfs, NFS, fuse, tmpfs), else by the file's path; None for a deleted file or no match."""
    mounts = mount_table.read_mounts()
    if number is not None:
        dev = f"{os.major(number)}:{os.minor(number)}"
        found = next((m for m in reversed(mounts) if m.dev == dev), None)
        if found is not None:
            return found
    if name and os.path.exists(name):
        return mount_table.mount_holding(name)
    return None


def in_memory(mount: mount_table.MountEntry) -> bool:
    """Whether files on ``mount`` have no disk under them: a RAM file system (tmpfs, ramfs) or
    overprov's emulated drive (:data:`EMULATED_DRIVE_SOURCE`, a FUSE mount)."""
    emulated = mount.fs_type.startswith("fuse") and mount.source == EMULATED_DRIVE_SOURCE
    return mount.fs_type in RAM_FILE_SYSTEMS or emulated


def reason(info: LoopFacts, sys_root: Path | None = None) -> tuple[str, bool] | None:
    """Why ``info`` (a rotational device, or any loop device) is refused, and whether only
    ``--allow-hdd`` accepts it (True) or the confirmation does (False); None for a loop
    device with nothing against it. Not a loop device: a hard disk. A loop device: by what backs
    it (the module docstring), whatever it reports itself."""
    rotational = info.rotational
    if not is_loop(info.name, info.dev, info.parent):
        return (HARD_DISK_REASON, True) if rotational else None
    name, number = backing(info, sys_root)
    shown = name or "a backing file that cannot be read"
    flag = backing_rotational(number, sys_root)
    if flag:
        return LOOP_OVER_ROTATIONAL_REASON.format(backing=name or "its backing file"), True
    if flag is None:
        mount = backing_file_system(name, number)
        if mount is None or not in_memory(mount):
            why = (
                f"it is on {mount.fs_type} ({mount.source} at {mount.mount_point}), which has "
                "no disk of its own in sysfs"
                if mount is not None
                else "its backing file is deleted, or no mount holds it"
            )
            return LOOP_OVER_UNKNOWN_REASON.format(backing=shown, why=why), True
    return (LOOP_REASON, False) if rotational else None
