"""Sizes, durations and percentages as users type them, parsed and printed in one place.

One rule for every command (``overprov --help`` and docs/cli.md say the same):

- **sizes**: SI suffixes are powers of 1000 — k, M, G, T, P, with or without B (``512G`` =
  ``512GB`` = 512·10⁹ bytes, as drives are labelled); IEC suffixes are powers of 1024 — KiB,
  MiB, GiB, TiB, PiB (``64MiB`` = 64·2²⁰ bytes); a bare number is bytes. An option whose name
  carries its unit (``--visible-gb``) may take a bare number in that unit: the caller says so.
- **block sizes** (``--bs``, ``--page-size``, fio's ``bssplit``) follow fio, whose job files
  they end up in: ``4k`` = 4096 bytes; IEC suffixes are accepted too.
- **durations**: s, min, h, d (``90s``, ``10min``, ``2h``, ``1d``); a bare number is seconds.
- **percentages**: a number with or without a trailing ``%``.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from overprov.errors import ConfigError

SIZE_UNITS: dict[str, int] = {
    "b": 1,
    "k": 10**3,
    "kb": 10**3,
    "m": 10**6,
    "mb": 10**6,
    "g": 10**9,
    "gb": 10**9,
    "t": 10**12,
    "tb": 10**12,
    "p": 10**15,
    "pb": 10**15,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
    "pib": 2**50,
}

DURATION_UNITS: dict[str, int] = {
    "s": 1,
    "min": 60,
    "h": 3600,
    "d": 86400,
}

_NUMBER_UNIT = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([a-zA-Z]*)\s*")


def parse_size_exact(text: str, option: str, *, bare_unit: str = "b") -> Fraction:
    """'200GB', '1.5TB', '500GiB', '512G' → bytes, exactly; a bare number is bytes (or
    ``bare_unit`` for an option whose name states its unit)."""
    m = _NUMBER_UNIT.fullmatch(str(text).replace("_", ""))
    unit = m.group(2).lower() if m else ""
    if not m or (unit or bare_unit) not in SIZE_UNITS:
        raise ConfigError(f"{option}: expected a size like 200GB, 1.5TB or 500GiB, got {text!r}")
    value = Fraction(m.group(1)) * SIZE_UNITS[unit or bare_unit]
    if not value > 0:
        raise ConfigError(f"{option}: must be > 0, got {text!r}")
    return value


def parse_size_bytes(text: str, option: str, *, bare_unit: str = "b") -> float:
    """As :func:`parse_size_exact`, as a float."""
    return float(parse_size_exact(text, option, bare_unit=bare_unit))


def parse_size(text: str | int, what: str = "size") -> int:
    """A size in whole bytes ('64MiB', '1GB', '65536'); the one rule above."""
    if isinstance(text, int):
        return text
    value = parse_size_exact(text, what)
    if value.denominator != 1:
        raise ConfigError(f"{what}: {text!r} is not a whole number of bytes")
    return int(value)


def parse_block_size(text: str, option: str) -> int:
    """Request and page sizes, fio style: 4k = 4096, 64k, 1m, 512, or 4KiB."""
    t = str(text).strip().lower()
    m = re.fullmatch(r"([0-9]+)\s*(k|m|kb|mb|kib|mib)?", t)
    if not m:
        raise ConfigError(f"{option}: cannot read block size {text!r} (e.g. 4k, 512, 64k)")
    value = int(m.group(1)) * {"": 1, "k": 2**10, "m": 2**20}[(m.group(2) or "")[:1]]
    if value <= 0:
        raise ConfigError(f"{option}: block size must be positive, got {text!r}")
    return value


def parse_duration_seconds(text: str | float, option: str) -> float:
    """'90', '90s', '10min', '2h', '1d' → seconds (a bare number is seconds)."""
    m = _NUMBER_UNIT.fullmatch(str(text))
    unit = m.group(2).lower() if m else ""
    if not m or (unit or "s") not in DURATION_UNITS:
        raise ConfigError(f"{option}: expected a duration like 90s, 10min, 2h or 1d, got {text!r}")
    value = float(m.group(1)) * DURATION_UNITS[unit or "s"]
    if not value > 0:
        raise ConfigError(f"{option}: must be > 0, got {text!r}")
    return value


def parse_percent(text: str | float, option: str) -> float:
    """'20', '20%', 20 → 20.0 (percent, finite)."""
    raw = str(text).strip().removesuffix("%").strip()
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{option}: expected a percentage like 20, got {text!r}") from None
    if not math.isfinite(value):
        raise ConfigError(f"{option}: expected a finite percentage, got {text!r}")
    return value


def parse_number_list(text: str, option: str, example: str = "0,10,20") -> list[float]:
    """'0,10,20%' → [0.0, 10.0, 20.0]; a trailing % on an item is allowed."""
    out = []
    for part in str(text).split(","):
        part = part.strip().rstrip("%").strip()
        if not part:
            continue
        try:
            out.append(float(part))
        except ValueError:
            raise ConfigError(f"{option}: {part!r} is not a number (give e.g. {example})") from None
    if not out:
        raise ConfigError(f"{option}: no values given (give e.g. {example})")
    return out


# ---------------------------------------------------------------------------------- printing


def human_bytes(n: float | None, decimals: int | None = None) -> str:
    """Decimal units, as drives are sold: '14.2 GB' (3 significant digits), or with a fixed
    number of ``decimals`` ('19.95 TB'); '—' for None."""
    if n is None:
        return "—"
    for unit, size in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if decimals is not None and unit == "kB":
            break
        if abs(n) >= size * (1 if decimals is not None else 0.9995):  # 999,998,976 B is 1 GB
            if decimals is not None:
                return f"{n / size:,.{decimals}f} {unit}"
            return f"{n / size:,.3g} {unit}" if abs(n) / size < 100 else f"{n / size:,.0f} {unit}"
    return f"{n:,.0f} B"


def binary_size(n: int) -> str:
    """Block sizes as fio names them: 4 KiB, 128 KiB, 512 B."""
    for unit, size in (("MiB", 2**20), ("KiB", 2**10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def human_seconds(s: float | None) -> str:
    """'8.5 s', '45 s', '12.0 min', '3.5 h', '2.0 days'; '—' for None."""
    if s is None:
        return "—"
    if s < 120:
        return f"{s:.1f} s" if s < 10 else f"{s:.0f} s"
    if s < 2 * 3600:
        return f"{s / 60:.1f} min"
    if s < 2 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} days"
