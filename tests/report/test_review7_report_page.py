"""A command writes its report.html only over a page of its own: ``report``, ``simulate
--out``, ``profile`` and ``qualify`` replaced a report.html another tool wrote (or a saved
page of that name) in their output folder without a word, as ``--json`` no longer replaces a
file that is not an overprov document. Refused before any work; a page of overprov's is
written again."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from overprov.outputs import check_report_page

FOREIGN = b"<!DOCTYPE html><html><title>fleet report</title><body>the NAS vendor's</body></html>"


def foreign_page(folder: Path) -> str:
    folder.mkdir(exist_ok=True)
    (folder / "report.html").write_bytes(FOREIGN)
    return hashlib.sha256(FOREIGN).hexdigest()


def unchanged(folder: Path, digest: str) -> bool:
    return hashlib.sha256((folder / "report.html").read_bytes()).hexdigest() == digest


@pytest.mark.parametrize(
    "argv",
    [
        ("report", "{sim_json}", "--out", "{out}"),
        ("simulate", "--advertised", "1G", "--extra-op", "20", "--no-progress", "--out", "{out}"),
        ("profile", "sim:consumer-tlc-sata@1GiB", "--extra-op", "0", "--out", "{out}"),
        ("qualify", "sim:consumer-tlc-sata@1GiB", "--out", "{out}"),
    ],
    ids=["report", "simulate", "profile", "qualify"],
)
def test_a_report_html_overprov_did_not_write_is_refused(argv, sim_json, tmp_path, overprov_cli):
    out = tmp_path / "reports"
    digest = foreign_page(out)
    args = [a.format(sim_json=sim_json, out=out) for a in argv]
    rc, stdout, err = overprov_cli(*args)
    assert rc == 2, (stdout, err)
    assert f"{out / 'report.html'} is not a page overprov wrote" in err
    assert unchanged(out, digest)
    assert sorted(p.name for p in out.iterdir()) == ["report.html"]  # nothing else made


def test_without_a_page_to_write_the_folder_is_used(tmp_path):
    """--no-report writes no page: profile and qualify do not look at one (the check is
    called only where a page is written); an empty report.html is anyone's to replace."""
    out = tmp_path / "reports"
    foreign_page(out)
    (out / "report.html").write_bytes(b"")
    check_report_page(out)
    check_report_page(None)


def test_a_page_overprov_wrote_is_written_again(sim_report):
    """The report tests' page (overprov report, made once per run) passes, as a profile's own
    page does when 'overprov report prof/' writes it again."""
    check_report_page(sim_report)


@pytest.mark.parametrize("other", ["qualify", "profile", "calibrate"])
def test_a_report_of_other_inputs_into_a_run_s_folder_is_refused(
    other, sim_json, tmp_path, overprov_cli
):
    """'report sim.json --out qual/' wrote a simulation's page over the folder of a
    qualification (its report.html is that run's: 'overprov report qual/'). The folder
    reported as an input, or the folder of an input file, is the report's to write."""
    from overprov.outputs import RUN_DOCUMENTS

    out = tmp_path / other
    out.mkdir()
    name, what = RUN_DOCUMENTS[other][0][0], RUN_DOCUMENTS[other][1]
    (out / name).write_text("{}")
    rc, stdout, err = overprov_cli("report", str(sim_json), "--out", str(out))
    assert rc == 2, (stdout, err)
    assert f"{out} holds {what} ({name})" in err
    assert sorted(p.name for p in out.iterdir()) == [name]
