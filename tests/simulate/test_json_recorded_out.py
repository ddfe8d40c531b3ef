"""A --json document is a run folder's only where the --out its recorded command gave names
the folder it sits in, or the folder holds a run's report or log (run_folder.py, review7's item
6): ``simulate --out ws1 --json simulate.json`` then ``simulate --out ws2 --json
simulate.json`` was refused (exit 2) though the working folder holds no run."""

from __future__ import annotations

import json

import pytest
from overprov.errors import OutputError
from overprov.outputs import check_json_output


def document(*command: str) -> bytes:
    return json.dumps({"schema": "overprov.simulate/1",
                       "command": ["overprov", "simulate", *command]}).encode()  # fmt: skip


def test_a_json_beside_another_folders_run_is_not_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "simulate.json").write_bytes(document("--out", "ws1", "--json", "simulate.json"))
    check_json_output(tmp_path / "simulate.json")  # ws1 is elsewhere: --json's own output
    (tmp_path / "simulate.json").write_bytes(document(f"--out={tmp_path / 'ws1'}"))
    check_json_output(tmp_path / "simulate.json")


@pytest.mark.parametrize(
    ("out", "cwd"),
    [("ws", "."), ("./ws", "."), ("ws/", "."), ("{tmp}/ws", "."), ("--out={tmp}/ws", "."),
     ("../ws", "sub"), ("ws", "sub")],
)  # fmt: skip
def test_a_document_whose_recorded_out_names_its_folder_is_refused(tmp_path, monkeypatch, out, cwd):
    """Resolved from here, or relative as the folder's last components (a run from another
    folder: "ws" read from sub/)."""
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / cwd)
    ws = tmp_path / "ws"
    ws.mkdir()
    out = out.format(tmp=tmp_path)
    argv = [out] if out.startswith("--out=") else ["--out", out]
    (ws / "simulate.json").write_bytes(document(*argv))
    with pytest.raises(OutputError, match="run folder"):
        check_json_output(ws / "simulate.json")


def test_a_marker_still_makes_a_run_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "simulate.json").write_bytes(document("--out", "ws1"))
    (tmp_path / "report.html").write_text("")
    with pytest.raises(OutputError, match="run folder"):
        check_json_output(tmp_path / "simulate.json")
