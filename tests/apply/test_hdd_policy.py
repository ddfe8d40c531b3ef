"""--allow-hdd: a rotational device that is not a loop device (a hard disk) is refused even when
confirmed; a loop device that reports itself rotational needs only the confirmation."""

from __future__ import annotations

import os

import pytest
from apply_fakes import make_info
from overprov import blockdev, hard_disk
from overprov.blockdev import DeviceRefusedError, check_destroyable

MIB = 2**20


def test_a_hard_disk_is_refused_even_when_confirmed_without_allow_hdd() -> None:
    hdd = make_info("sdx", rotational=True, dev="8:16")
    in_use, overridable = blockdev.refusal_reasons(hdd)
    assert any("give --allow-hdd" in r for r in in_use)
    assert not any("rotational" in r for r in overridable)
    in_use, overridable = blockdev.refusal_reasons(hdd, allow_hdd=True)
    assert in_use == [] and overridable == []


def test_a_rotational_loop_device_needs_only_the_confirmation(tmp_path, monkeypatch) -> None:
    """Over a disk that is not rotational (a constructed sysfs, not this machine's: another
    loop device attached here would change the live /sys/class/block/loop3)."""
    image = tmp_path / "disk.img"
    image.write_bytes(b"")
    number = image.stat().st_dev
    disk = tmp_path / "sys" / "devices" / "vdx"
    (disk / "queue").mkdir(parents=True)
    (disk / "queue" / "rotational").write_text("0\n")
    (tmp_path / "sys" / "dev" / "block").mkdir(parents=True)
    (tmp_path / "sys" / "dev" / "block" / f"{os.major(number)}:{os.minor(number)}").symlink_to(disk)
    (tmp_path / "sys" / "class" / "block" / "loop3" / "loop").mkdir(parents=True)
    (tmp_path / "sys" / "class" / "block" / "loop3" / "loop" / "backing_file").write_text(
        f"{image}\n"
    )
    monkeypatch.setattr(hard_disk, "SYS_ROOT", tmp_path / "sys")
    for info in (
        make_info(
            "loop3", rotational=True, dev="7:3", backing_file=str(image), backing_device=number
        ),
        make_info("loop3p1", rotational=True, dev="259:0", parent="loop3", is_partition=True),
    ):
        assert hard_disk.is_loop(info.name, info.dev, info.parent)
        in_use, overridable = blockdev.refusal_reasons(info)
        assert in_use == []
        assert overridable == ["is rotational (a loop device that reports itself as one)"]
        assert blockdev.refusal_reasons(info, allow_hdd=True) == ([], [])
    assert not hard_disk.is_loop("sdx", "8:16", None)


def test_help_says_what_allow_hdd_does(overprov_cli) -> None:
    for command in ("profile", "calibrate", "qualify", "apply"):
        rc, out, _ = overprov_cli(command, "--help")
        assert rc == 0
        assert "a hard disk is refused without it, even when" in " ".join(out.split())


@pytest.mark.root
def test_a_real_rotational_loop_device_passes_with_its_confirmation(loop_device) -> None:
    dev = loop_device(size_bytes=16 * MIB, rotational=True)  # its sparse file in RAM
    info = blockdev.identify(dev)
    assert hard_disk.is_loop(info.name, info.dev, info.parent)
    with pytest.raises(DeviceRefusedError, match="a loop device that reports itself"):
        check_destroyable(dev, None)
    assert check_destroyable(dev, dev).path == info.path
