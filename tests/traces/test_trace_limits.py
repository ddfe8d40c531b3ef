"""A trace request the simulated drive cannot hold is an error naming the file and line, not
a replay that never ends."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

IOLOG = """fio version 3 iolog
16 /tmp/f add
20 /tmp/f open
30 /tmp/f write 0 4096
40 /tmp/f write 0 {length}
50 /tmp/f close
"""


@pytest.mark.parametrize("length", [2**64 - 1, 2**40])
def test_a_request_longer_than_the_drive_names_file_and_line(tmp_path, length):
    trace = tmp_path / "huge.iolog"
    trace.write_text(IOLOG.format(length=length))
    proc = subprocess.run(
        [sys.executable, "-m", "overprov.cli", "simulate", "--advertised", "64M",
         "--extra-op", "7", "--trace", str(trace), "--no-progress"],
        capture_output=True, text=True, timeout=120, check=False,
        env={"PYTHONPATH": str(REPO / "python"), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert f"{trace}:5: fio-iolog trace: a write of {length} bytes is longer than" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
