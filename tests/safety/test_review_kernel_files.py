"""A file target that is not storage (docs/safety.md, "Files"): a file on /proc, /sys or another
of the kernel's interfaces (file_location.KERNEL_INTERFACES) is a control, and a write to it
changes the running system. `/proc/sys/kernel/hostname` is a regular file of size 0, so the
old checks found it "empty" and `profile` and `qualify` wrote to it without a confirmation:
the run marker became the host name (and `/proc/sysrq-trigger` would have read the marker's
first byte, "o", as "power off"). A sysfs attribute, confirmed, was opened and written too.
Both are refused now, whatever is confirmed, before anything is written or created.

The host-name case runs in its own UTS namespace (`unshare --uts`): the host name it could
change is the namespace's, never the machine's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from safety_helpers import CLI_CODE, REPO, cli, tool

pytestmark = [pytest.mark.root]

CONFIRM = "--i-understand-this-destroys-data"
NAMESPACE_HOST = "overprov-review-ns"

RUN_IN_UTS_NAMESPACE = """
hostname "$1" || exit 97
shift
"$@" 2>&1
echo "rc=$?"
echo "hostname=$(cat /proc/sys/kernel/hostname)"
"""


def _in_own_uts_namespace(*argv: str) -> tuple[str, str]:
    """Run ``argv`` in a new UTS namespace whose host name is NAMESPACE_HOST; returns (its
    output, the namespace's host name afterwards). Skips when no namespace can be made."""
    unshare = tool("unshare")
    if os.geteuid() != 0 or unshare is None:
        pytest.skip("needs root and unshare (util-linux) for a UTS namespace")
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    proc = subprocess.run(
        [unshare, "--uts", "sh", "-c", RUN_IN_UTS_NAMESPACE, "sh", NAMESPACE_HOST, *argv],
        capture_output=True, text=True, timeout=180, cwd=REPO, env=env, check=False,
    )  # fmt: skip
    if proc.returncode != 0 or "hostname=" not in proc.stdout:
        pytest.skip(f"no UTS namespace here: {proc.stderr.strip()[-300:]}")
    host = proc.stdout.rsplit("hostname=", 1)[1].strip()
    return proc.stdout, host


@pytest.mark.parametrize("which", ["profile", "qualify"])
def test_a_proc_file_of_size_zero_is_not_an_empty_target(which, tmp_path):
    out = tmp_path / "out"
    output, host = _in_own_uts_namespace(
        sys.executable, "-c", CLI_CODE, which, "/proc/sys/kernel/hostname", "--size", "8MiB",
        "--out", str(out),
    )  # fmt: skip
    assert host == NAMESPACE_HOST, f"{which} wrote to /proc/sys/kernel/hostname: {host!r}"
    assert "rc=1" in output, output[-1500:]
    assert "it is on /proc (proc," in output and "not storage" in output, output[-1500:]
    assert not out.exists()


def test_a_sysfs_attribute_is_refused_even_when_confirmed(loop_device, tmp_path):
    dev = loop_device(size_bytes=8 * 2**20)
    attribute = Path("/sys/block") / Path(dev).name / "queue" / "read_ahead_kb"
    before = attribute.read_text()
    out = tmp_path / "out"
    proc = cli("profile", str(attribute), "--bs", "512", "--extra-op", "0", "--round-seconds",
               "1", "--max-rounds", "10", "--fob-seconds", "0", "--no-report", "--out",
               str(out), CONFIRM, str(attribute))  # fmt: skip
    assert proc.returncode == 1, proc.stderr[-1000:]
    assert "(sysfs, the kernel's device and driver controls), not storage" in proc.stderr
    assert not out.exists(), "the run went as far as making its folder"
    assert attribute.read_text() == before
    dry = cli("profile", str(attribute), "--size", "8KiB", "--dry-run", CONFIRM, str(attribute))
    assert dry.returncode == 1 and "not storage" in dry.stderr, dry.stderr[-1000:]


def test_a_name_swapped_for_a_fifo_after_the_check_is_refused_when_opened(tmp_path):
    """Hardening: the kind of a file target was judged by its name when the target was made,
    and the file opened later by that name was not looked at again; a FIFO put there in
    between got as far as ``ftruncate`` (an OSError). What is opened is now checked."""
    from overprov.errors import UnsafeDeviceError
    from overprov.profile.fio_target import FioTarget

    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    path = tmp_path / "t.img"
    with open(path, "wb") as f:
        f.truncate(2**20)
    target = FioTarget(str(path), tmp_path / "fio", size_bytes=2**20)
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(UnsafeDeviceError, match="not a regular file"):
        target.open()
    link = tmp_path / "elsewhere.img"
    link.write_bytes(b"")
    path.unlink()
    path.symlink_to(link)
    with pytest.raises(UnsafeDeviceError, match="became a symbolic link"):
        target.open()
