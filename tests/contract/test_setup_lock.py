"""scripts/setup.sh waits, bounded and saying so, while another apt or dpkg holds the package
manager's lock, instead of failing at once (scripts/wait-dpkg-lock.sh, with the lock files
pointed at a temporary one)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "wait-dpkg-lock.sh"

HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_EX)  # an fcntl write lock, as apt and dpkg take theirs
print("held", flush=True)
sys.stdin.read()  # held until the test closes our stdin (or kills us)
"""


def _hold(lock: Path) -> subprocess.Popen[str]:
    """Another process holding the lock until the test lets go (closes its stdin): how long
    it holds is the test's to say, not a sleep's, so a loaded machine that starts the script
    late cannot find the lock already free."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(lock)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def _env(lock: Path, wait_s: int) -> dict[str, str]:
    return dict(os.environ, DPKG_LOCKS=f"{lock.parent / 'absent'}:{lock}",
                SETUP_LOCK_WAIT_S=str(wait_s))  # fmt: skip


def _wait(lock: Path, wait_s: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True,
                          env=_env(lock, wait_s), timeout=120, check=False)  # fmt: skip


def test_a_free_lock_passes_at_once_without_a_word(tmp_path):
    lock = tmp_path / "lock-frontend"
    lock.write_text("")
    proc = _wait(lock, 30)
    assert proc.returncode == 0 and proc.stderr == ""


def test_a_held_lock_is_waited_for_and_said(tmp_path):
    lock = tmp_path / "lock-frontend"
    holder = _hold(lock)
    waiting = subprocess.Popen(["bash", str(SCRIPT)], stderr=subprocess.PIPE, text=True,
                               env=_env(lock, 60))  # fmt: skip
    assert waiting.stderr is not None and holder.stdin is not None
    try:
        said = waiting.stderr.readline()  # said while the lock is still held
        still_waiting = waiting.poll() is None
    finally:
        holder.stdin.close()  # let go: the script finds the lock free at its next look
        holder.wait(timeout=30)
    rest = waiting.stderr.read()
    assert waiting.wait(timeout=120) == 0, said + rest
    assert still_waiting, said + rest
    assert f"another apt or dpkg holds {lock} (pid {holder.pid}); waiting up to 60 s" in said
    assert "the package manager lock is free after" in rest


def test_a_lock_held_too_long_fails_naming_the_holder(tmp_path):
    lock = tmp_path / "lock-frontend"
    holder = _hold(lock)
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
