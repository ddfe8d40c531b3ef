"""Three holes in the safety checks, each closed, each with a test that fails on a version of
overprov that has the hole. They use the command line and the backing files only, so they
run against any version of overprov.

1. `profile` on a device holding data without a signature started writing unconfirmed.
2. `profile --resume` on a different device of the same size at the same path overwrote it.
3. `profile /dev/<typo> --size N` created a regular file in /dev (RAM) and profiled it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

import pytest
from overprov import file_location, mount_table
from overprov.errors import ConfigError
from safety_helpers import (
    MIB,
    QUICK_PROFILE,
    Digests,
    backing_of,
    cli,
    flush,
    interrupted_profile,
    swapped_backing,
    tool,
)

pytestmark = [pytest.mark.root]

CONFIRM = "--i-understand-this-destroys-data"


@pytest.fixture
def need_fio() -> None:
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")


def test_hole_1_data_without_a_signature_needs_the_confirmation(loop_device, tmp_path, need_fio):
    dev = loop_device(size_bytes=64 * MIB, fill="random")  # looks like plain dm-crypt
    backing = backing_of(dev)
    before = Digests.of(backing)
    proc = cli("profile", dev, "--allow-hdd", "--size", "8MiB", *QUICK_PROFILE,
               "--out", str(tmp_path / "out"))  # fmt: skip
    flush(dev)
    assert proc.returncode == 1, "profile wrote to an unconfirmed device"
    assert f"{CONFIRM} {dev}" in proc.stderr
    assert Digests.of(backing) == before


@pytest.mark.parametrize("swapped_for", ["other data", "a byte-exact copy"])
def test_hole_2_resume_refuses_a_swapped_backing_image(loop_device, tmp_path, need_fio,
                                                        swapped_for):  # fmt: skip
    dev = loop_device(size_bytes=64 * MIB)
    out = tmp_path / "out"
    interrupted_profile(dev, "--allow-hdd", "--size", "16MiB", "--extra-op", "0,50",
                        "--round-seconds", "1", "--max-rounds", "10", "--fob-seconds", "0",
                        "--qd", "4", CONFIRM, dev, out=out)  # fmt: skip
    first = backing_of(dev)
    other = tmp_path / "other.img"
    if swapped_for == "other data":
        with open(other, "wb") as f:
            f.write(os.urandom(64 * MIB))
    else:  # the run marker too: only the backing file's identity tells them apart
        subprocess.run(["cp", "--sparse=always", str(first), str(other)], check=True)
    with swapped_backing(dev, other):
        before = Digests.of(other)
        proc = cli("profile", "--resume", str(out), "--allow-hdd", CONFIRM, dev)
        flush(dev)
        after = Digests.of(other)
    assert proc.returncode == 2, "the resumed profile wrote to a swapped image"
    assert "not the target of" in proc.stderr
    assert "backing_inode" in proc.stderr
    if swapped_for == "other data":
        assert "run identifier" in proc.stderr
    assert after == before


def test_hole_3_no_file_is_created_in_dev(tmp_path, need_fio):
    typo = Path(f"/dev/overprov-safety-typo-{os.getpid()}")
    assert not typo.exists()
    try:
        proc = cli("profile", str(typo), "--size", "8MiB", *QUICK_PROFILE,
                   "--out", str(tmp_path / "out"))  # fmt: skip
        assert proc.returncode == 2, "a file was profiled in /dev"
        assert "does not create files in /dev" in proc.stderr
        assert not typo.exists()
    finally:
        with contextlib.suppress(FileNotFoundError):
            typo.unlink()


def test_hole_3_no_file_is_created_on_tmpfs(tmp_path, need_fio, tmpfs_mount):
    ram = tmpfs_mount("32m")
    proc = cli("profile", str(ram / "x.img"), "--size", "8MiB", *QUICK_PROFILE,
               "--out", str(tmp_path / "out"))  # fmt: skip
    assert proc.returncode == 2, "a file on tmpfs was profiled"
    assert "is tmpfs, a RAM file system" in proc.stderr
    assert not (ram / "x.img").exists()


@pytest.mark.parametrize("folder", ["/dev", "/dev/shm"])
def test_hole_3_the_refusal_in_dev_names_the_file_system_it_is_on(folder):
    """A file in /dev/shm was refused as on "devtmpfs, in RAM": /dev/shm is a tmpfs mount of its
    own. The refusal names the mount and type the file would be on, as the mount table has them."""
    if not os.path.isdir(folder):
        pytest.skip(f"no {folder} here")
    name = f"{folder}/overprov-safety-typo-{os.getpid()}"
    entry = mount_table.mount_holding(folder)
    assert entry is not None, "the mount table could not be read"
    with pytest.raises(ConfigError) as got:
        file_location.check_missing_target(name, size_given=True)
    msg = str(got.value)
    assert "does not create files in /dev" in msg
    assert f": {entry.mount_point} is {entry.fs_type}" in msg
    if entry.fs_type != "devtmpfs":
        assert "devtmpfs" not in msg
    assert not os.path.exists(name)


def test_hole_3_a_file_on_tmpfs_is_said_to_be_in_memory(tmpfs_mount, tmp_path):
    """A file on tmpfs that exists is profiled (only creating one there is refused), and the
    warning said the run writes "to the file system that holds it (and to the drive under it)":
    there is none. It names the RAM file system and what the figures will be."""
    from overprov.profile.estimate import wear_warning

    ram = tmpfs_mount("1m")
    said = wear_warning("file", str(ram / "x.img"))
    assert f"which is on {ram} (tmpfs, a RAM file system" in said
    assert "the figures will be those of memory, not of an SSD" in said
    assert "drive under it" not in said
    on_disk = wear_warning("file", f"{tmp_path}/x.img")
    if "tmpfs" not in on_disk:  # tmp_path on a disk (not a tmpfs /tmp)
        assert on_disk.endswith("(and to the drive under it).")
