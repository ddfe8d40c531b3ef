"""The package's schemas validated with their local references inlined
(``json_schemas._inline_local_refs``): the same verdicts and messages as the schemas as
written, in less time (docs/testing.md, "Round 13")."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest
from fuzz.mutate import mutate_doc
from overprov import json_schemas as js

PROFILE_DOC = Path(__file__).parents[1] / "data" / "profile" / "results-consumer-1GiB.json"

DEFS = {
    "num": {"type": "number"},
    "pair": {"type": "array", "items": {"$ref": "#/$defs/num"}, "maxItems": 2},
    "tree": {"type": "object", "properties": {"kids": {"items": {"$ref": "#/$defs/tree"}}}},
}


def test_a_plain_reference_becomes_its_definition():
    got = js._inline_local_refs({"$ref": "#/$defs/pair"}, DEFS)
    assert got == {"type": "array", "items": {"type": "number"}, "maxItems": 2}


def test_a_reference_with_siblings_keeps_both():
    got = js._inline_local_refs({"$ref": "#/$defs/num", "minimum": 0}, DEFS)
    assert got == {"minimum": 0, "allOf": [{"type": "number"}]}


def test_a_recursive_or_foreign_reference_stays_a_reference():
    got = js._inline_local_refs({"$ref": "#/$defs/tree"}, DEFS)
    assert got["properties"]["kids"]["items"] == {"$ref": "#/$defs/tree"}
    other = {"$ref": "smart.schema.json#/properties/snapshot"}
    assert js._inline_local_refs(other, DEFS) == other


@pytest.mark.parametrize("kind", sorted(js.SCHEMA_FILES))
def test_every_schema_inlined_is_a_schema_with_the_same_verdicts(kind):
    """Each inlined schema is a valid 2020-12 schema, and on instances built from its own
    property names (right and wrong types) it gives the written schema's verdict and message."""
    written = js.schema(kind)
    inlined = js._validator(kind)
    jsonschema.Draft202012Validator.check_schema(inlined.schema)
    plain = jsonschema.Draft202012Validator(written, registry=js._registry())
    names = list(written.get("properties", {}))
    probes = [{}, [], {n: None for n in names}, {n: "x" for n in names}, {n: 1 for n in names},
              {n: [] for n in names}, {n: {} for n in names}]  # fmt: skip
    for doc in probes:
        a = jsonschema.exceptions.best_match(plain.iter_errors(doc))
        b = jsonschema.exceptions.best_match(inlined.iter_errors(doc))
        assert (a is None) == (b is None), (kind, doc)
        if a is not None:
            assert (a.message, list(a.absolute_path)) == (b.message, list(b.absolute_path))


def test_mutated_profile_documents_get_the_same_verdicts():
    """The profile schema holds 69 of the package's local references: 30 mutations of a real
    profile document (tests/data/profile/README.md), each judged by both validators."""
    doc = json.loads(PROFILE_DOC.read_text())
    kind = doc["schema"].split("/")[0]
    plain = jsonschema.Draft202012Validator(js.schema(kind), registry=js._registry())
    inlined = js._validator(kind)
    rng = random.Random(7)
    refused = 0
    for _ in range(30):
        case = mutate_doc(json.loads(json.dumps(doc)), rng)
        a = jsonschema.exceptions.best_match(plain.iter_errors(case))
        b = jsonschema.exceptions.best_match(inlined.iter_errors(case))
        assert (a is None) == (b is None)
        if a is not None:
            refused += 1
            assert (a.message, list(a.absolute_path)) == (b.message, list(b.absolute_path))
    assert 0 < refused < 30  # both kinds of verdict were compared
