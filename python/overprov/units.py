"""Sizes and lists as users type them on the command line, parsed in one place.

Capacities follow drive labels: plain suffixes are decimal (512G, 480GB, 1.92TB = 10⁹·…) and
KiB/MiB/GiB/TiB are binary. What a bare number means depends on the option (bytes for a
simulator size, GB for a drive capacity), so the caller says.
"""

from __future__ import annotations

import re

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

_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([a-zA-Z]*)\s*")


def parse_size_bytes(text: str, option: str, *, bare_unit: str = "b") -> float:
    """'200GB', '1.5TB', '500GiB', '512G' → bytes; a bare number is in ``bare_unit``."""
    m = _SIZE.fullmatch(str(text).replace("_", ""))
    unit = m.group(2).lower() if m else ""
    if not m or (unit or bare_unit) not in SIZE_UNITS:
        raise ConfigError(f"{option}: expected a size like 200GB, 1.5TB or 500GiB, got {text!r}")
    value = float(m.group(1)) * SIZE_UNITS[unit or bare_unit]
    if not value > 0:
        raise ConfigError(f"{option}: must be > 0, got {text!r}")
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
