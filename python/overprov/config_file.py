"""A simulate config file (TOML) checked in the user's words: file, line and key.

The Rust core validates every value, but it sees the config as JSON, so its own messages
would point into that JSON (``line 1 column 39``) and name its types (``struct
GeometryConfig``). Here the file's shape is checked first against the core's defaults — known
sections and keys, a table where a table is expected, a number where a number is — and any
message from the core is translated and located in the file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.errors import ConfigError

_AT_LINE = re.compile(r" at line \d+ column \d+$")
_RUST_TYPES = (
    (re.compile(r"expected struct \w+|expected a map"), "expected a table"),
    (re.compile(r"expected [ui](8|16|32|64|size)"), "expected a whole number ≥ 0"),
    (re.compile(r"expected f(32|64)"), "expected a number"),
    (re.compile(r"expected a boolean"), "expected true or false"),
    (re.compile(r"invalid type: ([^`,]+?) `([^`]*)`"), r"\1 \2 is the wrong type"),
    (re.compile(r"invalid type: ([^`,]+?),"), r"\1 is the wrong type,"),
    (re.compile(r"expected a sequence"), "expected a list"),
    (re.compile(r"unknown variant"), "unknown value"),
    (re.compile(r"unknown field"), "unknown key"),
)


def key_line(text: str, dotted: str) -> int | None:
    """The line of TOML ``text`` that sets key ``dotted`` (a.b.c), or of the nearest table or
    key above it; None if nothing matches."""
    want = dotted.split(".")
    table: list[str] = []
    best, best_depth = None, 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        header = re.match(r"^\[\[?\s*([^\]]+?)\s*\]\]?$", line)
        if header:
            table = [p.strip().strip("\"'") for p in header.group(1).split(".")]
            path = table
        else:
            key = re.match(r"^([A-Za-z0-9_\-.\"' ]+?)\s*=", line)
            if not key:
                continue
            path = table + [p.strip().strip("\"'") for p in key.group(1).split(".")]
        if path == want:
            return number
        if want[: len(path)] == path and len(path) > best_depth:
            best, best_depth = number, len(path)
    return best


def locate(text: str, dotted: str) -> int | None:
    """The line (1-based) of a dotted key (``geometry.pages_per_block``, ``workload.zones[0]``)
    in TOML text, or of the nearest table or key above it (:func:`key_line`)."""
    return key_line(text, re.sub(r"\[\d+\]", "", dotted))


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _fits(value: Any, default: Any) -> bool:
    if default is None:
        return True  # optional field: the core checks it
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, type(default))


def check_shape(
    doc: dict[str, Any], defaults: dict[str, Any], where: str, text: str, prefix: str = ""
) -> None:
    """Every key known, every table a table, every value of its default's kind."""
    for key, value in doc.items():
        field = f"{prefix}{key}"
        line = locate(text, field)
        at = f"{where}:{line}" if line else where
        if key not in defaults:
            known = ", ".join(sorted(defaults))
            raise ConfigError(f"unknown key {field!r}; known here: {known} ({at})")
        default = defaults[key]
        if not _fits(value, default):
            raise ConfigError(
                f"{field} must be {_kind(default)}, not {_kind(value)} {value!r:.60} ({at})"
            )
        if isinstance(default, dict):
            check_shape(value, default, where, text, f"{field}.")


def flags_given(args: Any, flag_fields: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, str]:
    """Each config field a flag given on the command line sets, and that flag (for
    :func:`core_message`): ``flag_fields`` rows are (argparse dest, field path)."""
    return {
        ".".join(path): "--" + dest.replace("_", "-")
        for dest, path in flag_fields
        if getattr(args, dest, None) not in (None, False)
    }


def load_config(path: str | Path, defaults: dict[str, Any]) -> dict[str, Any]:
    """Read a simulate TOML config: bounded (``overprov.inputs``), shape checked against the
    core's ``defaults``; errors name the file, line and key."""
    text = inputs.read_text(path, "simulate config file (TOML)")
    doc = inputs.parse_toml(text, str(path), "simulate config file")
    check_shape(doc, defaults, str(path), text)
    return doc


def core_message(
    message: str, path: str | Path | None = None, flags: dict[str, str] | None = None
) -> str:
    """A core validation message in the user's words: naming the flag that set the field it
    names (``flags``, field -> flag, flags win over the file), else located in ``path`` when
    the field is set there."""
    msg = _AT_LINE.sub("", message.strip())
    for pattern, words in _RUST_TYPES:
        msg = pattern.sub(words, msg)
    field, sep, rest = msg.partition(": ")
    if sep and field in (flags or {}):
        return f"{flags[field]} ({field}): {rest}"
    if path is None:
        return msg
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return msg
    line = locate(text, field) if sep and " " not in field else None
    return f"{field}: {rest} ({path}:{line})" if line else msg
