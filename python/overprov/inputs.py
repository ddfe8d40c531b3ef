"""Reading input files with bounds: every JSON and TOML file a command reads goes through here.

Bounds (each refusal is an :class:`~overprov.errors.InputError` naming the file and the reason):
a regular file (not a folder, not a device), at most :data:`MAX_INPUT_BYTES`, UTF-8 text,
nesting at most :data:`MAX_DEPTH` deep, and no NaN or infinity (JSON's ``NaN``/``Infinity``
extensions, TOML's ``nan``/``inf``): a figure that is not a number cannot be reported on.
"""

from __future__ import annotations

import json
import math
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from overprov.errors import InputError

#: The largest input file read: far above any smartctl, fio, results or config file.
MAX_INPUT_BYTES = 256 * 2**20
#: The deepest nesting of lists and tables accepted (the deepest legitimate input, fio's JSON,
#: is under 10 levels).
MAX_DEPTH = 64


def read_text(
    path: str | os.PathLike[str], what: str = "file", max_bytes: int = MAX_INPUT_BYTES
) -> str:
    """The text of a regular UTF-8 file of at most ``max_bytes``; ``what`` says what it is
    meant to be (``config file``, ``smartctl -j file``) in the errors."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputError(f"no such {what} ({p})") from None
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror or exc} ({p})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"a folder where a {what} is expected ({p})")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"not a regular file; expected a {what} ({p})")
    if st.st_size > max_bytes:
        raise InputError(
            f"{st.st_size:,} bytes is larger than any {what} overprov reads "
            f"(limit {max_bytes:,}) ({p})"
        )
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the {what}: {exc.strerror or exc} ({p})") from None
    if b"\x00" in data:
        raise InputError(f"a binary file, not a {what} ({p})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text; expected a {what} ({p}:{line})") from None


def _refuse_constant(name: str) -> float:
    raise ValueError(name)


def check_depth(value: Any, where: str, limit: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than ``limit`` (iteratively: no recursion to overflow)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            raise InputError(f"nested more than {limit} levels deep ({where})")
        stack.extend((c, depth + 1) for c in children)


def check_finite(value: Any, where: str) -> None:
    """Refuse NaN and infinity anywhere in a parsed document, naming the field."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise InputError(f"{item!r} is not a number ({where}: {path or 'the document'})")
        if isinstance(item, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))


def decode_json(text: str, where: str, what: str = "JSON file") -> Any:
    """JSON text → data, bounded (depth, no NaN/Infinity: :class:`InputError`), leaving a
    syntax error as :class:`json.JSONDecodeError` for a reader that accepts text which is not
    JSON (an nvme-cli text output may start with "[")."""
    try:
        doc = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError:
        raise
    except ValueError as exc:
        raise InputError(f"{exc} is not a number; expected a {what} ({where})") from None
    except RecursionError:
        raise InputError(f"nested too deeply to be a {what} ({where})") from None
    check_depth(doc, where)
    return doc


def parse_json(text: str, where: str, what: str = "JSON file") -> Any:
    """JSON text → data, bounded: depth, no NaN/Infinity. ``where`` names the source."""
    try:
        return decode_json(text, where, what)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"not valid JSON: {exc.msg}; expected a {what} ({where}:{exc.lineno})"
        ) from None


def load_json(path: str | os.PathLike[str], what: str = "JSON file") -> Any:
    """A bounded JSON file (see the module's rules)."""
    return parse_json(read_text(path, what), str(path), what)


def parse_toml(text: str, where: str, what: str = "TOML file") -> dict[str, Any]:
    """TOML text → tables, bounded: depth, no nan/inf. Syntax errors name ``where:line``."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        line = ""
        if "(at line " in msg:
            msg, _, rest = msg.partition(" (at line ")
            line = ":" + rest.split(",")[0]
        elif "(at end of document)" in msg:
            msg = msg.replace(" (at end of document)", "")
            line = f":{text.count(chr(10)) + 1}"
        raise InputError(f"not valid TOML: {msg}; expected a {what} ({where}{line})") from None
    except RecursionError:
        raise InputError(f"nested too deeply to be a {what} ({where})") from None
    check_depth(doc, where)
    check_finite(doc, where)
    return doc


def load_toml(path: str | os.PathLike[str], what: str = "TOML file") -> dict[str, Any]:
    """A bounded TOML file (see the module's rules)."""
    return parse_toml(read_text(path, what), str(path), what)
