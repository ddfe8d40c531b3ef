"""A loop device over a rotational device (a file on a hard disk, a hard disk's partition, or
the disk itself) needs --allow-hdd as the disk does (hard_disk.py, review7's item 7): it passed
with the confirmation alone. Read from a constructed sysfs tree."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from apply_fakes import make_info
from overprov import blockdev, hard_disk, mount_table

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
    image_disk = root / "devices" / "imgdisk"
    (image_disk / "queue").mkdir(parents=True)
    (image_disk / "queue" / "rotational").write_text("1\n")
    (root / "dev" / "block" / f"{os.major(number)}:{os.minor(number)}").symlink_to(image_disk)
    assert hard_disk.backing_rotational(number, root) is True
    found = hard_disk.reason(part)
    assert found is not None and found[1] is True
    assert f"is a loop device over {image}, which is rotational" in found[0]


def test_no_backing_known_needs_allow_hdd(tmp_path, monkeypatch):
    """No backing file readable (or one deleted since): its disk is unknown, so it may be a hard
    disk; it passed with the confirmation alone (review8)."""
    monkeypatch.setattr(hard_disk, "SYS_ROOT", sysfs(tmp_path, "1"))
    for bare in (
        loop(backing_file=None, backing_device=None),
        loop(backing_file="/srv/gone.img (deleted)", backing_device=None, rotational=False),
    ):
        why, hard = hard_disk.reason(bare)
        assert hard and why.endswith(hard_disk.ALLOW_HDD_TAIL)
        assert "its backing file is deleted, or no mount holds it" in why
        assert blockdev.refusal_reasons(bare, allow_hdd=True) == ([], [])
    assert hard_disk.reason(make_info("sdx", rotational=True, dev="8:16")) == (
        hard_disk.HARD_DISK_REASON,
        True,
    )
    assert hard_disk.reason(make_info("sdx", rotational=False, dev="8:16")) is None
    assert not hasattr(blockdev.DeviceInfo, "is_loop")  # one test of a loop device: hard_disk's


def test_a_loop_device_saying_not_rotational_over_a_rotational_disk(tmp_path, monkeypatch):
    """A loop device copies its backing's flag on some kernels, not all: checked all the same."""
    monkeypatch.setattr(hard_disk, "SYS_ROOT", sysfs(tmp_path, "1"))
    in_use, overridable = blockdev.refusal_reasons(loop(rotational=False))
    assert overridable == [] and len(in_use) == 1
    assert "is a loop device over /srv/disk.img, which is rotational" in in_use[0]
    monkeypatch.setattr(hard_disk, "SYS_ROOT", sysfs(tmp_path / "ssd", "0"))
    assert blockdev.refusal_reasons(loop(rotational=False)) == ([], [])


ANON = os.makedev(0, 77)  # an anonymous device number: overlay, btrfs, NFS, fuse, tmpfs


@pytest.mark.parametrize(
    ("fs_type", "needs_allow_hdd"),
    [("overlay", True), ("btrfs", True), ("nfs4", True), ("fuse.sshfs", True),
     ("tmpfs", False), ("ramfs", False)],
)  # fmt: skip
def test_a_loop_over_a_file_system_with_no_disk_in_sysfs(
    tmp_path, monkeypatch, fs_type, needs_allow_hdd
):
    """Its backing's flag is unknown: only RAM (tmpfs, ramfs, by the mount table) is accepted
    without --allow-hdd; overlay over a hard disk reported 0 and passed (review8)."""
    monkeypatch.setattr(hard_disk, "SYS_ROOT", sysfs(tmp_path, "1"))
    entry = mount_table.MountEntry("0:77", "/srv", fs_type, "somewhere")
    monkeypatch.setattr(hard_disk.mount_table, "read_mounts", lambda: [entry])
    for rotational in (True, False):
        in_use, overridable = blockdev.refusal_reasons(
            loop(backing_device=ANON, rotational=rotational)
        )
        if needs_allow_hdd:
            assert overridable == [] and len(in_use) == 1
            assert f"it is on {fs_type} (somewhere at /srv)" in in_use[0]
            assert in_use[0].endswith("give --allow-hdd to accept it")
        else:
            assert in_use == []
            assert overridable == ([hard_disk.LOOP_REASON] if rotational else [])


def test_the_refusal_names_allow_hdd_not_in_use(tmp_path, monkeypatch):
    """A loop device over a hard disk is not "in use now": its own group says what lifts it."""
    monkeypatch.setattr(hard_disk, "SYS_ROOT", sysfs(tmp_path, "1"))
    in_use, overridable = blockdev.refusal_reasons(loop())
    err = blockdev.DeviceRefusedError("/dev/loop3", in_use + ["mounted at /mnt"], overridable)
    text = str(err)
    assert "in use now, refused even with confirmation: mounted at /mnt." in text
    assert "needs --allow-hdd, refused even with confirmation: is a loop device over" in text
    alone = str(blockdev.DeviceRefusedError("/dev/loop3", in_use, overridable))
    assert "in use now" not in alone and "needs --allow-hdd" in alone


@pytest.mark.root
def test_a_real_loop_device_over_a_file_on_this_disk(loop_device):
    """Over a sparse file in tmp_path: refused without --allow-hdd exactly where the disk holding
    that file reports itself rotational (``lsblk -no ROTA`` of the source ``findmnt`` names;
    a virtual disk often does), or where that source is no block device and no tmpfs (overlay:
    unknown); confirmed otherwise."""
    dev = loop_device(size_bytes=16 * MIB, on_disk=True, rotational=True)
    info = blockdev.identify(dev)
    name, _ = hard_disk.backing(info)
    assert name is not None
    found = subprocess.run(
        ["findmnt", "-no", "SOURCE,FSTYPE", "-T", name], capture_output=True, text=True
    ).stdout.split()
    if len(found) < 2:
        pytest.skip(f"findmnt does not name the mount holding {name}")
    source, fs_type = found[0], found[1]
    if source.startswith("/dev/"):
        rota = subprocess.run(["lsblk", "-dno", "ROTA", source], capture_output=True, text=True)
        if rota.returncode != 0 or not rota.stdout.strip():
            pytest.skip(f"lsblk does not know {source}")
        expected = rota.stdout.strip() == "1"
    else:
        expected = fs_type not in ("tmpfs", "ramfs")
    in_use, overridable = blockdev.refusal_reasons(info)
    assert any(r.startswith(f"is a loop device over {name}") for r in in_use) is expected
    assert (overridable == [hard_disk.LOOP_REASON]) is not expected
    assert blockdev.refusal_reasons(info, allow_hdd=True) == ([], [])


@pytest.mark.parametrize(
    ("fs_type", "source", "needs_allow_hdd"),
    [("fuse", hard_disk.EMULATED_DRIVE_SOURCE, False),
     ("fuse.overprov-emulate", hard_disk.EMULATED_DRIVE_SOURCE, False),
     ("fuse", "sshfs", True), ("overlay", hard_disk.EMULATED_DRIVE_SOURCE, True)],
)  # fmt: skip
def test_a_loop_over_overprovs_emulated_drive_needs_only_the_confirmation(
    tmp_path, monkeypatch, fs_type, source, needs_allow_hdd
):
    """``overprov emulate`` serves its simulated SSD as a file on a FUSE mount named
    ``overprov-emulate``: a loop device over it has no disk under it (tests/emulate profile and
    calibrate it); another FUSE mount, or that name on another file system, still asks."""
    monkeypatch.setattr(hard_disk, "SYS_ROOT", sysfs(tmp_path, "1"))
    entry = mount_table.MountEntry("0:77", "/srv", fs_type, source)
    monkeypatch.setattr(hard_disk.mount_table, "read_mounts", lambda: [entry])
    in_use, _ = blockdev.refusal_reasons(loop(backing_device=ANON, rotational=False))
    assert bool(in_use) is needs_allow_hdd
