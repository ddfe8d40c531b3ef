"""Reading a drive's SMART data: a saved ``smartctl -j`` file, or smartctl run on a device."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from typing import Any

from overprov import inputs
from overprov.errors import InputError, ToolError
from overprov.smart.snapshot import SmartDataError, Snapshot, parse_snapshot

# ---------------------------------------------------------------------------------------------
# Reading files and devices


def load_json_file(path: str | os.PathLike[str]) -> Any:
    """Load a saved ``smartctl -j`` file; errors name the file."""
    try:
        return inputs.load_json(path, "smartctl -j JSON file")
    except InputError as exc:
        raise SmartDataError(
            f"{exc}; save smartctl output with 'smartctl -j -a DEVICE > FILE.json'"
        ) from None


#: Runs a tool's argv and returns its completed process (text output); raises ToolError when
#: it cannot be run or does not finish in time (the exporter's bounded runner is one).
ToolRun = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def read_device(
    device: str, smartctl: str = "smartctl", timeout_s: float = 120.0, run: ToolRun | None = None
) -> Any:
    """Run ``smartctl -j -a DEVICE`` (plus ``-l devstat`` for ATA drives) and return the JSON.

    Needs root (or read access to the device). Raises ``ToolError`` when smartctl is missing,
    cannot open the device, or prints no JSON. ``run`` runs smartctl instead of
    ``subprocess.run`` with ``timeout_s`` (it then bounds the time itself).
    """
    exe = shutil.which(smartctl)
    if exe is None:
        raise ToolError(
            f"smartctl not found ({smartctl!r}); install smartmontools (Debian: "
            "apt-get install smartmontools) or pass --smartctl PATH"
        )
    data = _run_smartctl([exe, "-j", "-a", device], device, timeout_s, run)
    tool = data.get("smartctl") if isinstance(data, dict) else None
    status = tool.get("exit_status", 0) if isinstance(tool, dict) else 0
    if isinstance(status, int) and status & 0b11:
        messages = [m.get("string", "") for m in (tool or {}).get("messages", []) or []]
        raise ToolError(
            f"smartctl could not read {device} (exit status {status}): "
            + ("; ".join(m for m in messages if m) or "no message")
            + (" — run as root" if os.geteuid() != 0 else "")
        )
    protocol = (data.get("device") or {}).get("protocol")
    if protocol == "ATA" and "ata_device_statistics" not in data:
        try:
            extra = _run_smartctl([exe, "-j", "-l", "devstat", device], device, timeout_s, run)
        except ToolError:
            extra = {}
        if isinstance(extra, dict) and "ata_device_statistics" in extra:
            data["ata_device_statistics"] = extra["ata_device_statistics"]
    return data


def _run_smartctl(argv: list[str], device: str, timeout_s: float, run: ToolRun | None) -> Any:
    try:
        if run is not None:
            proc = run(argv)
        else:
            proc = subprocess.run(
                argv, capture_output=True, text=True, timeout=timeout_s, check=False
            )
    except subprocess.TimeoutExpired:
        raise ToolError(f"smartctl on {device} did not finish in {timeout_s:g} s") from None
    except OSError as exc:
        raise ToolError(f"cannot run {argv[0]}: {exc.strerror or exc}") from None
    try:
        return inputs.decode_json(proc.stdout, f"smartctl -j on {device}", "smartctl -j output")
    except json.JSONDecodeError:
        detail = (proc.stderr or proc.stdout).strip().splitlines()
        raise ToolError(
            f"smartctl on {device} printed no JSON (exit status {proc.returncode})"
            + (f": {detail[0]}" if detail else "")
        ) from None


def is_device_path(target: str) -> bool:
    """A block or character device (or a /dev path), as opposed to a saved JSON file."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return target.startswith("/dev/")
    return stat.S_ISBLK(mode) or stat.S_ISCHR(mode)


def snapshot_from_target(target: str, smartctl: str = "smartctl") -> Snapshot:
    """A device (run smartctl now) or a saved ``smartctl -j`` file."""
    if is_device_path(target):
        return parse_snapshot(read_device(target, smartctl), target)
    return parse_snapshot(load_json_file(target), target)
