"""A user profiles a simulated drive (`overprov profile sim:PRESET@SCALE`): the same pipeline
as a real drive, and the same report, written by the profile at its end."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from report_checks import check_page, figure_keys, read_csv


def _words(page: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", page.split("<body>", 1)[1]))


def test_report_of_a_sim_profile(sim_profile):
    out = sim_profile
    page = check_page(out)
    doc = json.loads((out / "results.json").read_text())
    assert doc["target"]["kind"] == "sim"
    slug = "sim-consumer-tlc-sata-1gib"
    assert figure_keys(out) == {
        "iops-vs-op",
        "phase-cost",
        f"iops-time-{slug}",
        f"write-saturation-{slug}",
        f"latency-{slug}",
        "latency-vs-op",
    }
    rows = read_csv(out / "report-files" / "phases.csv")
    for row, phase in zip(rows, doc["phases"], strict=True):
        assert row["status"] == phase["status"]
        if phase["steady_iops"] is not None:
            assert float(row["steady_iops"]) == pytest.approx(phase["steady_iops"], rel=1e-6)
        # no histogram in a simulated profile: the recorded percentiles, said so
        assert "a simulated profile records no histogram" in row["latency_source"]
        assert float(row["lat_p99_us"]) == pytest.approx(phase["latency_us"]["p99"], rel=1e-6)
    # rounds run in simulated seconds (milliseconds of wall clock): the time axis is I/O
    # time, each round starting where the last ended
    rounds = read_csv(out / "report-files" / "rounds.csv")
    for a, b in zip(rounds, rounds[1:], strict=False):
        if a["op_percent"] == b["op_percent"]:
            assert float(b["start_s"]) == pytest.approx(float(a["end_s"]))
    words = _words(page)
    assert "profile (simulated drive)" in words and "ioengine" not in words
    rec = doc["recommendation"]
    if rec["extra_op_percent"] is not None:
        chosen = next(p for p in doc["phases"] if p["extra_op_percent"] == rec["extra_op_percent"])
        zero = doc["phases"][0]
        zero_iops = zero["steady_iops"] or zero["window_iops_mean"]
        assert (
            f"{rec['extra_op_percent']:g}% extra OP sustains {chosen['steady_iops']:,.0f} IOPS, "
            f"{chosen['steady_iops'] / zero_iops:.1f}× the 0% figure"
        ) in words
    else:
        assert "no steady phase reached 20,000 IOPS" in words
    # simulated data says so: the badge and the drive, scale and basis in the title
    assert "SIMULATED · consumer-tlc-sata · scale 1/1,000 · illustrative" in words
    assert '<span class="badge">SIMULATED</span>' in page
    # why each phase was accepted: the measurement-window table holds the profile's verdict
    window = page.split('id="window"', 1)[1].split("</section>", 1)[0]
    for phase in doc["phases"]:
        v = phase["verdict"]
        first = v["window_first_round"]
        assert f"{first}–{first + len(v['window']) - 1} of {v['rounds']}" in window
        assert f"{100 * v['range_fraction']:.1f}%" in window
        assert f"{100 * v['slope_excursion_fraction']:.1f}%" in window
        assert f"{100 * v['decline_fraction']:+.1f}%" in window
        assert f"{v['waf_window_mean']:.3f} / {v['waf_baseline_mean']:.3f}" in window
        assert f"{phase['written_before_window_drive_writes']:.2f}" in window
    assert "range (≤ 20%)" in window and "slope excursion (≤ 10%)" in window
    # the device preparation: purge, the fill, and each phase's own precondition rule
    prep = unescape(page.split('id="preparation"', 1)[1].split("</section>", 1)[0])
    assert "purge" in prep and "workload-independent precondition" in prep
    for phase in doc["phases"]:
        assert f"workload-dependent precondition, OP {phase['extra_op_percent']:g}%" in prep
        assert phase["precondition"]["rule"] in prep


def test_report_json_says_what_was_read_written_and_recommended(sim_profile, sim_json, tmp_path):
    """``report --json -``: the inputs, the files written, and the profile's recommendation as
    results.json has it (a WAF-only simulation recommends nothing and says so)."""
    from overprov import cli
    from overprov.json_schemas import validate_document

    out = tmp_path / "both"
    json_path = tmp_path / "report.json"
    rc = cli.main(
        ["report", str(sim_profile), str(sim_json), "--out", str(out), "--json", str(json_path)]
    )
    assert rc == 0
    doc = json.loads(json_path.read_text())
    validate_document(doc, doc["schema"], str(json_path))
    assert doc["schema"] == "overprov.report/1"
    assert doc["report_html"] == str(out / "report.html") and (out / "report.html").is_file()
    for name in doc["files"]:
        assert (out / "report-files" / name).is_file(), name
    assert sorted(doc["files"]) == sorted(p.name for p in (out / "report-files").iterdir())
    prof, sim = doc["inputs"]
    assert prof["kind"] == "profile" and prof["simulated"] and prof["phases"] == 3
    assert sim["kind"] == "simulate" and sim["phases"] == 4
    rec = json.loads((sim_profile / "results.json").read_text())["recommendation"]
    a_prof, a_sim = doc["answers"]
    assert a_prof["input"] == prof["label"] and a_prof["method"] == rec["method"] == "target"
    assert a_prof["extra_op_percent"] == rec["extra_op_percent"]
    assert a_prof["recommended"] == (rec["extra_op_percent"] is not None)
    assert a_prof["target_iops"] == 20000 and a_prof["reason"] == rec["reason"]
    assert a_sim["recommended"] is False and a_sim["method"] is None and "WAF" in a_sim["headline"]
