"""The JSON contract (docs/json.md): every command run with ``--json -`` prints one document on
stdout (its text goes to stderr), which starts with ``schema`` and ``overprov_version`` and
validates against the command's JSON Schema in the package."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov import __version__
from overprov.json_schemas import SCHEMA_FILES, validate_document

from .commands import json_commands, prepare_inputs, write_commands

KINDS = sorted(json_commands(Path("/tmp")))


def current(kind: str) -> str:
    """The kind with the major version overprov writes now (profile results are at 2: fields
    renamed, docs/results-schema.md; every other document at 1)."""
    from overprov.results import SCHEMA as PROFILE_SCHEMA

    return PROFILE_SCHEMA if kind == "overprov.profile" else f"{kind}/1"


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_json_to_stdout_validates_against_its_schema(overprov_cli, tmp_path, kind):
    argv = write_commands(tmp_path)[kind]
    prepare_inputs(kind, tmp_path)
    rc, out, err = overprov_cli(*argv, "--json", "-")
    assert rc in (0, 3), err
    doc = json.loads(out)  # stdout holds the document and nothing else
    assert list(doc)[:2] == ["schema", "overprov_version"]
    assert doc["schema"] == current(kind) and doc["overprov_version"] == __version__
    validate_document(doc, doc["schema"], kind)
    assert err.strip(), "the text goes to stderr when stdout carries the JSON"


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_json_to_a_file_is_the_same_document(overprov_cli, tmp_path, kind):
    argv = write_commands(tmp_path)[kind]
    prepare_inputs(kind, tmp_path)
    path = tmp_path / "doc.json"
    rc, out, err = overprov_cli(*argv, "--json", str(path))
    assert rc in (0, 3), err
    doc = json.loads(path.read_text())
    validate_document(doc, kind, str(path))
    assert out.strip(), "without --json -, the text goes to stdout"


def test_every_schema_file_is_a_valid_json_schema():
    import jsonschema
    from overprov.json_schemas import schema

    for kind in SCHEMA_FILES:
        jsonschema.Draft202012Validator.check_schema(schema(kind))


def test_a_schema_refuses_what_the_command_never_writes(overprov_cli):
    from overprov.errors import InputError

    rc, out, err = overprov_cli("capacity", "1TB", "--json", "-")
    doc = json.loads(out)
    doc["rho"] = "a lot"
    with pytest.raises(InputError, match="capacity schema.*rho"):
        validate_document(doc, doc["schema"], "edited")
    doc = json.loads(out)
    doc["user_bytes"] = -1
    with pytest.raises(InputError, match="user_bytes"):
        validate_document(doc, doc["schema"], "edited")


def test_json_never_overwrites_an_input(overprov_cli, tmp_path):
    """`smart --json FILE.json` (the old flag) must not replace the smartctl file."""
    from .commands import SMART_FILE

    copy = tmp_path / "disk.json"
    copy.write_bytes(SMART_FILE.read_bytes())
    rc, _, err = overprov_cli("smart", "--json", str(copy), str(SMART_FILE))
    assert rc == 2 and "will not overwrite a file that is not an overprov --json document" in err
    assert copy.read_bytes() == SMART_FILE.read_bytes()


def test_json_over_a_file_overprov_wrote_but_not_as_json_says_what_it_is(overprov_cli, tmp_path):
    """`calibrate --from cal/ --json cal/measurement.json` was refused as "a file that overprov
    did not write": overprov wrote it. The refusal says what is overwritten: --json documents
    only."""
    folder = tmp_path / "cal"
    folder.mkdir()
    measurement = folder / "measurement.json"
    measurement.write_text('{"target": "sim:x", "capacity_bytes": 1}')
    rc, _, err = overprov_cli("capacity", "512GB", "--json", str(measurement))
    assert rc == 2
    assert "overprov did not write" not in err
    assert "not an overprov --json document" in err and "measurement.json" in err


def test_docs_json_md_lists_every_schema():
    """docs/json.md names every document kind and the schema file that checks it."""
    from overprov.json_schemas import SCHEMA_FILES

    text = (Path(__file__).resolve().parents[2] / "docs" / "json.md").read_text()
    for kind, path in SCHEMA_FILES.items():
        assert f"`{current(kind)}`" in text, kind
        assert f"`python/overprov/{path}`" in text, path


def test_every_document_kind_is_run_by_the_contract_tests():
    """Every schema but status (a block device: tests/apply/test_apply_status.py) runs here."""
    from overprov.json_schemas import SCHEMA_FILES

    assert set(SCHEMA_FILES) - set(KINDS) == {"overprov.status"}
