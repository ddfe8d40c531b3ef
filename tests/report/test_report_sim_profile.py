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
    if rec["op_percent"] is not None:
        chosen = next(p for p in doc["phases"] if p["op_percent"] == rec["op_percent"])
        zero = doc["phases"][0]
        zero_iops = zero["steady_iops"] or zero["window_iops_mean"]
        assert (
            f"{rec['op_percent']:g}% extra OP sustains {chosen['steady_iops']:,.0f} IOPS, "
            f"{chosen['steady_iops'] / zero_iops:.1f}× the 0% figure"
        ) in words
    else:
        assert f"No OP level is recommended: {rec['reason']}" in words
