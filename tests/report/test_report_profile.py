"""A user profiles a small file with real fio; the profile writes its report at the end, and
`overprov report` rebuilds it with a rated endurance and a SMART snapshot."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from overprov.report.model import grouped
from report_checks import check_page, figure_keys, read_csv

pytestmark = [pytest.mark.fio, pytest.mark.slow]

SMART = (
    Path(__file__).resolve().parents[1] / "data" / "smart" / "SAMSUNG_MZ7WD240HAFV-00003_21.json"
)


def _words(page: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", page.split("<body>", 1)[1]))


def test_the_profile_writes_its_report(fio_profile):
    out = fio_profile
    page = check_page(out)
    doc = json.loads((out / "results.json").read_text())
    keys = figure_keys(out)
    assert {
        "iops-vs-op",
        "phase-cost",
        "iops-time-drive-img",
        "write-saturation-drive-img",
        "latency-drive-img",
        "latency-vs-op",
    } == keys
    rows = read_csv(out / "report-files" / "phases.csv")
    for row, phase in zip(rows, doc["phases"], strict=True):
        assert float(row["op_percent"]) == phase["extra_op_percent"]
        assert row["status"] == phase["status"]
        assert int(row["rounds"]) == len(phase["rounds"])
        assert float(row["bytes_written"]) == pytest.approx(phase["bytes_written"])
        if phase["steady_iops"] is not None:
            assert float(row["steady_iops"]) == pytest.approx(phase["steady_iops"], rel=1e-5)
        # the latency comes from fio's own json+ histograms of the window's rounds
        assert row["latency_source"].startswith("fio json+ latency histogram of rounds")
    # every round is on the time axis, with its per-second points
    rounds = read_csv(out / "report-files" / "rounds.csv")
    assert len(rounds) == sum(len(p["rounds"]) for p in doc["phases"])
    series = read_csv(out / "report-files" / "iops-per-second.csv")
    assert len(series) == sum(len(r["iops_series"]) for p in doc["phases"] for r in p["rounds"])
    words = _words(page)
    # header: the file, its file system, fio's and the kernel's versions, the date
    assert str(out.parent / "drive.img") in words and doc["software"]["fio"] in words
    assert doc["software"]["kernel"] in words and doc["created"][:10] in words
    assert "4 KiB random writes, QD 32" in words
    # the conclusion follows the recommendation in results.json (target 1,000 IOPS)
    rec = doc["recommendation"]
    if rec["extra_op_percent"] is not None:
        phase = next(p for p in doc["phases"] if p["extra_op_percent"] == rec["extra_op_percent"])
        assert (
            f"{rec['extra_op_percent']:g}% extra OP sustains {phase['steady_iops']:,.0f} IOPS"
            in words
        )
        assert "recommended extra OP for 1,000 IOPS" in words
    else:  # the profile's own reason, its numbers written the report's one way
        assert f"No OP level is recommended: {grouped(rec['reason'])}" in words
    # no rated endurance given: the page says how to get the table
    assert "No rated endurance or SMART data was given" in words


def test_report_again_with_rated_tbw_and_smart(fio_profile, tmp_path, overprov_cli):
    out = tmp_path / "rep"
    rc, _, err = overprov_cli(
        "report",
        str(fio_profile),
        "--out",
        str(out),
        "--rated-tbw",
        "600",
        "--smart",
        str(SMART),
        "--target-iops",
        "900000",
    )
    assert rc == 0, err
    words = _words(check_page(out))
    endurance = read_csv(out / "report-files" / "endurance.csv")
    assert [float(r["extra_op_percent"]) for r in endurance] == [0.0, 25.0]
    assert float(endurance[0]["tbw_bytes"]) == pytest.approx(600e12)
    assert float(endurance[1]["tbw_bytes"]) > 600e12  # more OP, lower model WAF, more TBW
    assert "rated TBW 600.00 TB" in words
    # the SMART snapshot's facts are shown (the rated TBW, given too, sets the budget)
    assert "SAMSUNG MZ7WD240HAFV-00003" in words and "WAF ≈ 3.60" in words
    # a target no phase meets: no recommendation, and the reason says so
    # (a closest level is named when a phase was steady: this short profile may have none)
    assert "no steady phase reached 900,000 IOPS" in words
    assert ("Closest: " in words) == ("No OP level tested meets the target" in words)
