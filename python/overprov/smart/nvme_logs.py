"""NAND (physical media) write counters from saved nvme-cli log outputs.

The standard NVMe SMART / Health log counts host writes only. Many drives count NAND writes in
another log: the OCP datacenter log C0h, the standard Endurance Group Information log, the
Intel/Solidigm CAh log, or a vendor log. Which logs exist, the field each one prints, its unit
and where that is documented are data: ``data/nvme_log_sources.toml``. This module reads an
output of one of those commands (``-o json`` where the plugin has it, its text otherwise) and
returns the raw counts with their units and the arithmetic to bytes.

Library code: raises ``NvmeLogError`` (an ``OverprovError``) naming the file and the field.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from importlib import resources
from typing import Any

from overprov import inputs
from overprov.errors import OverprovError

SOURCES_FILE = "data/nvme_log_sources.toml"
TEXT_UNIT_BYTES: dict[str, int] = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


class NvmeLogError(OverprovError, ValueError):
    """An nvme-cli output that cannot be read; the message names the file and the field."""


@dataclass(frozen=True)
class CounterSpec:
    """One counter of one log, as the sources table describes it."""

    which: str  # "nand" or "host"
    field: str
    unit: str
    unit_bytes: int | None  # None: printed beside the value, or not documented
    json_paths: tuple[tuple[str, ...], ...]
    text_regex: re.Pattern[str]
    note: str = ""


@dataclass(frozen=True)
class LogSource:
    """One nvme-cli log that reports NAND writes."""

    id: str
    name: str
    log_id: str
    command: tuple[str, ...]
    citation: str
    counters: tuple[CounterSpec, ...]
    in_nvme_cli: bool = True  # False: printed by a vendor build of nvme-cli only

    def argv(self, device: str, nvme: str = "nvme") -> list[str]:
        """The nvme-cli command line that reads this log from ``device``."""
        return [nvme, *(a.replace("{device}", device) for a in self.command[1:])]


@dataclass(frozen=True)
class CounterReading:
    """A counter found in an output: ``raw`` units of ``unit``; ``bytes`` when the unit is known."""

    which: str
    field: str
    raw: str  # as printed (a hi/lo pair as "hi lo")
    count: int | float  # the number (hi × 2^64 + lo for pairs)
    unit: str
    unit_bytes: int | None
    bytes: int | None
    arithmetic: str  # how the bytes follow from the raw value
    where: str  # JSON path or text line number
    note: str = ""


@dataclass(frozen=True)
class LogReading:
    """What one saved output holds: which log it is and its counters."""

    file: str
    source: LogSource
    format: str  # "json" or "text"
    counters: tuple[CounterReading, ...]

    def counter(self, which: str) -> CounterReading | None:
        return next((c for c in self.counters if c.which == which), None)


@cache
def load_sources() -> tuple[LogSource, ...]:
    """The sources table, in the order outputs are matched against it."""
    text = resources.files("overprov").joinpath(SOURCES_FILE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    logs = []
    for i, log in enumerate(data.get("log", [])):
        where = f"{SOURCES_FILE} log #{i + 1} ({log.get('id', '?')})"
        try:
            counters = tuple(
                CounterSpec(
                    which=c["which"],
                    field=c["field"],
                    unit=c["unit"],
                    unit_bytes=c.get("unit_bytes"),
                    json_paths=tuple(tuple(p) for p in c.get("json_paths", [])),
                    text_regex=re.compile(c["text_regex"], re.MULTILINE),
                    note=c.get("note", ""),
                )
                for c in log["counter"]
            )
            logs.append(
                LogSource(
                    id=log["id"],
                    name=log["name"],
                    log_id=log["log_id"],
                    command=tuple(log["command"]),
                    citation=log["citation"],
                    counters=counters,
                    in_nvme_cli=log.get("in_nvme_cli", True),
                )
            )
        except KeyError as exc:
            raise NvmeLogError(f"{where}: missing key {exc.args[0]!r}") from None
        except re.error as exc:
            raise NvmeLogError(f"{where}: bad text_regex: {exc}") from None
        for c in counters:
            if c.which not in ("nand", "host"):
                raise NvmeLogError(f"{where}: counter {c.field!r}: which must be nand or host")
    return tuple(logs)


def source_by_id(source_id: str) -> LogSource:
    for s in load_sources():
        if s.id == source_id:
            return s
    known = ", ".join(s.id for s in load_sources())
    raise NvmeLogError(f"unknown NVMe log source {source_id!r}; known: {known}")


def _int_text(text: str, file: str, where: str) -> int:
    try:
        return int(text.replace(",", ""))
    except ValueError:
        raise NvmeLogError(f"{file}: {where}: expected a whole number, got {text!r}") from None


def _json_int(value: Any, file: str, where: str) -> int:
    # nvme-cli prints 128-bit counters as JSON numbers or, in newer versions, as strings.
    if isinstance(value, bool):
        raise NvmeLogError(f"{file}: {where}: expected a number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return _int_text(value.strip(), file, where)
    raise NvmeLogError(f"{file}: {where}: expected a number, got {value!r}")


def _to_bytes(
    spec: CounterSpec, count: int | float, raw: str, unit_text: str | None
) -> tuple[int | None, str, str]:
    """(bytes, unit, arithmetic) for a count in the counter's unit."""
    if spec.unit_bytes is not None:
        total = int(count) * spec.unit_bytes
        if spec.unit_bytes == 1:
            return total, spec.unit, f"{raw} B"
        return total, spec.unit, f"{raw} × {spec.unit_bytes:,} B = {total:,} B"
    if unit_text is not None:
        size = TEXT_UNIT_BYTES[unit_text]
        total = int((Decimal(raw.replace(",", "")) * size).to_integral_value())
        return total, unit_text, f"{raw} {unit_text} × {size:,} B = {total:,} B"
    return None, spec.unit, f"{raw} (unit {spec.unit}: no byte count)"


def _reading(spec: CounterSpec, raw: str, count: int | float, unit_text: str | None, where: str):
    total, unit, arithmetic = _to_bytes(spec, count, raw, unit_text)
    return CounterReading(
        which=spec.which,
        field=spec.field,
        raw=raw,
        count=count,
        unit=unit,
        unit_bytes=spec.unit_bytes if unit_text is None else TEXT_UNIT_BYTES[unit_text],
        bytes=total,
        arithmetic=arithmetic,
        where=where,
        note=spec.note,
    )


def _from_json(spec: CounterSpec, data: Any, file: str) -> CounterReading | None:
    for path in spec.json_paths:
        node = data
        for key in path:
            if not isinstance(node, dict) or key not in node:
                break
            node = node[key]
        else:
            where = ".".join(f'"{k}"' if " " in k else k for k in path)
            if isinstance(node, dict) and {"hi", "lo"} <= node.keys():
                hi = _json_int(node["hi"], file, where + ".hi")
                lo = _json_int(node["lo"], file, where + ".lo")
                count = hi * 2**64 + lo
                raw = f"{lo:,}" if hi == 0 else f"{hi:,} × 2^64 + {lo:,}"
                return _reading(spec, raw, count, None, where + " {hi, lo}")
            count = _json_int(node, file, where)
            return _reading(spec, f"{count:,}", count, None, where)
    return None


def _from_text(spec: CounterSpec, text: str, file: str) -> CounterReading | None:
    m = spec.text_regex.search(text)
    if m is None:
        return None
    line = text.count("\n", 0, m.start()) + 1
    where = f"line {line}"
    groups = m.groupdict()
    unit_text = groups.get("unit")
    if groups.get("lo") is not None:
        hi = _int_text(groups["hi"], file, f"{where} ({spec.field}, high 64 bits)")
        lo = _int_text(groups["lo"], file, f"{where} ({spec.field}, low 64 bits)")
        count: int | float = hi * 2**64 + lo
        raw = f"{lo:,}" if hi == 0 else f"{hi:,} × 2^64 + {lo:,}"
    elif unit_text is not None:
        try:
            count = float(Decimal(groups["value"].replace(",", "")))
        except InvalidOperation:
            raise NvmeLogError(f"{file}: {where}: {spec.field}: not a number") from None
        raw = groups["value"]
    else:
        count = _int_text(groups["value"], file, f"{where} ({spec.field})")
        raw = f"{count:,}"
    return _reading(spec, raw, count, unit_text, where)


def parse_nvme_log(text: str, file: str = "<text>") -> LogReading:
    """Identify which log ``text`` is (by the counters it holds) and read its counters.

    Raises NvmeLogError if no known log's NAND counter is in it.
    """
    data: Any = None
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            data = inputs.decode_json(text, file, "saved nvme-cli JSON output")
        except json.JSONDecodeError as exc:
            # Text outputs may start with "[" too (Samsung's "[015:000] ..." byte ranges).
            if stripped.startswith("{"):
                raise NvmeLogError(
                    f"{file}: line {exc.lineno}: not valid JSON: {exc.msg}"
                ) from None
    fmt = "text" if data is None else "json"

    def read(spec: CounterSpec) -> CounterReading | None:
        return _from_text(spec, text, file) if data is None else _from_json(spec, data, file)

    for source in load_sources():
        nand_spec = next(c for c in source.counters if c.which == "nand")
        first = read(nand_spec)
        if first is None:
            continue
        others = (read(c) for c in source.counters if c is not nand_spec)
        return LogReading(file, source, fmt, (first, *(r for r in others if r is not None)))
    fields = "; ".join(
        f"{s.id}: {', '.join(c.field for c in s.counters if c.which == 'nand')}"
        for s in load_sources()
    )
    raise NvmeLogError(
        f"{file}: no NAND-write counter of a known NVMe log in this {fmt} (looked for {fields})"
    )
