"""A calibrate folder (`overprov calibrate --out DIR`, prediction.json of schema
overprov.calibrate/1) in the report: the measured points, the predicted curve and its band,
drawn from the file the real command wrote."""

from __future__ import annotations

import contextlib
import io
import json
import re
from html import unescape

import pytest
from overprov import prediction_file
from overprov.report import decision, plots
from overprov.report.load import load_inputs
from overprov.report.model import ReportInputError
from report_checks import check_page, figure_keys
from report_cli import made_in_process, overprov


def test_calibration_chart_holds_the_points_the_curve_and_the_band(waf_calibration):
    pred = json.loads((waf_calibration / "prediction.json").read_text())
    (src,) = load_inputs([waf_calibration])
    assert src.kind == "calibrate" and src.prediction == prediction_file.load(waf_calibration)
    assert src.prediction.document(None)["levels"] == pred["levels"]
    fig = plots.plot_calibration(src)
    (ax,) = [a for a in fig.axes if a.get_visible()]  # WAF only: no IOPS points were fitted
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    measured = lines["measured (fitted)"]
    assert list(measured.get_xdata()) == [0.0, 40.0]
    assert list(measured.get_ydata()) == [7.63, 1.37]
    levels = pred["levels"]
    assert list(lines["predicted"].get_ydata()) == [r["waf"] for r in levels]
    (band,) = ax.collections
    assert band.get_label() == "predicted, 80% interval"  # not the interval's sentence
    ys = band.get_paths()[0].vertices[:, 1]
    assert min(ys) == pytest.approx(min(r["waf_low"] for r in levels))
    assert max(ys) == pytest.approx(max(r["waf_high"] for r in levels))


def test_report_of_a_calibration(waf_calibration, waf_calibration_report):
    out = waf_calibration_report  # `overprov report CAL --out OUT`, made once per run
    page = check_page(out)
    assert figure_keys(out) == {f"calibration-calibration-{waf_calibration.name}"}
    words = unescape(re.sub(r"<[^>]+>", " ", page))
    assert "calibration (a prediction, not a measurement)" in words
    pred = json.loads((waf_calibration / "prediction.json").read_text())
    for r in pred["levels"]:
        assert f"{r['waf']:.2f}" in words
        assert f"{r['waf_low']:.2f}–{r['waf_high']:.2f}" in words
    assert pred["interval"] in words


def test_report_of_a_prediction_file_with_both_readings_of_the_raw_nand(
    calibrated_once, tmp_path, overprov_cli
):
    """prediction.json given as a file (not its folder), from figures with the raw NAND
    given: validated as a calibrate document (its t_cmd may be negative) and reported. (The
    PNY figure with its raw NAND, ``overprov calibrate`` made once per test run: the
    calibrate tests of both readings read it too.)"""
    cal, _ = calibrated_once("--waf-points", "0:2.85", "--advertised", "128GB",
                             "--physical", "128GiB", "--extra-op", "0,20")  # fmt: skip
    pred = json.loads((cal / "prediction.json").read_text())
    assert {"effective_spare", "raw_spare"} <= set(pred["readings"])  # × the GC designs
    out = tmp_path / "rep"
    rc, _, err = overprov_cli("report", str(cal / "prediction.json"), "--out", str(out))
    assert rc == 0, err
    words = unescape(re.sub(r"<[^>]+>", " ", check_page(out)))
    for r in pred["levels"]:
        assert f"{r['waf_low']:.2f}–{r['waf_high']:.2f}" in words
    bad = tmp_path / "other.json"
    bad.write_text(json.dumps({"schema": "overprov.status/1"}))
    res = overprov("report", str(bad), "--out", str(tmp_path / "no"))
    assert res.returncode == 2 and "calibrate and plan files" in res.stderr


def test_a_prediction_its_schema_refuses_is_not_reported(waf_calibration, tmp_path):
    """The report reads prediction.json through the one loader (prediction_file.load: bounded,
    schema checked): a level out of range or a figure of the wrong kind is refused, naming the
    file and the field, never drawn."""
    pred = json.loads((waf_calibration / "prediction.json").read_text())
    for field, value in [("extra_op_percent", 150.0), ("steady_iops_low", "many")]:
        doc = json.loads(json.dumps(pred))
        doc["levels"][1][field] = value
        bad = tmp_path / f"bad-{field}.json"
        bad.write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(ReportInputError, match=rf"bad-{field}.json: levels\[1\]\.{field}"):
            load_inputs([bad])


@pytest.fixture(scope="module")
def sim_calibration(tmp_path_factory):
    """A real calibration of a simulated drive: it measures 0% and 40%, fits, builds the twin.
    Predicted at four levels, not the 13 by default (0-60%, each a run of the twin): the two
    measured, 15% (30,000 IOPS reached, not by its whole band) and 20% (by its whole band, the
    safe level), so every kind of row the tests check is there (the decision table's test
    checks that they are); the recommendation is the 13 levels' (18.4 CPU s against 25.4 as a
    command, docs/testing.md). At 2 GiB of NAND, not 4: the same kinds of row (15% predicted
    at 30,303 IOPS, its band from 29,440; 20% from 35,773), 6.13 CPU s for the test that
    builds it against 6.82 (docs/testing.md, "Round 17"); at 1 GiB 15% misses the target."""
    out = tmp_path_factory.mktemp("cal-sim") / "cal"
    res = made_in_process(
        "calibrate", "sim:consumer-tlc-sata@2GiB", "--target-iops", "30000",
        "--extra-op", "0,15,20,40", "--out", str(out),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def sim_calibration_report(sim_calibration, tmp_path_factory):
    """``overprov report`` of that calibration with ``--json``, once for the tests that read
    its page (each its own part) and its document: (the page's folder, the document). Run
    in-process (``cli.main``): the worker has imported the report's modules already, a child
    would import them again (1.7 CPU s); the report command's child-process contract is
    test_report_build.py's."""
    from overprov import cli

    d = tmp_path_factory.mktemp("cal-sim-report")
    out, js = d / "rep", d / "rep.json"
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["report", str(sim_calibration), "--out", str(out), "--json", str(js)]) == 0
    return out, js


def test_calibration_of_a_simulated_drive(sim_calibration, sim_calibration_report):
    pred = json.loads((sim_calibration / "prediction.json").read_text())
    (src,) = load_inputs([sim_calibration / "prediction.json"])
    # simulated data says so, with the drive and the scale as a factor
    assert src.sim_tag == "SIMULATED · consumer-tlc-sata · scale 1/500 · illustrative"
    fig = plots.plot_calibration(src)
    ax_iops = fig.axes[0]
    lines = {ln.get_label(): ln for ln in ax_iops.get_lines()}
    measured = [p for p in pred["fit"]["points"] if p.get("iops")]
    assert list(lines["measured (fitted)"].get_xdata()) == [p["extra_op_percent"] for p in measured]
    assert list(lines["measured (fitted)"].get_ydata()) == [p["iops"] for p in measured]
    assert list(lines["predicted"].get_ydata()) == [r["steady_iops"] for r in pred["levels"]]
    assert list(lines["target"].get_ydata()) == [30_000, 30_000]
    (band,) = ax_iops.collections
    ys = band.get_paths()[0].vertices[:, 1]
    assert min(ys) == pytest.approx(min(r["steady_iops_low"] for r in pred["levels"]))
    assert max(ys) == pytest.approx(max(r["steady_iops_high"] for r in pred["levels"]))
    out, _ = sim_calibration_report
    words = unescape(re.sub(r"<[^>]+>", " ", check_page(out)))
    rec = pred["recommendation"]
    # the page leads with the level whose whole band clears the target, when there is one
    op = rec["safe_extra_op_percent"]
    if op is None:
        op = rec["extra_op_percent"]
        assert f"{op:g}% predicted extra OP" in words
    else:
        assert f"{op:g}% predicted extra OP whose 80% band clears the target" in words
    assert rec["text"] in words


def test_the_calibration_decision_table(sim_calibration, sim_calibration_report):
    """One row per predicted level: the band, the measured levels marked with their measured
    IOPS, and "meets target" only when the whole band clears it."""
    pred = json.loads((sim_calibration / "prediction.json").read_text())
    (src,) = load_inputs([sim_calibration / "prediction.json"])
    table = decision.prediction_table(src)
    assert [r[0] for r in table.rows] == [f"{lv['extra_op_percent']:g}%" for lv in pred["levels"]]
    measured = {
        p["extra_op_percent"]: p["iops"]
        for p in pred["fit"]["points"]
        if p.get("iops") and not p.get("fresh")
    }
    target = pred["recommendation"]["target_iops"]
    for lv, row in zip(pred["levels"], table.rows, strict=True):
        x = lv["extra_op_percent"]
        if x in measured:
            assert row[3].startswith(f"measured {measured[x]:,.0f}")
        else:
            assert row[3] == "predicted, 80% band"
        assert f"({lv['steady_iops_low']:,.0f}–{lv['steady_iops_high']:,.0f})" in row[2]
        whole = lv["steady_iops_low"] >= target
        assert row[7] == ("yes, whole band" if whole else row[7])
        assert (row[7] == "no") == (lv["steady_iops"] < target)
    # the calibration holds every kind of row: a level short of the target, one that meets it
    # by its whole band and one whose band dips below it
    assert {"no", "yes, whole band", "likely (band dips below)"} <= {r[7] for r in table.rows}
    safe = pred["recommendation"]["safe_extra_op_percent"]
    if safe is not None:
        first = next(r for r in table.rows if r[7] == "yes, whole band")
        assert first[0] == f"{safe:g}%"
    out, _ = sim_calibration_report
    assert 'class="decision"' in check_page(out)


def test_a_calibration_page_shows_what_it_measured_and_checks_the_prediction(
    sim_calibration, sim_calibration_report
):
    """The measured levels' IOPS, WAF and p99 (measurement.json) are in the decision table, and
    the page says where the prediction at a measured level is far from the measurement: its p99
    (more than 1.5× either way) and its WAF (more than 5%), exactly when it is."""
    pred = json.loads((sim_calibration / "prediction.json").read_text())
    meas = json.loads((sim_calibration / "measurement.json").read_text())
    (src,) = load_inputs([sim_calibration])
    rows = {r[0]: r for r in decision.prediction_table(src).rows}
    by_op = {lv["extra_op_percent"]: lv for lv in pred["levels"]}
    expect_p99 = expect_waf = 0
    for m in [lv for lv in meas["levels"] if not lv.get("queue_depth")]:  # not the QD4 probe
        x = m["extra_op_percent"]
        row = rows[f"{x:g}%"]
        assert row[3].startswith(f"measured {m['steady_iops']:,.0f} IOPS")
        if m["waf"]:
            assert f"WAF {m['waf']:.2f}" in row[3]
            gap = by_op[x]["waf"] / m["waf"] - 1
            expect_waf += abs(gap) > 0.05
        if m["p99_latency_us"] and by_op[x]["p99_latency_us"]:
            assert "p99 " in row[3]
            ratio = by_op[x]["p99_latency_us"] / m["p99_latency_us"]
            expect_p99 += not (1 / 1.5 <= ratio <= 1.5)
    out, js = sim_calibration_report  # `overprov report CAL --out OUT --json JS`
    ids = [c["id"] for c in json.loads(js.read_text())["checks"]]
    assert ids.count("p99-predicted-vs-measured") == expect_p99
    assert ids.count("waf-predicted-vs-measured") == expect_waf
    page = check_page(out)
    assert ("the predicted p99 latency" in page) == (expect_p99 > 0)
    assert ("the predicted WAF" in page) == (expect_waf > 0)
