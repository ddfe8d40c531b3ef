"""Rotational devices among the targets of the commands that write (docs/safety.md): a loop
device that reports itself rotational (many kernels do, whatever backs it) needs only the
exact-device confirmation; any other rotational device is a hard disk, where over-provisioning
means nothing, and is refused unless ``--allow-hdd`` (confirming a device does not say the
user knows it is a hard disk)."""

from __future__ import annotations

import re

LOOP_MAJOR = "7"  # the kernel's block major number of loop devices (devices.txt)
LOOP_REASON = "is rotational (a loop device that reports itself as one)"
HARD_DISK_REASON = (
    "is rotational (a hard disk: over-provisioning does not apply); give --allow-hdd to accept it"
)


def is_loop(name: str, dev: str, parent: str | None) -> bool:
    """True for a loop device or a partition of one: major 7, or (a partition's extended
    device number, major 259) the kernel name loopN / loopNpM of it or of its disk."""
    if dev.split(":", 1)[0] == LOOP_MAJOR:
        return True
    return any(re.fullmatch(r"loop\d+(p\d+)?", n) for n in (name, parent or ""))
