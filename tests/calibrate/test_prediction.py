"""calibrate's prediction as one object (calibrate/prediction.py): written once through the
output contract and checked against its schema when written; its twins held in memory and
written only as outputs, the written twin simulating to the figures the prediction states."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest
from overprov import json_schemas, presets, sweep
from overprov.calibrate import prediction, twin_runs
from overprov.calibrate import twin as twinmod
from overprov.calibrate.prediction import Prediction
from overprov.cli import main
from overprov.errors import RunError

TWIN = twinmod.TwinParameters(
    advertised_bytes=4 * 2**30, native_op=0.1, t_page_us=8.0, t_cmd_us=5.0, uncertainty={},
    source="test",
)  # fmt: skip


def _prediction(**row: object) -> Prediction:
    level = {"extra_op_percent": 10.0, "steady_iops": 20000.0, "steady_iops_low": 18000.0,
             "steady_iops_high": 22000.0, "waf": 2.0, "waf_low": 1.9, "waf_high": 2.1,
             "p99_latency_us": 900.0, "surrogate_iops": 20500.0, "twin_iops": 20000.0}  # fmt: skip
    level.update(row)
    return Prediction(
        interval="80%", prediction_source="the twin", workload="uniform random writes",
        workload_flags="", waf_curve=None, levels=[{k: v for k, v in level.items() if v != "-"}],
        recommendation=None,
        fit={"native_op": 0.1, "t_page_us": 8.0, "t_cmd_us": 5.0, "points": [], "twin_check": []},
        twin="twin.toml", measurement=None, twins={"twin.toml": TWIN},
    )  # fmt: skip


def test_the_schema_id_is_declared_once():
    """The document's ``schema`` comes from outputs.document's envelope; the schema file's
    ``$id`` and its ``schema`` constant are that one string."""
    doc = _prediction().document(None)
    assert list(doc)[:2] == ["schema", "overprov_version"]
    assert doc["schema"] == prediction.SCHEMA
    schema = json_schemas.schema(prediction.SCHEMA)
    assert schema["$id"] == prediction.SCHEMA
    assert schema["properties"]["schema"]["const"] == prediction.SCHEMA


def test_a_written_prediction_validates_and_names_its_twin(tmp_path):
    wrote = _prediction().write(tmp_path)
    assert wrote == [tmp_path / "twin.toml", tmp_path / "prediction.json"]
    doc = json.loads((tmp_path / "prediction.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, prediction.schema())
    assert doc["twin"] == str(tmp_path / "twin.toml")
    assert presets.load_drive_file(tmp_path / "twin.toml")["advertised_bytes"] == 4 * 2**30
    assert _prediction().document(None)["twin"] is None  # nothing kept: no path


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ({"waf": math.nan}, "levels[0].waf"),
        ({"steady_iops_high": math.inf}, "levels[0].steady_iops_high"),
        ({"p99_latency_us": "-"}, "levels[0]"),  # a required figure missing
        ({"waf": 0.5}, "levels[0].waf"),  # below the schema's minimum
    ],
)
def test_a_prediction_that_is_not_one_is_refused_naming_the_field(tmp_path, row, field):
    """NaN (which json.dumps would have written), infinity, a missing or out-of-range
    figure: refused before anything is written, naming the field."""
    with pytest.raises(RunError) as err:
        _prediction(**row).write(tmp_path)
    assert f"{field}" in str(err.value)
    if row == {"p99_latency_us": "-"}:
        assert "p99_latency_us" in str(err.value)
    assert not list(tmp_path.iterdir())  # no prediction.json, no twin
    with pytest.raises(RunError):
        _prediction(**row).write_json(str(tmp_path / "p.json"), None)
    assert not (tmp_path / "p.json").exists()


@pytest.mark.slow  # a twin refined and simulated, then its file simulated again
def test_the_written_twin_simulates_to_the_figures_the_prediction_states(tmp_path):
    """The twin is simulated from memory and written only as an output: the file written,
    simulated as a drive file at each level the way calibrate simulates typed figures, gives
    exactly the figures prediction.json states for its twin (``twin_iops``, and the figures of
    the reading twin.toml copies: the heaviest, the first of ``readings``)."""
    rc = main(["calibrate", "--points", "0:11000,20:25000", "--extra-op", "0,20", "--jobs", "1",
               "--out", str(tmp_path)])  # fmt: skip
    assert rc == 0
    pred = json.loads((tmp_path / "prediction.json").read_text(encoding="utf-8"))
    path = tmp_path / "twin.toml"
    assert pred["twin"] == str(path)
    drive = presets.load_drive_file(path)
    scale = twinmod.sim_scale(drive["advertised_bytes"], drive["notes"]["calibration"]["native_op"])
    cfg, _ = presets.preset_config(str(path), scale)
    levels = [r["extra_op_percent"] for r in pred["levels"]]
    configs = [twin_runs.level_config(cfg, x, {"pattern": "uniform"}, True) for x in levels]
    reports = sweep.run_points(configs, jobs=1, label="twin file")
    first = next(iter(pred["readings"].values()))
    assert first["weight"] == max(r["weight"] for r in pred["readings"].values())
    assert path.read_bytes() == Path(first["twin"]).read_bytes()
    for row, own, x, rep in zip(pred["levels"], first["levels"], levels, reports, strict=True):
        got = twin_runs._level(x, rep)
        assert got.steady_iops == row["twin_iops"] == own["steady_iops"]
        assert got.waf == own["waf"]
        assert got.p99_latency_us == own["p99_latency_us"]


def test_stdout_and_the_folder_get_the_same_document(tmp_path, capsys):
    """``--json -`` and prediction.json are one document, byte for byte, through one writer
    (``Prediction.write_json`` and ``Prediction.write``, both ``outputs.write_json``)."""
    rc = main(["calibrate", "--waf-points", "0:2.85", "--extra-op", "0,6.25",
               "--out", str(tmp_path), "--json", "-"])  # fmt: skip
    assert rc == 0
    printed = capsys.readouterr().out
    assert printed == (tmp_path / "prediction.json").read_text(encoding="utf-8")
    assert json.loads(printed)["twin"] == str(tmp_path / "twin.toml")
