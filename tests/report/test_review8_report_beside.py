"""``overprov report DIR`` of a calibrate or qualify folder wrote ./overprov-report in whatever
folder the user stood in (only a profile folder had its report written beside its results): the
page now goes into the run's folder — given as the folder or as its document — unless --out says
otherwise, and never over a report.html overprov did not write."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from overprov.report.cli import default_out

FOREIGN = b"<!DOCTYPE html><html><title>fleet report</title><body>the NAS vendor's</body></html>"


def _copy(folder: Path, to: Path) -> Path:
    """A copy of a run's folder without its page (the fixtures are shared, read-only)."""
    shutil.copytree(
        folder, to, ignore=shutil.ignore_patterns("report.html", "report-files", ".lock")
    )
    return to


@pytest.mark.parametrize("given", ["folder", "document"])
def test_a_calibrate_folder_gets_its_report_beside_its_results(
    given, waf_calibration, tmp_path, monkeypatch, overprov_cli
):
    cal = _copy(waf_calibration, tmp_path / "cal")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    arg = cal if given == "folder" else cal / "prediction.json"
    rc, out, err = overprov_cli("report", str(arg))
    assert rc == 0, err
    assert (cal / "report.html").is_file() and (cal / "report-files").is_dir()
    assert f"report written to {cal / 'report.html'}" in out
    assert list(elsewhere.iterdir()) == []  # no ./overprov-report where the user stood


def test_a_qualify_folder_is_its_reports_default(tmp_path):
    """(By its document's name, as for every run's folder: what is in it is validate's.)"""
    q = tmp_path / "q"
    q.mkdir()
    (q / "qualify.json").write_text("{}")
    assert default_out([q]) == q
    assert default_out([q / "qualify.json"]) == q


def test_other_inputs_keep_the_report_folder(sim_json, waf_calibration, tmp_path):
    assert default_out([sim_json]) == Path("overprov-report")  # a --json file: no run's folder
    assert default_out([waf_calibration, sim_json]) == Path("overprov-report")
    (tmp_path / "prediction.json").write_text("{}")
    assert default_out([tmp_path / "notes.json"]) == Path("overprov-report")


def test_a_page_overprov_did_not_write_in_the_folder_is_kept(
    waf_calibration, tmp_path, monkeypatch, overprov_cli
):
    cal = _copy(waf_calibration, tmp_path / "cal")
    (cal / "report.html").write_bytes(FOREIGN)
    monkeypatch.chdir(tmp_path)
    rc, out, err = overprov_cli("report", str(cal))
    assert rc == 2, (out, err)
    assert f"{cal / 'report.html'} is not a page overprov wrote" in err
    assert (
        hashlib.sha256((cal / "report.html").read_bytes()).digest()
        == hashlib.sha256(FOREIGN).digest()
    )
    assert not (cal / "report-files").exists() and not (tmp_path / "overprov-report").exists()
