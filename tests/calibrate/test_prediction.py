"""calibrate's prediction as one object (calibrate/prediction.py, its figures and loader in
prediction_file.py): written once through the output contract and checked against its schema
when written; its twins held in memory and written only as outputs, the written twin simulating
to the figures the prediction states."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest
from overprov import __version__, json_schemas, prediction_file, presets, sweep
from overprov.calibrate import prediction, summary, twin_runs
from overprov.calibrate import twin as twinmod
from overprov.calibrate.prediction import (
    CombinedLevel,
    PredictedLevel,
    Prediction,
    ReadingFigures,
    SetAsideReading,
)
from overprov.calibrate.summary import summary_text
from overprov.errors import InputError, RunError
from overprov.outputs import json_text

TWIN = twinmod.TwinParameters(
    advertised_bytes=4 * 2**30, native_op=0.1, t_page_us=8.0, t_cmd_us=5.0, uncertainty={},
    source="test",
)  # fmt: skip


def _prediction(**row: object) -> Prediction:
    level = {"extra_op_percent": 10.0, "steady_iops": 20000.0, "steady_iops_low": 18000.0,
             "steady_iops_high": 22000.0, "waf": 2.0, "waf_low": 1.9, "waf_high": 2.1,
             "p99_latency_us": 900.0, "surrogate_iops": 20500.0, "twin_iops": 20000.0}  # fmt: skip
    fit = {"native_op": 0.1, "t_page_us": 8.0, "t_cmd_us": 5.0, "points": [], "twin_check": []}
    for key, value in row.items():  # "fit_KEY": a field of the fit; "-": leave it out
        if key.startswith("fit_"):
            fit[key.removeprefix("fit_")] = value
        else:
            level[key] = value
    return Prediction(
        interval="80%", prediction_source="the twin", workload="uniform random writes",
        workload_flags="", waf_curve=None, levels=[PredictedLevel(**level)],  # type: ignore[arg-type]
        recommendation=None, fit={k: v for k, v in fit.items() if v != "-"},
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
        ({"fit_twin_check": "-"}, "fit"),  # a required field missing
        ({"waf": 0.5}, "levels[0].waf"),  # below the schema's minimum
    ],
)
def test_a_prediction_that_is_not_one_is_refused_naming_the_field(tmp_path, row, field):
    """NaN (which json.dumps would have written), infinity, a missing or out-of-range
    figure: refused before anything is written, naming the field."""
    with pytest.raises(RunError) as err:
        _prediction(**row).write(tmp_path)
    assert f"{field}" in str(err.value)
    if row == {"fit_twin_check": "-"}:
        assert "twin_check" in str(err.value)
    assert not list(tmp_path.iterdir())  # no prediction.json, no twin
    with pytest.raises(RunError):
        _prediction(**row).write_json(str(tmp_path / "p.json"), None)
    assert not (tmp_path / "p.json").exists()


@pytest.mark.slow  # its file simulated again at each level
def test_the_written_twin_simulates_to_the_figures_the_prediction_states(calibrated_once):
    """The twin is simulated from memory and written only as an output: the file written,
    simulated as a drive file at each level the way calibrate simulates typed figures, gives
    exactly the figures prediction.json states for its twin (``twin_iops``, and the figures of
    the reading twin.toml copies: the heaviest, the first of ``readings``). (The 850 Pro's
    calibration, made once per test run, refined to its IOPS figure: its twin's spare is the
    raw NAND's, read once (k = 1, no WAF figure), so each level is the file at that level;
    test_calibrate_cli.py and test_spare_readings.py read it too.)"""
    out, printed = calibrated_once("--points", "20:25000", "--advertised", "512000000000",
                                   "--physical", "549755813888", "--extra-op", "20,40")  # fmt: skip
    pred = json.loads(printed)
    path = out / "twin.toml"
    assert pred["twin"] == str(path)
    drive = presets.load_drive_file(path)
    scale = twinmod.sim_scale(drive["advertised_bytes"], drive["notes"]["calibration"]["native_op"])
    cfg, _ = presets.preset_config(str(path), scale)
    levels = [r["extra_op_percent"] for r in pred["levels"]]
    configs = [twin_runs.level_config(cfg, x, {"pattern": "uniform"}, True) for x in levels]
    reports = sweep.run_points(configs, jobs=1, label="twin file")
    first = next(iter(pred["readings"].values()))
    assert first["weight"] == max(r["weight"] for r in pred["readings"].values())
    assert first["fit"]["spare_efficiency"] == 1.0  # the file at level x is level x
    assert path.read_bytes() == Path(first["twin"]).read_bytes()
    for row, own, x, rep in zip(pred["levels"], first["levels"], levels, reports, strict=True):
        got = twin_runs._level(x, rep)
        assert got.steady_iops == row["twin_iops"] == own["steady_iops"]
        assert got.waf == own["waf"]
        assert got.p99_latency_us == own["p99_latency_us"]


@pytest.mark.parametrize(
    "figures",
    [
        ["--points", "20:25000", "--advertised", "512000000000", "--physical", "549755813888",
         "--extra-op", "20,40"],
        ["--waf-points", "0:2.85", "--advertised", "128GB", "--physical", "128GiB",
         "--extra-op", "0,20"],
    ],
    ids=["refined-twin", "two-spare-readings"],
)  # fmt: skip
def test_no_twin_config_is_simulated_twice_in_one_prediction(figures, calibrated_once):
    """Typed figures simulate each level on its own (its config and seed: the same figures
    every time), so a prediction runs each config once: a level the refined twin ran at (the
    850 Pro: 20% fitted, 40% predicted), and the twins of two readings that come out the same
    (the PNY figure read with its fitted spare and with k times the raw NAND's). (Both
    calibrations made once per test run, with the configs they gave ``sweep.run_points``:
    test_calibrate_cli.py and test_spare_readings.py read them too.)"""
    out, printed = calibrated_once(*figures)
    runs = json.loads((out.parent / "runs.json").read_text(encoding="utf-8"))
    pred = json.loads(printed)
    assert len(pred["readings"]) > 1 and len(pred["levels"]) == 2
    assert runs and len(set(runs)) == len(runs)
    for r in pred["readings"].values():  # each reading's figures are its twin's runs
        (check,) = r["fit"]["twin_check"]
        (at,) = (x for x in r["levels"] if x["extra_op_percent"] == check["extra_op_percent"])
        assert (at["steady_iops"], at["waf"]) == (check["twin_iops"], check["twin_waf"])


def test_stdout_and_the_folder_get_the_same_document(calibrated_once):
    """``--json -`` and prediction.json are one document, byte for byte, through one writer
    (``Prediction.write_json`` and ``Prediction.write``, both ``outputs.write_json``). (The
    PNY calibration, made once per test run: test_calibrate_cli.py reads it too.)"""
    out, printed = calibrated_once("--waf-points", "0:2.85", "--extra-op", "0,6.25")
    assert printed == (out / "prediction.json").read_text(encoding="utf-8")
    assert json.loads(printed)["twin"] == str(out / "twin.toml")


def _combined() -> Prediction:
    """A prediction of two readings combined, one more set aside: rows of each kind."""
    own = [PredictedLevel(10.0, 20000.0, 18000.0, 22000.0, 2.0, 900.0, 20500.0, twin_iops=20000.0,
                          analytic_iops=21000.0, blocking_gc_iops=19000.0, waf_low=1.9,
                          waf_high=2.1)]  # fmt: skip
    fit = {"native_op": 0.07, "spare_efficiency": 1.4, "t_page_us": 8.0, "t_cmd_us": 5.0,
           "points": [], "twin_check": []}  # fmt: skip
    pred = _prediction()
    pred.levels = [CombinedLevel(10.0, 19000.0, 17000.0, 23000.0, 2.1, 950.0, 20000.0,
                                 twin_iops=20000.0, waf_low=1.8, waf_high=2.3)]  # fmt: skip
    pred.readings = [
        ReadingFigures(prediction.RAW, "d-choices-2", own, fit, "twin-raw-nand-d-choices-2.toml",
                       "the twin", "d-choices (d = 2) GC", weight=0.6),
        ReadingFigures(prediction.EFFECTIVE, "greedy", own, fit, "twin-greedy.toml", "the twin",
                       "greedy GC", weight=0.4),
    ]  # fmt: skip
    pred.readings_set_aside = [
        SetAsideReading(
            prediction.EFFECTIVE, "d-choices-8", "d-choices (d = 8) GC", 1e-4, {"chi2": 20.0}
        )
    ]
    return pred


def test_rows_are_written_in_the_order_the_format_has_them():
    """prediction.json keeps its bytes: a reading's own rows in field order (the figures of one
    way of predicting only when it gave them), combined rows central figures first."""
    doc = _combined().document(None)
    assert list(doc["levels"][0]) == [
        "extra_op_percent", "steady_iops", "waf", "p99_latency_us", "surrogate_iops",
        "steady_iops_low", "steady_iops_high", "waf_low", "waf_high", "twin_iops",
    ]  # fmt: skip
    assert list(doc["readings"]["raw_spare:d-choices-2"]["levels"][0]) == [
        "extra_op_percent", "steady_iops", "steady_iops_low", "steady_iops_high", "waf",
        "p99_latency_us", "surrogate_iops", "twin_iops", "analytic_iops", "blocking_gc_iops",
        "waf_low", "waf_high",
    ]  # fmt: skip
    assert list(doc["readings"]) == ["raw_spare:d-choices-2", "effective_spare"]
    assert doc["readings_set_aside"] == {
        "effective_spare:d-choices-8": {"gc": "d-choices (d = 8) GC", "weight": 1e-4,
                                        "evidence": {"chi2": 20.0}}
    }  # fmt: skip


def test_a_reading_is_labelled_from_its_spare_field_not_its_name():
    """The summary says which spare a reading reads from the reading's ``spare`` field: the
    raw-spare reading with its k, the effective one with its native OP, whatever the GC design
    (the name no longer parsed for a prefix)."""
    pred = _combined()
    lines = summary_text(pred).splitlines()
    raw, eff = (line for line in lines if line.startswith("  reading "))
    assert raw == (
        "  reading A: raw spare (7.0%) used k = 1.40 times as well, d-choices (d = 2) GC, "
        "weight 0.60"
    )
    assert eff == "  reading B: effective spare (native OP 7.0%), greedy GC, weight 0.40"
    # their figures: one table, a column (IOPS, WAF) per reading, a row per level
    head, row = lines[lines.index(eff) + 1 :][:2]
    assert head.split() == ["OP", "A:", "IOPS", "WAF", "B:", "IOPS", "WAF"]
    assert row.split() == ["10%", "20,000", "2.00", "20,000", "2.00"]
    assert "1 more reading set aside, its twin not simulated" in summary_text(pred)
    pred.readings[0].spare = prediction.EFFECTIVE  # the field decides, not raw_spare's name
    assert summary_text(pred).count(": effective spare") == 2


def test_many_readings_print_within_100_columns():
    """Eight readings at 13 levels (the raw NAND given under a skewed workload), a long source
    and a long reason: every line within 100 characters (each reading's figures were one line of
    about 400), and still each reading's label, weight and figures at every level, the source
    and the reason whole once the wrapping is undone."""
    pred = _combined()
    levels = [float(x) for x in range(0, 65, 5)]
    fit = pred.readings[0].fit
    designs = ["greedy", "greedy-zones", "cost-benefit", "cost-benefit-zones"]
    pred.readings = [
        ReadingFigures(
            spare, design,
            [PredictedLevel(x, 10000.0 + 1000 * i + x, waf=1.0 + (70 - x) / 10 + i / 100)
             for x in levels],
            fit, None, "the twin", f"{design} GC, one write frontier per workload zone",
            weight=i / 28,
        )
        for i, (spare, design) in enumerate(
            (s, d) for s in (prediction.EFFECTIVE, prediction.RAW) for d in designs
        )
    ]  # fmt: skip
    pred.levels = [CombinedLevel(x, 20000.0, 19000.0, 21000.0, 2.0, 900.0) for x in levels]
    reason = "its blocking-GC twin at 0% extra OP cannot be simulated: " + "a reason " * 20
    pred.readings_set_aside[0].reason = reason
    pred.prediction_source = "the evidence-weighted geometric mean; " * 12
    text = summary_text(pred)
    assert max(len(line) for line in text.splitlines()) <= 100
    flat = " ".join(text.split())
    assert " ".join(reason.split()) in flat
    assert " ".join(pred.prediction_source.split()) in flat
    lines = text.splitlines()
    for i, r in enumerate(pred.readings):
        name = chr(ord("A") + i)
        label = f"reading {name}: " + summary.reading_label(r)
        assert label in flat and f"weight {i / 28:.2f}" in label
        # the table's block holding this reading: its header, then one row per level
        at = next(n for n, line in enumerate(lines) if f"{name}: IOPS" in line)
        col = lines[at].split().index(f"{name}:") // 3
        for lv, row in zip(r.levels, lines[at + 1 : at + 1 + len(levels)], strict=True):
            cells = row.split()
            assert cells[0] == f"{lv.extra_op_percent:g}%"
            assert cells[1 + 2 * col : 3 + 2 * col] == [f"{lv.steady_iops:,.0f}", f"{lv.waf:.2f}"]


def test_a_written_prediction_reads_back_as_the_same_object(tmp_path):
    """prediction_file.load reads prediction.json back (bounded, schema checked) into the
    objects calibrate wrote: the document it gives is the file, byte for byte, and the summary
    the same; a file that fails the schema is refused naming the field."""
    pred = _combined()
    pred.twins = {"twin.toml": TWIN}
    pred.write(tmp_path)
    back = prediction_file.load(tmp_path)
    assert back.overprov_version == __version__
    assert [r.spare for r in back.readings] == [prediction.RAW, prediction.EFFECTIVE]
    assert [r.design for r in back.readings] == ["d-choices-2", "greedy"]
    assert back.readings[0].levels[0].blocking_gc_iops == 19000.0
    assert isinstance(back.levels[0], CombinedLevel)
    written = (tmp_path / "prediction.json").read_text(encoding="utf-8")
    assert json_text(back.document(tmp_path)) == written  # the twins' paths as written
    assert summary_text(back) == summary_text(pred)
    doc = json.loads(written)
    del doc["levels"][0]["waf"]
    (tmp_path / "bad.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.json: levels\[0\]"):
        prediction_file.load(tmp_path / "bad.json")


def test_a_field_the_reader_does_not_know_is_ignored_and_another_document_refused(tmp_path):
    """A field the schema allows but the reader does not know (in a level, in the
    recommendation) is ignored, not a crash; a document of another kind is refused naming its
    schema."""
    pred = _prediction()
    pred.recommendation = prediction.recommendation(pred.levels, 15000.0)
    doc = pred.document(None)
    doc["levels"][0]["queue_depth"] = 32
    doc["recommendation"]["method"] = "smallest level"
    (tmp_path / "new.json").write_text(json.dumps(doc), encoding="utf-8")
    back = prediction_file.load(tmp_path / "new.json")
    assert back.recommendation == pred.recommendation
    assert back.levels == pred.levels
    (tmp_path / "other.json").write_text(json.dumps({"schema": "overprov.plan/1"}))
    with pytest.raises(InputError, match=r"other.json: not a calibrate prediction"):
        prediction_file.load(tmp_path / "other.json")


def test_a_reading_set_aside_for_its_twin_keeps_its_reason(tmp_path):
    """readings_set_aside says why: a reading whose twin the simulator cannot run keeps its
    reason in prediction.json, read back, and the summary prints it (one set aside by its
    weight is only counted)."""
    pred = _combined()
    reason = "its blocking-GC twin at 0% extra OP cannot be simulated (...)"
    pred.readings_set_aside = [
        SetAsideReading(prediction.EFFECTIVE, "d-choices-2", "d-choices (d = 2) GC", 0.3,
                        {"chi2": 1.0}, reason=reason),
        *(pred.readings_set_aside or []),
    ]  # fmt: skip
    pred.twins = {"twin.toml": TWIN}
    pred.write(tmp_path)
    doc = json.loads((tmp_path / prediction.NAME).read_text(encoding="utf-8"))
    assert doc["readings_set_aside"]["effective_spare:d-choices-2"]["reason"] == reason
    back = prediction.load(tmp_path)
    assert back.readings_set_aside == pred.readings_set_aside
    text = summary_text(back)
    assert f"reading effective_spare:d-choices-2 set aside: {reason}" in " ".join(text.split())
    assert "d-choices-8 set aside" not in text
