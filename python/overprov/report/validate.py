"""Every input of ``overprov report`` validated before any figure is drawn: bounded reading
(``overprov.inputs``: size, depth, UTF-8, no NaN or infinity), then its JSON Schema, then no
physically impossible figure (docs/report.md, "Inputs"): nothing negative that cannot be
(sizes, times, counts, IOPS, WAF), no WAF above ``models.MAX_PLAUSIBLE_WAF`` and no time in µs above
:data:`MAX_US`. A field's unit is read from its name or, for the fields of an object such as
``latency_us: {"max": ...}``, from the object's name."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.errors import InputError
from overprov.json_schemas import validate_document
from overprov.models import MAX_PLAUSIBLE_WAF
from overprov.report.model import ReportInputError
from overprov.results import FORMAT as PROFILE_FORMAT
from overprov.results import upgrade

#: field names that hold a quantity that cannot be negative
_NON_NEGATIVE = re.compile(r"(_bytes|_us|_ns|_seconds|_s|iops|_pages|_count|erases|waf|rounds)$")
SCHEMAS_READ = (
    "overprov.profile",
    "overprov.simulate",
    "overprov.qualify",
    "overprov.calibrate",
    "overprov.plan",
)
_SIGNED = re.compile(r"slope|delta|diff|change|excursion|offset|t_cmd|rel_error")
_WAF = re.compile(r"(^|_)waf(_low|_high|_window_mean|_baseline_mean)?$")
MAX_US = 365.25 * 86400e6
"""A year in µs: no measured I/O, round or interval of a run takes longer."""


def _unit_key(key: str, parent: str) -> str:
    """The name that says a field's unit: its own, else its object's (``latency_us.max``)."""
    if _NON_NEGATIVE.search(key) or _SIGNED.search(key) or not _NON_NEGATIVE.search(parent):
        return key
    return parent


def _impossible(value: float, key: str) -> str | None:
    if value < 0 and _NON_NEGATIVE.search(key) and not _SIGNED.search(key):
        return "it cannot be negative"
    if _WAF.search(key) and value > MAX_PLAUSIBLE_WAF:
        return f"no drive has a WAF above {MAX_PLAUSIBLE_WAF:g}"
    if key.endswith("_us") and abs(value) > MAX_US:
        return f"more than a year ({MAX_US:.3g} µs) cannot be a measured time"
    return None


def check_physical(doc: Any, where: str) -> None:
    """Raise InputError naming the first field whose value no drive can have (see above)."""
    stack: list[tuple[Any, str, str]] = [(doc, "", "")]
    while stack:
        item, key, path = stack.pop()
        if isinstance(item, int | float) and not isinstance(item, bool):
            why = _impossible(item, key)
            if why is not None:
                raise InputError(f"{path} is {item:g}; {why} ({where})")
        elif isinstance(item, dict):
            # a field's own name says its unit, or its object's for a scalar field
            # (latency_us.max); a nested object or list is named by its own key only
            stack.extend(
                (
                    v,
                    str(k) if isinstance(v, dict | list) else _unit_key(str(k), key),
                    f"{path}.{k}" if path else str(k),
                )
                for k, v in item.items()
            )
        elif isinstance(item, list):
            # numbers in a list share its unit (intervals_us: [...]); objects in it do not
            # (rounds: [{...}] is a count's name, not its fields' unit)
            stack.extend(
                (v, "" if isinstance(v, dict | list) else key, f"{path}[{i}]")
                for i, v in enumerate(item)
            )


def _check_file(path: Path, kind: str | None) -> None:
    doc = inputs.load_json(path, "profile results.json or simulate JSON file")
    if not isinstance(doc, dict):
        raise InputError(f"expected a JSON object, not a {type(doc).__name__} ({path})")
    doc = upgrade(doc)
    if kind is None:
        kind = "overprov.profile" if doc.get("format") == PROFILE_FORMAT else "overprov.simulate"
        named = doc.get("schema")
        if str(named).startswith(("overprov.qualify/", "overprov.calibrate/", "overprov.plan/")):
            kind = str(named).split("/")[0]
        if named is not None and str(named).split("/")[0] not in SCHEMAS_READ:
            raise InputError(
                f"a {doc['schema']} document; report reads profile results and simulate, "
                f"qualify, calibrate and plan files ({path})"
            )
    validate_document(doc, kind, str(path))
    check_physical(doc, str(path))


def validate_inputs(paths: Sequence[Path]) -> None:
    """Each input as ``report`` will read it, checked first; errors name file and field (a
    missing input is a ReportInputError, as the loader would raise)."""
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
        else:  # said here, before the report's modules are imported
            raise ReportInputError.missing(path)
