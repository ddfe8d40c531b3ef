"""The loop device over an emulated drive's FUSE file: what the host needs for one, attaching
it (direct I/O, 4 KiB sectors), whether it is in use, and detaching it — only ever the loop
device this process attached, checked by its backing file before it is touched."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from overprov import device_users
from overprov.errors import OverprovError, ToolError

DETACH_WAIT_S = 10.0
DISK_NAME = "disk"
"""The one file of an emulated drive's FUSE file system."""
REFRESH_NAME = "refresh-status"
"""A name in the FUSE mount that is never there: looking it up (``os.stat(MNT/refresh-status)``
fails) makes the server rewrite its status file at once, so a reader that needs counters taken
after its call waits milliseconds, not up to the half-second interval (``emulate.counters``)."""


#: How to install emulate's Python dependency (pyproject.toml's optional extra).
EMULATE_EXTRA = "pip install 'overprov[emulate]'"


def missing() -> list[str]:
    """Why an emulated drive cannot be served here (empty: it can)."""
    reasons = []
    if not Path("/dev/fuse").exists():
        reasons.append("no /dev/fuse: this kernel or container has no FUSE")
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as exc:  # OSError: libfuse 3 itself is missing
        reasons.append(
            f"the Python package mfusepy or libfuse 3 is missing: {exc} (install "
            f"{EMULATE_EXTRA}, and libfuse 3: Debian package fuse3)"
        )
    for tool in ("fusermount3", "losetup"):
        if shutil.which(tool) is None:
            package = "fuse3" if tool == "fusermount3" else "util-linux"
            reasons.append(f"{tool} not found (Debian package {package})")
    if not Path("/dev/loop-control").exists():
        reasons.append("no /dev/loop-control: this kernel or container has no loop devices")
    if os.geteuid() != 0:
        reasons.append("attaching a loop device needs root")
    return reasons


def _sys_loop(dev: str) -> Path:
    return Path("/sys/block") / Path(dev).name / "loop"


def backing_file(dev: str) -> str | None:
    """The backing file the kernel has for loop device ``dev`` (None: not attached)."""
    try:
        return (_sys_loop(dev) / "backing_file").read_text().strip()
    except OSError:
        return None


def attach(path: Path, sector_bytes: int) -> tuple[str, bool]:
    """Attach a free loop device to ``path`` with ``sector_bytes`` sectors, direct I/O if the
    kernel takes it; returns (device, direct I/O on)."""
    base = ["losetup", "--find", "--show", "--sector-size", str(sector_bytes)]
    failures = []
    for extra in (["--direct-io=on"], []):
        proc = subprocess.run(
            [*base, *extra, str(path)], capture_output=True, text=True, check=False
        )
        if proc.returncode == 0:
            dev = proc.stdout.strip()
            if backing_file(dev) != str(path):
                raise OverprovError(f"losetup attached {dev}, but not to {path}")
            try:
                direct = (_sys_loop(dev) / "dio").read_text().strip() == "1"
            except OSError:
                direct = False
            return dev, direct
        failures.append(proc.stderr.strip())
    raise ToolError(f"losetup could not attach a loop device to {path}: {failures[-1]}")


def in_use(dev: str) -> bool:
    """Whether something holds ``dev`` exclusively (a mounted file system, a device mapper):
    :func:`device_users.exclusive_open_busy`; False when the probe cannot open it at all."""
    try:
        return device_users.exclusive_open_busy(dev)
    except OSError:
        return False


def detach(dev: str, path: Path) -> None:
    """Detach ``dev`` if it is still the loop device of ``path``; wait until it is gone."""
    if backing_file(dev) != str(path):
        return  # not ours (any more): never touch it
    proc = subprocess.run(["losetup", "--detach", dev], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise ToolError(f"losetup could not detach {dev}: {proc.stderr.strip()}")
    deadline = time.monotonic() + DETACH_WAIT_S
    while backing_file(dev) == str(path):
        if time.monotonic() > deadline:
            raise ToolError(f"{dev} still attached to {path} {DETACH_WAIT_S:.0f} s after detach")
        time.sleep(0.05)
