"""A FUSE file system for the safety suite: a passthrough of one folder that reports every
file with ``st_blocks = 0``, as many FUSE file systems (and some network ones) do whatever
the file holds. It is how a file full of data looks "unallocated" to a check that trusts
allocation alone.

Run in the foreground by the ``zero_blocks_mount`` fixture::

    python zero_blocks_fuse.py SOURCE_DIR MOUNT_POINT

Needs the PyPI package ``mfusepy`` (requirements-dev.txt) and libfuse 3 with ``fusermount3``
(Debian package ``fuse3``, scripts/apt-packages.txt)."""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from typing import Any

import mfusepy

_LIBC = ctypes.CDLL(None, use_errno=True)


class ZeroBlocks(mfusepy.Operations):
    use_ns = True  # times in nanoseconds (mfusepy's current interface)

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)  # libfuse may change the working folder

    def _real(self, path: str) -> str:
        return os.path.join(self.root, path.lstrip("/"))

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        try:
            st = os.fstat(fh) if fh is not None else os.lstat(self._real(path))
        except OSError as exc:
            raise mfusepy.FuseOSError(exc.errno or errno.EIO) from None
        keys = ("st_mode", "st_nlink", "st_uid", "st_gid", "st_size", "st_atime_ns",
                "st_mtime_ns", "st_ctime_ns")  # fmt: skip
        attrs = {key.removesuffix("_ns"): getattr(st, key) for key in keys}
        attrs["st_blocks"] = 0  # the point of this file system
        return attrs

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *os.listdir(self._real(path))]

    def open(self, path: str, flags: int) -> int:
        return os.open(self._real(path), flags & ~os.O_DIRECT)

    def create(self, path: str, mode: int, fi: Any = None) -> int:
        return os.open(self._real(path), os.O_RDWR | os.O_CREAT | os.O_TRUNC, mode)

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        return os.pread(fh, size, offset)

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        return os.pwrite(fh, data, offset)

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        os.truncate(self._real(path), length)
        return 0

    def fallocate(self, path: str, mode: int, offset: int, size: int, fh: int) -> int:
        # passed on as it is: profile punches holes (FALLOC_FL_PUNCH_HOLE) for its discards
        if _LIBC.fallocate(fh, mode, ctypes.c_long(offset), ctypes.c_long(size)) != 0:
            raise mfusepy.FuseOSError(ctypes.get_errno())
        return 0

    def flush(self, path: str, fh: int) -> int:
        return 0

    def fsync(self, path: str, datasync: int, fh: int) -> int:
        os.fsync(fh)
        return 0

    def release(self, path: str, fh: int) -> int:
        os.close(fh)
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        sv = os.statvfs(self.root)
        keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files",
                "f_flag", "f_frsize", "f_namemax")  # fmt: skip
        return {key: getattr(sv, key) for key in keys}


if __name__ == "__main__":
    source, mount_point = sys.argv[1], sys.argv[2]
    mfusepy.FUSE(ZeroBlocks(os.path.abspath(source)), mount_point, foreground=True, nothreads=True)
