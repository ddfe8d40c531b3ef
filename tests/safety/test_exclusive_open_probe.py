"""One exclusive-open probe (overprov.device_users.open_exclusive_unless_busy): the dry runs'
`device_users.held_exclusively`, the runs' `blockdev.open_exclusive` and `ensure_not_busy`
(apply --execute, profile) and the emulator's `loop.in_use` all ask the kernel through it
whether an O_EXCL open is refused (EBUSY). If any of them stops asking, or asks on its own
past it, the first test fails; the second checks the kernel's answer on a loop device held
O_EXCL by another process. Loop devices on sparse files; nothing is written."""

from __future__ import annotations

import os

import pytest
from overprov import blockdev, device_users
from overprov.emulate import loop
from overprov.errors import UnsafeDeviceError
from safety_helpers import MIB, held

pytestmark = [pytest.mark.root]


def _callers_say(dev: str) -> dict[str, bool]:
    """Whether each caller of the probe calls ``dev`` busy."""
    said = {
        "held_exclusively": device_users.held_exclusively(dev) is not None,
        "emulate.loop.in_use": loop.in_use(dev),
    }
    runs = {
        "ensure_not_busy": blockdev.ensure_not_busy,
        "open_exclusive": lambda d: os.close(blockdev.open_exclusive(d)),
    }
    for name, call in runs.items():
        try:
            call(dev)
            said[name] = False
        except UnsafeDeviceError as exc:
            assert "is busy" in str(exc), exc
            said[name] = True
    return said


def test_every_caller_asks_the_one_probe(loop_device, monkeypatch):
    dev = loop_device(size_bytes=4 * MIB, partscan=False)
    real = os.path.realpath(dev)
    asked: list[str] = []
    kernel_says_busy = False
    probe = device_users.open_exclusive_unless_busy

    def spy(path: str, flags: int = os.O_RDONLY) -> int | None:
        asked.append(path)
        return None if kernel_says_busy else probe(path, flags)

    monkeypatch.setattr(device_users, "open_exclusive_unless_busy", spy)
    free = _callers_say(dev)
    assert free == dict.fromkeys(free, False)
    assert asked == [real] * 4  # each caller asked once, for the device itself

    asked.clear()
    kernel_says_busy = True  # what the kernel answers for a mounted or claimed device
    busy = _callers_say(dev)
    assert busy == dict.fromkeys(busy, True)
    assert asked == [real] * 4
    reason = device_users.held_exclusively(dev)
    assert reason is not None and "exclusive open fails: busy" in reason


def test_a_device_held_exclusively_elsewhere_is_busy_to_every_caller(loop_device):
    dev = loop_device(size_bytes=4 * MIB, partscan=False)
    with held(dev, "exclusive") as pid:
        busy = _callers_say(dev)
        assert busy == dict.fromkeys(busy, True)
        reason = device_users.held_exclusively(dev)
        assert reason is not None and f"pid {pid}" in reason, reason
    free = _callers_say(dev)  # the holder gone: free again, to every caller
    assert free == dict.fromkeys(free, False)
