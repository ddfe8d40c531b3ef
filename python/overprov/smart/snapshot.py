"""One ``smartctl -j`` document reduced to a :class:`Snapshot`: host writes, NAND writes (the
vendor counters of ``tables``), wear and erase counts, with where each figure came from."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from overprov.errors import OverprovError
from overprov.smart.tables import (
    ERASE_COUNT_ATTRIBUTES,
    HOST_WRITE_ATTRIBUTES,
    MICRON_FTL_PAGE_NAMES,
    MICRON_FTL_PAGES,
    MICRON_HOST_PAGES,
    NVME_DATA_UNIT_BYTES,
    SECTOR_BYTES,
    UNITS,
    VENDOR_NAND_COUNTERS,
    WEAR_ATTRIBUTES,
)
from overprov.units import human_bytes


def bytes_text(n: float) -> str:
    """Bytes as this command prints them: 19.95 TB."""
    return human_bytes(n, decimals=2)


class SmartDataError(OverprovError, ValueError):
    """smartctl output that cannot be read; the message names the file and the field."""


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
    """A SMART counter: a whole number, never negative (every counter smartctl reports
    counts up from zero: writes, hours, cycles, percentages)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SmartDataError(f"{_where(source, path)}: expected an integer, got {value!r}")
    if value < 0:
        raise SmartDataError(f"{_where(source, path)}: a counter cannot be negative, got {value}")
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
        f"{bytes_text(counters.nand)} disagrees with the average erase count of {avg_erase} "
        f"P/E cycles, which implies at least about {bytes_text(expected)}; the unit of "
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
