"""Discarding a range of a profiled member: TRIM on a block device (the ``BLKDISCARD``
ioctl, what ``blkdiscard -o OFFSET -l LENGTH`` does), a punched hole in a regular file
(``fallocate(FALLOC_FL_PUNCH_HOLE)``, see fallocate(2)); the freed space is what acts as OP."""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import struct

from overprov.errors import ToolError

BLKDISCARD = 0x1277  # _IO(0x12, 119)
FALLOC_FL_KEEP_SIZE = 0x01
FALLOC_FL_PUNCH_HOLE = 0x02


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL("libc.so.6", use_errno=True)


def punch_hole(fd: int, offset: int, length: int) -> str:
    """Deallocate [offset, offset+length) of a regular file, keeping its size.
    Falls back to truncate-and-extend when the file system cannot punch holes."""
    if length <= 0:
        return "nothing to discard"
    libc = _libc()
    libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
    rc = libc.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, length)
    if rc == 0:
        return f"punched a hole over {length} bytes at offset {offset} (fallocate -p)"
    err = ctypes.get_errno()
    if err not in (errno.EOPNOTSUPP, errno.ENOSYS):
        raise ToolError(f"fallocate(PUNCH_HOLE) failed: {os.strerror(err)}")
    size = os.fstat(fd).st_size
    if offset + length < size:
        raise ToolError(
            f"the file system cannot punch holes ({os.strerror(err)}) and the range "
            f"[{offset}, {offset + length}) is not the file's tail"
        )
    os.ftruncate(fd, offset)
    os.ftruncate(fd, size)
    return f"file system cannot punch holes: truncated to {offset} and extended back to {size}"


def blk_discard(fd: int, offset: int, length: int) -> str:
    """BLKDISCARD ioctl (what ``blkdiscard -o OFFSET -l LENGTH`` does) on an open device."""
    if length <= 0:
        return "nothing to discard"
    try:
        fcntl.ioctl(fd, BLKDISCARD, struct.pack("QQ", offset, length))
    except OSError as exc:
        raise ToolError(f"BLKDISCARD of {length} bytes at {offset} failed: {exc.strerror}") from exc
    return f"discarded {length} bytes at offset {offset} (BLKDISCARD, as blkdiscard -o -l)"
