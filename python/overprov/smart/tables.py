"""The SMART vendor tables (``overprov/data/smart_vendors.toml``) as typed rows.

Like smartmontools' drive database (drivedb.h) the tables are data: a drive's counter is a row
in the TOML file, matched by attribute id *and* the name smartctl's drive database gives it.
A new kind of source (say, an NVMe vendor log) is a new array of tables in that file, a row
type here and the one function in ``snapshot.py`` that reads it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from overprov.errors import ConfigError

SECTOR_BYTES = 512
MIB = 2**20
GIB = 2**30
GB = 10**9
NVME_DATA_UNIT_BYTES = 512_000  # NVMe "data unit": 1000 units of 512 bytes

UNITS: dict[str, int] = {"32MiB": 32 * MIB, "MiB": MIB, "GiB": GIB, "GB": GB}

TABLE_FILE = "smart_vendors.toml"


@dataclass(frozen=True)
class AttributeRule:
    id: int
    name: str
    unit: str  # a key of UNITS, "LBA" (logical sectors) or "page" (NAND pages, size unknown)
    vendor: str
    note: str = ""


@dataclass(frozen=True)
class NandRule:
    """NAND writes = the sum of ``attributes``; the WAF divides them by the host writes."""

    vendor: str
    attributes: tuple[AttributeRule, ...]
    families: tuple[str, ...] = ()  # only for drives whose model family contains one of these
    unit_assumed: bool = False  # the unit is not documented: cross-check it where possible


@dataclass(frozen=True)
class WearRule:
    """How an attribute gives the percentage of rated endurance used."""

    id: int
    name: str
    reading: str  # "100-normalized", "100-raw" or "raw"
    families: tuple[str, ...] = ()


def _load() -> dict[str, Any]:
    text = resources.files("overprov").joinpath("data", TABLE_FILE).read_text(encoding="utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"overprov/data/{TABLE_FILE}: {exc}") from exc


def _attribute(row: dict[str, Any]) -> AttributeRule:
    return AttributeRule(row["id"], row["name"], row["unit"], row["vendor"], row.get("note", ""))


def _wear(row: dict[str, Any]) -> WearRule:
    return WearRule(row["id"], row["name"], row["reading"], tuple(row.get("families", ())))


_TABLES = _load()

#: Host writes, in order of preference.
HOST_WRITE_ATTRIBUTES: tuple[AttributeRule, ...] = tuple(
    _attribute(r) for r in _TABLES["host_writes"]
)
VENDOR_NAND_COUNTERS: tuple[NandRule, ...] = tuple(
    NandRule(
        r["vendor"],
        tuple(_attribute(a) for a in r["attributes"]),
        tuple(r.get("families", ())),
        bool(r.get("unit_assumed", False)),
    )
    for r in _TABLES["nand"]
)
WEAR_ATTRIBUTES: tuple[WearRule, ...] = tuple(_wear(r) for r in _TABLES["wear"])
#: Average program/erase cycles per block.
ERASE_COUNT_ATTRIBUTES: tuple[WearRule, ...] = tuple(_wear(r) for r in _TABLES["erase_count"])

# Micron/Crucial count NAND pages programmed for the host and by the FTL: WAF =
# (host + FTL) / host, a ratio of page counts (the page size is not reported).
MICRON_HOST_PAGES: int = _TABLES["micron_pages"]["host_id"]
MICRON_FTL_PAGES: int = _TABLES["micron_pages"]["ftl_id"]
MICRON_FTL_PAGE_NAMES: tuple[str, ...] = tuple(_TABLES["micron_pages"]["ftl_names"])


def vendors() -> list[str]:
    """Every vendor the tables name, for the help text."""
    names: set[str] = set()
    for rule in HOST_WRITE_ATTRIBUTES:
        names.update(v.strip() for v in rule.vendor.split("/"))
    for nand in VENDOR_NAND_COUNTERS:
        names.update(v.strip() for v in nand.vendor.split("/"))
    return sorted(names - {"generic"}, key=str.lower)
