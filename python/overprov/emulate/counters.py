"""The host and NAND write counters of an emulated drive, read through its block device, as a
real drive's SMART counters are: ``overprov calibrate`` measures WAF from them."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.emulate.loop import DISK_NAME, REFRESH_NAME
from overprov.errors import InputError

#: How long to wait for a status file written after the call (it is rewritten twice a second).
FRESH_WAIT_S = 2.0


def backing_file(device: str) -> Path | None:
    """The file a loop device is attached to, or None (not a loop device, or detached)."""
    name = Path(device).resolve().name
    try:
        return Path((Path("/sys/block") / name / "loop" / "backing_file").read_text().strip())
    except OSError:
        return None


def fresh_status(device: str) -> dict[str, Any] | None:
    """The status file of the drive ``overprov emulate`` serves behind the loop device
    ``device`` (its ``DIR/mnt/disk``), once it was written after this call, or None when
    ``device`` is not such a device (or the file is not refreshed within FRESH_WAIT_S)."""
    backing = backing_file(device)
    if backing is None or backing.name != DISK_NAME or backing.parent.name != "mnt":
        return None
    status = backing.parent.parent / "status.json"
    asked_ns = time.time_ns()
    with contextlib.suppress(OSError):  # never there: the lookup asks for a fresh status file
        os.stat(backing.parent / REFRESH_NAME)
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


def write_counters(device: str) -> dict[str, int] | None:
    """``{"host_bytes", "nand_bytes"}`` of the drive ``overprov emulate`` serves behind the loop
    device ``device`` (from its status file once it was written after this call), or None when
    ``device`` is not such a device."""
    doc = fresh_status(device)
    if doc is None:
        return None
    try:
        c = doc["counters"]
        totals, page = c["totals"], int(c["page_size_bytes"])
        host_pages = int(totals["host_pages"])
        nand_pages = host_pages + int(totals["gc_pages"]) + int(totals["wl_pages"])
    except (KeyError, TypeError, ValueError):
        return None  # not the status file of overprov emulate
    return {"host_bytes": host_pages * page, "nand_bytes": nand_pages * page}
