"""The FUSE server of an emulated drive: one file, ``disk``, whose reads, writes, discards
(``fallocate`` punching holes, which is how a loop device passes a discard to its backing
file) and fsyncs (how a loop device passes a flush) go to the simulator core
(``overprov._core.Device``) and are answered when the simulated drive completes them.

Time: simulated time runs ``slowdown`` times slower than real time (1: real time). A request
arriving ``r`` ns after the start is issued to the drive at ``r / slowdown`` simulated ns and
answered at ``start + done × slowdown`` real ns, never earlier; a request whose answer is
ready only after that (the server was not running when it was due) is answered at once and
counted as late. Either way the drive's timeline is the core's: a host that cannot keep up
leaves the drive idle, which can only lower its IOPS, never raise them.

What the server cannot see is the time a request spends in the host before it reaches the
drive (the kernel's queue, libfuse, the Python thread waiting to run): a loaded host stretches
every request's cycle there, and ``late_requests`` does not count it. So the server sums the
simulated time each request spends in the drive (``in_drive_sim_ns_total``, with ``requests``):
a host that keeps ``n`` requests in flight and sees ``iops`` of them per second held a share
``1 − iops × latency ÷ n`` of their time itself (``overprov.emulate.host_share``).

Data: written data is kept in a sparse backing file (never-written ranges read as zeros); a
discard punches a hole in it. The simulator keeps no data, only the mapping.

Status: STATUS.json is rewritten every STATUS_INTERVAL_S, and at once when a reader looks up
``REFRESH_NAME`` in the mount (a name that is never there: ``emulate.counters``).

Run by ``overprov emulate`` (``overprov.emulate.cli``) in its own session, so a Ctrl-C at the
terminal reaches the command, which detaches the loop device before it unmounts this::

    python -m overprov.emulate.fuse_device CONFIG.json BACKING MOUNT_POINT STATUS.json SLOWDOWN
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import stat
import sys
import threading
import time
from pathlib import Path
from typing import Any

import mfusepy

from overprov import engine, inputs, outputs
from overprov.emulate.loop import DISK_NAME, REFRESH_NAME
from overprov.errors import RunError

FALLOC_FL_KEEP_SIZE = 0x01
FALLOC_FL_PUNCH_HOLE = 0x02
FALLOC_FL_ZERO_RANGE = 0x10
STATUS_INTERVAL_S = 0.5
LATE_NS = 100_000
"""An answer more than this after its simulated completion counts as late (the host could not
keep up): beyond the scheduling noise of a sleeping thread."""
MAX_BACKGROUND_REQUESTS = 64
"""Requests the kernel keeps in flight to the server (FUSE's ``max_background``; the kernel's
default is 12): a loop device's direct I/O is asynchronous, so this bounds its queue depth."""

_LIBC = ctypes.CDLL(None, use_errno=True)


class Clock:
    """Real time ↔ simulated time at a slow-down factor, and how late answers were."""

    def __init__(self, slowdown: float) -> None:
        self.slowdown = slowdown
        self.start_ns = time.monotonic_ns()
        self.late = 0
        self.late_ns_total = 0
        self._lock = threading.Lock()  # the counts, from the server's threads

    def sim_now_ns(self) -> int:
        return int((time.monotonic_ns() - self.start_ns) / self.slowdown)

    def wait_until(self, sim_done_ns: int) -> None:
        """Sleep until the real time of simulated time ``sim_done_ns`` (never return before
        it); count it late if that is past by more than ``LATE_NS`` when it returns: already
        past when the request was issued, or the thread woke late (a loaded host)."""
        due = self.start_ns + int(sim_done_ns * self.slowdown)
        left = due - time.monotonic_ns()
        while left > 0:
            time.sleep(left / 1e9)
            left = due - time.monotonic_ns()
        with self._lock:
            self.late_ns_total -= left
            if -left > LATE_NS:
                self.late += 1


class EmulatedDrive(mfusepy.Operations):
    use_ns = True

    def __init__(self, config: dict[str, Any], backing: Path, status: Path, slowdown: float):
        self.device = engine.device(config)
        counters = json.loads(self.device.counters_json())
        self.page_bytes = counters["page_size_bytes"]
        self.size_bytes = counters["user_pages"] * self.page_bytes
        self._lock = threading.Lock()
        self.clock = Clock(slowdown)
        self.fd = os.open(backing, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)  # a fresh drive
        os.ftruncate(self.fd, self.size_bytes)
        self.status = status
        self.config = config
        self.stop = threading.Event()
        self.refresh = threading.Event()
        self.errors = 0
        self.requests = 0
        self.status_refreshes = 0
        """Lookups of ``REFRESH_NAME`` served: the fresh status files readers asked for."""
        self.in_drive_sim_ns_total = 0
        """Simulated time from each request's issue to its completion, summed: the drive's
        share of the requests' time (its mean over an interval: the drive's queue depth)."""

    # ------------------------------------------------------------------ the simulator
    def _submit(self, command: str, offset: int, size: int) -> None:
        """Submit the pages ``offset .. offset + size`` touch (a trim: the whole pages inside
        it) and wait until the drive completes the request."""
        page = self.page_bytes
        if command == "trim":
            first, end = -(-offset // page), (offset + size) // page
        else:
            first, end = offset // page, -(-(offset + size) // page)
        if command != "flush" and end <= first:
            return
        with self._lock:
            issued = self.clock.sim_now_ns()
            done = self.device.submit(command, first, end - first, issued)
            self.requests += 1
            self.in_drive_sim_ns_total += done - issued
        self.clock.wait_until(done)

    def _check_range(self, offset: int, size: int) -> None:
        if offset < 0 or offset + size > self.size_bytes:
            raise mfusepy.FuseOSError(errno.EINVAL)

    # ------------------------------------------------------------------ file system
    def init(self, path: str) -> None:
        threading.Thread(target=self._write_status_loop, daemon=True).start()

    def init_with_config(self, conn_info: Any, config_3: Any) -> None:
        if conn_info is not None:
            conn_info.max_background = MAX_BACKGROUND_REQUESTS
            conn_info.congestion_threshold = MAX_BACKGROUND_REQUESTS * 3 // 4
        self.init("/")

    def destroy(self, path: str) -> None:
        self.stop.set()
        self._write_status()

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        now = time.time_ns()
        if path == "/":
            mode, size, links = stat.S_IFDIR | 0o755, 0, 2
        elif path == "/" + DISK_NAME:
            mode, size, links = stat.S_IFREG | 0o600, self.size_bytes, 1
        else:
            if path == "/" + REFRESH_NAME:
                with self._lock:
                    self.status_refreshes += 1
                self.refresh.set()  # a reader waits for counters taken after now
            raise mfusepy.FuseOSError(errno.ENOENT)
        return {"st_mode": mode, "st_nlink": links, "st_size": size, "st_uid": os.getuid(),
                "st_gid": os.getgid(), "st_atime": now, "st_mtime": now, "st_ctime": now,
                "st_blocks": -(-size // 512)}  # fmt: skip

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", DISK_NAME]

    def open(self, path: str, flags: int) -> int:
        if path != "/" + DISK_NAME:
            raise mfusepy.FuseOSError(errno.ENOENT)
        return 0

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        size = max(0, min(size, self.size_bytes - offset))
        if size == 0:
            return b""
        self._submit("read", offset, size)
        return os.pread(self.fd, size, offset)

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        self._check_range(offset, len(data))
        os.pwrite(self.fd, data, offset)
        self._submit("write", offset, len(data))
        return len(data)

    def fallocate(self, path: str, mode: int, offset: int, size: int, fh: int) -> int:
        if not mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE):
            raise mfusepy.FuseOSError(errno.EOPNOTSUPP)  # the size is fixed
        self._check_range(offset, size)
        hole = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE
        if _LIBC.fallocate(self.fd, hole, ctypes.c_long(offset), ctypes.c_long(size)) != 0:
            raise mfusepy.FuseOSError(ctypes.get_errno())
        self._submit("trim", offset, size)  # a zeroed range is deallocated, as on most SSDs
        return 0

    def fsync(self, path: str, datasync: int, fh: int) -> int:
        self._submit("flush", 0, 0)
        return 0

    def flush(self, path: str, fh: int) -> int:
        return 0  # a close, not a cache flush

    def release(self, path: str, fh: int) -> int:
        return 0

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        if length != self.size_bytes:
            raise mfusepy.FuseOSError(errno.EPERM)  # a drive's size is fixed
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        blocks = self.size_bytes // self.page_bytes
        page = self.page_bytes
        return {"f_bsize": page, "f_frsize": page, "f_blocks": blocks, "f_bfree": 0,
                "f_bavail": 0, "f_files": 2, "f_ffree": 0, "f_namemax": 255}  # fmt: skip

    # ------------------------------------------------------------------ status file
    def status_document(self) -> dict[str, Any]:
        with self._lock:
            counters = json.loads(self.device.counters_json())
            counters_unix_ns = time.time_ns()
            requests, in_drive_sim_ns = self.requests, self.in_drive_sim_ns_total
            refreshes = self.status_refreshes
        clock = self.clock
        return {
            "real_s": (time.monotonic_ns() - clock.start_ns) / 1e9,
            "simulated_s": clock.sim_now_ns() / 1e9,
            "slowdown": clock.slowdown,
            "late_requests": clock.late,
            "late_ms_total": clock.late_ns_total / 1e6,
            "requests": requests,
            "in_drive_sim_ns_total": in_drive_sim_ns,
            "size_bytes": self.size_bytes,
            "counters": counters,
            "counters_unix_ns": counters_unix_ns,
            "status_refreshes": refreshes,
        }

    def _write_status(self) -> None:
        outputs.write_atomic(self.status, outputs.json_text(self.status_document()))

    def _write_status_loop(self) -> None:
        """Every STATUS_INTERVAL_S, or at once when a reader asks (``REFRESH_NAME``)."""
        while not self.stop.is_set():
            self.refresh.wait(STATUS_INTERVAL_S)
            self.refresh.clear()  # a request from now on gets a write after it
            if self.stop.is_set():
                return
            try:
                self._write_status()
            except (OSError, RunError):
                self.errors += 1


def main(argv: list[str]) -> int:
    config_path, backing, mount_point, status, slowdown = argv
    config = inputs.load_json(config_path, "emulated drive's configuration")
    drive = EmulatedDrive(config, Path(backing), Path(status), float(slowdown))
    drive._write_status()  # the size and counters before the first request
    mfusepy.FUSE(drive, mount_point, foreground=True, nothreads=False, fsname="overprov-emulate",
                 max_threads=MAX_BACKGROUND_REQUESTS)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
