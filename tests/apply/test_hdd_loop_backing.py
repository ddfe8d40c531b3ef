"""A loop device over a rotational device (a file on a hard disk, a hard disk's partition, or
the disk itself) needs --allow-hdd as the disk does (hard_disk.py, review7's item 7): it passed
with the confirmation alone. Read from a constructed sysfs tree."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from types import SimpleNamespace

import pytest
from apply_fakes import make_info
from overprov import blockdev, hard_disk

SDA1 = os.makedev(8, 1)  # a partition of a disk sda
MIB = 2**20


def sysfs(root: Path, rotational: str) -> Path:
    """dev/block/8:1 → devices/sda/sda1 (a partition: no queue of its own), sda's queue."""
    disk = root / "devices" / "sda"
    (disk / "sda1").mkdir(parents=True)
    (disk / "queue").mkdir()
    (disk / "queue" / "rotational").write_text(rotational + "\n")
    (root / "dev" / "block").mkdir(parents=True)
    (root / "dev" / "block" / "8:1").symlink_to(disk / "sda1")
    (root / "dev" / "block" / "8:0").symlink_to(disk)
    return root


def loop(**over) -> blockdev.DeviceInfo:
    fields = dict(rotational=True, dev="7:3", backing_file="/srv/disk.img", backing_device=SDA1)
    return make_info("loop3", **{**fields, **over})


@pytest.mark.parametrize(("rotational", "needs_allow_hdd"), [("1", True), ("0", False)])
def test_a_loop_device_over_a_rotational_disk_needs_allow_hdd(
    tmp_path, monkeypatch, rotational, needs_allow_hdd
):
    monkeypatch.setattr(hard_disk, "SYS_ROOT", sysfs(tmp_path, rotational))
    assert hard_disk.backing_rotational(SDA1, tmp_path) is (rotational == "1")
    in_use, overridable = blockdev.refusal_reasons(loop())
    if needs_allow_hdd:
        assert overridable == []
        assert in_use == [
            "is a loop device over /srv/disk.img, which is rotational (a hard disk or a virtual "
            "disk reporting itself rotational: over-provisioning does not apply); give "
            "--allow-hdd to accept it"
        ]
    else:
        assert in_use == [] and overridable == [hard_disk.LOOP_REASON]
    assert blockdev.refusal_reasons(loop(), allow_hdd=True) == ([], [])


def test_a_loop_over_a_block_device_reads_that_device(tmp_path, monkeypatch):
    """Set up over a block device node: its number is the node's st_rdev, not st_dev."""
    monkeypatch.setattr(hard_disk, "SYS_ROOT", sysfs(tmp_path, "1"))
    real = os.stat

    def fake_stat(path, *a, **kw):
        if path == "/dev/sda":  # a block device node: sda, 8:0
            return SimpleNamespace(st_mode=stat.S_IFBLK | 0o660, st_rdev=os.makedev(8, 0))
        return real(path, *a, **kw)

    monkeypatch.setattr(hard_disk.os, "stat", fake_stat)
    info = loop(backing_file="/dev/sda", backing_device=5)
    assert hard_disk.backing(info)[0] == "/dev/sda"
    why, hard = hard_disk.reason(info)
    assert hard and "a loop device over /dev/sda" in why


def test_a_partition_of_a_loop_device_reads_its_disks_backing(tmp_path, monkeypatch):
    root = sysfs(tmp_path, "1")
    (root / "class" / "block" / "loop3" / "loop").mkdir(parents=True)
    image = tmp_path / "disk.img"
    image.write_bytes(b"")
    (root / "class" / "block" / "loop3" / "loop" / "backing_file").write_text(f"{image}\n")
    monkeypatch.setattr(hard_disk, "SYS_ROOT", root)
    part = make_info("loop3p1", rotational=True, dev="259:0", parent="loop3", is_partition=True)
    name, number = hard_disk.backing(part)
    assert name == str(image) and number == image.stat().st_dev
    # the image's own disk here is not the constructed sda: read as that disk's flag says
    assert hard_disk.reason(part)[1] is bool(hard_disk.backing_rotational(number, root))


def test_no_backing_known_is_the_loop_device_as_before(tmp_path, monkeypatch):
    monkeypatch.setattr(hard_disk, "SYS_ROOT", sysfs(tmp_path, "1"))
    bare = loop(backing_file=None, backing_device=None)
    assert hard_disk.reason(bare) == (hard_disk.LOOP_REASON, False)
    assert hard_disk.reason(make_info("sdx", rotational=True, dev="8:16")) == (
        hard_disk.HARD_DISK_REASON,
        True,
    )
    assert not hasattr(blockdev.DeviceInfo, "is_loop")  # one test of a loop device: hard_disk's


@pytest.mark.root
def test_a_real_loop_device_over_a_file_on_this_disk(loop_device):
    """Over a sparse file in tmp_path: refused without --allow-hdd exactly where the disk holding
    that file reports itself rotational (a virtual disk often does), confirmed otherwise."""
    dev = loop_device(size_bytes=16 * MIB, on_disk=True, rotational=True)
    info = blockdev.identify(dev)
    name, number = hard_disk.backing(info)
    assert name is not None and number == os.stat(name).st_dev
    disk = hard_disk.backing_rotational(number)
    if disk is None:
        pytest.skip(f"the device holding {name} is not a block device sysfs lists")
    in_use, overridable = blockdev.refusal_reasons(info)
    said = f"is a loop device over {name}, which is rotational"
    assert any(said in r for r in in_use) is disk
    assert (overridable == [hard_disk.LOOP_REASON]) is not disk
    assert blockdev.refusal_reasons(info, allow_hdd=True) == ([], [])
