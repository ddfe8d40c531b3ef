"""Outputs are checked before any work, and stdout closed early ends quietly."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .commands import SMALL_SIMULATE, json_commands, prepare_inputs

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
@pytest.mark.parametrize("kind", sorted(json_commands(Path("/tmp"))))
def test_stdout_closed_early_ends_quietly(tmp_path, kind):
    argv = json_commands(tmp_path)[kind]
    prepare_inputs(kind, tmp_path)
    for extra in (["--json", "-"], []):
        proc = _closed_stdout([*argv, *extra])
        err = proc.stderr.decode()
        assert "Traceback" not in err and "Exception ignored" not in err, err
        assert proc.returncode == 141, (argv + extra, proc.returncode, err)
        if kind == "overprov.profile":
            break  # one profile run is enough; its folder now exists


def test_piped_into_head_like_the_issue_says(tmp_path):
    cmd = f"{sys.executable} -m overprov.cli capacity 1TB --json - | head -c1"
    proc = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, env=_env())
    assert proc.stdout == "{" and "Traceback" not in proc.stderr
