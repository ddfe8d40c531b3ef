"""``attach_lock()``: held while a test attaches a loop device, or detaches one and attaches
another file at the same number, so that no other test of any run on this host takes that
number in between (``losetup --find`` picks the first free one). With it the loop-device tests
run on parallel workers (docs/testing.md)."""

from __future__ import annotations

import contextlib
import fcntl
import tempfile
from collections.abc import Iterator
from pathlib import Path

LOCK_FILE = Path(tempfile.gettempdir()) / "overprov-tests-loop-attach.lock"


@contextlib.contextmanager
def attach_lock() -> Iterator[None]:
    with open(LOCK_FILE, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
