"""A regular file as a target (profile, qualify, calibrate), checked like a device
(docs/safety.md, "Files"): whether it holds data, and whether anything else uses it.

* :func:`data_evidence` — why the file may hold data, or None when it is shown empty. The
  allocation (``st_blocks``) is not enough: many FUSE and network file systems report 0 blocks
  for a file full of data. The file is shown empty only when nothing is allocated *and* what
  is read from it is zeros: a sample of blocks spread over the file where the file system
  reports it all as a hole (``SEEK_DATA``), all of it where the file system does not say
  (up to :data:`FULL_READ_BYTES`; a larger such file cannot be shown empty).
* :func:`users` — what uses the file now, refused even with the confirmation: a loop device
  backed by it (``/sys/block/loop*``, compared by device and inode number through
  ``LOOP_GET_STATUS64``), active swap on it (``/proc/swaps``), another process holding it
  open for writing (``/proc/PID/fd`` and the flags in ``/proc/PID/fdinfo``) or holding a lock
  on it (``/proc/locks``: FLOCK, POSIX and OFD locks, by device and inode; an OFD lock's owner
  is found through the ``lock:`` lines of ``fdinfo``).

Processes whose ``/proc`` entries cannot be read (other users', when not run as root) are not
seen; the checks read the file and ``/proc``, they never write.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from overprov import device_users
from overprov.blockdev import CONFIRM_FLAG
from overprov.errors import UnsafeDeviceError

BLOCK_BYTES = 4096
SAMPLE_BLOCKS = 256
"""Blocks read, spread evenly over the file, when the file system reports it all as a hole."""
FULL_READ_BYTES = 256 * 2**20
"""A file whose file system reports no allocation at all is read whole up to this size."""

_ZEROS = bytes(2**20)


# ------------------------------------------------------------------------------ its content


def _all_zero(chunk: bytes) -> bool:
    return chunk == _ZEROS[: len(chunk)]


def _all_hole(fd: int, size: int) -> bool:
    """True if the file system says the file holds no data at all (SEEK_DATA finds none);
    False if it reports data somewhere, or does not say."""
    try:
        return os.lseek(fd, 0, os.SEEK_DATA) >= size
    except OSError as exc:
        return exc.errno == errno.ENXIO


def _read_at(fd: int, offset: int, length: int) -> bytes:
    out = b""
    while len(out) < length:
        chunk = os.pread(fd, length - len(out), offset + len(out))
        if not chunk:
            break  # end of file (it shrank): nothing more to read
        out += chunk
    return out


def _sample_offsets(size: int) -> list[int]:
    last = max(0, (size - 1) // BLOCK_BYTES)
    if last < SAMPLE_BLOCKS:
        return [i * BLOCK_BYTES for i in range(last + 1)]
    return sorted({(last * i // (SAMPLE_BLOCKS - 1)) * BLOCK_BYTES for i in range(SAMPLE_BLOCKS)})


def data_evidence(fd: int, st: os.stat_result) -> str | None:
    """Why the file open as ``fd`` may hold data (the words after 'it '), or None when it is
    shown empty (see the module docstring)."""
    size = st.st_size
    if size == 0:
        return None
    if st.st_blocks > 0:
        return f"holds {st.st_blocks * 512} bytes of data (allocated blocks)"
    try:
        all_hole = _all_hole(fd, size)
        if all_hole or size > FULL_READ_BYTES:
            # all hole by the file system's word (checked by a sample), or too large to read
            offsets = _sample_offsets(size)
            for offset in offsets:
                if not _all_zero(_read_at(fd, offset, BLOCK_BYTES)):
                    return f"holds data (a non-zero block at byte {offset})"
            if all_hole:
                return None
            return (
                f"reports no allocated blocks, yet its file system does not say where its "
                f"data lies, and at {size} bytes it is too large to read whole: the "
                f"{len(offsets)} blocks read were zeros, which does not show it empty"
            )
        # no blocks, yet the file system does not report it as a hole: read all of it
        for offset in range(0, size, len(_ZEROS)):
            chunk = _read_at(fd, offset, len(_ZEROS))
            if not _all_zero(chunk):
                at = offset + next(i for i, b in enumerate(chunk) if b)
                return f"holds data (a non-zero byte at {at}; no allocated blocks reported)"
    except OSError as exc:
        return f"cannot be read ({exc.strerror}), so it cannot be shown empty"
    return None


# ------------------------------------------------------------------------------- its users


def _lock_lines(st: os.stat_result) -> list[tuple[str, str, int]]:
    """(kind, access, pid) of every lock on the file in /proc/locks; pid -1 for OFD locks."""
    key = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    out = []
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return out
    for line in lines:
        parts = line.split()
        if parts[1] == "->":  # a waiter, shown under the lock it waits for
            parts = parts[:1] + parts[2:]
        if len(parts) >= 6 and parts[5] == key:
            with contextlib.suppress(ValueError):
                out.append((parts[1], parts[3], int(parts[4])))
    return out


def _swap_on(st: os.stat_result) -> bool:
    try:
        lines = Path("/proc/swaps").read_text().splitlines()[1:]
    except OSError:
        return False
    for line in lines:
        with contextlib.suppress(OSError, IndexError):
            other = os.stat(line.split()[0].replace("\\040", " "))
            if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
                return True
    return False


def users(st: os.stat_result) -> list[str]:
    """What, besides this process, uses the file ``st`` describes now, one phrase each
    ([] if nothing found): loop devices, swap, writers, locks."""
    reasons = [f"it backs loop device {dev}" for dev in device_users.loop_devices_on(st)]
    if _swap_on(st):
        reasons.append("it is active swap")
    opened = device_users.opened_by_others(st)
    writers = sorted({o.pid for o in opened if o.writing})
    reasons.extend(f"{device_users.who(pid)} has it open for writing" for pid in writers)
    me = os.getpid()
    for kind, access, pid in _lock_lines(st):
        if pid == me:
            continue
        if pid > 0:
            reasons.append(f"{device_users.who(pid)} holds a {access.lower()} lock on it ({kind})")
            continue
        owners = sorted({o.pid for o in opened if any(kind in lock for lock in o.locks)})
        holder = ", ".join(device_users.who(p) for p in owners) or "a process not visible here"
        reasons.append(f"{holder} holds a {access.lower()} lock on it ({kind})")
    return list(dict.fromkeys(reasons))


# ------------------------------------------------------------------------------- the rule


def check_file_target(name: str, fd: int, st: os.stat_result, *, confirmed: bool) -> None:
    """The rule for a regular file every command that writes to one applies (profile,
    qualify, calibrate): refused, naming every reason at once, when anything else uses it
    (even when confirmed), or when it may hold data and ``confirmed`` is False (not named by
    the confirmation; a file the run created or a stored run being resumed counts as
    confirmed). ``fd`` is the file open for reading, ``st`` its fstat."""
    in_use = users(st)
    evidence = None if confirmed else data_evidence(fd, st)
    if not in_use and evidence is None:
        return
    parts = []
    if in_use:
        parts.append("in use now, refused even with confirmation: " + "; ".join(in_use))
    if evidence is not None:
        parts.append(
            f"it {evidence}, and the run overwrites all of it. To go ahead, pass "
            f"{CONFIRM_FLAG} {name}"
        )
    raise UnsafeDeviceError(f"refusing to write to {name}: " + ". ".join(parts))
