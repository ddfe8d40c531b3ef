"""A profile whose output folder fills up (a 48 KiB tmpfs) fails saying so: exit 1, the error
names the file it was writing, and results.json says ``failed`` with that reason — not
``running``, which is what a run still going (or killed) leaves."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.root]


def test_profile_on_a_full_disk_says_failed_and_names_the_file(tmpfs_mount):
    out = tmpfs_mount("48k") / "prof"
    proc = subprocess.run(
        [sys.executable, "-m", "overprov", "profile", "sim:consumer-tlc-sata@1GiB",
         "--extra-op", "0,10,20", "--out", str(out)],
        capture_output=True, text=True, timeout=300, cwd=REPO, check=False,
        env=dict(os.environ, PYTHONPATH=str(REPO / "python")),
    )  # fmt: skip
    last = proc.stderr.strip().splitlines()[-1]
    assert proc.returncode == 1, proc.stderr[-600:]
    # the file named: "cannot write FILE: No space left on device" (a document written
    # atomically) or "No space left on device (FILE)" (a log or CSV line)
    names = rf"cannot write {re.escape(str(out))}/\S+: No space left on device"
    names += rf"|No space left on device \({re.escape(str(out))}/[^)]+\)"
    assert re.search(names, last), last
    doc = json.loads((out / "results.json").read_text())
    assert doc["status"] == "failed"
    assert re.search(names, doc["error"]), doc["error"]
