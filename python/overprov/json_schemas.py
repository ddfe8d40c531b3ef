"""The JSON Schema of every document overprov writes (``schemas/``, profile's
``results.schema.json`` among them), and validation against them (docs/json.md)."""

from __future__ import annotations

import copy
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


def _inline_local_refs(node: Any, defs: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """``node`` with each ``{"$ref": "#/$defs/NAME"}`` replaced by a copy of that definition
    (itself inlined), so that validating does not resolve the same reference at every
    instance (a profile document: 69 references, 41 → about 14 ms a validation). A
    reference with sibling keywords becomes ``allOf`` beside them (what 2020-12 means by
    siblings); one inside its own definition, and any to another file, stays a reference."""
    if isinstance(node, list):
        return [_inline_local_refs(v, defs, seen) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    out = {k: _inline_local_refs(v, defs, seen) for k, v in node.items() if k != "$ref"}
    if not isinstance(ref, str):
        return {**out, "$ref": ref} if "$ref" in node else out
    name = ref.removeprefix("#/$defs/")
    if name == ref or "/" in name or name not in defs or name in seen:
        return {**out, "$ref": ref}
    target = _inline_local_refs(copy.deepcopy(defs[name]), defs, (*seen, name))
    if not out:
        return target
    return {**out, "allOf": [*out.get("allOf", []), target]}


@cache
def _validator(kind: str) -> Any:
    """The validator of a document kind, its schema's local references inlined once."""
    import jsonschema

    contents = schema(kind)
    inlined = _inline_local_refs(contents, contents.get("$defs", {}))
    return jsonschema.Draft202012Validator(inlined, registry=_registry())


def validate_document(doc: Any, kind: str, where: str) -> None:
    """Refuse (InputError) a document that fails its schema, naming the field and the rule."""
    import jsonschema

    validator = _validator(kind.split("/")[0])
    error = jsonschema.exceptions.best_match(validator.iter_errors(doc))
    if error is None:
        return
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    field = path.lstrip(".") or "the document"
    raise InputError(
        f"fails the {kind.split('/')[0]} schema: {error.message[:200]} ({where}: {field})"
    )
