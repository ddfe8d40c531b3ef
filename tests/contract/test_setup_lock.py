"""scripts/setup.sh waits, bounded and saying so, while another apt or dpkg holds the package
manager's lock, instead of failing at once (scripts/wait-dpkg-lock.sh, with the lock files
pointed at a temporary one)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "wait-dpkg-lock.sh"

HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_EX)  # an fcntl write lock, as apt and dpkg take theirs
print("held", flush=True)
time.sleep(float(sys.argv[2]))
"""


def _hold(lock: Path, seconds: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(lock), str(seconds)],
                            stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def _wait(lock: Path, wait_s: int) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DPKG_LOCKS=f"{lock.parent / 'absent'}:{lock}",
               SETUP_LOCK_WAIT_S=str(wait_s))  # fmt: skip
    return subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env,
                          timeout=120, check=False)  # fmt: skip


def test_a_free_lock_passes_at_once_without_a_word(tmp_path):
    lock = tmp_path / "lock-frontend"
    lock.write_text("")
    proc = _wait(lock, 30)
    assert proc.returncode == 0 and proc.stderr == ""


def test_a_held_lock_is_waited_for_and_said(tmp_path):
    lock = tmp_path / "lock-frontend"
    holder = _hold(lock, 3)
    started = time.monotonic()
    proc = _wait(lock, 60)
    holder.wait(timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert f"another apt or dpkg holds {lock} (pid {holder.pid}); waiting up to 60 s" in proc.stderr
    assert "the package manager lock is free after" in proc.stderr
    assert 1 < time.monotonic() - started < 30


def test_a_lock_held_too_long_fails_naming_the_holder(tmp_path):
    lock = tmp_path / "lock-frontend"
    holder = _hold(lock, 60)
    try:
        proc = _wait(lock, 3)
    finally:
        holder.kill()
        holder.wait()
    assert proc.returncode == 1
    assert f"still held after 3 s (pid {holder.pid}, {lock})" in proc.stderr


def test_setup_uses_the_wait_before_apt():
    text = (REPO / "scripts" / "setup.sh").read_text()
    assert text.index("wait-dpkg-lock.sh") < text.index('apt-get "${apt_wait[@]}" update')
    assert "DPkg::Lock::Timeout" in text
    assert "install them with: sudo apt-get install" in text
