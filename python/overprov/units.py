"""Sizes, durations and percentages as users type them, parsed and printed in one place.

One rule for every command (``overprov --help`` and docs/cli.md say the same):

- **sizes**: SI suffixes are powers of 1000 — k, M, G, T, P, with or without B (``512G`` =
  ``512GB`` = 512·10⁹ bytes, as drives are labelled; a lowercase b after the prefix, ``4Gb``,
  is bits by convention and refused); IEC suffixes are powers of 1024 — KiB,
  MiB, GiB, TiB, PiB (``64MiB`` = 64·2²⁰ bytes); a bare number is bytes. An option whose name
  carries its unit (``--visible-gb``) may take a bare number in that unit: the caller says so.
- **block sizes** (``--bs``, ``--page-size``, fio's ``bssplit``) follow fio, whose job files
  they end up in: ``4k`` = 4096 bytes; IEC suffixes are accepted too.
- **durations**: s, m or min, h, d (``90s``, ``90m``, ``10min``, ``2h``, ``1d``); a bare number
  is seconds.
- **percentages**: a number with or without a trailing ``%`` (``--extra-op 20`` = ``20%``).
- **ρ** (total OP, ``--rho``) is a fraction: ``0.28``; ``28%`` is refused (it is not 0.28).
- **TBW** (``--rated-tbw``): a bare number is TB (10¹² bytes written), units are accepted
  (``600``, ``600TB``, ``0.6PB``).
- **numbers**: finite (NaN and infinity are refused), inside the range that means something
  (a queue depth ≥ 1, a target IOPS > 0).

Each rule is a ``parse_*`` function for library code (its ``ConfigError`` names the option) and
an :class:`Arg` for argparse's ``type=`` (argparse names the option; exit 2 with the usage).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

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
    "m": 60,  # as calibrate --budget has always read it (90m); never months or metres here
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
    if len(unit) > 1 and m.group(2).endswith("b"):  # 4Gb, 4gb, 4Gib: bits by convention
        number, prefix = m.group(1), m.group(2)[0].upper().replace("K", "k")
        raise ConfigError(
            f"{option}: {text!r}: b is bits; write {number}{prefix}B or {number}{prefix.upper()}iB"
        )
    value = Fraction(m.group(1)) * SIZE_UNITS[unit or bare_unit]
    if not value > 0:
        raise ConfigError(f"{option}: must be > 0, got {text!r}")
    return value


def parse_size_bytes(text: str, option: str, *, bare_unit: str = "b") -> float:
    """As :func:`parse_size_exact`, as a float."""
    return float(parse_size_exact(text, option, bare_unit=bare_unit))


def parse_size(
    text: str | int, what: str = "size", *, bare_unit: str = "b", at_least: int = 0
) -> int:
    """A size in whole bytes ('64MiB', '1GB', '65536'); the one rule above. Below
    ``at_least`` bytes it is refused as a forgotten unit (``--daily-writes 500``)."""
    if isinstance(text, int):
        return text
    value = parse_size_exact(text, what, bare_unit=bare_unit)
    if value.denominator != 1:
        raise ConfigError(f"{what}: {text!r} is not a whole number of bytes")
    if value < at_least:
        raise ConfigError(
            f"{what}: {text!r} is {int(value):,} bytes, less than {human_bytes(at_least)}: "
            "give it with its unit, e.g. 500GB (a bare number is bytes)"
        )
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


def _range(
    value: float,
    text: Any,
    option: str,
    lo: float | None,
    hi: float | None,
    lo_open: bool = False,
    hi_open: bool = False,
    unit: str = "",
) -> None:
    """``value`` inside [lo, hi] (an open end excluded), or a ConfigError naming ``option``."""
    low_bad = lo is not None and (value <= lo if lo_open else value < lo)
    high_bad = hi is not None and (value >= hi if hi_open else value > hi)
    if not (low_bad or high_bad):
        return
    if lo is not None and hi is not None:
        left, right = "(" if lo_open else "[", ")" if hi_open else "]"
        want = f"in {left}{lo:g}, {hi:g}{right}{unit}"
    elif lo is not None:
        want = f"{'>' if lo_open else '≥'} {lo:g}{unit}"
    else:
        want = f"{'<' if hi_open else '≤'} {hi:g}{unit}"
    raise ConfigError(f"{option}: must be {want}, got {text!r}")


def parse_number(
    text: str | float,
    option: str,
    *,
    lo: float | None = None,
    hi: float | None = None,
    lo_open: bool = False,
    hi_open: bool = False,
    integer: bool = False,
    unit: str = "",
) -> float:
    """A finite number (NaN and infinity refused) inside [lo, hi] (``lo_open``/``hi_open``
    exclude an end; ``unit`` is named in the message); ``integer``: a whole one, returned as
    int. '1_000' is 1000."""
    raw = str(text).strip().replace("_", "")
    try:
        value: float = int(raw) if integer else float(raw)
    except ValueError:
        kind = "a whole number" if integer else "a number"
        raise ConfigError(f"{option}: expected {kind}, got {text!r}") from None
    if not math.isfinite(value):
        raise ConfigError(f"{option}: expected a finite number, got {text!r}")
    _range(value, text, option, lo, hi, lo_open, hi_open, unit)
    return value


def parse_duration_seconds(
    text: str | float, option: str, *, allow_zero: bool = False, whole: bool = False
) -> float:
    """'90', '90s', '90m', '10min', '2h', '1d' → seconds (a bare number is seconds); > 0 (≥ 0 with
    ``allow_zero``); ``whole``: a whole number of seconds, returned as int."""
    m = _NUMBER_UNIT.fullmatch(str(text))
    unit = m.group(2).lower() if m else ""
    if not m or (unit or "s") not in DURATION_UNITS:
        raise ConfigError(
            f"{option}: expected a duration like 90s, 90m, 10min, 2h or 1d, got {text!r}"
        )
    value = float(m.group(1)) * DURATION_UNITS[unit or "s"]
    if not (value >= 0 if allow_zero else value > 0):
        raise ConfigError(f"{option}: must be {'≥ 0' if allow_zero else '> 0'}, got {text!r}")
    if whole:
        if value != int(value):
            raise ConfigError(f"{option}: a whole number of seconds, got {text!r}")
        return int(value)
    return value


def parse_percent(text: str | float, option: str, **bounds: Any) -> float:
    """'20', '20%', 20 → 20.0: percent, finite, inside the ``bounds`` of :func:`parse_number`
    (``lo``, ``hi``, ``lo_open``, ``hi_open``, ``integer``)."""
    raw = str(text).strip().removesuffix("%").strip()
    try:
        return parse_number(raw, option, unit=" %", **bounds)
    except ConfigError as exc:
        if not str(exc).startswith(f"{option}: expected"):
            raise ConfigError(str(exc).replace(repr(raw), repr(text))) from None
        kind = "a whole percentage" if bounds.get("integer") else "a percentage"
        raise ConfigError(f"{option}: expected {kind} like 20 or 20%, got {text!r}") from None


def _items(text: str, option: str, example: str) -> list[str]:
    items = [part.strip() for part in str(text).split(",") if part.strip()]
    if not items:
        raise ConfigError(f"{option}: no values given (give e.g. {example})")
    return items


def parse_percent_list(
    text: str, option: str, *, lo: float = 0.0, hi: float = 100.0, hi_open: bool = True
) -> list[float]:
    """'0,10,20%' → [0.0, 10.0, 20.0]: percentages (each with or without %), in [lo, hi)."""
    return [
        parse_percent(part, option, lo=lo, hi=hi, hi_open=hi_open)
        for part in _items(text, option, "0,10,20")
    ]


def parse_fraction_list(text: str, option: str) -> list[float]:
    """'0.07,0.28' → [0.07, 0.28]: fractions > 0 (ρ); '28%' is refused, it is not 0.28."""
    out = []
    for part in _items(text, option, "0.07,0.28"):
        if part.endswith("%"):
            raise ConfigError(
                f"{option}: a fraction, not a percentage: 0.28 means 28 %, got {part!r}"
            )
        out.append(parse_number(part, option, lo=0.0, lo_open=True))
    return out


def parse_count_list(text: str, option: str) -> list[int]:
    """'1,2,4,32' → [1, 2, 4, 32]: whole numbers ≥ 1 (queue depths)."""
    return [
        int(parse_number(part, option, lo=1, integer=True))
        for part in _items(text, option, "1,4,32")
    ]


def parse_tbw_bytes(text: str, option: str = "--rated-tbw") -> float:
    """Rated endurance in host bytes written: a bare number is TB ('600' = 600·10¹² bytes);
    units are accepted ('600TB', '0.6PB', '546TiB')."""
    return float(parse_size_exact(text, option, bare_unit="tb"))


def parse_tbw_tb(text: str, option: str = "--rated-tbw") -> float:
    """:func:`parse_tbw_bytes` in TB, for the fields that keep TB (``rated_tbw``)."""
    return parse_tbw_bytes(text, option) / 10**12


class Arg:
    """One of the rules above as argparse's ``type=``: ``Arg(parse_percent, lo=0, hi=100)``.
    The value is parsed by ``parse`` (with the keywords given); its error becomes argparse's,
    which names the option and exits 2 with the command's usage. ``kind`` says which rule, for
    ``--help`` texts and the tests that walk every option."""

    def __init__(self, parse: Callable[..., Any], **keywords: Any) -> None:
        self.parse, self.keywords = parse, keywords
        self.kind = parse.__name__.removeprefix("parse_")
        self.__name__ = self.kind  # argparse's fallback message names the type

    def __call__(self, text: str) -> Any:
        try:
            return self.parse(text, "", **self.keywords)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(": ")) from None

    def __repr__(self) -> str:
        return f"Arg({self.kind}, {self.keywords})"


#: The common kinds, ready for ``type=``.
POSITIVE = Arg(parse_number, lo=0.0, lo_open=True)  # a rate, a target, a time scale
NON_NEGATIVE = Arg(parse_number, lo=0.0)
COUNT = Arg(parse_number, lo=1, integer=True)  # a queue depth, jobs, rounds, blocks
COUNT_OR_ZERO = Arg(parse_number, lo=0, integer=True)
SIZE = Arg(parse_size)
BLOCK_SIZE = Arg(parse_block_size)
DURATION = Arg(parse_duration_seconds)
WHOLE_SECONDS = Arg(parse_duration_seconds, whole=True)
PERCENT = Arg(parse_percent, lo=0.0, hi=100.0)  # a share: 0–100 %
PERCENT_POSITIVE = Arg(parse_percent, lo=0.0, hi=100.0, lo_open=True)  # a span: (0, 100] %
EXTRA_OP_LIST = Arg(parse_percent_list)  # percent of the advertised capacity, in [0, 100)
RHO_LIST = Arg(parse_fraction_list)
COUNT_LIST = Arg(parse_count_list)  # queue depths to sweep
TBW = Arg(parse_tbw_bytes)
TBW_TB = Arg(parse_tbw_tb)


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


def factor_text(factor: float) -> str:
    """A simulated drive's scale factor as every text writes it: "1/256", "1 (full size)"."""
    if factor >= 0.9995:
        return "1 (full size)"
    inverse = 1.0 / factor
    if abs(inverse - round(inverse)) < 0.01 * inverse:
        return f"1/{round(inverse):,}"
    return f"{factor:.3g}"


def plural(n: float, word: str) -> str:
    """A count and its noun, in the singular for exactly one: ``1 round``, ``3 rounds``,
    ``0.5 hours`` (never ``round(s)``). ``n`` is printed as given (``{n:g}`` for a float)."""
    figure = f"{n:g}" if isinstance(n, float) else f"{n:,}"
    return f"{figure} {word}" if n == 1 else f"{figure} {word}s"
