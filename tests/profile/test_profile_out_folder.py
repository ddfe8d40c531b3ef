"""What a profile refused or failed leaves of its ``--out`` folder (docs/profile.md, "Outputs"):
a run refused before it opened its target wrote nothing, so the folder it made goes
(the same command with the confirmation then runs); a folder that was there before, anything
the run did not write, and the folder of a run that opened its target always stay."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from overprov.errors import RunError
from overprov.outputs import discard_created_out_dir
from overprov.profile.runner import Profile
from overprov.profile.settings import ProfileSettings

MIB = 2**20
WRITTEN = ("results.json", "profile.log")


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    """A file holding data: the profile refuses it unless confirmed."""
    target = tmp_path / "data.img"
    with open(target, "wb") as f:
        f.write(os.urandom(MIB))
        f.truncate(16 * MIB)
    return target


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_profile_refused_when_it_opens_its_target_leaves_no_folder_it_made(
    overprov_cli, tmp_path, data_file
):
    """The folder this command made goes (it would block the corrected command), and a
    --resume of it says why it is not there; a folder that was there before stays, with
    everything in it, and the refusal says to go ahead with --resume."""
    digest = _sha(data_file)
    out = tmp_path / "out"
    rc, _, err = overprov_cli("profile", str(data_file), "--out", str(out), "--no-report")
    assert rc == 1 and f"To go ahead, pass --i-understand-this-destroys-data {data_file}" in err
    assert not out.exists(), sorted(p.name for p in out.iterdir())
    assert "--resume" not in err.splitlines()[-1]
    rc, _, err = overprov_cli("profile", "--resume", str(out))
    assert rc == 2
    assert err.splitlines()[-1] == (
        f"overprov profile: --resume: {out} does not exist (a profile refused before it opened "
        "its target leaves no folder that it made: run its command again, as the refusal said)"
    )
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("the user's\n")
    rc, _, err = overprov_cli("profile", str(data_file), "--out", str(kept), "--no-report")
    assert rc == 1, err
    assert (kept / "notes.txt").read_text() == "the user's\n"
    assert json.loads((kept / "results.json").read_text())["status"] == "failed"
    assert f"(with --resume {kept}: the folder keeps this refused run's results.json" in err
    assert _sha(data_file) == digest


def test_an_empty_folder_the_user_made_stays_and_the_refusal_says_resume(
    overprov_cli, tmp_path, data_file
):
    """An empty folder is the user's all the same: it keeps the refused run's record, in which
    the same command is refused, so the refusal's way ahead is --resume."""
    out = tmp_path / "mine"
    out.mkdir()
    rc, _, err = overprov_cli("profile", str(data_file), "--out", str(out), "--no-report")
    assert rc == 1, err
    assert sorted(p.name for p in out.iterdir()) == [".lock", "profile.log", "results.json"]
    last = err.splitlines()[-1]
    assert last.endswith(
        f"To go ahead, pass --i-understand-this-destroys-data {data_file} (with --resume {out}: "
        "the folder keeps this refused run's results.json, so the same command would be refused)"
    )
    rc, _, err = overprov_cli("profile", str(data_file), "--out", str(out), "--no-report")
    assert rc == 2 and f"continue it with --resume {out}" in err  # what the advice avoids


def test_the_run_knows_whether_it_made_its_folder(tmp_path):
    """``Profile.create`` records whether it made the folder (mkdir, not a look beforehand: a
    folder made meanwhile by someone else is theirs); a resumed run never made it."""
    settings = ProfileSettings()
    made = Profile.create("sim:consumer-tlc-sata@1GiB", settings, tmp_path / "a" / "new")
    assert made.made_out_dir
    (tmp_path / "there").mkdir()
    there = Profile.create("sim:consumer-tlc-sata@1GiB", settings, tmp_path / "there")
    assert not there.made_out_dir


@pytest.mark.parametrize("extra", ["foreign", "symlink", "subfolder", "empty"])
def test_a_folder_the_run_made_stays_when_it_holds_what_the_run_did_not_write(tmp_path, extra):
    """``discard_created_out_dir`` removes only the run's own regular files: a file of another
    name, a symlink in a written file's place (its target untouched), a subfolder keep it."""
    out = tmp_path / "out"
    out.mkdir()
    (out / ".lock").write_text("pid 1: overprov profile\n")
    (out / "profile.log").write_text("refused\n")
    elsewhere = tmp_path / "precious.json"
    elsewhere.write_text("{}\n")
    if extra == "foreign":
        (out / "notes.txt").write_text("mine\n")
    elif extra == "symlink":
        (out / "results.json").symlink_to(elsewhere)
    elif extra == "subfolder":
        (out / "fio").mkdir()
    if extra == "empty":  # only what the run wrote: removed
        (out / "results.json").write_text("{}\n")
        assert discard_created_out_dir(out, WRITTEN) and not out.exists()
        return
    before = sorted(p.name for p in out.iterdir())
    assert not discard_created_out_dir(out, WRITTEN)
    assert sorted(p.name for p in out.iterdir()) == before
    assert elsewhere.read_text() == "{}\n"


def test_a_run_that_opened_its_target_keeps_the_folder_it_made(overprov_cli, tmp_path, monkeypatch):
    """A failure after the target was opened (identified, written to) keeps everything: the
    record of what was done is the user's way to --resume."""

    def fails(*_args: object) -> None:
        raise RunError("the precondition failed (a test's stand-in)")

    monkeypatch.setattr("overprov.profile.runner.run_precondition", fails)
    out = tmp_path / "out"
    rc, _, err = overprov_cli(
        "profile", "sim:consumer-tlc-sata@1GiB", "--extra-op", "0", "--fob-seconds", "0",
        "--out", str(out), "--no-report",
    )  # fmt: skip
    assert rc == 1 and "the precondition failed" in err
    doc = json.loads((out / "results.json").read_text())
    assert doc["status"] == "failed" and doc["target"]["members"]
    assert "--resume" not in err.splitlines()[-1]
