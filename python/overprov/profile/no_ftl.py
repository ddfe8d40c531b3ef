"""Targets with no flash translation layer of their own: a loop device over a regular file, a
file. Their spare area is not theirs to give: the blocks a profile leaves unwritten (its OP)
change nothing below them, and a flush reaches a file system, not a NAND program. What a run
measures there is the file system's and the drive's under it, never an SSD's own.

Read from a target's identity (``Target.identity()["members"]``): a block member's fingerprint
names a loop device's backing file (``blockdev.DeviceInfo.backing_file``; a block device set
up as one, /dev/sdb, is a drive with its FTL and is not listed); a file member is a file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from typing import Any


def is_block_device(path: str) -> bool:
    """Whether ``path`` is a block device node (a loop device set up over a drive, /dev/sdb,
    has that drive's FTL below it); a path that no longer exists here: whether it is in /dev."""
    try:
        return stat.S_ISBLK(os.stat(path).st_mode)
    except OSError:
        return path.startswith("/dev/")


def loop_backing_file(member: Mapping[str, Any]) -> str | None:
    """The file a loop device member is attached to, or None (not a loop device, or one over a
    block device)."""
    fp = member.get("fingerprint") or {}
    backing = fp.get("backing_file") if isinstance(fp, Mapping) else None
    return str(backing) if backing and not is_block_device(str(backing)) else None


def loop_members(members: Sequence[Mapping[str, Any]]) -> list[str]:
    """ "/dev/loop9 (over the file /tmp/x.img)" per member that is a loop device over a file."""
    return [
        f"{m.get('name')} (a loop device over the file {backing})"
        for m in members
        if (backing := loop_backing_file(m)) is not None
    ]


def file_members(members: Sequence[Mapping[str, Any]]) -> list[str]:
    """ "x.img (a file on ext4)" per member that is a file."""
    return [
        f"{m.get('name')} (a file" + (f" on {m['fs_type']})" if m.get("fs_type") else ")")
        for m in members
        if m.get("kind") == "file"
    ]


def op_warning(members: Sequence[Mapping[str, Any]]) -> str:
    """A warning for a profile whose members include a loop device over a file; "" else."""
    loops = loop_members(members)
    if not loops:
        return ""
    return (
        f"WARNING: {'; '.join(loops)} has no flash translation layer of its own: the OP it "
        "leaves unwritten cannot change its speed, so differences between OP levels are noise "
        "or the page cache, and a recommended OP buys nothing there"
    )


def described(members: Sequence[Mapping[str, Any]]) -> str:
    """The members with no FTL of their own (loop devices over files, files), in words; ""
    when every member is a drive."""
    return "; ".join(loop_members(members) + file_members(members))
