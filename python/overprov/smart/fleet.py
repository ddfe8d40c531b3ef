"""``overprov smart --all``: every SSD the machine has, one row each.

The drives are the whole disks under ``/sys/block`` that the kernel reports non-rotational
(``queue/rotational`` = 0, see the kernel's Documentation/block/queue-sysfs.rst) and that sit on
a device (``/sys/block/NAME/device`` exists: not a loop, RAM, zram, device-mapper or md
device). Each is read as ``overprov smart DEVICE`` reads one: smartctl, and for NVMe the
NAND-write logs through nvme-cli when the drive has one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overprov.errors import OverprovError

SYS_BLOCK = Path("/sys/block")


@dataclass(frozen=True)
class BlockDisk:
    name: str
    path: str
    size_bytes: int
    model: str | None


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def list_ssds(sys_block: Path = SYS_BLOCK) -> list[BlockDisk]:
    """Non-rotational whole disks backed by a device, in name order."""
    out = []
    for entry in sorted(sys_block.iterdir()) if sys_block.is_dir() else []:
        if not (entry / "device").exists():
            continue  # loop, ram, zram, dm-*, md*: no device behind them
        if _read(entry / "queue" / "rotational") != "0":
            continue
        sectors = int(_read(entry / "size") or 0)
        if sectors <= 0:
            continue
        out.append(BlockDisk(entry.name, f"/dev/{entry.name}", sectors * 512,
                             _read(entry / "device" / "model")))  # fmt: skip
    return out


def nvme_snapshot_of_device(device: str, nvme: str = "nvme") -> tuple[Any, str | None]:
    """(Snapshot with NAND writes from an NVMe log, None) when the drive answers one of the
    logs of ``data/nvme_log_sources.toml``; (None, why not) otherwise."""
    from overprov.smart.nvme_waf import nvme_snapshot, read_device_logs

    try:
        reading, smart = read_device_logs(device, nvme)
    except OverprovError as exc:
        return None, str(exc)
    return nvme_snapshot(reading, smart), None


def read_drive(device: str, smartctl: str, nvme: str) -> Any:
    """The lifetime report of one device: smartctl, and the NVMe NAND-write log in its place
    when the drive is NVMe and has one (the reason is noted when it has none)."""
    from overprov.smart.device import snapshot_from_target
    from overprov.smart.wear import lifetime_report

    snap = snapshot_from_target(device, smartctl)
    if snap.protocol == "NVMe" and snap.waf_counters is None:
        nvme_snap, why = nvme_snapshot_of_device(device, nvme)
        if nvme_snap is not None:
            return lifetime_report(nvme_snap)
        snap = _with_note(snap, f"NVMe NAND-write logs: {why}")
    return lifetime_report(snap)


def _with_note(snap: Any, note: str) -> Any:
    from dataclasses import replace

    return replace(snap, notes=(*snap.notes, note))


def fleet(smartctl: str = "smartctl", nvme: str = "nvme", sys_block: Path = SYS_BLOCK) -> dict:
    """{"drives": [{"device", "size_bytes", "report" | "error"}], "searched": ...}."""
    rows: list[dict[str, Any]] = []
    for disk in list_ssds(sys_block):
        row: dict[str, Any] = {"device": disk.path, "size_bytes": disk.size_bytes,
                               "model": disk.model}  # fmt: skip
        try:
            row["report"] = read_drive(disk.path, smartctl, nvme)
        except OverprovError as exc:
            row["error"] = str(exc)
        rows.append(row)
    return {"searched": f"{sys_block}/*: non-rotational disks backed by a device", "drives": rows}
