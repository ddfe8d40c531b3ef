"""A folder given to `overprov report` is read by what it holds: a calibrate folder whose
prediction.json its schema refuses is refused naming that file, not taken for a folder of
another kind (whose message would say there is no prediction.json)."""

from __future__ import annotations

import json

import pytest
from overprov import prediction_file
from overprov.report.load import load_inputs
from overprov.report.model import ReportInputError


def test_a_prediction_of_another_schema_is_refused_naming_the_file(tmp_path):
    folder = tmp_path / "cal"
    folder.mkdir()
    (folder / prediction_file.NAME).write_text(json.dumps({"schema": "overprov.simulate/1"}))
    with pytest.raises(ReportInputError) as err:
        load_inputs([folder])
    message = str(err.value)
    assert f"{folder / prediction_file.NAME}: not a calibrate prediction" in message
    assert prediction_file.SCHEMA in message
    assert "no prediction.json" not in message


def test_a_prediction_missing_a_field_is_refused_naming_the_field(tmp_path):
    folder = tmp_path / "cal"
    folder.mkdir()
    (folder / prediction_file.NAME).write_text(json.dumps({"schema": prediction_file.SCHEMA}))
    with pytest.raises(ReportInputError) as err:
        load_inputs([folder])
    message = str(err.value)
    assert str(folder / prediction_file.NAME) in message
    assert "is a required property" in message


def test_the_help_names_every_kind_of_input_the_report_reads(command_parsers):
    """`overprov report --help` said "a profile output folder (or its results.json), or an
    overprov simulate --json file"; calibrate and qualify folders and plan JSON files are read
    too (load_inputs). Each file the loader looks for in a folder is named."""
    from overprov.report.load_qualify import QUALIFY_FILE

    parser = command_parsers["report"]
    positional = next(a for a in parser._actions if a.dest == "inputs")
    for word in ("profile", "calibrate", "qualify", "simulate --json", "plan --json"):
        assert word in positional.help, word
        assert word.split()[0] in parser.description, word
    for name in ("results.json", prediction_file.NAME, QUALIFY_FILE):
        assert name in positional.help, name
