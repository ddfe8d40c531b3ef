"""The report of a qualification: ``overprov report`` on a qualify folder or its JSON shows
each test's verdict and the figures behind it, SIMULATED for a simulated drive."""

from __future__ import annotations

import json

import pytest
from conftest import overprov
from overprov.report import write_report
from overprov.report.load import load_inputs
from report_checks import check_page


def test_report_of_a_simulated_qualification_shows_every_verdict(qualify_sim, tmp_path):
    text = check_page(qualify_sim)  # written by qualify itself
    doc = json.loads((qualify_sim / "qualify.json").read_text())
    for t in doc["tests"]:
        assert t["verdict"].upper() in text and t["test"] in text
    # the figures behind the verdicts, as computed
    cache = doc["tests"][0]["figures"]
    assert f"{cache['write_through']['iops']:,.0f}" in text
    assert f"{cache['write_back']['iops']:,.0f}" in text
    idle = next(t for t in doc["tests"] if t["test"] == "idle_recovery")["figures"]
    for w in idle["waits"]:
        assert f"{w['wait_s']:g} s" in text and f"{w['recovery']:+.0%}" in text
    cons = next(t for t in doc["tests"] if t["test"] == "consistency")["figures"]
    assert f"{cons['latency_p99_99_us']:,.0f}" in text
    assert "SIMULATED" in text and "consumer-tlc-sata" in text
    assert "qualify (simulated drive)" in text and "not fit: failed cache" in text.lower()
    # the same page from the JSON file alone, through `overprov report`
    res = overprov("report", str(qualify_sim / "qualify.json"), "--out", str(tmp_path / "r"))
    assert res.returncode == 0, res.stderr
    again = check_page(tmp_path / "r")
    assert "Qualification" in again and "flushes wait for NAND" in again
    # qualify results carry no WAF per OP level: no (empty) Endurance section
    assert 'id="endurance"' not in again and "No rated endurance" not in again


def test_a_qualify_source_has_no_op_levels_and_keeps_its_document(qualify_sim):
    (source,) = load_inputs([qualify_sim])
    assert source.kind == "qualify" and source.phases == [] and source.simulated
    assert source.sim_tag.startswith("SIMULATED · consumer-tlc-sata · scale 1/")
    assert [t["test"] for t in source.qualify["tests"]][:2] == ["cache", "trim_recovery"]


def test_a_broken_qualify_file_is_refused_naming_the_field(qualify_sim, tmp_path):
    doc = json.loads((qualify_sim / "qualify.json").read_text())
    doc["tests"][0]["verdict"] = "maybe"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    res = overprov("report", str(bad), "--out", str(tmp_path / "r"))
    assert res.returncode == 2 and "verdict" in res.stderr and "bad.json" in res.stderr


@pytest.mark.fio
def test_report_of_a_fio_qualification(qualify_fio, tmp_path):
    text = check_page(qualify_fio)
    assert "qualify (fio)" in text and "SIMULATED" not in text
    doc = json.loads((qualify_fio / "qualify.json").read_text())
    idle = next(t for t in doc["tests"] if t["test"] == "idle_recovery")["figures"]
    assert [w["wait_s"] for w in idle["waits"]] == [1.0, 2.0]


@pytest.mark.fio
def test_a_measured_and_a_simulated_qualification_side_by_side(qualify_fio, qualify_sim, tmp_path):
    out = write_report([qualify_fio, qualify_sim / "qualify.json"], tmp_path / "both")
    text = check_page(tmp_path / "both")
    assert out.name == "report.html" and text.count('id="fig-qualify-') == 2
    section = text[text.index('<section id="qualify">') :]
    assert "<h3>qualify drive.img</h3>" in section
    assert "<h3>qualify sim:consumer-tlc-sata@2GiB</h3>" in section
    # only the simulated one is marked SIMULATED inside the section
    assert section.count("every figure below is computed by the simulator") == 1
