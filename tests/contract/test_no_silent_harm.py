"""No command overwrites its input, two runs never share an output folder, a document is never
half-written, and a reader that leaves a pipe early ends the command with 141."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .commands import SMALL_SIMULATE, json_commands

REPO = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "python"), *sys.path]))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def sim_json(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("alias") / "in.json"
    proc = subprocess.run(
        [sys.executable, "-m", "overprov.cli", *SMALL_SIMULATE, "--json", str(path)],
        capture_output=True, text=True, env=_env(), check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return path


def _alias(kind: str, source: Path, where: Path) -> Path:
    """Another name for ``source``: the same path, a spelling through '..', a symlink, a hard
    link."""
    if kind == "same":
        return source
    if kind == "dotdot":
        return source.parent / ".." / source.parent.name / source.name
    alias = where / f"alias-{kind}.json"
    if kind == "symlink":
        alias.symlink_to(source)
    else:
        os.link(source, alias)
    return alias


@pytest.mark.parametrize("kind", ["same", "dotdot", "symlink", "hardlink"])
@pytest.mark.parametrize("command", ["report", "plan"])
def test_an_output_naming_the_input_is_refused_and_the_input_kept(
    overprov_cli, tmp_path, sim_json, command, kind
):
    source = tmp_path / "in.json"
    shutil.copy(sim_json, source)
    before = _digest(source)
    out = _alias(kind, source, tmp_path)
    argv = {
        "report": ["report", str(source), "--out", str(tmp_path / "r"), "--json", str(out)],
        "plan": ["plan", "--capacity", "1T", "--daily-writes", "500GB", "--simulation",
                 str(source), "--json", str(out)],
    }[command]  # fmt: skip
    rc, stdout, err = overprov_cli(*argv)
    assert rc == 2, (rc, err)
    assert "it would be overwritten" in err and str(source.name) in err, err
    assert len(err.strip().splitlines()) == 1
    assert _digest(source) == before
    assert not (tmp_path / "r").exists()  # refused before any work


def test_a_simulate_series_naming_its_config_is_refused(overprov_cli, tmp_path):
    config = tmp_path / "drive.toml"
    config.write_text('[geometry]\nuser_bytes = "64MiB"\nop_ratio = 0.2\n')
    before = _digest(config)
    rc, _, err = overprov_cli("simulate", "--config", str(config), "--series", str(config))
    assert rc == 2 and "--series" in err and "is the input (--config)" in err, err
    assert _digest(config) == before


def _hold(out: Path) -> subprocess.Popen[str]:
    """Another process holding ``out`` as overprov's lock does, until its stdin closes."""
    code = (
        "import sys; from overprov.outputs import hold_out_dir; "
        f"hold_out_dir({str(out)!r}, 'overprov simulate --out busy'); print('held', flush=True); "
        "sys.stdin.read()"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env=_env(),
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


@pytest.mark.parametrize("kind", ["overprov.simulate", "overprov.calibrate"])
def test_a_second_run_into_a_busy_out_is_refused_naming_the_holder(overprov_cli, tmp_path, kind):
    argv = json_commands(tmp_path)[kind]
    if "--out" not in argv:
        argv = [*argv, "--out", str(tmp_path / "cal")]
    out = Path(argv[argv.index("--out") + 1])
    holder = _hold(out)
    try:
        rc, _, err = overprov_cli(*argv)
        left = sorted(p.name for p in out.iterdir())
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    assert rc == 2, err
    assert f"in use by another overprov run (pid {holder.pid}: overprov simulate" in err, err
    assert left == [".lock"]  # nothing of the second run
    assert not out.exists()  # the holder made the folder and wrote nothing: gone at its exit


def test_a_run_after_the_holder_ended_goes_ahead(overprov_cli, tmp_path):
    out = tmp_path / "out"
    holder = _hold(out)
    assert holder.stdin is not None
    holder.stdin.close()
    holder.wait(timeout=30)
    rc, _, err = overprov_cli(*SMALL_SIMULATE, "--out", str(out))
    assert rc == 0, err
    assert (out / "simulate.json").is_file()


def test_a_failed_write_names_the_file_and_leaves_the_old_one(tmpfs_mount):
    """A full file system (a 64 KiB tmpfs): the write fails naming the file; the previous
    document is still whole and no temporary file is left."""
    from overprov.errors import RunError
    from overprov.outputs import write_json

    mnt = tmpfs_mount("64k")
    target = mnt / "doc.json"
    write_json({"schema": "overprov.test/1", "n": 1}, target)
    old = target.read_text()
    with pytest.raises(RunError) as info:
        write_json({"schema": "overprov.test/1", "blob": "x" * 200_000}, target)
    assert f"cannot write {target}" in str(info.value)
    assert "No space left on device" in str(info.value)
    assert target.read_text() == old
    assert sorted(p.name for p in mnt.iterdir()) == ["doc.json"]


def test_json_into_head_ends_with_141():
    """``simulate ... --json - | head``: the reader leaves after the first bytes of a 200 kB
    document; the command must not exit 0 as if the whole document had been read."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "overprov.cli", *SMALL_SIMULATE, "--json", "-"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    head = proc.stdout.read(10)
    proc.stdout.close()  # as head does
    err = proc.stderr.read().decode()
    rc = proc.wait(timeout=300)
    assert head == b'{\n  "schem'
    assert rc == 141, (rc, err)
    assert "Traceback" not in err and "Exception ignored" not in err


def test_a_run_refused_after_taking_its_out_leaves_no_folder(tmp_path):
    """qualify holds --out before it opens the target; a target refused then (a file holding
    data, not confirmed) leaves no empty folder behind."""
    target = tmp_path / "data.img"
    target.write_bytes(os.urandom(2**20))
    out = tmp_path / "q"
    proc = subprocess.run(
        [sys.executable, "-m", "overprov.cli", "qualify", str(target), "--tests", "cache",
         "--out", str(out)],
        capture_output=True, text=True, env=_env(), timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 1 and "refusing to write" in proc.stderr, proc.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    "argv",
    [["calibrate", "--from", "{prof}", "--extra-op", "0,20", "--json", "{prof}/results.json"],
     ["report", "{prof}", "--json", "{prof}/results.json"]],
)  # fmt: skip
def test_an_output_over_a_document_of_an_input_folder_is_refused(
    overprov_cli, tmp_path, sim_profile, argv
):
    """`calibrate --from prof/ --json prof/results.json` replaced the profile's results with
    the prediction (rc 0): the folder is the input, its files were not seen as inputs."""
    prof = tmp_path / "prof"
    shutil.copytree(sim_profile, prof)
    before = _digest(prof / "results.json")
    rc, _, err = overprov_cli(*(a.format(prof=prof) for a in argv))
    assert rc == 2, err
    assert "is the overprov.profile document of the input" in err
    assert _digest(prof / "results.json") == before


def test_a_command_s_own_document_in_its_input_folder_is_written_again(tmp_path):
    """`report prof/ --json prof/report.json` run twice: the second replaces the report's own
    document (no input is lost), so it is not refused."""
    import argparse

    from overprov.errors import OutputError
    from overprov.outputs import refuse_aliasing

    prof = tmp_path / "prof"
    prof.mkdir()
    (prof / "results.json").write_text('{"schema": "overprov.profile/2"}')
    (prof / "report.json").write_text('{"schema": "overprov.report/1"}')
    args = argparse.Namespace(command="report", inputs=[prof], json=str(prof / "report.json"))
    refuse_aliasing(args)
    args.json = str(prof / "results.json")
    with pytest.raises(OutputError, match="overprov.profile document of the input folder"):
        refuse_aliasing(args)
