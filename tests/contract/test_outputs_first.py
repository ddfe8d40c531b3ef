"""Outputs are checked before any work, and stdout closed early ends quietly."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .commands import SMALL_SIMULATE, prepare_inputs, write_commands

REPO = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "python"), *sys.path]))


def test_simulate_json_to_a_missing_folder_fails_before_simulating():
    # CPU time, not the wall clock: a loaded machine (parallel tests) stretches the latter
    started = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-m", "overprov.cli", "simulate", "--json", "/nonexistent/x.json",
         "--advertised", "480G", "--extra-op", "0,10,20,30", "--hot", "80/20"],
        capture_output=True, text=True, env=_env(), check=False,
    )  # fmt: skip
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = ended.ru_utime + ended.ru_stime - started.ru_utime - started.ru_stime
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        "overprov simulate: no folder /nonexistent to write it in (--json /nonexistent/x.json)\n"
    )
    assert cpu_s < 5  # the interpreter's start-up; the 480 GB simulation never starts


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        ([*SMALL_SIMULATE, "--out", "FILE"], "a file where a folder is wanted"),
        ([*SMALL_SIMULATE, "--json", "DIR"], "a folder where a file is wanted"),
        ([*SMALL_SIMULATE, "--series", "FILE/x.csv"], "is a file, not a folder"),
        (["report", "DIR", "--out", "FILE"], "a file where a folder is wanted"),
        (["report", "DIR", "--out", "DIR", "--json", "FILE/x"], "is a file, not a folder"),
        (["drive", "show", "consumer-tlc-sata", "--json", "DIR"], "a folder where a file"),
        (["plan", "--capacity", "1T", "--json", "FILE/x"], "is a file, not a folder"),
        (["profile", "sim:consumer-tlc-sata@1GiB", "--out", "FILE"], "a file where a folder"),
    ],
)
def test_bad_outputs_are_refused_first(overprov_cli, tmp_path, argv, needle):
    (tmp_path / "FILE").write_text("")
    (tmp_path / "DIR").mkdir()
    argv = [str(tmp_path / a) if a in ("FILE", "DIR") or a.startswith("FILE/") else a
            for a in argv]  # fmt: skip
    started = time.process_time()  # CPU time: parallel tests stretch the wall clock
    rc, out, err = overprov_cli(*argv)
    assert rc == 2 and needle in err, err
    assert time.process_time() - started < 1.0
    assert len(err.strip().splitlines()) == 1


def _closed_stdout(argv: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Run with a stdout whose reader is already gone: every write meets EPIPE."""
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run(
            [sys.executable, "-m", "overprov.cli", *argv],
            stdout=w, stderr=subprocess.PIPE, env=_env(), timeout=300, check=False,
        )  # fmt: skip
    finally:
        os.close(w)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(write_commands(Path("/tmp"))))
def test_stdout_closed_early_ends_quietly(tmp_path, kind):
    for i, extra in enumerate((["--json", "-"], [])):
        run_dir = tmp_path / f"run{i}"  # its own folder: a written --out is never rewritten
        run_dir.mkdir()
        argv = write_commands(run_dir)[kind]
        prepare_inputs(kind, run_dir)
        proc = _closed_stdout([*argv, *extra])
        err = proc.stderr.decode()
        assert "Traceback" not in err and "Exception ignored" not in err, err
        assert proc.returncode == 141, (argv + extra, proc.returncode, err)
        if kind == "overprov.profile":
            break  # one profile run is enough (the slowest of the commands)


def test_piped_into_head_like_the_issue_says(tmp_path):
    cmd = f"{sys.executable} -m overprov.cli capacity 1TB --json - | head -c1"
    proc = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, env=_env())
    assert proc.stdout == "{" and "Traceback" not in proc.stderr


@pytest.mark.root
def test_json_to_a_character_device_writes_through_it_and_leaves_the_device(tmp_path):
    """``--json /dev/null`` (here a null device node of its own in tmp_path): the document goes
    through the device, which stays a device; an atomic replace would have put a regular file
    where the device node was."""
    import stat

    from overprov import outputs

    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    outputs.write_json({"schema": "overprov.test/1"}, null)
    assert stat.S_ISCHR(null.stat().st_mode)
    proc = subprocess.run(
        [sys.executable, "-m", "overprov.cli", *SMALL_SIMULATE, "--json", str(null)],
        capture_output=True, text=True, env=_env(), check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISCHR(null.stat().st_mode), "the device node was replaced"


def test_json_to_a_fifo_is_written_into_the_pipe(tmp_path):
    import threading

    from overprov import outputs

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    outputs.write_json({"schema": "overprov.test/1"}, fifo)
    reader.join(timeout=30)
    assert got and '"overprov.test/1"' in got[0]
    assert fifo.is_fifo()


@pytest.mark.root
def test_a_block_device_is_refused_as_an_output_file(tmp_path):
    """A block device node (of a major number no driver holds: nothing could be written even
    if the check failed) is refused as an output file, by the check and by the writer."""
    import stat

    from overprov import outputs
    from overprov.errors import OutputError, RunError

    blk = tmp_path / "blk"
    os.mknod(blk, 0o600 | stat.S_IFBLK, os.makedev(250, 0))
    with pytest.raises(OutputError, match="a block device where a file is wanted"):
        outputs.check_output_file(blk, "--json")
    with pytest.raises(RunError, match="not a regular file"):
        outputs.write_json({"schema": "overprov.test/1"}, blk)
    assert stat.S_ISBLK(blk.stat().st_mode)
