"""Rotational devices among the targets of the commands that write (docs/safety.md): a loop
device that reports itself rotational (many kernels do, whatever backs it) needs only the
exact-device confirmation, unless what backs it is rotational itself (the disk holding its
backing file, or the block device it is set up over); any other rotational device is a hard
disk, where over-provisioning means nothing, and is refused unless ``--allow-hdd`` (confirming a
device does not say the user knows it is a hard disk)."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Protocol

from overprov.device_users import loop_backing

LOOP_MAJOR = "7"  # the kernel's block major number of loop devices (devices.txt)
LOOP_REASON = "is rotational (a loop device that reports itself as one)"
HARD_DISK_REASON = (
    "is rotational (a hard disk: over-provisioning does not apply); give --allow-hdd to accept it"
)
#: A loop device whose backing device is rotational (:func:`backing_rotational`).
LOOP_OVER_ROTATIONAL_REASON = (
    "is a loop device over {backing}, which is rotational (a hard disk or a virtual disk "
    "reporting itself rotational: over-provisioning does not apply); give --allow-hdd to "
    "accept it"
)
#: sysfs: block devices by name under class/block, by number (MAJOR:MINOR) under dev/block.
SYS_ROOT = Path("/sys")  # each function's ``sys_root`` where None (a test's tree otherwise)


class LoopFacts(Protocol):
    """What this module reads of a ``blockdev.DeviceInfo`` (a Protocol: blockdev imports this
    module)."""

    name: str
    dev: str
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


def reason(info: LoopFacts, sys_root: Path | None = None) -> tuple[str, bool]:
    """Why the rotational device ``info`` is refused, and whether only ``--allow-hdd`` accepts
    it (True) or the confirmation does (False): a loop device over something rotational, or
    not a loop device, needs ``--allow-hdd``."""
    if not is_loop(info.name, info.dev, info.parent):
        return HARD_DISK_REASON, True
    name, number = backing(info, sys_root)
    if backing_rotational(number, sys_root):
        return LOOP_OVER_ROTATIONAL_REASON.format(backing=name or "its backing file"), True
    return LOOP_REASON, False
