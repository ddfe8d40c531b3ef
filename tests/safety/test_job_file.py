"""A file target whose name an fio job file cannot carry (overprov.fio.check_job_filename):
a line break would end `filename=` and start another option, so `profile` of a file named
`a.img<newline>filename=VICTIM` had fio write to VICTIM, which no check had seen; fio also
expands `${VAR}` in job files. `profile`, `qualify` and `calibrate` refuse such a name
(exit 2) before anything is written; VICTIM's SHA-256 stays the same."""

from __future__ import annotations

import os

import pytest
from safety_helpers import MIB, QUICK_PROFILE, Digests, cli

COMMANDS = ("profile", "qualify", "calibrate")


@pytest.mark.parametrize("which", COMMANDS)
def test_a_file_name_with_a_line_break_cannot_smuggle_in_another_target(which, tmp_path):
    victim = tmp_path / "victim.img"
    victim.write_bytes(os.urandom(16 * MIB))
    before = Digests.of(victim)
    # the directory "a.img\nfilename=" holds, below it, the victim's own path
    target = tmp_path / "a.img\nfilename=" / str(victim).lstrip("/")
    target.parent.mkdir(parents=True)
    with open(target, "wb") as f:
        f.truncate(16 * MIB)  # sparse: would need no confirmation
    size = {"profile": ["--size", "8MiB", *QUICK_PROFILE], "qualify": ["--size", "8MiB"]}
    size = size.get(which, [])
    proc = cli(which, str(target), *size, "--out", str(tmp_path / "out"))
    assert proc.returncode == 2, proc.stderr[-1000:]
    assert "holds a line break, which an fio job file cannot carry" in proc.stderr
    assert Digests.of(victim) == before


def test_a_file_name_fio_would_expand_is_refused(tmp_path):
    target = tmp_path / "disk-${HOME}.img"
    with open(target, "wb") as f:
        f.truncate(16 * MIB)
    proc = cli("profile", str(target), "--size", "8MiB", "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and "holds '${'" in proc.stderr, proc.stderr
