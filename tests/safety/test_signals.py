"""Ctrl-C (SIGINT), SIGTERM and SIGHUP while a command writes (overprov.interrupts,
docs/safety.md "Signals"), on loop devices:

* `apply --execute`: a signal (SIGHUP: a dropped ssh connection) arriving while a step's tool
  runs lets that tool finish (it is not killed half-way through a partition table, nor left
  running after overprov has gone), then the plan stops before its next step, exits 130 and
  says which steps ran and which did not. The step is made slow by an `sgdisk` on PATH that
  sleeps before running the real one.
* `profile`: SIGTERM or SIGHUP stops the run as Ctrl-C does: fio is stopped, the results say
  "interrupted" (not "running"), exit 130.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest
from overprov import gpt
from overprov.blockdev import CONFIRM_FLAG
from safety_helpers import (
    MIB,
    long_profile,
    running_profile,
    slow_tool,
    started_cli,
    tool,
    wait_for_file,
    wait_for_round,
)

pytestmark = [pytest.mark.root]


@pytest.mark.parametrize(
    "sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["SIGINT", "SIGTERM", "SIGHUP"]
)
def test_apply_finishes_the_running_step_then_stops_and_says_where(sig, loop_device, tmp_path):
    dev = loop_device(size_bytes=64 * MIB)
    started = tmp_path / "sgdisk-started"
    bin_dir = slow_tool("sgdisk", tmp_path / "bin", started)
    argv = ["apply", dev, "--extra-op", "20", "--method", "partition", "--allow-hdd",
            "--execute", CONFIRM_FLAG, dev]  # fmt: skip
    proc = started_cli(*argv, path_first=bin_dir)
    try:
        wait_for_file(proc, started)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, out + err
    name = signal.Signals(sig).name
    assert f"overprov apply: interrupted by {name}; steps 1-3 of 4 ran and were verified" in err
    assert "not run: 4/4 Tell the kernel about the new partition" in err
    assert "run the same apply again to finish" in err
    assert "\nstep 3/4: " in out and "\nstep 4/4: " not in out  # as run, not as planned
    table = gpt.read_gpt(dev, 512)  # sgdisk was not killed half-way: a whole, valid GPT
    assert table is not None and table.backup_valid and len(table.partitions) == 1


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_or_sighup_stops_a_profile_as_ctrl_c_does(sig, loop_device, tmp_path):
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    dev = loop_device(size_bytes=64 * MIB)
    out = tmp_path / "out"
    args = long_profile(dev, "--no-report", round_seconds=2)
    with running_profile(*args, out=out) as proc:
        wait_for_round(proc, out, "op00-r002")
        time.sleep(0.5)
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "overprov profile: interrupted; what was finished is kept" in stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["status"] == "interrupted"
    assert f"--resume {out}" in stderr
    assert processes_in(out / "fio") == []  # no fio left writing


def processes_in(folder: Path) -> list[int]:
    """The processes whose working directory is ``folder`` (fio runs in the job folder)."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if os.readlink(f"/proc/{entry.name}/cwd") == str(folder):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found
