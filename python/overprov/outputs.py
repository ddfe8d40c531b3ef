"""Output files and folders: checked before any work starts, written in one place.

``--json FILE`` takes ``-`` for stdout in every command. A path is checked up front — its
folder exists and is writable, it is not a folder where a file is wanted (nor a file where a
folder is wanted) — so a long run never ends by losing its results to a typo.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from overprov.errors import OutputError

STDOUT = "-"


def check_output_file(path: str | os.PathLike[str] | None, option: str) -> None:
    """Refuse (OutputError) a file that cannot be written; ``-`` (stdout) and None pass."""
    if path is None or str(path) == STDOUT:
        return
    p = Path(path)
    if p.is_dir():
        raise OutputError(f"a folder where a file is wanted ({option} {p})")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise OutputError(f"no folder {parent} to write it in ({option} {p})")
    if not parent.is_dir():
        raise OutputError(f"{parent} is a file, not a folder ({option} {p})")
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputError(f"not writable ({option} {p})")
    if not p.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"folder {parent} is not writable ({option} {p})")


_OURS = re.compile(rb'"(schema)"\s*:\s*"overprov\.|"format"\s*:\s*"overprov-')


def check_json_output(path: str | os.PathLike[str] | None, option: str = "--json") -> None:
    """As :func:`check_output_file`, and an existing file is overwritten only when it is an
    overprov JSON document (or empty): ``smart --json disk.json`` must not replace the
    smartctl file the user meant as input."""
    check_output_file(path, option)
    if path is None or str(path) == STDOUT or not Path(path).is_file():
        return
    with Path(path).open("rb") as fh:
        head = fh.read(4096)
    if head.strip() and not _OURS.search(head):
        raise OutputError(
            f"will not overwrite a file that overprov did not write; {option} takes the output "
            f"file, '-' for stdout ({option} {path})"
        )


def check_output_dir(path: str | os.PathLike[str] | None, option: str) -> None:
    """Refuse (OutputError) a folder that cannot be created or written; None passes."""
    if path is None:
        return
    p = Path(path)
    if p.exists():
        if not p.is_dir():
            raise OutputError(f"a file where a folder is wanted ({option} {p})")
        if not os.access(p, os.W_OK | os.X_OK):
            raise OutputError(f"folder not writable ({option} {p})")
        return
    # the nearest existing ancestor must be a writable folder (mkdir -p creates the rest)
    parent = p.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise OutputError(f"{parent} is a file, so {p} cannot be created ({option} {p})")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"cannot create it: {parent} is not writable ({option} {p})")


@contextlib.contextmanager
def naming(path: str | os.PathLike[str]) -> Iterator[None]:
    """An OSError raised inside names ``path`` when it names no file itself: a write that
    fails (``No space left on device``, an I/O error) says which file it was writing."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(path)
        raise


def json_text(doc: Any) -> str:
    """A document as the commands write it: indented, UTF-8 as is, a final newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_json(doc: Any, path: str | os.PathLike[str]) -> None:
    """Write a document to ``path``, or to stdout for ``-``."""
    text = json_text(doc)
    if str(path) == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        with naming(path):
            Path(path).write_text(text, encoding="utf-8")


def document(command: str, body: dict[str, Any], major: int = 1) -> dict[str, Any]:
    """A command's JSON document: ``schema`` and ``overprov_version`` first, then ``body``."""
    from overprov import __version__

    return {"schema": f"overprov.{command}/{major}", "overprov_version": __version__, **body}


def percent_names(value: Any) -> Any:
    """Fractions of C named ``*extra_op`` or ``native_op`` → ``*_percent`` in percent."""
    if isinstance(value, dict):
        out = {}
        for key, v in value.items():
            if (key.endswith("extra_op") or key == "native_op") and isinstance(v, int | float):
                out[f"{key}_percent"] = v * 100
            elif key.endswith("extra_op") or key == "native_op":
                out[f"{key}_percent"] = v
            else:
                out[key] = percent_names(v)
        return out
    if isinstance(value, list | tuple):
        return [percent_names(v) for v in value]
    return value
