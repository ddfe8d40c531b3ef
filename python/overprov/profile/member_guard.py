"""Re-identifying a profile's members (docs/safety.md): what a stored run recorded about each
member against what the member is now, and the check before every write — the fingerprint
(``overprov.fingerprint``) of a device or the device and inode numbers of a file and that
nothing else uses it (``overprov.file_guard``), and the run identifier in the member's first
4 KiB."""

from __future__ import annotations

import os
from typing import Any

from overprov import file_guard, fingerprint
from overprov.errors import UnsafeDeviceError


def member_differences(kind: str, old: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """Every way member facts ``now`` differ from the stored ``old`` ones ([] if none)."""
    diffs = []
    if kind == "block":
        if "fingerprint" not in old:
            return ["the stored run predates device fingerprints; start a new profile"]
        recorded = fingerprint.Fingerprint.from_dict(old["fingerprint"])
        diffs = recorded.differences(fingerprint.Fingerprint.from_dict(now["fingerprint"]))
    else:
        for key in ("path", "device_id", "inode"):
            if old.get(key) != now.get(key):
                diffs.append(f"{key}: recorded {old.get(key)!r}, now {now.get(key)!r}")
    if old.get("run_id") is None:
        diffs.append("the stored run has no run identifier; start a new profile")
    elif now.get("run_id") != old.get("run_id"):
        diffs.append(
            f"run identifier in its first {fingerprint.MARKER_BYTES} bytes: recorded "
            f"{old.get('run_id')!r}, now {now.get('run_id')!r}"
        )
    return diffs


def check_before_write(
    kind: str, name: str, info: dict[str, Any], fd: int, *, mark: bool, what: str
) -> None:
    """Raise UnsafeDeviceError unless the member is still the one ``info`` describes; then
    write the run marker if ``mark``, and raise unless it holds this run's identifier."""
    path = info["path"]
    when = f" ({what})"
    if kind == "block":
        recorded = fingerprint.Fingerprint.from_dict(info["fingerprint"])
        fingerprint.check_same(recorded, path, when=when)
    else:
        st = os.stat(path)
        if (st.st_dev, st.st_ino) != (info["device_id"], info["inode"]):
            raise UnsafeDeviceError(
                f"refusing to write to {name}{when}: it is no longer the file that was opened "
                "(device or inode number changed)"
            )
        in_use = file_guard.users(st)
        if in_use:
            raise UnsafeDeviceError(
                f"refusing to write to {name}{when}: in use now: " + "; ".join(in_use)
            )
    if mark:  # only once the member is shown to be the one identified
        fingerprint.write_marker(fd, info["run_id"])
    found = fingerprint.read_marker(path)
    if found != info["run_id"]:
        raise UnsafeDeviceError(
            f"refusing to write to {name}{when}: its first {fingerprint.MARKER_BYTES} bytes "
            f"hold run identifier {found!r}, not this run's {info['run_id']!r}"
        )
