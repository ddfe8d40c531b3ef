"""The partition + discard method, executed for real on loop devices made for the test.

A loop device discards by punching holes in its backing file, so the discard is visible twice:
the tail reads back as zeros, and the sparse backing file's allocated blocks (st_blocks) shrink.
"""

from __future__ import annotations

import hashlib
import math
import os
from pathlib import Path

import pytest
from overprov import blockdev, gpt
from overprov.apply import VisibleSize, build_plans, plan_partition, status
from overprov.errors import ConfigError, UnsafeDeviceError

pytestmark = pytest.mark.root

MIB = 2**20


def allocated_bytes(path: Path) -> int:
    return os.stat(path).st_blocks * 512


def device_sha256(dev: str) -> str:
    h = hashlib.sha256()
    with open(dev, "rb") as f:
        for chunk in iter(lambda: f.read(MIB), b""):
            h.update(chunk)
    return h.hexdigest()


def read_range(dev: str, offset: int, length: int) -> bytes:
    with open(dev, "rb") as f:
        f.seek(offset)
        return f.read(length)


def data_segments(path: Path, start: int) -> list[tuple[int, int]]:
    """(offset, end) of every allocated data extent of a sparse file from ``start`` on."""
    out = []
    fd = os.open(path, os.O_RDONLY)
    try:
        end_of_file = os.fstat(fd).st_size
        pos = start
        while pos < end_of_file:
            try:
                data = os.lseek(fd, pos, os.SEEK_DATA)
            except OSError:  # ENXIO: no data after pos
                break
            hole = os.lseek(fd, data, os.SEEK_HOLE)
            out.append((data, hole))
            pos = hole
    finally:
        os.close(fd)
    return out


@pytest.mark.parametrize(("sector_bytes", "extra_op"), [(512, 20), (4096, 25)])
def test_partition_method_executed_on_a_loop_device(
    loop_device, overprov_cli, sector_bytes, extra_op
):
    size = 256 * MIB
    dev = loop_device(size_bytes=size, fill="random", sector_bytes=sector_bytes)
    backing = loop_device.backing_file(dev)
    assert allocated_bytes(backing) >= size  # every block written before the test
    before_tail = read_range(dev, size - 8 * MIB, MIB)
    assert before_tail != bytes(MIB)

    rc, out, err = overprov_cli(
        "apply",
        dev,
        "--extra-op",
        str(extra_op),
        "--method",
        "partition",
        "--execute",
        "--i-understand-this-destroys-data",
        dev,
    )
    assert rc == 0, err + out
    assert "all steps done and verified" in out
    assert "verified: GPT re-read from the device" in out

    # the partition table, read back independently of sgdisk
    user = math.floor(size * (100 - extra_op) / 100 / MIB) * MIB
    table = gpt.read_gpt(dev, sector_bytes)
    assert table is not None and table.backup_valid
    assert [(p.number, p.first_lba, p.last_lba, p.name) for p in table.partitions] == [
        (1, MIB // sector_bytes, user // sector_bytes - 1, "overprov")
    ]
    # the kernel sees the partition too (partx step)
    part = Path("/sys/class/block") / (Path(dev).name + "p1")
    assert int((part / "size").read_text()) * 512 == user - MIB

    # the discard: the unpartitioned tail reads back as zeros (apart from the backup GPT in
    # the last sectors), and so does the partition, which was never written
    backup_bytes = gpt.gpt_backup_sectors(sector_bytes) * sector_bytes
    assert read_range(dev, user, size - user - backup_bytes) == bytes(size - user - backup_bytes)
    assert read_range(dev, 64 * MIB, 8 * MIB) == bytes(8 * MIB)

    # ... and the backing file gave its blocks back: only the two GPT copies remain
    assert allocated_bytes(backing) < 1 * MIB
    tail_data = data_segments(backing, user)
    assert tail_data, "the backup GPT should be the only data in the tail"
    assert all(start >= size - backup_bytes - 4096 for start, _ in tail_data), tail_data


def test_status_reports_the_tail_after_apply(loop_device, overprov_cli):
    size = 128 * MIB
    dev = loop_device(size_bytes=size)
    plan = plan_partition(blockdev.identify(dev), VisibleSize(extra_op=0.3))
    plan.execute([dev], echo=lambda _line: None)

    st = status.device_status(dev)
    user = math.floor(size * 0.7 / MIB) * MIB
    assert st["partition_table"] == "gpt"
    assert st["partitions"][0]["start_bytes"] == MIB
    assert st["partitions"][0]["size_bytes"] == user - MIB
    assert st["unpartitioned_tail_bytes"] == size - user - 33 * 512
    assert st["layout"]["extra_op"] == pytest.approx((size - user) / size)
    assert st["discard"]["supported"] is True
    assert st["hpa"].get("available") is False  # a loop device has no ATA max address

    rc, out, _ = overprov_cli("status", dev)
    assert rc == 0
    assert "unpartitioned tail" in out and "ρ = (T−U)/U" in out


def test_plan_execute_without_confirmation_changes_nothing(loop_device):
    dev = loop_device(size_bytes=64 * MIB, fill=b"\x5a")
    digest = device_sha256(dev)
    plan = plan_partition(blockdev.identify(dev), VisibleSize(extra_op=0.2))
    with pytest.raises(UnsafeDeviceError, match="was not confirmed"):
        plan.execute([], echo=lambda _line: None)
    assert device_sha256(dev) == digest


def test_auto_explains_its_choice_for_a_loop_device(loop_device):
    dev = loop_device(size_bytes=64 * MIB)
    (plan,) = build_plans([dev], VisibleSize(extra_op=0.1))
    assert plan.method == "partition"
    assert plan.why.startswith("auto:")
    assert "no NVMe namespace management or ATA HPA here" in plan.why


def test_visible_sectors_sets_the_partition_end_exactly(loop_device):
    dev = loop_device(size_bytes=64 * MIB)
    plan = plan_partition(blockdev.identify(dev), VisibleSize(visible_sectors=100_000))
    (cmd,) = [c for step in plan.steps for c in step.show() if c.startswith("sgdisk")]
    assert "--new=1:2048:99999" in cmd


@pytest.mark.parametrize(
    ("extra_op", "message"),
    [(0.98, "would not reach past the first MiB"), (0.99, "leaves nothing usable")],
)
def test_too_much_extra_op_is_refused(loop_device, extra_op, message):
    dev = loop_device(size_bytes=64 * MIB)
    with pytest.raises(ConfigError, match=message):
        plan_partition(blockdev.identify(dev), VisibleSize(extra_op=extra_op))
