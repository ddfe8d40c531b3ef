"""The emulated drive's counters, read through its block device as a real drive's SMART
counters are: the host and NAND writes (``overprov calibrate`` measures WAF from them) and the
requests with their time in the drive (``host_share.py``: how much of a benchmark's request
time the host held). One status document of the server holds both, so one refresh serves both
(:func:`read`)."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.emulate.loop import DISK_NAME, REFRESH_NAME
from overprov.errors import InputError

#: How long to wait for a status file written after the call (it is rewritten twice a second).
FRESH_WAIT_S = 2.0
#: The status file's fields :func:`drive_time_in` keeps (``fuse_device.status_document``).
DRIVE_TIME_FIELDS = ("requests", "in_drive_sim_ns_total", "slowdown", "late_requests")


@dataclass(frozen=True)
class StatusReading:
    """One status document of an emulated drive, parsed: ``write_counters`` ``{"host_bytes",
    "nand_bytes"}`` and ``drive_time`` ``{"requests", "in_drive_sim_ns_total", "slowdown",
    "late_requests"}``, each None where the document lacks it (a server that predates it)."""

    write_counters: dict[str, int] | None
    drive_time: dict[str, Any] | None


def backing_file(device: str) -> Path | None:
    """The file a loop device is attached to, or None (not a loop device, or detached)."""
    name = Path(device).resolve().name
    try:
        return Path((Path("/sys/block") / name / "loop" / "backing_file").read_text().strip())
    except OSError:
        return None


def status_path(device: str) -> Path | None:
    """The status file of the drive ``overprov emulate`` serves behind the loop device
    ``device`` (``DIR/status.json`` beside its ``DIR/mnt/disk``), or None when ``device`` is
    not such a device. Reads no status: cheap, and no refresh."""
    backing = backing_file(device)
    if backing is None or backing.name != DISK_NAME or backing.parent.name != "mnt":
        return None
    return backing.parent.parent / "status.json"


def fresh_status(device: str) -> dict[str, Any] | None:
    """The status document of the drive ``overprov emulate`` serves behind the loop device
    ``device``, once it was written after this call (one refresh: a lookup of
    ``MNT/REFRESH_NAME``), or None when ``device`` is not such a device (or the file is not
    refreshed within FRESH_WAIT_S)."""
    status = status_path(device)
    if status is None:
        return None
    asked_ns = time.time_ns()
    with contextlib.suppress(OSError):  # never there: the lookup asks for a fresh status file
        os.stat(status.parent / "mnt" / REFRESH_NAME)
    deadline = time.monotonic() + FRESH_WAIT_S
    while True:
        try:
            doc = inputs.load_json(status, "emulated drive's status file")
        except (InputError, OSError, ValueError):
            return None
        if not isinstance(doc, dict):
            return None  # not the status file of overprov emulate
        taken_ns = doc.get("counters_unix_ns")
        if isinstance(taken_ns, int) and taken_ns >= asked_ns:
            return doc
        if time.monotonic() > deadline:
            return None
        time.sleep(0.02)


def write_counters_in(doc: dict[str, Any]) -> dict[str, int] | None:
    """``{"host_bytes", "nand_bytes"}`` written so far, from a status document; None when it
    is not the status file of ``overprov emulate``."""
    try:
        c = doc["counters"]
        totals, page = c["totals"], int(c["page_size_bytes"])
        host_pages = int(totals["host_pages"])
        nand_pages = host_pages + int(totals["gc_pages"]) + int(totals["wl_pages"])
    except (KeyError, TypeError, ValueError):
        return None
    return {"host_bytes": host_pages * page, "nand_bytes": nand_pages * page}


def drive_time_in(doc: dict[str, Any]) -> dict[str, Any] | None:
    """The requests served so far and their simulated time in the drive
    (:data:`DRIVE_TIME_FIELDS`), from a status document; None when it lacks them."""
    try:
        return {k: doc[k] for k in DRIVE_TIME_FIELDS}
    except (KeyError, TypeError):
        return None


def read(device: str) -> StatusReading | None:
    """Both readings of the drive ``overprov emulate`` serves behind the loop device
    ``device``, from one status document written after this call; None when ``device`` is not
    such a device."""
    doc = fresh_status(device)
    if doc is None:
        return None
    return StatusReading(write_counters_in(doc), drive_time_in(doc))
