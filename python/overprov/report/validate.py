"""Every input of ``overprov report`` validated before any figure is drawn: bounded reading
(``overprov.inputs``: size, depth, UTF-8, no NaN or infinity), then its JSON Schema, then no
negative figure (sizes, times, counts, IOPS, WAF cannot be below zero)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.errors import InputError
from overprov.json_schemas import validate_document
from overprov.profile.results import FORMAT as PROFILE_FORMAT
from overprov.profile.results import upgrade

#: field names that hold a quantity that cannot be negative
_NON_NEGATIVE = re.compile(r"(_bytes|_us|_ns|_seconds|_s|iops|_pages|_count|erases|waf|rounds)$")
SCHEMAS_READ = ("overprov.profile", "overprov.simulate", "overprov.qualify", "overprov.calibrate")
_SIGNED = re.compile(r"slope|delta|diff|change|excursion|offset|t_cmd|rel_error")


def check_non_negative(doc: Any, where: str) -> None:
    stack: list[tuple[Any, str, str]] = [(doc, "", "")]
    while stack:
        item, key, path = stack.pop()
        if isinstance(item, int | float) and not isinstance(item, bool):
            if item < 0 and _NON_NEGATIVE.search(key) and not _SIGNED.search(key):
                raise InputError(f"{path} is {item:g}; it cannot be negative ({where})")
        elif isinstance(item, dict):
            stack.extend((v, str(k), f"{path}.{k}" if path else str(k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, key, f"{path}[{i}]") for i, v in enumerate(item))


def _check_file(path: Path, kind: str | None) -> None:
    doc = inputs.load_json(path, "profile results.json or simulate JSON file")
    if not isinstance(doc, dict):
        raise InputError(f"expected a JSON object, not a {type(doc).__name__} ({path})")
    doc = upgrade(doc)
    if kind is None:
        kind = "overprov.profile" if doc.get("format") == PROFILE_FORMAT else "overprov.simulate"
        named = doc.get("schema")
        if str(named).startswith(("overprov.qualify/", "overprov.calibrate/")):
            kind = str(named).split("/")[0]
        if named is not None and str(named).split("/")[0] not in SCHEMAS_READ:
            raise InputError(
                f"a {doc['schema']} document; report reads profile results and simulate, "
                f"qualify and calibrate files ({path})"
            )
    validate_document(doc, kind, str(path))
    check_non_negative(doc, str(path))


def validate_inputs(paths: Sequence[Path]) -> None:
    """Each input as ``report`` will read it, checked first; errors name file and field."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            results = path / "results.json"
            if results.exists():
                _check_file(results, "overprov.profile")
                continue
            if (path / "qualify.json").exists():
                _check_file(path / "qualify.json", "overprov.qualify")
                continue
            for f in sorted(path.glob("*.json")):
                try:
                    head = inputs.load_json(f)
                except InputError:
                    continue  # not one of ours: the loader says so if nothing is found
                if isinstance(head, dict) and head.get("schema") == "overprov.simulate/1":
                    _check_file(f, "overprov.simulate")
        elif path.exists():
            _check_file(path, None)
