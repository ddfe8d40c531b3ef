"""Users of a block device the kernel does not call holders and O_EXCL does not see
(overprov.device_users): a loop device attached on the device or on one of its partitions (a
file system mounted on that loop device lives on the device), and another process writing to
it (a virtual machine's disk, a running dd). `profile` and `apply --execute` refuse them even
when the device is confirmed, before anything is written; one appearing while a profile runs
stops it before its next round. Loop devices on sparse files; digests of the backing files."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from loop_lock import attach_lock
from overprov.blockdev import CONFIRM_FLAG
from safety_helpers import (
    MIB,
    QUICK_PROFILE,
    REPO,
    Digests,
    backing_of,
    cli,
    flush,
    held,
    long_profile,
    mkfs_ext4,
    mount_frozen,
    running_profile,
    sh,
    tool,
    wait_for_round,
)

pytestmark = [pytest.mark.root]

#: Every check here is made before anything is written, and the backing file is hashed whole
#: before and after: the devices are as small as what runs on them allows (``profile --size
#: 8MiB``; mkfs.ext4), a quarter of the 64 MiB they were, so each hash reads a quarter.
DEVICE_BYTES = 16 * MIB
#: A disk with a 16 MiB partition (``sgdisk --new=1:2048:+16M``), or profiled for 16 MiB while
#: a loop device is attached to it (``long_profile``).
DISK_BYTES = 32 * MIB


@contextlib.contextmanager
def loop_on(dev: str) -> Iterator[str]:
    """A loop device whose backing "file" is the block device ``dev``; detached afterwards
    (only while ``dev`` still backs it)."""
    losetup = tool("losetup") or "losetup"
    with attach_lock():
        upper = sh("losetup", "--find", "--show", dev).stdout.strip()
    try:
        yield upper
    finally:
        if str(backing_of(upper)) == dev:
            subprocess.run([losetup, "--detach", upper], capture_output=True, check=False)


def command(which: str, dev: str, out: Path) -> list[str]:
    if which == "profile":
        return ["profile", dev, "--allow-hdd", "--size", "8MiB", *QUICK_PROFILE, "--out", str(out)]
    return ["apply", dev, "--extra-op", "20", "--method", "partition", "--execute", "--allow-hdd"]


def refused_unchanged(which: str, dev: str, out: Path) -> str:
    """Run ``which`` on ``dev``, confirmed; assert it was refused and wrote nothing; stderr."""
    flush(dev)
    before = Digests.of(backing_of(dev))
    proc = cli(*command(which, dev, out), CONFIRM_FLAG, dev)
    flush(dev)
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr
    assert Digests.of(backing_of(dev)) == before, "refused, yet the backing file changed"
    return proc.stderr


@pytest.mark.parametrize("which", ["profile", "apply"])
def test_a_device_under_a_mounted_loop_device_is_refused_even_confirmed(
    which, loop_device, tmp_path
):
    dev = loop_device(size_bytes=DEVICE_BYTES)
    with contextlib.ExitStack() as stack:
        upper = stack.enter_context(loop_on(dev))
        mkfs_ext4(upper)
        mount_frozen(stack, upper, tmp_path / "mnt")
        stderr = refused_unchanged(which, dev, tmp_path / "out")
    assert f"refusing to write to {dev}: in use now" in stderr
    assert f"backs loop device {upper}" in stderr


@pytest.mark.parametrize("which", ["profile", "apply"])
def test_a_disk_whose_partition_backs_a_loop_device_is_refused(which, loop_device, tmp_path):
    dev = loop_device(size_bytes=DISK_BYTES)
    sh("sgdisk", "--new=1:2048:+16M", dev)
    sh("partx", "--update", dev)  # this kernel may not parse GPT itself
    with loop_on(dev + "p1") as upper:
        stderr = refused_unchanged(which, dev, tmp_path / "out")
    assert f"partition {dev}p1: backs loop device {upper}" in stderr


def test_a_partition_whose_disk_backs_a_loop_device_is_refused(loop_device, tmp_path):
    """A profile of a partition (apply takes whole disks only): the loop device on its disk
    sees every byte written to the partition."""
    dev = loop_device(size_bytes=DISK_BYTES)
    sh("sgdisk", "--new=1:2048:+16M", dev)
    sh("partx", "--update", dev)
    part = dev + "p1"
    with loop_on(dev) as upper:
        flush(dev)
        before = Digests.of(backing_of(dev))
        proc = cli(*command("profile", part, tmp_path / "out"), CONFIRM_FLAG, part)
        flush(dev)
        assert Digests.of(backing_of(dev)) == before
    assert proc.returncode == 1, proc.stderr
    assert f"refusing to write to {part}: in use now" in proc.stderr
    assert f"its disk {dev}: backs loop device {upper}" in proc.stderr


@pytest.mark.parametrize("which", ["profile", "apply"])
def test_a_device_another_process_writes_to_is_refused_even_confirmed(which, loop_device, tmp_path):
    dev = loop_device(size_bytes=DEVICE_BYTES)
    with held(dev, "writer") as pid:
        stderr = refused_unchanged(which, dev, tmp_path / "out")
    assert f"pid {pid} (" in stderr and "has it open for writing" in stderr


def test_the_dry_run_of_apply_says_a_device_under_a_loop_device_is_refused(loop_device):
    dev = loop_device(size_bytes=DEVICE_BYTES)
    with loop_on(dev) as upper:
        proc = cli("apply", dev, "--extra-op", "20", "--method", "partition", "--allow-hdd")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"safety {dev}: REFUSED, in use now: backs loop device {upper}" in proc.stdout


def test_a_loop_device_attached_on_the_device_mid_profile_stops_it(loop_device, tmp_path):
    """The profile holds the device O_EXCL, which does not keep `losetup` out: the check
    before the next round does."""
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    dev = loop_device(size_bytes=DISK_BYTES)
    out = tmp_path / "out"
    args = long_profile(dev)
    with running_profile(*args, out=out) as proc, contextlib.ExitStack() as stack:
        wait_for_round(proc, out, "op00-r002")
        upper = stack.enter_context(loop_on(dev))
        _, stderr = proc.communicate(timeout=90)
    assert proc.returncode == 1, stderr
    assert f"in use now: backs loop device {upper}" in stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["status"] == "failed"
    assert not (out / "fio" / f"op00-r{len(doc['phases'][0]['rounds']) + 2:03d}.fio").exists()


@pytest.mark.parametrize("which", ["profile", "apply"])
def test_a_device_node_named_like_a_file_is_a_device_and_says_so(which, loop_device, tmp_path):
    """`disk.img` made with mknod is the loop device: refused unconfirmed like the device
    (not shown empty like a sparse file), the message naming the device it is."""
    dev = loop_device(size_bytes=DEVICE_BYTES)
    node = tmp_path / "disk.img"
    os.mknod(node, stat.S_IFBLK | 0o600, os.stat(dev).st_rdev)
    flush(dev)
    before = Digests.of(backing_of(dev))
    proc = cli(*command(which, str(node), tmp_path / "out"))
    flush(dev)
    assert Digests.of(backing_of(dev)) == before
    assert proc.returncode == 1, proc.stderr
    assert f"refusing to write to {node} (the block device {dev}):" in proc.stderr
    assert "was not confirmed" in proc.stderr


def test_one_device_under_two_names_is_refused(loop_device, tmp_path):
    """Two RAID members, or two plans, that are one device (another node of it): refused
    before anything is written, by the device's number, not its path."""
    dev = loop_device(size_bytes=DEVICE_BYTES)
    node = tmp_path / "alias-node"
    os.mknod(node, stat.S_IFBLK | 0o600, os.stat(dev).st_rdev)
    flush(dev)
    before = Digests.of(backing_of(dev))
    apply = cli("apply", dev, str(node), "--extra-op", "20", "--method", "partition",
                "--execute", "--allow-hdd", CONFIRM_FLAG, dev, CONFIRM_FLAG, str(node))  # fmt: skip
    profile = cli(*command("profile", f"{dev},{node}", tmp_path / "out"), CONFIRM_FLAG, dev)
    flush(dev)
    assert Digests.of(backing_of(dev)) == before
    assert apply.returncode == 2 and f"{node} is listed twice (as {dev})" in apply.stderr
    assert profile.returncode == 2 and "names the same member twice" in profile.stderr


@pytest.mark.parametrize("which", ["profile", "apply"])
@pytest.mark.parametrize("form", ["symlink", "relative", "trailing slash"])
def test_other_spellings_of_a_device_are_that_device(form, which, loop_device, tmp_path):
    """A /dev/disk/by-id-like symlink, a relative path, a trailing slash: each is resolved to
    the device and checked as it (here: refused, unconfirmed, naming /dev/loopN)."""
    dev = loop_device(size_bytes=DEVICE_BYTES)
    link = tmp_path / "by-id-link"
    link.symlink_to(dev)
    spelled = {"symlink": str(link), "relative": os.path.relpath(dev, REPO),
               "trailing slash": dev + "/"}[form]  # fmt: skip
    flush(dev)
    before = Digests.of(backing_of(dev))
    proc = cli(*command(which, spelled, tmp_path / "out"))  # run in REPO
    flush(dev)
    assert Digests.of(backing_of(dev)) == before
    assert proc.returncode == 1, proc.stderr
    assert f"refusing to write to {dev}: " in proc.stderr and "was not confirmed" in proc.stderr


@pytest.mark.parametrize("which", ["profile", "calibrate"])
def test_the_dry_run_reads_a_device_with_a_trailing_slash_as_that_device(which, loop_device):
    """``/dev/loopN/`` is /dev/loopN to the dry run as to the run: its plan, not an OS error
    ("Not a directory") or a refusal as a target that does not exist; nothing written."""
    dev = loop_device(size_bytes=DEVICE_BYTES)
    flush(dev)
    before = Digests.of(backing_of(dev))
    proc = cli(which, dev + "/", "--dry-run")
    flush(dev)
    assert Digests.of(backing_of(dev)) == before
    assert proc.returncode == 0, proc.stderr
    assert "Not a directory" not in proc.stdout + proc.stderr
    assert "does not exist" not in proc.stdout + proc.stderr
