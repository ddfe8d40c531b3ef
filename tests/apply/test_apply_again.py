"""``apply`` run again on a drive it already brought to the extra OP asked for planned to wipe,
discard and re-create the very partition it had made (and, with --execute, destroyed the data
written since). The drive is already at that OP: the plan says so and has no step, the dry run
and --execute both change nothing and exit 0. On a loop device made for the test."""

from __future__ import annotations

import hashlib

import pytest
from overprov import blockdev
from overprov.apply import VisibleSize, plan_partition

pytestmark = pytest.mark.root

MIB = 2**20
CONFIRM = "--i-understand-this-destroys-data"


def device_sha256(dev: str) -> str:
    with open(dev, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def test_apply_again_at_the_same_extra_op_changes_nothing(loop_device, overprov_cli):
    dev = loop_device(size_bytes=64 * MIB)
    plan_partition(blockdev.identify(dev), VisibleSize(extra_op=0.25)).execute(
        [dev], echo=lambda _line: None
    )
    part = blockdev.partition_node(dev, 1)
    with open(part, "r+b") as f:  # what the user wrote on the partition since
        f.write(b"\x5a" * MIB)
    before = device_sha256(dev)
    for method in ("partition", "auto"):
        for execute in ([], ["--execute"], ["--execute", CONFIRM, dev]):
            argv = ["apply", dev, "--extra-op", "25", "--method", method, *execute]
            rc, out, err = overprov_cli(*argv)
            assert rc == 0, out + err
            assert f"already done: {dev} already holds the partition this plan makes" in out
            assert "nothing to do: already at extra OP 25 %; nothing was changed" in out
            assert "step 1/" not in out and "DESTROYS" not in out
    assert device_sha256(dev) == before
    # another extra OP is another partition: planned as before
    rc, out, err = overprov_cli("apply", dev, "--extra-op", "30", "--method", "partition")
    assert rc == 0, out + err
    assert "already" not in out and "step 4/4" in out and "DESTROYS ALL DATA" in out
