"""The GUID Partition Table, read straight from the device (UEFI Specification 2.10, §5.3):
the kernel may not parse partition tables itself, so ``apply`` and ``status`` check what was
written with this parser (header and entry CRC32s, the backup header at the end)."""

from __future__ import annotations

import struct
import uuid
import zlib
from dataclasses import dataclass

_GPT_HEADER = struct.Struct("<8sIIIIQQQQ16sQIII")
_GPT_ENTRY = struct.Struct("<16s16sQQQ72s")


@dataclass(frozen=True)
class GptPartition:
    number: int
    first_lba: int
    last_lba: int  # inclusive
    type_guid: str
    name: str


@dataclass(frozen=True)
class GptTable:
    sector_bytes: int
    disk_guid: str
    first_usable_lba: int
    last_usable_lba: int
    backup_lba: int
    partitions: tuple[GptPartition, ...]
    backup_valid: bool


def _parse_gpt_header(raw: bytes) -> tuple | None:
    if len(raw) < _GPT_HEADER.size or raw[:8] != b"EFI PART":
        return None
    fields = _GPT_HEADER.unpack_from(raw)
    header_size = fields[2]
    if header_size < 92 or header_size > len(raw):
        return None
    zeroed = raw[:16] + b"\0\0\0\0" + raw[20:header_size]
    if zlib.crc32(zeroed) & 0xFFFFFFFF != fields[3]:
        return None
    return fields


def read_gpt(path: str, sector_bytes: int) -> GptTable | None:
    """Parse the primary GPT (header and entry CRCs checked) and check the backup header.
    Returns None when the device holds no valid GPT."""
    with open(path, "rb", buffering=0) as dev:
        dev.seek(sector_bytes)
        header = _parse_gpt_header(dev.read(sector_bytes))
        if header is None:
            return None
        (_, _, _, _, _, current, backup, first_usable, last_usable, disk_guid, entries_lba,
         n_entries, entry_size, entries_crc) = header  # fmt: skip
        if current != 1 or entry_size < _GPT_ENTRY.size or n_entries > 65536:
            return None
        dev.seek(entries_lba * sector_bytes)
        entries = dev.read(n_entries * entry_size)
        if zlib.crc32(entries) & 0xFFFFFFFF != entries_crc:
            return None
        parts: list[GptPartition] = []
        for i in range(n_entries):
            type_raw, _uniq, first, last, _attrs, name_raw = _GPT_ENTRY.unpack_from(
                entries, i * entry_size
            )
            if type_raw == b"\0" * 16:
                continue
            name = name_raw.decode("utf-16-le", errors="replace").split("\0", 1)[0]
            parts.append(
                GptPartition(i + 1, first, last, str(uuid.UUID(bytes_le=type_raw)).upper(), name)
            )
        dev.seek(backup * sector_bytes)
        backup_header = _parse_gpt_header(dev.read(sector_bytes))
        backup_valid = backup_header is not None and backup_header[5] == backup
    return GptTable(
        sector_bytes=sector_bytes,
        disk_guid=str(uuid.UUID(bytes_le=disk_guid)).upper(),
        first_usable_lba=first_usable,
        last_usable_lba=last_usable,
        backup_lba=backup,
        partitions=tuple(parts),
        backup_valid=backup_valid,
    )


def gpt_backup_sectors(sector_bytes: int) -> int:
    """Sectors a standard GPT (128 entries of 128 bytes) keeps at the end of the disk."""
    return 1 + (128 * 128 + sector_bytes - 1) // sector_bytes
