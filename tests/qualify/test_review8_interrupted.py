"""An interrupted qualification said only "interrupted; what was finished is kept": not where,
nor how to run the tests it did not finish, and qualify had no --resume (an --out holding a
qualification is refused). It now names the finished tests and the file that keeps them, and
``qualify --resume DIR`` runs the pending tests on the same target with the same settings,
keeping the finished ones. The interruption is a KeyboardInterrupt raised in place of a test's
measurement (as tests/qualify/test_qualify_keeps_results.py makes one crash)."""

from __future__ import annotations

import json

import jsonschema
import pytest
from overprov.qualify import cache, consistency, verdict

FAST = ("--round-seconds", "1", "--steady-drive-writes", "1", "--max-rounds", "2",
        "--cliff-drive-writes", "2")  # fmt: skip
SIM = "sim:enterprise-tlc-nvme@2GiB"


def _interrupt(spec, s):
    raise KeyboardInterrupt


def interrupted_at_consistency(overprov_cli, tmp_path, monkeypatch):
    """``qualify SIM --tests cache,consistency`` stopped in consistency; its folder."""
    out = tmp_path / "q"
    with monkeypatch.context() as m:
        m.setattr(consistency, "measure_sim", _interrupt)
        rc, _, err = overprov_cli(
            "qualify", SIM, "--tests", "cache,consistency", *FAST, "--out", str(out),
            "--json", str(tmp_path / "q.json"),
        )  # fmt: skip
    assert rc == 130, err
    assert (
        f"qualify: interrupted during consistency: cache finished, kept in {out / 'qualify.json'} "
        f"and {tmp_path / 'q.json'}; continue with: overprov qualify --resume {out}" in err
    )
    kept = json.loads((out / "qualify.json").read_text())
    assert [t["test"] for t in kept["tests"]] == ["cache"] and kept["pending"] == ["consistency"]
    return out, kept


def test_an_interrupted_qualification_is_resumed_keeping_what_it_finished(
    overprov_cli, tmp_path, monkeypatch
):
    out, kept = interrupted_at_consistency(overprov_cli, tmp_path, monkeypatch)
    rc, stdout, err = overprov_cli("qualify", "--resume", str(out), "--no-report")
    assert rc in (0, 1), err  # the verdicts' exit status
    doc = json.loads((out / "qualify.json").read_text())
    jsonschema.validate(doc, verdict.json_schema())
    assert "pending" not in doc
    assert [t["test"] for t in doc["tests"]] == ["cache", "write_cliff", "consistency"]
    assert doc["tests"][0] == kept["tests"][0]  # kept as it was, not run again
    assert doc["command"] == kept["command"] and doc["settings"] == kept["settings"]
    assert "running consistency" in err and "running cache" not in err
    assert stdout.count("cache ") == 1 and "write_cliff" in stdout
    rc, _, err = overprov_cli("qualify", "--resume", str(out))
    assert rc == 2 and "every test of that qualification finished; nothing to resume" in err


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (("--qd", "4"), "--resume: --qd differs from the stored qualification's (8)"),
        (("sim:consumer-tlc-sata@2GiB",), "the stored qualification is of " + repr(SIM)),
        (("--dry-run",), "--dry-run: give a TARGET"),
    ],
)
def test_a_resumed_qualification_keeps_its_settings_and_target(
    extra, said, overprov_cli, tmp_path, monkeypatch
):
    out, kept = interrupted_at_consistency(overprov_cli, tmp_path, monkeypatch)
    rc, _, err = overprov_cli("qualify", "--resume", str(out), *extra)
    assert rc == 2, err
    assert said in err
    assert json.loads((out / "qualify.json").read_text()) == kept


def test_without_a_target_or_resume_the_command_says_what_to_give(overprov_cli):
    rc, _, err = overprov_cli("qualify")
    assert rc == 2 and "TARGET: give the drive to qualify, or --resume DIR" in err


def test_interrupted_in_its_first_test_it_says_to_run_again(overprov_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "measure_sim", _interrupt)
    out = tmp_path / "q"
    rc, _, err = overprov_cli("qualify", SIM, "--tests", "cache,consistency", *FAST,
                              "--out", str(out))  # fmt: skip
    assert rc == 130, err
    assert "qualify: interrupted during cache: no test finished; run the command again" in err
    assert not (out / "qualify.json").exists()


def test_a_file_target_is_resumed_only_while_it_is_the_same_file(
    need_fio, overprov_cli, tmp_path, monkeypatch
):
    """Real fio on a 16 MiB file: the resumed run checks the file (device, inode, the run
    identifier written on it) before its first test; a file put in its place is refused,
    unchanged."""
    from overprov.qualify import trim_recovery

    target, out = tmp_path / "drive.img", tmp_path / "q"
    with monkeypatch.context() as m:
        m.setattr(trim_recovery, "measure", lambda t, s: _interrupt(None, s))
        rc, _, err = overprov_cli("qualify", str(target), "--size", "16MiB", "--tests",
                                  "cache,trim_recovery", *FAST, "--out", str(out))  # fmt: skip
    assert rc == 130, err
    assert f"continue with: overprov qualify --resume {out}" in err
    target.rename(tmp_path / "kept.img")
    target.write_bytes(b"\x5a" * 2**20)  # another file by that name, holding data
    rc, _, err = overprov_cli("qualify", "--resume", str(out), "--no-report",
                              "--i-understand-this-destroys-data", str(target))  # fmt: skip
    assert rc != 0 and f"--resume: {target} is not the target the qualification measured" in err
    assert target.read_bytes() == b"\x5a" * 2**20
    target.unlink()
    (tmp_path / "kept.img").rename(target)
    rc, _, err = overprov_cli("qualify", "--resume", str(out), "--no-report")
    assert rc in (0, 1), err
    doc = json.loads((out / "qualify.json").read_text())
    assert [t["test"] for t in doc["tests"]] == ["cache", "trim_recovery"] and "pending" not in doc
