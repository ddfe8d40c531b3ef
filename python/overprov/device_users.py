"""What else uses a regular file or a block device right now (docs/safety.md): the loop
devices it backs and the processes that have it open (for writing) or hold a lock on it.

The kernel does not list these as a device's ``holders`` and ``O_EXCL`` does not see them: a
loop device opens what backs it without claiming it, so ``/dev/sdb`` under ``losetup
/dev/loop3 /dev/sdb`` (or under a loop device on one of its partitions) looks free while a
file system on ``/dev/loop3`` is mounted; a virtual machine or ``dd`` writing to a disk opens
it without ``O_EXCL`` too. Everything here reads ``/sys/block`` and ``/proc``; nothing writes
(:func:`exclusive_open_busy` opens the device read-only, ``O_EXCL``, and closes it at once).

* :func:`loop_devices_on` — loop devices whose backing file is the file (by device and inode
  number, from the kernel through ``LOOP_GET_STATUS64``, as ``losetup`` reads it; the path in
  ``loop/backing_file`` is the fallback) or the block device (by device number).
* :func:`opened_by_others` — every descriptor of another process open on it (``/proc/PID/fd``),
  with its access mode and locks (``/proc/PID/fdinfo``).
* :func:`open_exclusive_unless_busy` and :func:`exclusive_open_busy` — the kernel's own answer
  (an ``O_EXCL`` open refused with EBUSY), the one probe that ``held_exclusively`` here and
  ``blockdev.open_exclusive`` / ``ensure_not_busy`` make.

Processes whose ``/proc`` entries cannot be read (other users', when not run as root) are not
seen.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

_LOOP_GET_STATUS64 = 0x4C05
_LOOP_INFO64 = struct.Struct("=QQQQQIIII64s64s32sQQ")  # struct loop_info64, linux/loop.h


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _same(st: os.stat_result, other: os.stat_result) -> bool:
    """The same file (device and inode number), or the same block device (device number,
    whichever node names it)."""
    if stat.S_ISBLK(st.st_mode):
        return stat.S_ISBLK(other.st_mode) and other.st_rdev == st.st_rdev
    return (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino)


def identity_key(path: str) -> object:
    """What names one file or device whatever the path to it: a device's number, a file's
    device and inode numbers (a missing file: its resolved path)."""
    try:
        st = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return ("block", st.st_rdev) if stat.S_ISBLK(st.st_mode) else (st.st_dev, st.st_ino)


@dataclass(frozen=True)
class Open:
    """One descriptor of another process on the file or device."""

    pid: int
    fd: int
    writing: bool
    locks: tuple[str, ...]


def command(pid: int) -> str:
    """The command line of process ``pid``, shortened to 80 characters."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        raw = b""
    words = raw.rstrip(b"\0").split(b"\0")
    text = " ".join(w.decode(errors="replace") for w in words if w)
    if not text:
        with contextlib.suppress(OSError):
            text = Path(f"/proc/{pid}/comm").read_text().strip()
    return " ".join(text.split())[:80] or "?"


def who(pid: int) -> str:
    return f"pid {pid} ({command(pid)})"


def opened_by_others(st: os.stat_result) -> list[Open]:
    """Every descriptor of another process open on what ``st`` describes (a file: its device
    and inode; a block device: its device number)."""
    me = os.getpid()
    block = stat.S_ISBLK(st.st_mode)
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        pid = int(entry.name)
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue  # gone, or not ours to read
        for name in fds:
            try:
                if not os.readlink(f"/proc/{pid}/fd/{name}").startswith("/"):
                    continue  # a pipe, socket or other object without a path
                info = Path(f"/proc/{pid}/fdinfo/{name}").read_text()
                fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
                ino = fields.get("ino")
                if not block and ino is not None and int(ino) != st.st_ino:
                    continue  # not this file: no need to look at it
                other = os.stat(f"/proc/{pid}/fd/{name}")
            except (OSError, ValueError):
                continue
            if not _same(st, other):
                continue
            flags = int(fields.get("flags", "0").strip(), 8)
            locks = tuple(
                line.split(":", 1)[1].strip()
                for line in info.splitlines()
                if line.startswith("lock:")
            )
            found.append(Open(pid, int(name), flags & os.O_ACCMODE != os.O_RDONLY, locks))
    return found


def writers(st: os.stat_result) -> list[str]:
    """ "pid N (command) has it open for writing", once per other process that does."""
    pids = sorted({o.pid for o in opened_by_others(st) if o.writing})
    return [f"{who(pid)} has it open for writing" for pid in pids]


def _loop_backing_id(name: str) -> tuple[int, int] | None:
    """(st_dev, st_ino) of what backs loop device ``name``, from the kernel
    (LOOP_GET_STATUS64), else None."""
    try:
        fd = os.open(f"/dev/{name}", os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        try:
            raw = fcntl.ioctl(fd, _LOOP_GET_STATUS64, bytes(_LOOP_INFO64.size))
        finally:
            os.close(fd)
    except OSError:
        return None
    lo_device, lo_inode = _LOOP_INFO64.unpack(raw)[:2]
    major = (lo_device & 0xFFF00) >> 8  # the kernel's new_encode_dev, undone
    minor = (lo_device & 0xFF) | ((lo_device >> 12) & 0xFFF00)
    return os.makedev(major, minor), lo_inode


def _backs(name: str, st: os.stat_result) -> bool:
    """True if loop device ``name`` is backed by what ``st`` describes."""
    kernel_id = _loop_backing_id(name)
    if kernel_id == (st.st_dev, st.st_ino):
        return True  # the very file or device node
    if kernel_id is not None and not stat.S_ISBLK(st.st_mode):
        return False
    try:  # a block device (any node of it), or the kernel could not be asked
        path = (Path("/sys/block") / name / "loop" / "backing_file").read_text().strip()
        return _same(st, os.stat(path))
    except OSError:
        return False


def loop_devices_on(st: os.stat_result) -> list[str]:
    """The loop devices (``/dev/loopN``) backed by the file or block device ``st`` describes."""
    found = []
    try:
        names = sorted(os.listdir("/sys/block"))
    except OSError:
        return found
    for name in names:
        if not name.startswith("loop") or not os.path.exists(f"/sys/block/{name}/loop"):
            continue  # not a loop device, or one with nothing attached
        if _backs(name, st):
            found.append(f"/dev/{name}")
    return found


def loop_backing(sysdir: Path) -> tuple[str | None, int | None, int | None]:
    """(backing file, its st_dev, its st_ino) of the loop device at ``sysdir``; Nones for
    other devices, and for a backing file deleted or renamed since it was attached."""
    text = _read_text(sysdir / "loop" / "backing_file")
    if not text:
        return None, None, None
    try:
        st = os.stat(text)
    except OSError:
        return text, None, None
    return text, st.st_dev, st.st_ino


def block_users(st: os.stat_result) -> list[str]:
    """What uses the block device ``st`` describes without the kernel calling it a holder,
    one phrase each: the loop devices it backs, the other processes writing to it."""
    found = [f"backs loop device {dev}" for dev in loop_devices_on(st)]
    return found + writers(st)


def open_exclusive_unless_busy(path: str, flags: int = os.O_RDONLY) -> int | None:
    """Open ``path`` with ``O_EXCL`` (and ``O_CLOEXEC``) added to ``flags``: the descriptor, or
    None when the kernel refuses the open as busy (EBUSY: mounted, active swap, an md/dm/LVM
    member, or held exclusively by another opener). Any other failure raises its OSError. On
    a block device the kernel answers this itself; the one exclusive-open probe of the
    package."""
    try:
        return os.open(path, flags | os.O_EXCL | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.EBUSY:
            return None
        raise


def exclusive_open_busy(path: str) -> bool:
    """Whether the kernel refuses an exclusive open of ``path`` now (EBUSY); the probe's
    descriptor, read-only, is closed at once. Any other failure raises its OSError."""
    fd = open_exclusive_unless_busy(path)
    if fd is None:
        return True
    os.close(fd)
    return False


def held_exclusively(path: str) -> str | None:
    """Why the kernel refuses an exclusive open of the block device ``path`` now (EBUSY, what
    ``apply --execute`` and ``profile`` meet when they open it), naming the processes that have
    it open; None if it does not. What the kernel holds without a mount, a sysfs holder or a
    process (a ZFS pool's disk) is only seen this way: the dry runs try the same open, read-only
    and closed at once (the one open here; it writes nothing). Any other failure (not root) is
    left to the run."""
    real = os.path.realpath(path)
    try:
        if not exclusive_open_busy(real):
            return None
    except OSError:
        return None
    try:
        pids = sorted({o.pid for o in opened_by_others(os.stat(real))})
    except OSError:
        pids = []
    holders = ", ".join(who(pid) for pid in pids)
    return "the kernel has it open exclusively (an exclusive open fails: busy)" + (
        f"; open in {holders}"
        if holders
        else "; no process has it open: a kernel user (a ZFS pool, an md/dm/LVM member, a "
        "filesystem) holds it"
    )
