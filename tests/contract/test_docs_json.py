"""docs/json.md's field names against the code: every name (and value) a paragraph gives in
backquotes is a property or value of the schema of that document, or a key the module that
writes it spells out. A field renamed in the code and not on the page fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "json.md"
PACKAGE = ROOT / "python" / "overprov"

#: a paragraph (by its first words) → the schemas and modules that hold its names
SOURCES = {
    "`smart --all` gives": ["schemas/smart-fleet.schema.json", "schemas/drive.schema.json",
                            "schemas/report.schema.json"],
    "The simulate document holds": ["schemas/simulate.schema.json", "steady_window.py"],
    "A run with several jobs": ["schemas/simulate.schema.json"],
    "A timed run's `timed.measured`": ["schemas/simulate.schema.json"],
    "The calibrate document": ["calibrate/prediction.schema.json", "prediction_file.py"],
    "Every run has a `workload` object": ["schemas/simulate.schema.json", "workload_text.py"],
    "calibrate's `measurement.json`": ["measurement_file.py", "calibrate/measure.py",
                                       "calibrate/cliff_step.py", "calibrate/level_refill.py"],
    "With `--cliff` (absent without it) the document": ["calibrate/prediction.schema.json",
                                                        "calibrate/cliff_prediction.py",
                                                        "calibrate/twin.py",
                                                        "calibrate/cliff_step.py"],
    "The profile document on a drive": ["schemas/results.schema.json", "profile/record.py"],
    "A run that replayed a block trace": ["schemas/simulate.schema.json",
                                          "schemas/plan.schema.json"],
}  # fmt: skip
# words of the prose in backquotes that are not names of a document (commands, files, modules)
NOT_FIELDS = {"report", "plan", "profile", "qualify", "prediction", "simulate", "null"}


def paragraph(start: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    i = text.index(start)
    return text[i : text.find("\n\n", i)]


def schema_words(value: object, out: set[str]) -> set[str]:
    """Property names, enum and const values of a JSON Schema (and of the simulator's report
    shape it describes)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("properties", "patternProperties") and isinstance(v, dict):
                out |= set(v)
            if k in ("enum", "const", "required"):
                out |= {x for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)}
            schema_words(v, out)
    elif isinstance(value, list):
        for v in value:
            schema_words(v, out)
    return out


def words(source: str) -> set[str]:
    path = PACKAGE / source
    if source.endswith(".json"):
        return schema_words(json.loads(path.read_text(encoding="utf-8")), set())
    text = path.read_text(encoding="utf-8")
    quoted = set(re.findall(r"[\"']([a-z][a-z0-9_]*)[\"']", text))
    # a dataclass's fields, written as they are named (measurement_file.Round's `host_share`)
    return quoted | set(re.findall(r"^    ([a-z][a-z0-9_]*): [A-Za-z]", text, re.MULTILINE))


def test_the_schema_scan_reads_properties_and_values():
    schema = {"properties": {"a": {"enum": ["x", "y"]}, "b": {"properties": {"c": {}}}}}
    assert schema_words(schema, set()) == {"a", "b", "c", "x", "y"}


@pytest.mark.parametrize("start", sorted(SOURCES))
def test_every_name_a_paragraph_gives_is_the_codes(start):
    text = paragraph(start)
    named = set(re.findall(r"`([a-z][a-z0-9_]*)`", text))
    for dotted in re.findall(r"`([a-z_]+(?:\.[a-z_]+)+)`", text):
        parts = dotted.split(".")
        if parts[0] != "overprov" and parts[-1] not in ("json", "toml", "py"):
            named |= set(parts)  # a field's path: `timed.measured`
    known = set().union(*(words(s) for s in SOURCES[start]))
    assert named, start
    assert sorted(named - known - NOT_FIELDS) == []
