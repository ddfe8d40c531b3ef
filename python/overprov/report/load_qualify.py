"""A qualify result (``overprov qualify --out DIR``: ``qualify.json``, or any ``--json FILE``
it wrote; schema ``overprov.qualify/1``, docs/qualify.md) as one :class:`Source` of kind
"qualify".

A qualification has no OP levels: its tests and verdicts are kept whole (``Source.qualify``)
and drawn by a section of their own (``section_qualify.py``). A simulated target
(``sim:NAME|FILE.toml[@SCALE]``) is marked SIMULATED as every simulated source is.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.errors import InputError
from overprov.report.model import Source, kv, read_document, scale_text, sim_basis_of
from overprov.units import human_bytes

QUALIFY_SCHEMA = "overprov.qualify/1"
QUALIFY_FILE = "qualify.json"
"""The document ``overprov qualify`` writes into its output folder."""


def is_qualify_file(path: Path) -> bool:
    try:
        doc = inputs.load_json(path)
    except (InputError, OSError):
        return False
    return isinstance(doc, dict) and doc.get("schema") == QUALIFY_SCHEMA


def load_qualify(path: Path) -> Source:
    """``path``: a qualify output folder or a qualify JSON file. Raises ReportInputError for a
    file that is not one, or fails the schema, naming the file and the field."""
    file = path / QUALIFY_FILE if path.is_dir() else path
    doc = read_document(file, QUALIFY_SCHEMA, "qualify result")
    target = doc["target"]
    spec = str(target["spec"])
    sim = target["kind"] == "sim"
    drive, _, scale = spec.removeprefix("sim:").partition("@")
    members = [str(m.get("name") or m.get("path")) for m in target.get("members") or []]
    settings = doc.get("settings") or {}
    mtime = datetime.fromtimestamp(os.stat(file).st_mtime, tz=UTC)
    summary = doc["summary"]
    source = Source(
        kind="qualify",
        path=file,
        label=f"qualify {spec if sim else Path(spec.split(',')[0]).name}",
        title=f"overprov qualify {spec}",
        status="complete",
        date=f"file written {mtime:%Y-%m-%d %H:%M} UTC",
        phases=[],
        identity=kv(
            [
                ("target", spec),
                ("simulated drive", drive if sim else None),
                ("kind", target["kind"]),
                ("tested bytes", human_bytes(target["capacity_bytes"])),
                ("members", ", ".join(members) if len(members) > 1 else None),
            ]
        ),
        settings=kv(
            [
                ("block size (bytes)", settings.get("bs_bytes")),
                ("queue depth", settings.get("qd")),
                ("round (s)", settings.get("round_seconds")),
                ("tests", ", ".join(t["test"] for t in doc["tests"])),
                ("summary", summary["line"]),
            ]
        ),
        software={"overprov": str(doc["overprov_version"])},
        capacity_bytes=float(target["capacity_bytes"]),
        simulated=sim,
        simulated_target=sim,
        sim_drive=drive if sim else None,
        sim_scale=scale_text(drive, scale or None) if sim else None,
        sim_basis=sim_basis_of(drive) if sim else None,
        comparison_keys={"method": "qualify"},
    )
    source.qualify = doc
    return source


def tests_of(source: Source) -> dict[str, dict[str, Any]]:
    """The source's tests by name (``cache``, ``trim_recovery``, ...)."""
    return {t["test"]: t for t in source.qualify.get("tests") or []}
