"""The refusal matrix for regular files as targets of `profile`, `qualify` and `calibrate`
(docs/safety.md, "Files"): each case is refused, and the SHA-256 of the file's bytes (whole,
first and last MiB) is the same before and after.

* a file on a FUSE file system that reports ``st_blocks = 0`` while it holds random data
  (``zero_blocks_fuse.py``), with no confirmation: data is found by reading it;
* the backing file of a loop device carrying a mounted (frozen) ext4, confirmed;
* a file another process holds a lock on (POSIX ``lockf``, ``flock``, an OFD lock), confirmed;
* a file another process has open for writing, confirmed.

The in-use refusals name what holds the file: the loop device, the process id.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from safety_helpers import (
    MIB,
    QUICK_PROFILE,
    Digests,
    cli,
    held,
    mkfs_ext4,
    mount_frozen,
    record,
    running_profile,
    tool,
    wait_for_round,
)

pytestmark = [pytest.mark.root]

CONFIRM = "--i-understand-this-destroys-data"
COMMANDS = ("profile", "qualify", "calibrate")
HERE = Path(__file__).resolve().parent


def command(which: str, path: str, out: Path) -> list[str]:
    """A short run of ``which`` on ``path``: refused at once, or a few seconds of writing."""
    extra = {"profile": ["--size", "8MiB", *QUICK_PROFILE], "qualify": ["--size", "8MiB"]}
    return [which, path, *extra.get(which, []), "--out", str(out)]  # calibrate: the whole file


def run_refused(which: str, case: str, path: Path, out: Path, *confirm: str) -> str:
    """Run ``which`` on ``path``; assert it is refused (exit 1) with the file's bytes
    unchanged; return its stderr."""
    before = Digests.of(path)
    proc = cli(*command(which, str(path), out), *confirm)
    after = Digests.of(path)
    outcome = record(case, which, proc, before, after)
    assert proc.returncode == 1, f"{case}: {which} was not refused: {proc.stderr[-500:]}"
    assert f"refusing to write to {path}" in proc.stderr, proc.stderr
    assert outcome.unchanged, f"{case}: {which} refused, yet the file changed"
    return proc.stderr


def random_file(path: Path, size_bytes: int = 16 * MIB) -> Path:
    with open(path, "wb") as f:
        for _ in range(size_bytes // MIB):
            f.write(os.urandom(MIB))
    return path


# ------------------------------------------------------------------- a FUSE file, st_blocks 0


@pytest.fixture
def zero_blocks_mount(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """(source folder, mount point) of ``zero_blocks_fuse.py`` mounted for the test."""
    if not Path("/dev/fuse").exists():
        pytest.skip("no /dev/fuse: this kernel or container has no FUSE")
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as exc:  # OSError: libfuse itself is missing
        pytest.skip(f"mfusepy or libfuse 3 missing (requirements-dev.txt, fuse3): {exc}")
    source, mount_point = tmp_path / "fuse-source", tmp_path / "fuse-mount"
    source.mkdir()
    mount_point.mkdir()
    log = open(tmp_path / "fuse.log", "w")  # noqa: SIM115 - closed below
    daemon = subprocess.Popen(
        [sys.executable, str(HERE / "zero_blocks_fuse.py"), str(source), str(mount_point)],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 15
        while not os.path.ismount(mount_point):
            if daemon.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.skip(f"could not mount FUSE: {(tmp_path / 'fuse.log').read_text()[-300:]}")
            time.sleep(0.05)
        yield source, mount_point
    finally:
        if os.path.ismount(mount_point):
            umount = tool("fusermount3")
            argv = [umount, "-u", str(mount_point)] if umount else ["umount", str(mount_point)]
            subprocess.run(argv, capture_output=True, check=False)
        with contextlib.suppress(subprocess.TimeoutExpired):
            daemon.wait(timeout=10)
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        log.close()


@pytest.mark.parametrize("which", COMMANDS)
def test_fuse_file_reporting_no_blocks_needs_the_confirmation(which, zero_blocks_mount,
                                                              tmp_path):  # fmt: skip
    source, mount_point = zero_blocks_mount
    random_file(source / "data.img")
    target = mount_point / "data.img"
    assert os.stat(target).st_blocks == 0  # what the file system reports: "nothing allocated"
    stderr = run_refused(which, "FUSE file, st_blocks 0, random data", target, tmp_path / "out")
    assert "holds data" in stderr
    assert f"{CONFIRM} {target}" in stderr
    assert Digests.of(source / "data.img") == Digests.of(target)


def test_fuse_file_of_zeros_needs_no_confirmation_and_is_written(zero_blocks_mount, tmp_path):
    """The other side: a FUSE file that reads as zeros is shown empty, so profile goes ahead
    without the confirmation — and the digests see what it writes."""
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    source, mount_point = zero_blocks_mount
    (source / "zeros.img").write_bytes(bytes(16 * MIB))
    target = mount_point / "zeros.img"
    before = Digests.of(target)
    proc = cli(*command("profile", str(target), tmp_path / "out"))
    # the quick profile's one phase is skipped by design: it ran, without the answer (3)
    assert proc.returncode == 3, proc.stderr[-800:]
    assert Digests.of(target).first_mib != before.first_mib


# ------------------------------------------------------------ the backing file of a loop device


@pytest.mark.parametrize("which", COMMANDS)
def test_backing_file_of_a_mounted_loop_device_is_refused_when_confirmed(which, loop_device,
                                                                         tmp_path):  # fmt: skip
    dev = loop_device(size_bytes=64 * MIB)
    backing = Path(loop_device.backing_file(dev))
    mkfs_ext4(dev)
    with contextlib.ExitStack() as stack:
        mount_frozen(stack, dev, tmp_path / "mnt")
        stderr = run_refused(which, "backing file of a mounted loop device (confirmed)",
                             backing, tmp_path / "out", CONFIRM, str(backing))  # fmt: skip
    assert "refused even with confirmation" in stderr
    assert f"it backs loop device {dev}" in stderr


def test_backing_file_is_found_by_inode_after_a_rename(loop_device, tmp_path):
    """The loop device's record of its file's path goes stale when the file is renamed; the
    device and inode numbers the kernel keeps still name it."""
    dev = loop_device(size_bytes=32 * MIB, fill="random")
    backing = Path(loop_device.backing_file(dev))
    moved = backing.with_name("renamed.img")
    os.rename(backing, moved)
    try:
        stderr = run_refused("profile", "renamed backing file of a loop device (confirmed)",
                             moved, tmp_path / "out", CONFIRM, str(moved))  # fmt: skip
    finally:
        os.rename(moved, backing)  # so the fixture recognises and detaches its device
    assert f"it backs loop device {dev}" in stderr


# ----------------------------------------------------------- locked or written by another process

LOCK_KIND = {"lockf": "POSIX", "flock": "FLOCK", "ofd": "OFDLCK"}


@pytest.mark.parametrize("which", COMMANDS)
@pytest.mark.parametrize("how", ["lockf", "flock", "ofd", "writer"])
def test_file_used_by_another_process_is_refused_when_confirmed(which, how, tmp_path):
    target = random_file(tmp_path / "image.img")
    with held(target, how) as pid:
        case = "open for writing by another process" if how == "writer" else f"{how} lock"
        stderr = run_refused(which, f"{case} (confirmed)", target, tmp_path / "out",
                             CONFIRM, str(target))  # fmt: skip
    assert "refused even with confirmation" in stderr
    assert f"pid {pid} (" in stderr
    if how == "writer":
        assert "has it open for writing" in stderr
    else:
        assert f"holds a read lock on it ({LOCK_KIND[how]})" in stderr


def test_a_writer_appearing_mid_run_stops_the_profile_before_its_next_round(tmp_path):
    """The in-use checks run again before every round: a process that opens the file for
    writing while the profile runs stops it, naming the process, before fio writes again."""
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    target = tmp_path / "image.img"
    out = tmp_path / "out"
    args = [str(target), "--size", "16MiB", "--extra-op", "0", "--round-seconds", "1",
            "--max-rounds", "30", "--fob-seconds", "0", "--qd", "4"]  # fmt: skip
    with running_profile(*args, out=out) as proc:
        wait_for_round(proc, out, "op00-r002")
        with held(target, "writer") as pid:
            _, stderr = proc.communicate(timeout=90)
    assert proc.returncode == 1, stderr
    assert f"pid {pid} (" in stderr and "has it open for writing" in stderr, stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["status"] == "failed" and f"pid {pid}" in doc["error"]
    rounds = len(doc["phases"][0]["rounds"])
    assert not (out / "fio" / f"op00-r{rounds + 2:03d}.fio").exists()  # no round after it


def _evidence(path: Path) -> str | None:
    from overprov import file_guard

    fd = os.open(path, os.O_RDONLY)
    try:
        return file_guard.data_evidence(fd, os.fstat(fd))
    finally:
        os.close(fd)


def test_what_shows_a_file_empty(zero_blocks_mount, tmp_path):
    """A sparse file where the file system reports holes is shown empty by a sample; allocated
    zeros count as data; a FUSE file that reports neither blocks nor holes is read whole when
    small, and one too large to read cannot be shown empty."""
    from overprov import file_guard

    sparse = tmp_path / "sparse.img"
    with open(sparse, "wb") as f:
        f.truncate(2 * file_guard.FULL_READ_BYTES)
    assert _evidence(sparse) is None
    zeros = tmp_path / "zeros.img"
    zeros.write_bytes(bytes(MIB))
    assert "bytes of data (allocated blocks)" in (_evidence(zeros) or "")
    source, mount_point = zero_blocks_mount
    (source / "small.img").write_bytes(bytes(4 * MIB - 1) + b"\x01")  # one byte at the end
    assert "a non-zero byte at 4194303" in (_evidence(mount_point / "small.img") or "")
    with open(source / "large.img", "wb") as f:  # sparse below, 0 blocks reported above
        f.truncate(2 * file_guard.FULL_READ_BYTES)
    assert "which does not show it empty" in (_evidence(mount_point / "large.img") or "")
