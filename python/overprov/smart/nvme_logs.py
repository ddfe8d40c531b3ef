"""NAND (physical media) write counters from saved nvme-cli log outputs.

The standard NVMe SMART / Health log counts host writes only. Many drives count NAND writes in
another log: the OCP datacenter log C0h, the standard Endurance Group Information log, the
Intel/Solidigm CAh log, or a vendor log. Which logs exist, the field each one prints, its unit
and where that is documented are data: ``data/nvme_log_sources.toml``. This module reads an
output of one of those commands (``-o json`` where the plugin has it, its text otherwise) and
returns the raw counts with their units and the arithmetic to bytes; the same logs' erase counts
(least, average, most P/E cycles) and spare (free-block percentage, spare blocks) are read the
same way, as counts.

Library code: raises ``NvmeLogError`` (an ``OverprovError``) naming the file and the field.
"""

from __future__ import annotations

import argparse
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
TEXT_UNIT_BYTES: dict[str, int] = {
    "KiB": 2**10,
    "MiB": 2**20,
    "GiB": 2**30,
    "TiB": 2**40,
    "GB": 10**9,
}


#: What a counter counts, in words. Byte counters: NAND (media) writes, host writes, media
#: bytes erased, and the Endurance Group log's total and unallocated capacity (capacity given to
#: no namespace: OP headroom at namespace level). Counts: the least, most and mean program/erase
#: cycles of the user-data blocks; spare as a percentage (free or spare blocks left) and as a
#: number of spare (reserve) blocks.
KIND_WORDS: dict[str, str] = {
    "nand": "NAND writes",
    "host": "host writes",
    "erased": "media erased",
    "capacity_total": "endurance group capacity",
    "capacity_unallocated": "unallocated capacity",
    "erase_min": "least P/E cycles of a block",
    "erase_max": "most P/E cycles of a block",
    "erase_avg": "average P/E cycles",
    "spare_percent": "spare or free blocks left (percent)",
    "spare_blocks": "spare (reserve) blocks",
}
COUNTER_KINDS = tuple(KIND_WORDS)
#: counters of a size in bytes (the others are counts: cycles, blocks, a percentage)
BYTE_KINDS = ("nand", "host", "erased", "capacity_total", "capacity_unallocated")


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
    # several lines of the text (one per channel or part, e.g. "[0]nand_bytes_written") whose
    # values add up to the counter
    sum_lines: bool = False
    # JSON printed as a list of {name, value} objects: (name key, value key)
    json_named: tuple[str, ...] = ()
    # (shift, width): the counter is bits shift..shift+width-1 of the printed number (one
    # 64-bit value that packs several counts, e.g. the least and most erase counts)
    bits: tuple[int, ...] = ()


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
    plugin: str = ""  # the nvme-cli source that prints it
    # the log's NAND and host counters count in one unit even where its size in bytes is not
    # stated, so their ratio is the WAF
    same_unit: bool = False

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
    # every log of the sources table this output matches (the first is ``source``)
    candidates: tuple[str, ...] = ()

    def counter(self, which: str) -> CounterReading | None:
        return next((c for c in self.counters if c.which == which), None)


VALUE = r"(?P<value>0[xX][0-9a-fA-F]+|[\d,]+)"
# digits in groups of three apart by one locale's separator (nvme-cli's l10n strings)
THOUSANDS = re.compile(r"^\d{1,3}(?:([,'. \u00a0\u202f])\d{3})(?:\1\d{3})*$")


def label_regex(label: str) -> str:
    """A text line holding ``label`` and a number, read tolerantly: any case, words apart by
    spaces, underscores or nothing, parentheses optional, then ":", "=", "-" or spaces before
    the value (decimal, with thousands separators or not, or 0x hexadecimal; a percentage's
    "%" after it)."""
    words = re.findall(r"[A-Za-z0-9]+", label)
    body = r"[\s_()]*".join(re.escape(w) for w in words)
    return rf"(?im)^[ \t]*\(?{body}\)?[ \t]*[:=-]?[ \t]*{VALUE}[ \t]*%?[ \t]*$"


def _text_regex(counter: dict[str, Any]) -> re.Pattern[str]:
    """The counter's ``text_regex``, or one built from its ``label`` (``label_regex``)."""
    if "text_regex" in counter:
        return re.compile(counter["text_regex"], re.MULTILINE)
    return re.compile(label_regex(counter.get("label") or counter["field"]))


@cache
def load_sources() -> tuple[LogSource, ...]:
    """The sources table, in the order outputs are matched against it."""
    text = resources.files("overprov").joinpath(SOURCES_FILE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    logs = []
    sets = {cs["id"]: cs["counter"] for cs in data.get("counter_set", [])}
    for i, log in enumerate(data.get("log", [])):
        where = f"{SOURCES_FILE} log #{i + 1} ({log.get('id', '?')})"
        try:
            rows = log["counter"] + [c for name in log.get("counter_sets", []) for c in sets[name]]
            counters = tuple(
                CounterSpec(
                    which=c["which"],
                    field=c["field"],
                    unit=c["unit"],
                    unit_bytes=c.get("unit_bytes"),
                    json_paths=tuple(tuple(p) for p in c.get("json_paths", [])),
                    text_regex=_text_regex(c),
                    note=c.get("note", ""),
                    sum_lines=c.get("sum_lines", False),
                    json_named=tuple(c.get("json_named", ())),
                    bits=tuple(c.get("bits", ())),
                )
                for c in rows
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
                    plugin=log.get("plugin", ""),
                    same_unit=log.get("same_unit", False),
                )
            )
        except KeyError as exc:
            raise NvmeLogError(f"{where}: missing key {exc.args[0]!r}") from None
        except re.error as exc:
            raise NvmeLogError(f"{where}: bad text_regex: {exc}") from None
        for c in counters:
            if c.which not in COUNTER_KINDS:
                raise NvmeLogError(
                    f"{where}: counter {c.field!r}: which must be one of {', '.join(COUNTER_KINDS)}"
                )
    return tuple(logs)


def source_by_id(source_id: str) -> LogSource:
    for s in load_sources():
        if s.id == source_id:
            return s
    known = ", ".join(s.id for s in load_sources())
    raise NvmeLogError(f"unknown NVMe log source {source_id!r}; known: {known}")


def _int_text(text: str, file: str, where: str) -> int:
    """A whole number as nvme-cli prints it: decimal with or without thousands separators (the
    locale's: comma, apostrophe, period, space), or hexadecimal with 0x (128-bit counters as 32
    hex digits)."""
    text = text.strip()
    if THOUSANDS.match(text):
        text = re.sub(r"\D", "", text)
    try:
        return int(text, 16) if text[:2].lower() == "0x" else int(text)
    except ValueError:
        raise NvmeLogError(f"{file}: {where}: expected a whole number, got {text!r}") from None


def _json_int(value: Any, file: str, where: str) -> int:
    # nvme-cli prints 128-bit counters as JSON numbers or, in newer versions, as strings.
    if isinstance(value, bool):
        raise NvmeLogError(f"{file}: {where}: expected a number, got {value!r}")
    if isinstance(value, int) and value < 0:
        # several plugins print 48- and 64-bit counts through json_object_add_value_int, a
        # 32-bit int in json-c: a count of 2^31 or more comes out wrapped
        raise NvmeLogError(
            f"{file}: {where}: negative count {value}: the plugin printed a count too large "
            "for its 32-bit JSON int; read its text output instead"
        )
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return _int_text(value.strip(), file, where)
    raise NvmeLogError(f"{file}: {where}: expected a number, got {value!r}")


def _to_bytes(
    spec: CounterSpec, count: int | float, raw: str, unit_text: str | None
) -> tuple[int | None, str, str]:
    """(bytes, unit, arithmetic) for a count in the counter's unit."""
    if spec.which not in BYTE_KINDS:  # a count of cycles, blocks or a percentage
        return None, spec.unit, raw
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
    if spec.bits:
        shift, width = spec.bits
        count = (int(count) >> shift) & ((1 << width) - 1)
        raw = f"{count:,} (bits {shift}-{shift + width - 1} of {raw})"
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


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _named_objects(node: Any):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _named_objects(v)
    elif isinstance(node, list):
        for v in node:
            yield from _named_objects(v)


def _from_json_named(spec: CounterSpec, data: Any, file: str) -> CounterReading | None:
    """A counter in a list of {name, value} objects (Seagate's "Extended-SMART-Attributes")."""
    name_key, value_key = spec.json_named
    for obj in _named_objects(data):
        name = obj.get(name_key)
        if isinstance(name, str) and _squash(name) == _squash(spec.field) and value_key in obj:
            where = f'{name_key} "{name}".{value_key}'
            count = _json_int(obj[value_key], file, where)
            return _reading(spec, f"{count:,}", count, None, where)
    return None


def _walk(node: Any, path: tuple[str, ...], keys: tuple[str, ...]):
    """The nodes at ``path`` under ``node``, with the keys that reach them; "*" in a path is
    any key of an object or any item of a list (a log printed under a title, in an array)."""
    if not path:
        yield node, keys
        return
    head, rest = path[0], path[1:]
    if head == "*":
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for k, child in items:
            yield from _walk(child, rest, (*keys, str(k)))
    elif isinstance(node, dict) and head in node:
        yield from _walk(node[head], rest, (*keys, head))


def _json_where(keys: tuple[str, ...]) -> str:
    return ".".join(f'"{k}"' if " " in k else k for k in keys)


def _from_json(spec: CounterSpec, data: Any, file: str) -> CounterReading | None:
    if spec.json_named:
        return _from_json_named(spec, data, file)
    if spec.sum_lines:  # one JSON value per part (TLC, SLC): the first of each path, added up
        found = [next(_walk(data, path, ()), None) for path in spec.json_paths]
        parts = [
            (_json_int(node, file, _json_where(keys)), _json_where(keys))
            for node, keys in (f for f in found if f is not None)
        ]
        if not parts:
            return None
        raw = " + ".join(f"{v:,}" for v, _ in parts)
        where = ", ".join(w for _, w in parts) + (" (summed)" if len(parts) > 1 else "")
        return _reading(spec, raw, sum(v for v, _ in parts), None, where)
    for path in spec.json_paths:
        for node, keys in _walk(data, path, ()):
            where = _json_where(keys)
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
    if spec.sum_lines:
        return _summed_lines(spec, text, file)
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


def _summed_lines(spec: CounterSpec, text: str, file: str) -> CounterReading | None:
    """A counter printed on several lines (one per part): their values added up."""
    found = list(spec.text_regex.finditer(text))
    if not found:
        return None
    lines = [text.count("\n", 0, m.start()) + 1 for m in found]
    values = [
        _int_text(m.group("value"), file, f"line {n} ({spec.field})")
        for m, n in zip(found, lines, strict=True)
    ]
    units = {m.groupdict().get("unit") for m in found}
    unit_text = units.pop() if len(units) == 1 else None
    if unit_text is not None and unit_text not in TEXT_UNIT_BYTES:
        unit_text = None
    count = sum(values)
    raw = " + ".join(f"{v:,}" for v in values)
    where = f"lines {', '.join(str(n) for n in lines)} (summed)"
    if unit_text is not None:  # the bytes are worked from the total in its printed unit
        return _reading(spec, str(count), count, unit_text, where)
    return _reading(spec, raw if len(values) > 1 else f"{count:,}", count, unit_text, where)


def key_counter(source: LogSource) -> CounterSpec:
    """The counter that identifies ``source`` in an output: its NAND-write counter, or for a
    log without one (wear and spare counters only) its first counter."""
    return next((c for c in source.counters if c.which == "nand"), source.counters[0])


def _unit_key(source: LogSource) -> tuple[tuple[str, str, int | None], ...]:
    return tuple((c.which, c.unit, c.unit_bytes) for c in source.counters if c.which in BYTE_KINDS)


def _without_bytes(reading: LogReading, why: str) -> LogReading:
    """The reading with its counts kept and its byte counts taken away (unit not known)."""
    counters = tuple(
        CounterReading(
            which=c.which,
            field=c.field,
            raw=c.raw,
            count=c.count,
            unit="not known: " + why,
            unit_bytes=None,
            bytes=None,
            arithmetic=f"{c.raw} (unit not known: no byte count)",
            where=c.where,
            note=c.note,
        )
        if c.which in BYTE_KINDS
        else c
        for c in reading.counters
    )
    return LogReading(reading.file, reading.source, reading.format, counters, reading.candidates)


def parse_nvme_log(text: str, file: str = "<text>", source_id: str | None = None) -> LogReading:
    """Identify which log ``text`` is (by the counters it holds) and read its counters.

    Several plugins print the same words in the same layout but count in different units
    (the Intel-layout "nand_bytes_written" of several vendors): when the logs that match
    disagree on a unit, the counts are read but no byte count is given, and the reading names
    the candidates (``candidates``); ``source_id`` (``--nvme-log-source``) says which log it
    is. A log without a NAND-write counter (wear and spare counters only) is matched by its
    first counter, and only when no log's NAND counter is in the output. Raises NvmeLogError
    if no known log's counter is in it.
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

    sources = load_sources() if source_id is None else (source_by_id(source_id),)
    with_nand: list[LogReading] = []
    without_nand: list[LogReading] = []
    for source in sources:
        key = key_counter(source)
        first = read(key)
        if first is None:
            continue
        others = (read(c) for c in source.counters if c is not key)
        found_here = LogReading(file, source, fmt, (first, *(r for r in others if r is not None)))
        (with_nand if key.which == "nand" else without_nand).append(found_here)
    # a log that counts NAND writes is preferred to one that has only wear or spare counters
    found = with_nand or without_nand
    if not found:
        if source_id is not None:
            raise NvmeLogError(
                f"{file}: not the {source_id} log: its counter "
                f"{key_counter(sources[0]).field!r} is not in this {fmt}"
            )
        fields = "; ".join(f"{s.id}: {key_counter(s).field}" for s in load_sources())
        raise NvmeLogError(
            f"{file}: no NAND-write counter of a known NVMe log in this {fmt}, nor a wear or "
            f"spare counter of one (looked for {fields})"
        )
    best = found[0]
    ids = tuple(r.source.id for r in found)
    reading = LogReading(best.file, best.source, best.format, best.counters, ids)
    if len({_unit_key(r.source) for r in found}) > 1:
        return _without_bytes(
            reading,
            f"this output matches the logs {', '.join(ids)}, which count in different units; "
            "name the log with --nvme-log-source",
        )
    return reading


def add_nvme_log_source_option(p: argparse.ArgumentParser) -> None:
    """``--nvme-log-source ID``: which log of the sources table a saved output is."""
    p.add_argument(
        "--nvme-log-source",
        choices=[s.id for s in load_sources()],
        metavar="ID",
        help="which log the saved output is, when its text could be several plugins' (the "
        "Intel-layout nand_bytes_written of several vendors counts in different units; "
        "default: found from the counters the text holds, and no byte count when the logs it "
        "could be disagree on the unit); one of: " + ", ".join(s.id for s in load_sources()),
    )
