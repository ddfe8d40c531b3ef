"""What the drive already knows: WAF and wear from ``smartctl -j`` (DOMAIN.md §10).

A drive in service counts the bytes the host wrote and, on many SSDs, the bytes it programmed
into NAND. Their ratio is the drive's real write amplification (WAF = NAND writes / host
writes). Together with the wear indicator (percentage of rated endurance used) and the
power-on hours it tells how fast the drive is wearing and how long it will last at the
observed rate.

Sources, most specific first:

- **NVMe** standard log ``nvme_smart_health_information_log``: ``data_units_written`` (units of
  1000 × 512 bytes), ``percentage_used``. It has no NAND-write counter.
- **ATA device statistics** (``ata_device_statistics``, ``smartctl -l devstat``): page 1
  "Logical Sectors Written", page 7 "Percentage Used Endurance Indicator".
- **Vendor ATA attributes** (``ata_smart_attributes``), recognised by id *and* by the name
  smartctl's drive database gives them, since ids mean different things on different
  controllers (``VENDOR_NAND_COUNTERS``, ``HOST_WRITE_ATTRIBUTES``, ``WEAR_ATTRIBUTES``).
- **SCSI/SAS**: ``scsi_percentage_used_endurance_indicator`` and the write error-counter log.

Hard disks (``rotation_rate`` > 0) are recognised and reported as such: WAF and NAND wear do
not apply to them. Library functions raise ``SmartDataError`` (an ``OverprovError``) naming
the file and the field; only ``overprov.cli`` turns that into an exit code.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from overprov.errors import OverprovError, ToolError
from overprov.units import human_bytes

SECTOR_BYTES = 512
MIB = 2**20
GIB = 2**30
GB = 10**9
NVME_DATA_UNIT_BYTES = 512_000  # NVMe "data unit": 1000 units of 512 bytes

UNITS: dict[str, int] = {"32MiB": 32 * MIB, "MiB": MIB, "GiB": GIB, "GB": GB}


class SmartDataError(OverprovError, ValueError):
    """smartctl output that cannot be read; the message names the file and the field."""


# ---------------------------------------------------------------------------------------------
# Vendor tables. Names are the labels smartctl's drive database (drivedb.h) gives the
# attributes; "LBA" means the drive's logical sector size (512 bytes unless smartctl says
# otherwise).


@dataclass(frozen=True)
class AttributeRule:
    id: int
    name: str
    unit: str  # a key of UNITS, "LBA" (logical sectors) or "page" (NAND pages, size unknown)
    vendor: str
    note: str = ""


# Host writes, in order of preference (a name with an explicit unit beats "LBAs": Dell's S3520
# firmware, for one, reports 32 MiB units in attributes smartctl labels Total_LBAs_Written).
HOST_WRITE_ATTRIBUTES: tuple[AttributeRule, ...] = (
    AttributeRule(241, "Host_Writes_32MiB", "32MiB", "Intel / Silicon Motion"),
    AttributeRule(225, "Host_Writes_32MiB", "32MiB", "Intel"),
    AttributeRule(241, "Host_Writes_GiB", "GiB", "WD / Kingston / Seagate"),
    AttributeRule(241, "Lifetime_Writes_GiB", "GiB", "Phison / SandForce"),
    AttributeRule(241, "Total_Writes_GiB", "GiB", "SanDisk / Seagate"),
    AttributeRule(241, "Lifetime_Wts_Frm_Hst_GB", "GB", "Seagate"),
    AttributeRule(241, "Host_Writes_MiB", "MiB", "generic"),
    AttributeRule(246, "Total_LBAs_Written", "LBA", "Micron/Crucial"),
    AttributeRule(241, "Total_LBAs_Written", "LBA", "generic"),
)


@dataclass(frozen=True)
class NandRule:
    """NAND writes = the sum of ``attributes``; the WAF divides them by the host writes."""

    vendor: str
    attributes: tuple[AttributeRule, ...]
    families: tuple[str, ...] = ()  # only for drives whose model family contains one of these
    unit_assumed: bool = False  # the unit is not documented: cross-check it where possible


VENDOR_NAND_COUNTERS: tuple[NandRule, ...] = (
    NandRule(
        "Intel",
        (AttributeRule(243, "NAND_Writes_32MiB", "32MiB", "Intel"),),
    ),
    NandRule(
        "Intel",
        (AttributeRule(249, "NAND_Writes_1GiB", "GiB", "Intel / Samsung"),),
    ),
    NandRule(
        "Phison/Kingston",
        (AttributeRule(233, "Flash_Writes_GiB", "GiB", "Phison"),),
    ),
    NandRule(
        "SandForce",
        (
            AttributeRule(
                233,
                "SandForce_Internal",
                "GiB",
                "SandForce",
                "SandForce firmware counts NAND writes in GiB in attribute 233",
            ),
        ),
        families=("SandForce",),
        unit_assumed=True,
    ),
    NandRule(
        "WD",
        (
            AttributeRule(233, "NAND_GB_Written_TLC", "GiB", "WD"),
            AttributeRule(234, "NAND_GB_Written_SLC", "GiB", "WD"),
        ),
        unit_assumed=True,
    ),
    NandRule(
        "Samsung",
        (
            AttributeRule(
                251,
                "NAND_Writes",
                "LBA",
                "Samsung",
                "unit not documented; taken as 512-byte sectors like attribute 241",
            ),
        ),
        unit_assumed=True,
    ),
    NandRule(
        "Silicon Motion",
        (
            AttributeRule(245, "TLC_Writes_32MiB", "32MiB", "Silicon Motion"),
            AttributeRule(246, "SLC_Writes_32MiB", "32MiB", "Silicon Motion"),
        ),
    ),
    NandRule(
        "Seagate",
        (AttributeRule(233, "Lifetime_Wts_To_Flsh_GB", "GB", "Seagate"),),
    ),
    NandRule(
        "Seagate",
        (AttributeRule(234, "Lifetime_Nand_Gb", "GiB", "Seagate"),),
        unit_assumed=True,
    ),
    NandRule(
        "SanDisk",
        (AttributeRule(233, "Total_NAND_Writes_GiB", "GiB", "SanDisk"),),
    ),
    NandRule(
        "SK hynix",
        (AttributeRule(234, "Lifetime_NAND_Prg_GiB", "GiB", "SK hynix"),),
    ),
    NandRule(
        "Innodisk",
        (AttributeRule(233, "Flash_Writes_32MiB", "32MiB", "Innodisk"),),
    ),
)

# Micron/Crucial count NAND pages programmed for the host (247) and by the FTL (248): WAF =
# (247 + 248) / 247, a ratio of page counts (the page size is not reported).
MICRON_HOST_PAGES = 247
MICRON_FTL_PAGES = 248
MICRON_FTL_PAGE_NAMES = ("Bckgnd_Program_Page_Cnt", "FTL_Program_Page_Count")


@dataclass(frozen=True)
class WearRule:
    """How an attribute gives the percentage of rated endurance used."""

    id: int
    name: str
    reading: str  # "100-normalized", "100-raw" or "raw"
    families: tuple[str, ...] = ()


WEAR_ATTRIBUTES: tuple[WearRule, ...] = (
    WearRule(233, "Media_Wearout_Indicator", "100-normalized"),  # Intel
    WearRule(202, "Percent_Lifetime_Remain", "100-normalized"),  # Micron/Crucial
    WearRule(202, "Perc_Rated_Life_Used", "raw"),  # older Crucial
    WearRule(177, "Wear_Leveling_Count", "100-normalized", ("Samsung", "SAMSUNG")),
    WearRule(231, "SSD_Life_Left", "100-raw", ("Phison",)),  # raw is life left in Phison's spec
    WearRule(231, "SSD_Life_Left", "100-normalized"),  # SandForce, Kingston, Seagate
    WearRule(231, "SSD_Life_Left_Perc", "100-normalized"),  # Seagate Nytro
    WearRule(245, "Percent_Life_Remaining", "100-normalized"),  # Dell/Intel S3520
    WearRule(169, "Remaining_Lifetime_Perc", "100-raw"),  # Silicon Motion
)

# Average program/erase cycles per block.
ERASE_COUNT_ATTRIBUTES: tuple[WearRule, ...] = (
    WearRule(173, "Avg_Block-Erase_Count", "raw"),  # Micron
    WearRule(173, "Wear_Leveling_Count", "raw"),  # Crucial
    WearRule(177, "Wear_Leveling_Count", "raw", ("Samsung", "SAMSUNG")),  # Samsung: avg P/E
    WearRule(244, "Average_Erase_Count", "raw"),  # Phison
    WearRule(173, "MaxAvgErase_Ct", "average"),  # Phison: raw string "888 (Average 808)"
    WearRule(173, "Average_PE_Cycles_TLC", "raw"),  # WD
    WearRule(173, "Avg_Program/Erase_Ct", "raw"),  # Seagate
)


# ---------------------------------------------------------------------------------------------
# Parsed snapshot


@dataclass(frozen=True)
class Counter:
    """A write counter: ``count`` units of ``unit_bytes`` (None for NAND pages of unknown size)."""

    count: int
    unit_bytes: int | None
    source: str  # where the count came from, with the arithmetic
    field: str = ""  # the JSON field (or attribute) holding it

    @property
    def bytes(self) -> int | None:
        return None if self.unit_bytes is None else self.count * self.unit_bytes


@dataclass(frozen=True)
class WafCounters:
    """NAND and host writes in one common unit (bytes, or NAND pages for Micron)."""

    vendor: str
    nand: int
    host: int
    unit: str  # "bytes" or "NAND pages"
    formula: str
    parts: dict[str, int]  # the raw counters that went in, by "id Name"
    note: str = ""
    unit_assumed: bool = False  # the vendor does not document the NAND counter's unit

    @property
    def waf(self) -> float | None:
        return self.nand / self.host if self.host > 0 else None


@dataclass(frozen=True)
class Snapshot:
    """One ``smartctl -j`` reading of one drive, reduced to what WAF and wear need."""

    source: str
    model: str | None
    serial: str | None
    model_family: str | None
    protocol: str | None
    kind: str  # "ssd", "hdd" or "unknown"
    rotation_rate_rpm: int | None
    capacity_bytes: int | None
    power_on_hours: int | None
    host_writes: Counter | None
    waf_counters: WafCounters | None
    percentage_used: float | None
    percentage_used_source: str | None
    avg_erase_count: int | None
    avg_erase_count_source: str | None
    notes: tuple[str, ...] = ()


def _where(source: str, path: str) -> str:
    return f"{source}: field {path}"


def _as_int(value: Any, source: str, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SmartDataError(f"{_where(source, path)}: expected an integer, got {value!r}")
    return value


def _opt_int(obj: Mapping[str, Any], key: str, source: str, path: str) -> int | None:
    if key not in obj or obj[key] is None:
        return None
    return _as_int(obj[key], source, f"{path}.{key}" if path else key)


def _as_object(value: Any, source: str, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SmartDataError(f"{_where(source, path)}: expected a JSON object, got {value!r}")
    return value


@dataclass(frozen=True)
class _Attribute:
    id: int
    name: str
    value: int | None  # normalized
    raw: int
    raw_string: str
    path: str


def _attributes(data: Mapping[str, Any], source: str) -> dict[int, _Attribute]:
    if "ata_smart_attributes" not in data:
        return {}
    block = _as_object(data["ata_smart_attributes"], source, "ata_smart_attributes")
    table = block.get("table", [])
    if not isinstance(table, list):
        raise SmartDataError(
            f"{_where(source, 'ata_smart_attributes.table')}: expected a list, got {table!r}"
        )
    out: dict[int, _Attribute] = {}
    for i, entry in enumerate(table):
        path = f"ata_smart_attributes.table[{i}]"
        entry = _as_object(entry, source, path)
        attr_id = _as_int(entry.get("id"), source, f"{path}.id")
        name = entry.get("name", "")
        if not isinstance(name, str):
            raise SmartDataError(f"{_where(source, path + '.name')}: expected a string")
        raw = _as_object(entry.get("raw"), source, f"{path}.raw")
        raw_value = _as_int(raw.get("value"), source, f"{path}.raw.value")
        if raw_value < 0:
            raise SmartDataError(f"{_where(source, path + '.raw.value')}: negative counter")
        normalized = entry.get("value")
        if normalized is not None:
            normalized = _as_int(normalized, source, f"{path}.value")
        out[attr_id] = _Attribute(
            id=attr_id,
            name=name,
            value=normalized,
            raw=raw_value,
            raw_string=str(raw.get("string", raw_value)),
            path=path,
        )
    return out


def _device_statistic(
    data: Mapping[str, Any], source: str, page_number: int, entry_name: str
) -> tuple[int, str] | None:
    """A valid entry of ``ata_device_statistics`` (``smartctl -l devstat``)."""
    if "ata_device_statistics" not in data:
        return None
    block = _as_object(data["ata_device_statistics"], source, "ata_device_statistics")
    pages = block.get("pages", [])
    if not isinstance(pages, list):
        raise SmartDataError(f"{_where(source, 'ata_device_statistics.pages')}: expected a list")
    for p, page in enumerate(pages):
        page = _as_object(page, source, f"ata_device_statistics.pages[{p}]")
        if page.get("number") != page_number:
            continue
        for e, entry in enumerate(page.get("table", []) or []):
            path = f"ata_device_statistics.pages[{p}].table[{e}]"
            entry = _as_object(entry, source, path)
            if entry.get("name") != entry_name:
                continue
            flags = entry.get("flags") or {}
            if isinstance(flags, dict) and flags.get("valid") is False:
                return None
            if "value" not in entry:
                return None
            return _as_int(entry["value"], source, f"{path}.value"), path
    return None


def _family_matches(rule_families: tuple[str, ...], family: str | None, model: str | None) -> bool:
    if not rule_families:
        return True
    text = f"{family or ''} {model or ''}"
    return any(f in text for f in rule_families)


def _unit_bytes(unit: str, sector_bytes: int) -> int | None:
    if unit == "LBA":
        return sector_bytes
    if unit == "page":
        return None
    return UNITS[unit]


def _unit_text(unit: str, sector_bytes: int) -> str:
    if unit == "LBA":
        return f"{sector_bytes} B"
    if unit == "32MiB":
        return "32 MiB"
    return f"1 {unit}"


def _classify(
    data: Mapping[str, Any], source: str, protocol: str | None, attrs: dict[int, _Attribute]
) -> tuple[str, int | None]:
    rotation = data.get("rotation_rate")
    if rotation is not None:
        rotation = _as_int(rotation, source, "rotation_rate")
        if rotation > 0:
            return "hdd", rotation
        return "ssd", 0
    if protocol == "NVMe" or "nvme_smart_health_information_log" in data:
        return "ssd", None
    if "scsi_percentage_used_endurance_indicator" in data:
        return "ssd", None
    family = str(data.get("model_family") or "")
    if "SSD" in family or "Solid State" in family:
        return "ssd", None
    if any(a.name in {r.name for r in WEAR_ATTRIBUTES} for a in attrs.values()):
        return "ssd", None
    return "unknown", None


def parse_snapshot(data: Any, source: str) -> Snapshot:
    """Reduce one ``smartctl -j`` document to a ``Snapshot``.

    Raises ``SmartDataError`` naming ``source`` and the JSON field when the document is not
    smartctl output, smartctl could not read the device, or a counter has the wrong type.
    """
    data = _as_object(data, source, "(top level)")
    if not any(k in data for k in ("smartctl", "device", "model_name")):
        raise SmartDataError(
            f"{source}: not smartctl -j output (no 'smartctl', 'device' or 'model_name' field)"
        )
    tool = data.get("smartctl")
    if isinstance(tool, dict) and tool.get("exit_status") is not None:
        exit_status = _as_int(tool["exit_status"], source, "smartctl.exit_status")
        if exit_status & 0b11:
            messages = [
                m.get("string", "") for m in tool.get("messages", []) or [] if isinstance(m, dict)
            ]
            detail = "; ".join(m for m in messages if m) or "no message"
            raise SmartDataError(
                f"{source}: smartctl could not read the device (field smartctl.exit_status = "
                f"{exit_status}): {detail}"
            )

    device = data.get("device") or {}
    device = _as_object(device, source, "device")
    protocol = device.get("protocol")
    model = data.get("model_name") or data.get("product") or device.get("model_name")
    family = data.get("model_family")
    serial = data.get("serial_number")
    attrs = _attributes(data, source)
    kind, rpm = _classify(data, source, protocol, attrs)

    sector = _opt_int(data, "logical_block_size", source, "") or SECTOR_BYTES
    capacity = None
    if isinstance(data.get("user_capacity"), dict):
        capacity = _opt_int(data["user_capacity"], "bytes", source, "user_capacity")
    if capacity is None:
        capacity = _opt_int(data, "nvme_total_capacity", source, "")

    power_on_hours = None
    if isinstance(data.get("power_on_time"), dict):
        power_on_hours = _opt_int(data["power_on_time"], "hours", source, "power_on_time")
    nvme = data.get("nvme_smart_health_information_log")
    if nvme is not None:
        nvme = _as_object(nvme, source, "nvme_smart_health_information_log")
        if power_on_hours is None:
            power_on_hours = _opt_int(
                nvme, "power_on_hours", source, "nvme_smart_health_information_log"
            )
    if power_on_hours is None and 9 in attrs and attrs[9].name.startswith("Power_On_Hours"):
        power_on_hours = attrs[9].raw

    notes: list[str] = []
    if kind == "hdd":
        notes.append(
            f"hard disk ({rpm} rpm), not an SSD: write amplification and NAND wear do not apply"
        )

    host = _host_writes(data, source, attrs, nvme, sector)
    waf_counters = None
    percentage_used = None
    percentage_source = None
    avg_erase = None
    avg_erase_source = None
    if kind != "hdd":
        waf_counters, waf_notes = _nand_counters(attrs, host, family, model, sector)
        notes.extend(waf_notes)
        percentage_used, percentage_source = _percentage_used(data, source, attrs, nvme)
        avg_erase, avg_erase_source = _avg_erase_count(attrs, family, model)
        if waf_counters is not None and waf_counters.unit_assumed:
            waf_counters, cross_note = _cross_check(waf_counters, avg_erase, capacity)
            if cross_note:
                notes.append(cross_note)
        if waf_counters is None and not any(n.startswith("NAND writes") for n in notes):
            notes.append(_no_nand_note(protocol, nvme is not None, attrs, family))

    return Snapshot(
        source=source,
        model=str(model) if model is not None else None,
        serial=str(serial) if serial is not None else None,
        model_family=str(family) if family is not None else None,
        protocol=str(protocol) if protocol is not None else None,
        kind=kind,
        rotation_rate_rpm=rpm,
        capacity_bytes=capacity,
        power_on_hours=power_on_hours,
        host_writes=host,
        waf_counters=waf_counters,
        percentage_used=percentage_used,
        percentage_used_source=percentage_source,
        avg_erase_count=avg_erase,
        avg_erase_count_source=avg_erase_source,
        notes=tuple(notes),
    )


def _host_writes(
    data: Mapping[str, Any],
    source: str,
    attrs: dict[int, _Attribute],
    nvme: dict[str, Any] | None,
    sector: int,
) -> Counter | None:
    if nvme is not None and nvme.get("data_units_written") is not None:
        units = _as_int(
            nvme["data_units_written"],
            source,
            "nvme_smart_health_information_log.data_units_written",
        )
        return Counter(
            units,
            NVME_DATA_UNIT_BYTES,
            f"nvme_smart_health_information_log.data_units_written {units:,} × 512,000 B",
            "nvme_smart_health_information_log.data_units_written",
        )
    for rule in HOST_WRITE_ATTRIBUTES:
        attr = attrs.get(rule.id)
        if attr is not None and attr.name == rule.name:
            unit = _unit_bytes(rule.unit, sector)
            return Counter(
                attr.raw,
                unit,
                f"attribute {attr.id} {attr.name} {attr.raw:,} × {_unit_text(rule.unit, sector)}",
                f"{attr.path}.raw.value ({attr.id} {attr.name})",
            )
    stat_entry = _device_statistic(data, source, 1, "Logical Sectors Written")
    if stat_entry is not None:
        value, path = stat_entry
        return Counter(
            value,
            sector,
            f"{path} Logical Sectors Written {value:,} × {sector} B",
            f"{path}.value (Logical Sectors Written)",
        )
    scsi = data.get("scsi_error_counter_log")
    if isinstance(scsi, dict) and isinstance(scsi.get("write"), dict):
        processed = scsi["write"].get("gigabytes_processed")
        if processed is not None:
            try:
                gigabytes = float(processed)
            except (TypeError, ValueError):
                raise SmartDataError(
                    f"{_where(source, 'scsi_error_counter_log.write.gigabytes_processed')}: "
                    f"expected a number, got {processed!r}"
                ) from None
            count = round(gigabytes * 1000)  # in MB, to keep an integer count
            return Counter(
                count,
                10**6,
                f"scsi_error_counter_log.write.gigabytes_processed {processed} GB",
                "scsi_error_counter_log.write.gigabytes_processed",
            )
    return None


def _nand_counters(
    attrs: dict[int, _Attribute],
    host: Counter | None,
    family: Any,
    model: Any,
    sector: int,
) -> tuple[WafCounters | None, list[str]]:
    family_text = str(family) if family is not None else None
    model_text = str(model) if model is not None else None
    host_attr = attrs.get(MICRON_HOST_PAGES)
    ftl_attr = attrs.get(MICRON_FTL_PAGES)
    if (
        host_attr is not None
        and ftl_attr is not None
        and host_attr.name == "Host_Program_Page_Count"
        and ftl_attr.name in MICRON_FTL_PAGE_NAMES
    ):
        return (
            WafCounters(
                vendor="Micron/Crucial",
                nand=host_attr.raw + ftl_attr.raw,
                host=host_attr.raw,
                unit="NAND pages",
                formula=f"(247 {host_attr.name} + 248 {ftl_attr.name}) / 247 {host_attr.name}",
                parts={
                    f"247 {host_attr.name}": host_attr.raw,
                    f"248 {ftl_attr.name}": ftl_attr.raw,
                },
            ),
            [],
        )
    for rule in VENDOR_NAND_COUNTERS:
        if not _family_matches(rule.families, family_text, model_text):
            continue
        matched = [
            (r, attrs[r.id])
            for r in rule.attributes
            if r.id in attrs and attrs[r.id].name == r.name
        ]
        if not matched or matched[0][0] is not rule.attributes[0]:
            continue
        if host is None or host.bytes is None:
            return None, [
                f"NAND writes: {rule.vendor} attribute {matched[0][1].id} "
                f"{matched[0][1].name} found, but no host-write counter to divide by"
            ]
        nand_bytes = 0
        parts: dict[str, int] = {}
        terms = []
        for r, attr in matched:
            unit_bytes = _unit_bytes(r.unit, sector)
            assert unit_bytes is not None
            nand_bytes += attr.raw * unit_bytes
            parts[f"{attr.id} {attr.name}"] = attr.raw
            terms.append(f"{attr.id} {attr.name} × {_unit_text(r.unit, sector)}")
        note = "; ".join(r.note for r, _ in matched if r.note)
        if rule.unit_assumed and not note:
            note = "unit not documented by the vendor; taken as the host counter's unit"
        return (
            WafCounters(
                vendor=rule.vendor,
                nand=nand_bytes,
                host=host.bytes,
                unit="bytes",
                formula=f"({' + '.join(terms)}) / host writes",
                parts=parts,
                note=note,
                unit_assumed=rule.unit_assumed,
            ),
            [],
        )
    return None, []


def _no_nand_note(protocol: Any, is_nvme: bool, attrs: dict[int, _Attribute], family: Any) -> str:
    if is_nvme or protocol == "NVMe":
        return (
            "NAND writes: not available for this drive (the NVMe standard SMART log has no "
            "NAND-write counter; some vendors report one in a vendor log, e.g. "
            "'nvme intel smart-log-add' or 'nvme ocp smart-add-log')"
        )
    unknown = [a.id for a in attrs.values() if a.name.startswith("Unknown")]
    if unknown and family is None:
        return (
            "NAND writes: not available for this drive (smartctl does not know this model: "
            f"attributes {', '.join(map(str, sorted(unknown)))} are unnamed; updating smartctl's "
            "drive database with update-smart-drivedb may name them)"
        )
    return "NAND writes: not available for this drive (no NAND-write counter in its SMART data)"


def _cross_check(
    counters: WafCounters, avg_erase: int | None, capacity: int | None
) -> tuple[WafCounters | None, str]:
    """Check a NAND counter of undocumented unit against the average erase count.

    Every erase of a block follows (about) one program of the whole block, so NAND writes are
    at least about (average erase count − 1) × user capacity (the −1 allows for erases done
    at the factory). If the counter falls far short of that, its assumed unit is wrong.
    """
    if avg_erase is None or capacity is None or avg_erase < 2:
        return counters, ""
    expected = (avg_erase - 1) * capacity
    if counters.nand >= 0.5 * expected:
        return counters, ""
    name = next(iter(counters.parts))
    return None, (
        f"NAND writes: not available for this drive — {name} taken as "
        f"{_human_bytes(counters.nand)} disagrees with the average erase count of {avg_erase} "
        f"P/E cycles, which implies at least about {_human_bytes(expected)}; the unit of "
        f"{name} is undocumented, so no WAF is reported from it"
    )


def _percentage_used(
    data: Mapping[str, Any],
    source: str,
    attrs: dict[int, _Attribute],
    nvme: dict[str, Any] | None,
) -> tuple[float | None, str | None]:
    if nvme is not None and nvme.get("percentage_used") is not None:
        value = _as_int(
            nvme["percentage_used"], source, "nvme_smart_health_information_log.percentage_used"
        )
        return float(value), "nvme_smart_health_information_log.percentage_used"
    entry = _device_statistic(data, source, 7, "Percentage Used Endurance Indicator")
    if entry is not None:
        value, path = entry
        return float(value), f"{path} Percentage Used Endurance Indicator"
    scsi = data.get("scsi_percentage_used_endurance_indicator")
    if scsi is not None:
        value = _as_int(scsi, source, "scsi_percentage_used_endurance_indicator")
        return float(value), "scsi_percentage_used_endurance_indicator"
    family = data.get("model_family")
    model = data.get("model_name")
    for rule in WEAR_ATTRIBUTES:
        attr = attrs.get(rule.id)
        if attr is None or attr.name != rule.name:
            continue
        if not _family_matches(rule.families, family, model):
            continue
        if rule.reading == "raw":
            used, how = attr.raw, f"raw {attr.raw}"
        elif rule.reading == "100-raw":
            if attr.raw > 100:
                continue
            used, how = 100 - attr.raw, f"100 − raw {attr.raw}"
        else:
            if attr.value is None:
                continue
            used, how = 100 - attr.value, f"100 − normalized {attr.value}"
        return float(max(0, used)), f"attribute {attr.id} {attr.name} ({how})"
    return None, None


def _avg_erase_count(
    attrs: dict[int, _Attribute], family: Any, model: Any
) -> tuple[int | None, str | None]:
    for rule in ERASE_COUNT_ATTRIBUTES:
        attr = attrs.get(rule.id)
        if attr is None or attr.name != rule.name:
            continue
        if not _family_matches(rule.families, family, model):
            continue
        if rule.reading == "average":
            m = re.search(r"Average\s+(\d+)", attr.raw_string)
            if not m:
                continue
            return int(m.group(1)), f"attribute {attr.id} {attr.name} ({attr.raw_string})"
        return attr.raw, f"attribute {attr.id} {attr.name}"
    return None, None


# ---------------------------------------------------------------------------------------------
# Reading files and devices


def load_json_file(path: str | os.PathLike[str]) -> Any:
    """Load a saved ``smartctl -j`` file; errors name the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SmartDataError(f"{p}: no such file") from None
    except OSError as exc:
        raise SmartDataError(f"{p}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SmartDataError(f"{p}: not a text file (expected smartctl -j JSON)") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SmartDataError(
            f"{p}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "save smartctl output with 'smartctl -j -a DEVICE > FILE.json'"
        ) from None


def read_device(device: str, smartctl: str = "smartctl", timeout_s: float = 120.0) -> Any:
    """Run ``smartctl -j -a DEVICE`` (plus ``-l devstat`` for ATA drives) and return the JSON.

    Needs root (or read access to the device). Raises ``ToolError`` when smartctl is missing,
    cannot open the device, or prints no JSON.
    """
    exe = shutil.which(smartctl)
    if exe is None:
        raise ToolError(
            f"smartctl not found ({smartctl!r}); install smartmontools (Debian: "
            "apt-get install smartmontools) or pass --smartctl PATH"
        )
    data = _run_smartctl([exe, "-j", "-a", device], device, timeout_s)
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
            extra = _run_smartctl([exe, "-j", "-l", "devstat", device], device, timeout_s)
        except ToolError:
            extra = {}
        if isinstance(extra, dict) and "ata_device_statistics" in extra:
            data["ata_device_statistics"] = extra["ata_device_statistics"]
    return data


def _run_smartctl(argv: list[str], device: str, timeout_s: float) -> Any:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        raise ToolError(f"smartctl on {device} did not finish in {timeout_s:g} s") from None
    except OSError as exc:
        raise ToolError(f"cannot run {argv[0]}: {exc.strerror or exc}") from None
    try:
        return json.loads(proc.stdout)
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


# ---------------------------------------------------------------------------------------------
# Reports


@dataclass(frozen=True)
class Endurance:
    """Remaining life extrapolated from the wear so far (``percentage_used``)."""

    percentage_used: float | None
    remaining_percent: float | None
    days_left: float | None  # point estimate at the observed wear rate
    days_left_at_least: float | None  # lower bound when the indicator is whole percent
    remaining_host_bytes: float | None  # host writes still possible at the same WAF
    explanation: str


@dataclass(frozen=True)
class LifetimeReport:
    snapshot: Snapshot
    waf: float | None
    waf_formula: str | None
    waf_estimate: float | None  # from average erase count × capacity, when no NAND counter
    host_bytes: int | None
    host_bytes_per_day: float | None
    drive_writes_per_day: float | None
    endurance: Endurance
    notes: tuple[str, ...] = field(default=())


def _endurance(used: float | None, hours: float | None, host_bytes: float | None) -> Endurance:
    if used is None:
        return Endurance(
            None, None, None, None, None, "percentage used: not available for this drive"
        )
    remaining = max(0.0, 100.0 - used)
    if used >= 100.0:
        return Endurance(
            used,
            0.0,
            0.0,
            0.0,
            0.0,
            f"{used:g} % of the rated endurance is used up: the drive is past its rating",
        )
    if not hours:
        return Endurance(
            used, remaining, None, None, None, "no power-on hours: cannot give a wear rate"
        )
    days = hours / 24.0
    if used <= 0.0:
        # The indicator counts whole percent: 0 means less than 1 % is used.
        at_least = days * 99.0
        return Endurance(
            used,
            remaining,
            None,
            at_least,
            None if host_bytes is None else host_bytes * 99.0,
            "wear is still below 1 %, so the rate is a lower bound: more than "
            f"{at_least:,.0f} days ({at_least / 365:.0f} years) at this rate",
        )
    point = days * remaining / used
    at_least = days * max(0.0, remaining - 1.0) / (used + 1.0)
    return Endurance(
        used,
        remaining,
        point,
        at_least,
        None if host_bytes is None else host_bytes * remaining / used,
        f"about {point:,.0f} days ({point / 365:.1f} years) at this rate (at least "
        f"{at_least:,.0f} days if the whole-percent indicator rounds down)",
    )


def waf_estimate_from_erase_count(snap: Snapshot) -> float | None:
    """WAF ≈ average P/E cycles × user capacity / host writes (an estimate: raw NAND is larger
    than user capacity, pushing the true figure up; erases done at the factory push it down)."""
    host = snap.host_writes.bytes if snap.host_writes else None
    if not snap.avg_erase_count or not snap.capacity_bytes or not host:
        return None
    return snap.avg_erase_count * snap.capacity_bytes / host


def lifetime_report(snap: Snapshot) -> LifetimeReport:
    """Lifetime WAF, write rate and remaining endurance of one snapshot."""
    host_bytes = snap.host_writes.bytes if snap.host_writes else None
    waf = snap.waf_counters.waf if snap.waf_counters else None
    notes: list[str] = []
    estimate = None
    if snap.kind != "hdd" and snap.waf_counters is None:
        estimate = waf_estimate_from_erase_count(snap)
        if estimate is not None:
            notes.append(
                f"WAF estimate ≈ {estimate:.2f} from the average erase count "
                f"({snap.avg_erase_count} P/E × {_human_bytes(snap.capacity_bytes or 0)} user "
                f"capacity / {_human_bytes(host_bytes or 0)} host writes); raw NAND is larger "
                "than the user capacity, so the true WAF is likely higher"
            )
    per_day = None
    dwpd = None
    if host_bytes is not None and snap.power_on_hours:
        per_day = host_bytes / (snap.power_on_hours / 24.0)
        if snap.capacity_bytes:
            dwpd = per_day / snap.capacity_bytes
    endurance = (
        _endurance(None, None, None)
        if snap.kind == "hdd"
        else _endurance(snap.percentage_used, snap.power_on_hours, host_bytes)
    )
    return LifetimeReport(
        snapshot=snap,
        waf=waf,
        waf_formula=snap.waf_counters.formula if snap.waf_counters else None,
        waf_estimate=estimate,
        host_bytes=host_bytes,
        host_bytes_per_day=per_day,
        drive_writes_per_day=dwpd,
        endurance=endurance,
        notes=tuple(notes),
    )


@dataclass(frozen=True)
class DeltaReport:
    """What changed between two snapshots of one drive (``earlier`` → ``later``)."""

    earlier: Snapshot
    later: Snapshot
    hours: int | None
    host_bytes: int | None
    nand: int | None  # in the WAF counters' unit
    waf: float | None
    waf_estimate: float | None
    host_bytes_per_day: float | None
    percentage_used_change: float | None
    days_left: float | None
    notes: tuple[str, ...]


_REDACTED = {"", "redacted", "unknown", "none"}


def compare(a: Snapshot, b: Snapshot) -> DeltaReport:
    """WAF and wear rate between two snapshots of the same drive (in either order).

    Raises ``SmartDataError`` naming both files and the field when they cannot be two
    readings of one drive (different model or serial, or a counter that went down).
    """
    first, second = a, b
    if (
        a.power_on_hours is not None
        and b.power_on_hours is not None
        and b.power_on_hours < a.power_on_hours
    ):
        first, second = b, a
    pair = f"{first.source} and {second.source}"
    if first.model and second.model and first.model != second.model:
        raise SmartDataError(
            f"{pair}: field model_name differs ({first.model!r} vs {second.model!r}): "
            "not two snapshots of the same drive"
        )
    notes: list[str] = []
    s1, s2 = (first.serial or "").strip(), (second.serial or "").strip()
    if s1.lower() in _REDACTED or s2.lower() in _REDACTED:
        notes.append("serial numbers are missing or redacted: cannot confirm it is one drive")
    elif s1 != s2:
        raise SmartDataError(
            f"{pair}: field serial_number differs ({s1!r} vs {s2!r}): "
            "not two snapshots of the same drive"
        )
    if first.kind == "hdd" or second.kind == "hdd":
        notes.append("hard disk, not an SSD: write amplification and NAND wear do not apply")

    def grew(name: str, old: float | None, new: float | None) -> float | None:
        if old is None or new is None:
            return None
        if new < old:
            raise SmartDataError(
                f"{pair}: field {name} went down from {old:,} to {new:,} although power-on "
                "hours did not: not two snapshots of the same drive (or a counter was reset)"
            )
        return new - old

    hours = grew("power_on_time.hours", first.power_on_hours, second.power_on_hours)
    hw1, hw2 = first.host_writes, second.host_writes
    d_host = None
    if hw1 is not None and hw2 is not None:
        if hw1.field == hw2.field and hw1.unit_bytes == hw2.unit_bytes:
            d_count = grew(hw1.field, hw1.count, hw2.count)
            if d_count is not None and hw1.unit_bytes is not None:
                d_host = d_count * hw1.unit_bytes
        else:
            d_host = grew("host writes (bytes)", hw1.bytes, hw2.bytes)
    d_nand = None
    waf = None
    c1, c2 = first.waf_counters, second.waf_counters
    if c1 is not None and c2 is not None and c1.formula == c2.formula:
        for part, old in c1.parts.items():
            grew(part, old, c2.parts.get(part))
        d_nand = c2.nand - c1.nand
        d_counter_host = c2.host - c1.host
        if d_counter_host > 0:
            waf = d_nand / d_counter_host
        else:
            notes.append("no host writes between the snapshots: WAF not defined")
    elif first.kind != "hdd":
        notes.append("WAF between the snapshots: not available for this drive (no NAND counter)")
    d_erase = grew(
        first.avg_erase_count_source or "average erase count",
        first.avg_erase_count,
        second.avg_erase_count,
    )
    estimate = None
    if waf is None and d_erase and d_host and first.capacity_bytes:
        estimate = d_erase * first.capacity_bytes / d_host
        notes.append(
            f"WAF estimate ≈ {estimate:.2f} from the change in average erase count "
            f"({d_erase:g} P/E × user capacity / host writes)"
        )
    d_used = grew(
        first.percentage_used_source or "percentage used",
        first.percentage_used,
        second.percentage_used,
    )
    per_day = None
    days_left = None
    if hours:
        if d_host is not None:
            per_day = d_host / (hours / 24.0)
        if d_used and second.percentage_used is not None:
            days_left = (hours / 24.0) * max(0.0, 100.0 - second.percentage_used) / d_used
        if hours < 24:
            notes.append(
                f"only {hours:g} power-on hour(s) apart: power-on hours count whole hours, so "
                "the rates are rough"
            )
    elif hours == 0:
        notes.append("power-on hours did not change between the snapshots: no rate")
    if d_used == 0 and hours:
        notes.append(
            "percentage used did not change between the snapshots: too little wear to "
            "extrapolate from this interval"
        )
    return DeltaReport(
        earlier=first,
        later=second,
        hours=None if hours is None else int(hours),
        host_bytes=None if d_host is None else int(d_host),
        nand=d_nand,
        waf=waf,
        waf_estimate=estimate,
        host_bytes_per_day=per_day,
        percentage_used_change=d_used,
        days_left=days_left,
        notes=tuple(notes),
    )


# ---------------------------------------------------------------------------------------------
# Text and JSON output


def _human_bytes(n: float) -> str:
    return human_bytes(n, decimals=2)


_KIND_TEXT = {"ssd": "SSD", "hdd": "hard disk", "unknown": "drive of unknown type"}


def _describe(snap: Snapshot) -> str:
    bits = [snap.model or "unknown model"]
    if snap.model_family:
        bits[0] += f" ({snap.model_family})"
    kind = _KIND_TEXT[snap.kind]
    if snap.protocol:
        kind = f"{snap.protocol} {kind}"
    if snap.kind == "hdd" and snap.rotation_rate_rpm:
        kind += f", {snap.rotation_rate_rpm} rpm"
    bits.append(kind)
    if snap.capacity_bytes:
        bits.append(_human_bytes(snap.capacity_bytes))
    if snap.power_on_hours is not None:
        bits.append(
            f"{snap.power_on_hours:,} power-on hours ({snap.power_on_hours / 24:,.0f} days)"
        )
    return ", ".join(bits)


def format_lifetime(rep: LifetimeReport) -> str:
    s = rep.snapshot
    lines = [f"{s.source}", f"  drive: {_describe(s)}"]
    if s.host_writes is not None:
        total = _human_bytes(rep.host_bytes) if rep.host_bytes is not None else "?"
        lines.append(f"  host writes: {total} ({s.host_writes.source})")
    else:
        lines.append("  host writes: not available for this drive")
    if s.kind == "hdd":
        lines.append(
            "  not an SSD: this is a hard disk; write amplification, NAND wear and "
            "over-provisioning do not apply"
        )
    else:
        c = s.waf_counters
        if c is not None and rep.waf is not None:
            parts = " + ".join(f"{k} = {v:,}" for k, v in c.parts.items())
            lines.append(f"  NAND writes: {parts}")
            lines.append(f"  lifetime WAF: {rep.waf:.3f} = {c.formula} [{c.vendor}]")
            if c.note:
                lines.append(f"    ({c.note})")
        elif c is not None:
            lines.append("  lifetime WAF: no host writes yet")
        elif rep.waf_estimate is not None:
            lines.append(
                "  lifetime WAF: not available for this drive (no NAND-write counter); "
                f"estimate ≈ {rep.waf_estimate:.2f} from the average erase count (see note)"
            )
        else:
            lines.append("  lifetime WAF: not available for this drive")
        if s.percentage_used is not None:
            lines.append(
                f"  percentage used: {s.percentage_used:g} % of rated endurance "
                f"({s.percentage_used_source})"
            )
        else:
            lines.append("  percentage used: not available for this drive")
        if s.avg_erase_count is not None:
            lines.append(
                f"  average P/E cycles: {s.avg_erase_count:,} ({s.avg_erase_count_source})"
            )
    if rep.host_bytes_per_day is not None:
        rate = f"  write rate: {_human_bytes(rep.host_bytes_per_day)}/day"
        if rep.drive_writes_per_day is not None:
            rate += f" = {rep.drive_writes_per_day:.3f} drive writes per day"
        lines.append(rate + " (lifetime average over power-on hours)")
    if s.kind != "hdd":
        e = rep.endurance
        if e.remaining_percent is not None:
            lines.append(f"  remaining endurance: {e.remaining_percent:g} % of rated life")
            if e.remaining_host_bytes is not None and e.days_left is not None:
                lines.append(
                    f"    ≈ {_human_bytes(e.remaining_host_bytes)} more host writes at this WAF"
                )
            elif e.remaining_host_bytes is not None:
                lines.append(
                    f"    > {_human_bytes(e.remaining_host_bytes)} more host writes at this WAF"
                )
        lines.append(f"  days left: {e.explanation}")
    for note in (*s.notes, *rep.notes):
        if s.kind == "hdd" and note.startswith("hard disk"):
            continue
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def format_delta(rep: DeltaReport) -> str:
    lines = [
        f"between {rep.earlier.source}",
        f"    and {rep.later.source}",
        f"  drive: {_describe(rep.later)}",
    ]
    if rep.hours is not None:
        unit = "hour" if rep.hours == 1 else "hours"
        lines.append(f"  interval: {rep.hours:,} power-on {unit} ({rep.hours / 24:,.1f} days)")
    if rep.host_bytes is not None:
        lines.append(f"  host writes in the interval: {_human_bytes(rep.host_bytes)}")
    if rep.waf is not None and rep.later.waf_counters is not None:
        lines.append(f"  WAF in the interval: {rep.waf:.3f} = Δ{rep.later.waf_counters.formula}")
    elif rep.later.kind != "hdd":
        lines.append("  WAF in the interval: not available for this drive")
    if rep.host_bytes_per_day is not None:
        lines.append(f"  write rate: {_human_bytes(rep.host_bytes_per_day)}/day")
    if rep.percentage_used_change is not None:
        lines.append(f"  percentage used: +{rep.percentage_used_change:g} points")
    if rep.days_left is not None:
        lines.append(
            f"  days left at this interval's rate: about {rep.days_left:,.0f} days "
            f"({rep.days_left / 365:.1f} years)"
        )
    for note in rep.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, float) and (math.isnan(obj) or math.isinf(obj)):
        return None
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_jsonable(v) for v in obj]
    return obj


def report_to_dict(rep: LifetimeReport | DeltaReport) -> dict[str, Any]:
    out = asdict(rep)
    if isinstance(rep, LifetimeReport) and rep.snapshot.host_writes is not None:
        out["snapshot"]["host_writes"]["bytes"] = rep.snapshot.host_writes.bytes
    out["kind"] = "lifetime" if isinstance(rep, LifetimeReport) else "delta"
    return _jsonable(out)


# ---------------------------------------------------------------------------------------------
# CLI: overprov smart


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "smart",
        help="WAF, wear and days left from SMART (smartctl -j), for a device or saved files",
        description=(
            "Read write amplification (WAF = NAND bytes written / host bytes written) and wear "
            "from SMART. TARGET is a device (smartctl -j -a is run; needs root) or a file "
            "saved with 'smartctl -j -a DEVICE > FILE.json'. With one target: lifetime WAF, "
            "percentage of rated endurance used, write rate and days left at that rate. With "
            "two snapshots of the same drive (files taken some time apart, or a file and the "
            "device now): WAF and wear rate between them. NVMe's standard log has no NAND "
            "counter, so NVMe drives get wear and rate but no WAF; hard disks are recognised "
            "and reported as not SSDs."
        ),
        epilog=(
            "Units: GB/TB are decimal (10^9/10^12 bytes). Host writes come from the NVMe log "
            "(data units of 512,000 bytes), the ATA device statistics, or vendor attributes "
            "(Intel 241/243 in 32 MiB, Micron 246 LBAs with 247/248 NAND pages, Phison "
            "241/233 GiB, WD 241/233+234, Samsung 241/251, Silicon Motion 241/245+246, "
            "Seagate 241/233). Days left = power-on days × (100 − used %) / used %."
        ),
    )
    p.add_argument(
        "targets",
        nargs="+",
        metavar="TARGET",
        help="a device such as /dev/sda or /dev/nvme0, or a smartctl -j JSON file; give two "
        "snapshots of one drive for the WAF between them",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument(
        "--smartctl",
        default="smartctl",
        metavar="PATH",
        help="smartctl executable for devices (default: smartctl on PATH)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    targets: list[str] = args.targets
    if len(targets) > 2:
        raise SmartDataError(
            f"give one target, or two snapshots of the same drive; got {len(targets)}: "
            + ", ".join(targets)
        )
    snaps = [snapshot_from_target(t, args.smartctl) for t in targets]
    rep = lifetime_report(snaps[0]) if len(snaps) == 1 else compare(snaps[0], snaps[1])
    if args.json:
        print(json.dumps(report_to_dict(rep), indent=2, ensure_ascii=False))
    else:
        print(format_lifetime(rep) if isinstance(rep, LifetimeReport) else format_delta(rep))
    return 0
