"""The standard NVMe SMART / Health Information log (02h) as nvme-cli prints it.

Host writes on NVMe: ``data_units_written`` counts units of 1000 × 512 bytes = 512,000 bytes
(NVM Express Base Specification, SMART / Health Information log, Data Units Written: "reported
in thousands (i.e., a value of 1 corresponds to 1000 units of 512 bytes written)"). Reads the
output of ``nvme smart-log DEVICE -o json`` or its text, and also ``smartctl -j -a`` JSON of an
NVMe drive (through ``overprov.smart``), so a saved smartctl file can stand in for the log.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from overprov import inputs
from overprov.smart.nvme_logs import NvmeLogError
from overprov.smart.snapshot import Counter, parse_snapshot
from overprov.smart.tables import NVME_DATA_UNIT_BYTES


@dataclass(frozen=True)
class NvmeSmartLog:
    """What WAF and wear need from the standard log."""

    file: str
    format: str  # "nvme-cli json", "nvme-cli text" or "smartctl json"
    host_writes: Counter | None
    percentage_used: float | None
    available_spare_percent: float | None
    power_on_hours: int | None
    model: str | None = None
    serial: str | None = None
    capacity_bytes: int | None = None


# nvme-cli text lines (nvme-print-stdout.c): "Data Units Written : 1,234 (632.10 GB)",
# "percentage_used : 3%", "available_spare : 100%", "power_on_hours : 1,234".
_TEXT_FIELDS = {
    "data_units_written": re.compile(r"^[ \t]*Data Units Written\s*:\s*([\d,]+)", re.M | re.I),
    "percentage_used": re.compile(r"^[ \t]*percentage_used\s*:\s*(\d+)\s*%", re.M),
    "available_spare": re.compile(r"^[ \t]*available_spare\s*:\s*(\d+)\s*%", re.M),
    "power_on_hours": re.compile(r"^[ \t]*power_on_hours\s*:\s*([\d,]+)", re.M),
}


def _host_counter(units: int, field: str) -> Counter:
    return Counter(units, NVME_DATA_UNIT_BYTES, f"{field} {units:,} × 512,000 B", field)


def _json_number(data: dict[str, Any], keys: tuple[str, ...], file: str) -> int | None:
    for key in keys:
        if key in data and data[key] is not None:
            value = data[key]
            if isinstance(value, str):
                value = value.replace(",", "").strip()
            try:
                return int(value)
            except (TypeError, ValueError):
                raise NvmeLogError(f"{file}: {key}: expected a number, got {data[key]!r}") from None
    return None


def parse_smart_log(text: str, file: str = "<text>") -> NvmeSmartLog:
    """Read an ``nvme smart-log`` output (JSON or text) or an NVMe ``smartctl -j`` file."""
    if text.lstrip().startswith("{"):
        try:
            data = inputs.decode_json(text, file, "saved nvme-cli JSON output")
        except json.JSONDecodeError as exc:
            raise NvmeLogError(f"{file}: line {exc.lineno}: not valid JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise NvmeLogError(f"{file}: expected a JSON object")
        if "nvme_smart_health_information_log" in data or "smartctl" in data:
            return _from_smartctl(data, file)
        units = _json_number(data, ("data_units_written",), file)
        if units is None:
            raise NvmeLogError(
                f"{file}: no data_units_written: not an 'nvme smart-log -o json' output"
            )
        used = _json_number(data, ("percent_used", "percentage_used"), file)
        spare = _json_number(data, ("avail_spare", "available_spare"), file)
        return NvmeSmartLog(
            file=file,
            format="nvme-cli json",
            host_writes=_host_counter(units, "smart-log data_units_written"),
            percentage_used=None if used is None else float(used),
            available_spare_percent=None if spare is None else float(spare),
            power_on_hours=_json_number(data, ("power_on_hours",), file),
        )
    found: dict[str, int] = {}
    for key, pattern in _TEXT_FIELDS.items():
        m = pattern.search(text)
        if m is not None:
            found[key] = int(m.group(1).replace(",", ""))
    if "data_units_written" not in found:
        raise NvmeLogError(f"{file}: no 'Data Units Written' line: not an 'nvme smart-log' output")
    return NvmeSmartLog(
        file=file,
        format="nvme-cli text",
        host_writes=_host_counter(found["data_units_written"], "smart-log Data Units Written"),
        percentage_used=float(found["percentage_used"]) if "percentage_used" in found else None,
        available_spare_percent=(
            float(found["available_spare"]) if "available_spare" in found else None
        ),
        power_on_hours=found.get("power_on_hours"),
    )


def _from_smartctl(data: dict[str, Any], file: str) -> NvmeSmartLog:
    snap = parse_snapshot(data, file)
    log = data.get("nvme_smart_health_information_log")
    spare = log.get("available_spare") if isinstance(log, dict) else None
    return NvmeSmartLog(
        file=file,
        format="smartctl json",
        host_writes=snap.host_writes,
        percentage_used=snap.percentage_used,
        available_spare_percent=None if spare is None else float(spare),
        power_on_hours=snap.power_on_hours,
        model=snap.model,
        serial=snap.serial,
        capacity_bytes=snap.capacity_bytes,
    )
