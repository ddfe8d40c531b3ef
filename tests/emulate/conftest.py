"""Fixtures for the emulated block device: ``overprov emulate`` started on a small drive,
stopped with SIGTERM after the test, and checked to leave no loop device nor mount behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from loop_lock import attach_lock

HERE = Path(__file__).parent
SMALL_DRIVE = HERE / "small-drive.toml"
START_WAIT_S = 60.0


def small_drive_with_buffer(folder: Path, buffer_bytes: int) -> Path:
    """SMALL_DRIVE with its 256 KiB write buffer replaced by ``buffer_bytes``, written in
    ``folder``."""
    drive = folder / f"small-drive-{buffer_bytes}-byte-buffer.toml"
    text = SMALL_DRIVE.read_text()
    assert "\nbytes = 262144\n" in text
    drive.write_text(text.replace("\nbytes = 262144\n", f"\nbytes = {buffer_bytes}\n"))
    return drive


def overprov_env() -> dict[str, str]:
    """The environment of an ``overprov`` child: this checkout's package first."""
    return dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2] / "python"))


@dataclass
class Emulated:
    dev: str
    work: Path
    proc: subprocess.Popen[str]
    first_line: str

    def status(self) -> dict[str, Any]:
        return json.loads((self.work / "status.json").read_text())

    def stop(self) -> str:
        """SIGTERM, as a service manager would; returns the command's stdout after the device."""
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=60)
        return out


def emulate_skip_reason() -> str | None:
    from overprov.emulate import loop

    reasons = loop.missing()
    return "; ".join(reasons) if reasons else None


def loop_devices_of(path: Path) -> list[str]:
    """Loop devices whose backing file is ``path`` or below it."""
    found = []
    for sys_loop in Path("/sys/block").glob("loop*/loop/backing_file"):
        backing = sys_loop.read_text().strip()
        if backing.startswith(str(path)):
            found.append("/dev/" + sys_loop.parent.parent.name)
    return found


@pytest.fixture(autouse=True)
def real_time_priority() -> Iterator[None]:
    """The emulated drive answers in real time, beside CPU-bound tests on the other workers of
    a parallel run: this test and what it starts (the emulator, fio) run 5 nice levels above
    them (root only, as the tests that start an emulator are), so that the host keeps up."""
    if os.geteuid() != 0:
        yield
        return
    before = os.getpriority(os.PRIO_PROCESS, 0)
    os.setpriority(os.PRIO_PROCESS, 0, before - 5)
    try:
        yield
    finally:
        os.setpriority(os.PRIO_PROCESS, 0, before)


@pytest.fixture
def emulated(tmp_path: Path) -> Iterator[Callable[..., Emulated]]:
    """``emulated(*args)`` runs ``overprov emulate SMALL_DRIVE --size 16MiB *args``; each is
    stopped after the test, and none may leave a loop device or a mount."""
    reason = emulate_skip_reason()
    if reason:
        pytest.skip(reason)
    started: list[Emulated] = []

    def start(*args: str, drive: Path = SMALL_DRIVE, size: str = "16MiB") -> Emulated:
        work = tmp_path / f"emulate-{len(started)}"
        env = overprov_env()
        with attach_lock():  # it attaches a loop device (losetup --find) before its first line
            proc = subprocess.Popen(
                [sys.executable, "-m", "overprov", "emulate", str(drive), "--size", size,
                 "--dir", str(work), "--quiet", *args],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            )  # fmt: skip
            deadline = time.monotonic() + START_WAIT_S
            assert proc.stdout is not None
            line = proc.stdout.readline()
        if not line.startswith("device "):
            proc.kill()
            _, err = proc.communicate()
            pytest.fail(f"emulate did not start (by {deadline - time.monotonic():.0f}): {err}")
        e = Emulated(dev=line.split()[1], work=work, proc=proc, first_line=line)
        started.append(e)
        return e

    try:
        yield start
    finally:
        for e in started:
            if e.proc.poll() is None:
                e.proc.send_signal(signal.SIGTERM)
                try:
                    e.proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    e.proc.kill()
        for e in started:
            assert loop_devices_of(e.work) == [], f"a loop device left on {e.work}"
            assert not os.path.ismount(e.work / "mnt"), f"{e.work / 'mnt'} left mounted"
