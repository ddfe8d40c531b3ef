"""The JSON Schema of every document overprov writes (``schemas/``, profile's
``results.schema.json`` among them), and validation against them (docs/json.md)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from overprov.errors import InputError

#: document kind (``schema`` without the major version) → schema file in the package
SCHEMA_FILES = {
    "overprov.capacity": "schemas/capacity.schema.json",
    "overprov.drive": "schemas/drive.schema.json",
    "overprov.plan": "schemas/plan.schema.json",
    "overprov.report": "schemas/report.schema.json",
    "overprov.simulate": "schemas/simulate.schema.json",
    "overprov.smart": "schemas/smart.schema.json",
    "overprov.smart-nvme": "schemas/smart-nvme.schema.json",
    "overprov.smart-fleet": "schemas/smart-fleet.schema.json",
    "overprov.status": "schemas/status.schema.json",
    "overprov.profile": "schemas/results.schema.json",
    "overprov.calibrate": "calibrate/prediction.schema.json",
    "overprov.qualify": "qualify/qualify.schema.json",
}


@cache
def schema(kind: str) -> dict[str, Any]:
    """The schema of a document kind (``overprov.simulate`` or ``overprov.simulate/1``)."""
    name = kind.split("/")[0]
    if name not in SCHEMA_FILES:
        raise InputError(f"no schema for documents of kind {kind!r}")
    text = resources.files("overprov").joinpath(SCHEMA_FILES[name]).read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _registry() -> Any:
    """Every schema of the package under its ``$id``, so that one schema may ``$ref`` a part
    of another (``smart.schema.json#/properties/snapshot``) without reaching the network."""
    from referencing import Registry, Resource

    resources_ = []
    for kind in SCHEMA_FILES:
        contents = schema(kind)
        if isinstance(contents.get("$id"), str):
            resources_.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources_)


def validate_document(doc: Any, kind: str, where: str) -> None:
    """Refuse (InputError) a document that fails its schema, naming the field and the rule."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema(kind), registry=_registry())
    error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
    if error is None:
        return
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    field = path.lstrip(".") or "the document"
    raise InputError(
        f"fails the {kind.split('/')[0]} schema: {error.message[:200]} ({where}: {field})"
    )
