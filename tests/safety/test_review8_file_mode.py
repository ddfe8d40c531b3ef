"""A document written by replacing it (``outputs.write_atomic``) kept the temporary file's mode,
0600: results.json, qualify.json and prediction.json were unreadable to the group and the other
users who read a NAS's shares, while profile.log and fio's files beside them were 0644. A new
file now gets what ``open`` gives (0666 less the umask), a file written again keeps its mode
(less any set-id or sticky bit)."""

from __future__ import annotations

import os
import stat

import pytest
from overprov import file_mode, outputs


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_document_gets_the_mode_open_gives(tmp_path, umask_027):
    assert file_mode.umask() == 0o027
    outputs.write_json({"schema": "overprov.x/1"}, tmp_path / "results.json")
    with open(tmp_path / "beside.log", "w"):
        pass
    assert mode(tmp_path / "results.json") == mode(tmp_path / "beside.log") == 0o640


def test_a_document_written_again_keeps_its_mode(tmp_path, umask_027):
    path = tmp_path / "qualify.json"
    path.write_text("{}")
    os.chmod(path, 0o644 | stat.S_ISUID)
    outputs.write_atomic(path, "{}\n")
    assert mode(path) == 0o644
    assert path.read_text() == "{}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["qualify.json"]  # no temporary file left
