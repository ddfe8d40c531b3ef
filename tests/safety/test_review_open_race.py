"""A device that changes hands between its check and its open (docs/safety.md, "Profile:
order of checks"). `FioTarget` read a device's facts (the rule, the fingerprint), then opened
it `O_EXCL`; the fingerprint was compared again only before the first write, and the run
marker was written *before* that comparison. A loop device detached and attached to another
image in between (the window is the time `wipefs` and `lsblk` take) had its first 4 KiB
overwritten by the marker, and only then was the run refused. Now the device is
re-identified as soon as it is held open (it cannot change hands after that), and the marker
is written only after every check before a write has passed.

The race is made certain by doing the swap inside `open_exclusive`, right before the real
open; the other image is random bytes whose SHA-256 must not change.
"""

from __future__ import annotations

import contextlib
import os

import pytest
from overprov import blockdev
from overprov.errors import UnsafeDeviceError
from overprov.profile.fio_target import FioTarget
from safety_helpers import MIB, Digests, flush, swapped_backing, tool

pytestmark = [pytest.mark.root]


def test_a_device_swapped_between_its_check_and_its_open_is_not_written(
    loop_device, tmp_path, monkeypatch
):
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    dev = loop_device(size_bytes=8 * MIB)
    other = tmp_path / "other.img"
    other.write_bytes(os.urandom(8 * MIB))  # same size: only its identity tells them apart
    before = Digests.of(other)
    real_open = blockdev.open_exclusive
    with contextlib.ExitStack() as stack:

        def swap_then_open(path: str, flags: int = os.O_RDONLY) -> int:
            stack.enter_context(swapped_backing(dev, other))
            return real_open(path, flags)

        monkeypatch.setattr(blockdev, "open_exclusive", swap_then_open)
        target = FioTarget(dev, tmp_path / "fio", confirm=[dev], allow_hdd=True)
        with pytest.raises(UnsafeDeviceError, match="backing_inode") as refused:
            target.open()
            try:
                target.purge()  # the old code got here, wrote its marker, then refused
            finally:
                target.close()
        flush(dev)
        after = Digests.of(other)
    assert after == before, "the run marker was written to the image swapped in"
    assert "when it was opened for the run" in str(refused.value)
