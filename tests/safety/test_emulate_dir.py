"""`overprov emulate --dir DIR` creates its data file DIR/data.img afresh (truncated) and
removes it when it stops: a folder that already holds it, or the other files the emulation
writes, or a non-empty mnt/, is refused before anything is touched (docs/emulate.md)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from safety_helpers import MIB, REPO, Digests

SMALL_DRIVE = REPO / "tests" / "emulate" / "small-drive.toml"


@pytest.mark.parametrize("existing", ["data.img", "status.json", "mnt/notes.txt"])
def test_a_dir_holding_what_emulate_writes_is_refused_untouched(existing, tmp_path):
    work = tmp_path / "work"
    path = work / existing
    path.parent.mkdir(parents=True)
    path.write_bytes(os.urandom(MIB))
    before = Digests.of(path)
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    argv = [sys.executable, "-m", "overprov", "emulate", str(SMALL_DRIVE), "--size", "16MiB",
            "--dir", str(work), "--quiet"]  # fmt: skip
    proc = subprocess.Popen(argv, env=env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # it started serving: stop it as a service manager would
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        pytest.fail(f"emulate was not refused and served a drive from {work}")
    if "cannot serve a block device here" in err:
        pytest.skip(err.strip())
    assert proc.returncode == 2, out + err
    name = Path(existing).parts[0]
    assert f"--dir: {work} already holds {name}" in err
    assert "give a new or empty folder" in err
    assert Digests.of(path) == before
    assert sorted(p.name for p in work.iterdir()) == [name]  # nothing else was made
