"""A device's fingerprint: what shows that the device about to be written is the very device
that was confirmed (``apply``) or that an interrupted profile was writing (``profile
--resume``). See docs/safety.md.

Two parts:

* **Identity**: what the kernel and the drive say — WWN (or NVMe EUI-64/NGUID), serial
  number, model, firmware revision, size, logical and physical sector size and, for a loop
  device, the device and inode numbers (``st_dev``, ``st_ino``) of its backing file. A
  drive with a WWN or a serial number has a *strong* identity; without both (loop devices,
  many virtual disks and USB bridges) the identity is *weak*: two such devices of one size
  look alike, so a resume asks for the confirmation again.
* **Content marker**: a profile writes a run identifier into the first 4 KiB of its own data
  area (:data:`MARKER_BYTES`, which the profile's workload then leaves alone) and reads it
  back, bypassing the page cache, before it resumes. Another device — or the same device
  with a swapped backing image — does not hold this run's identifier.
"""

from __future__ import annotations

import mmap
import os
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from typing import Any

from overprov import blockdev
from overprov.blockdev import DeviceInfo, Runner, run_tool
from overprov.errors import OverprovError, UnsafeDeviceError

MARKER_BYTES = 4096
"""Size of the content marker at offset 0 of a profiled member; the workload starts after it."""
MARKER_MAGIC = b"overprov profile run marker v1\n"
_RUN_ID = re.compile(rb"run_id=([0-9a-f]{32})\n")

IDENTITY_FIELDS = (
    "wwn",
    "serial",
    "model",
    "firmware",
    "size_bytes",
    "logical_sector_bytes",
    "physical_sector_bytes",
    "backing_device",
    "backing_inode",
)
"""The fields compared; ``path`` is not: the same drive may come back under another name."""


@dataclass(frozen=True)
class Fingerprint:
    """The identity of one block device (see the module docstring)."""

    path: str
    wwn: str | None
    serial: str | None
    model: str | None
    firmware: str | None
    size_bytes: int
    logical_sector_bytes: int
    physical_sector_bytes: int
    backing_file: str | None = None
    backing_device: int | None = None
    backing_inode: int | None = None

    @property
    def strong(self) -> bool:
        """True when the drive names itself: a WWN/EUI or a serial number."""
        return bool(self.wwn or self.serial)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Fingerprint:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    def differences(self, now: Fingerprint, ignore: Iterable[str] = ()) -> list[str]:
        """Each identity field that differs, as "field: recorded X, now Y"."""
        skip = set(ignore)
        out = []
        for name in IDENTITY_FIELDS:
            if name in skip:
                continue
            old, new = getattr(self, name), getattr(now, name)
            if old != new:
                out.append(f"{name}: recorded {old!r}, now {new!r}")
        return out


def of_device(info: DeviceInfo) -> Fingerprint:
    """The fingerprint of a device from facts :func:`blockdev.identify` read (then, not now)."""
    return Fingerprint(
        path=info.path,
        wwn=info.wwn,
        serial=info.serial,
        model=info.model,
        firmware=info.firmware,
        size_bytes=info.size_bytes,
        logical_sector_bytes=info.logical_sector_bytes,
        physical_sector_bytes=info.physical_sector_bytes,
        backing_file=info.backing_file,
        backing_device=info.backing_device,
        backing_inode=info.backing_inode,
    )


def read(path: str, runner: Runner = run_tool) -> Fingerprint:
    """Read the fingerprint of the block device at ``path`` now (sysfs, lsblk; no data)."""
    return of_device(blockdev.identify(path, runner=runner, contents=False))


def check_same(recorded: Fingerprint, path: str, *, ignore: Iterable[str] = (), when: str = "",
               runner: Runner = run_tool) -> Fingerprint:  # fmt: skip
    """Re-read ``path`` and raise UnsafeDeviceError listing every field that differs from
    ``recorded``, or what uses the device now that did not when it was checked (a loop device
    attached on it, another process writing to it: ``DeviceInfo.users``). Returns the
    fingerprint read now."""
    try:
        info = blockdev.identify(path, runner=runner, contents=False)
    except (OverprovError, OSError) as exc:  # a device that cannot be re-read is not proven
        raise UnsafeDeviceError(
            f"refusing to write to {path}{when}: it cannot be re-identified ({exc})"
        ) from None
    if info.users:
        raise UnsafeDeviceError(
            f"refusing to write to {path}{when}: in use now: " + "; ".join(info.users)
        )
    now = of_device(info)
    diffs = recorded.differences(now, ignore)
    if diffs:
        raise UnsafeDeviceError(
            f"refusing to write to {path}{when}: it is not the device that was identified "
            f"({recorded.path}): " + "; ".join(diffs)
        )
    return now


# ---------------------------------------------------------------------- the content marker


def marker_block(run_id: str) -> bytes:
    """The 4 KiB written at offset 0: magic, the run identifier (32 hex digits), zeros."""
    if not re.fullmatch(r"[0-9a-f]{32}", run_id):
        raise ValueError(f"run_id: 32 lowercase hex digits expected, got {run_id!r}")
    text = MARKER_MAGIC + f"run_id={run_id}\n".encode()
    return text + bytes(MARKER_BYTES - len(text))


def write_marker(fd: int, run_id: str) -> None:
    """Write the marker at offset 0 of an open member and flush it to the device."""
    block = marker_block(run_id)
    if os.pwrite(fd, block, 0) != len(block):
        raise UnsafeDeviceError("the run marker could not be written in full")
    os.fsync(fd)


def _read_head(path: str, direct: bool) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | (os.O_DIRECT if direct else 0))
    try:
        buf = mmap.mmap(-1, MARKER_BYTES)  # page-aligned, as O_DIRECT needs
        try:
            n = os.preadv(fd, [buf], 0)
            return bytes(buf[:n])
        finally:
            buf.close()
    finally:
        os.close(fd)


def read_marker(path: str) -> str | None:
    """The run identifier at offset 0 of ``path``, read with O_DIRECT where the file system
    allows it (so a swapped device is read, not a cached copy); None if there is none."""
    real = os.path.realpath(path)
    try:
        data = _read_head(real, direct=True)
    except OSError:  # EINVAL: this file system does not do O_DIRECT
        data = _read_head(real, direct=False)
    if not data.startswith(MARKER_MAGIC):
        return None
    m = _RUN_ID.match(data, len(MARKER_MAGIC))
    return m.group(1).decode() if m else None
