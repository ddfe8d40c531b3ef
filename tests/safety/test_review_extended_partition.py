"""A target too small to hold the run marker (docs/safety.md, "The content marker"). The node
of a DOS extended partition is 1 KiB: the first table of the logical partitions inside it.
`profile` of it, confirmed, with `--bs 512` and no FOB, wrote the 4 KiB marker there — 1 KiB
of it, over the table of a mounted logical partition — and only then stopped ("the run
marker could not be written in full"). Nothing on the partition showed it in use (the
logical partition lies outside the 1 KiB). Now a target that leaves nothing after the marker
is refused before anything is written, by the run and by the dry run.
"""

from __future__ import annotations

import contextlib
import struct

import pytest
from safety_helpers import (
    QUICK_PROFILE,
    Digests,
    backing_of,
    cli,
    flush,
    mkfs_ext4,
    mount_frozen,
    sh,
    tool,
)

pytestmark = [pytest.mark.root]

CONFIRM = "--i-understand-this-destroys-data"
SECTOR = 512


def _table(entries: list[tuple[int, int, int]]) -> bytes:
    """A DOS partition table sector: (type, first sector, sectors) per entry, 0x55AA."""
    block = bytearray(SECTOR)
    for i, (kind, first, count) in enumerate(entries):
        struct.pack_into("<B3sB3sII", block, 446 + 16 * i, 0, b"", kind, b"", first, count)
    block[510:512] = b"\x55\xaa"
    return bytes(block)


def test_an_extended_partition_gets_no_run_marker(loop_device, tmp_path):
    if tool("fio") is None or tool("partx") is None:
        pytest.skip("needs fio and partx (Debian packages fio, util-linux)")
    dev = loop_device(size_bytes=32 * 2**20)
    with open(dev, "r+b") as f:  # p1 at 1 MiB; p2 extended from 11 MiB; p5 logical in it
        f.write(_table([(0x83, 2048, 20480), (0x05, 22528, 40960)]))
        f.seek(22528 * SECTOR)
        f.write(_table([(0x83, 2048, 18432)]))
    sh("partx", "--add", dev, check=False)  # the kernel's scan may have added them already
    extended, logical = f"{dev}p2", f"{dev}p5"
    with open(f"/sys/block/{dev.split('/')[-1]}/{extended.split('/')[-1]}/size") as f:
        assert int(f.read()) * SECTOR <= 1024, "the kernel shows the extended partition whole"
    mkfs_ext4(logical)
    with contextlib.ExitStack() as stack:
        mount_frozen(stack, logical, tmp_path / "mnt")
        flush(dev)
        before = Digests.of(backing_of(dev))
        args = [extended, "--bs", "512", "--allow-hdd", *QUICK_PROFILE, CONFIRM, extended]
        proc = cli("profile", *args, "--out", str(tmp_path / "out"))
        dry = cli("profile", *args, "--dry-run")
        flush(dev)
        after = Digests.of(backing_of(dev))
    assert after == before, "the run marker was written over the logical partitions' table"
    assert proc.returncode == 2, proc.stderr[-1000:]
    assert "nothing would be left" in proc.stderr
    assert dry.returncode == 2 and "nothing would be left" in dry.stderr, dry.stderr[-1000:]
