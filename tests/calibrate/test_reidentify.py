"""Calibrate re-identifies its device before every write step (docs/safety.md): a loop device
whose backing image is swapped between measurement segments is refused, and the image put in
its place is not written.

Calibrate measures through the profiler's own target (``profile.target_kinds.make_target``), whose
check before every write (``profile.member_guard.check_before_write``: the fingerprint, then
the run identifier in the first 4 KiB) runs before each purge, discard and fio round. While
calibrate runs it holds the device open with O_EXCL, so nobody can detach it; the test lets go
of that hold between the fill and the first write-saturation segment, swaps the image behind
the same /dev/loopN node, takes the node again (read-only) and lets calibrate go on.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from loop_lock import attach_lock
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import Budget, design
from overprov.errors import UnsafeDeviceError
from overprov.profile.target_kinds import make_target

MIB = 2**20

pytestmark = pytest.mark.root


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _backing(dev: str) -> Path:
    name = os.path.basename(os.path.realpath(dev))
    return Path(Path(f"/sys/block/{name}/loop/backing_file").read_text().strip())


class SwapBeforeSegment:
    """The calibrate target, passed through; before the first discard of a segment's tail
    (after the FOB and the fill were written) the loop's backing image is swapped."""

    def __init__(self, target: Any, dev: str, image: Path) -> None:
        self._t = target
        self.dev = dev
        self.image = image
        self.swapped = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._t, name)

    def discard_tail(self, start_bytes: int) -> str:
        if not self.swapped:
            for m in self._t.members:  # let go of calibrate's O_EXCL hold
                os.close(m.fd)
                m.fd = None
            losetup = shutil.which("losetup") or "losetup"
            with attach_lock():
                subprocess.run([losetup, "--detach", self.dev], check=True, capture_output=True)
                proc = subprocess.run(
                    [losetup, self.dev, str(self.image)], capture_output=True, check=False
                )
            if proc.returncode != 0:
                pytest.skip(f"{self.dev} was taken by another program between detach and attach")
            self.swapped = True
            for m in self._t.members:  # and holds the node again (read-only: writes nothing)
                m.fd = os.open(self.dev, os.O_RDONLY)
        return self._t.discard_tail(start_bytes)


def test_a_backing_image_swapped_between_segments_is_refused(loop_device, tmp_path):
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    dev = loop_device(size_bytes=32 * MIB)
    original = _backing(dev)
    other = tmp_path / "someone-elses.img"
    with open(other, "wb") as f:
        f.write(b"someone else's data\n" * (32 * MIB // 20))
        f.truncate(32 * MIB)
    before = _sha256(other)
    target = make_target(dev, tmp_path / "fio", confirm=[dev], allow_hdd=True)
    target.open()
    wrapped = SwapBeforeSegment(target, dev, other)
    said: list[str] = []
    try:
        plan = design([0.0, 40.0], Budget(), write_counters=False)
        with pytest.raises(UnsafeDeviceError, match="refusing") as exc:
            measure(wrapped, plan, said.append)  # type: ignore[arg-type]
    finally:
        target.close()
        if _backing(dev) == other:  # put the test's own image back for the fixture's cleanup
            losetup = shutil.which("losetup") or "losetup"
            with attach_lock():
                subprocess.run([losetup, "--detach", dev], check=False, capture_output=True)
                subprocess.run([losetup, dev, str(original)], check=False, capture_output=True)
    assert wrapped.swapped
    assert any(s.startswith("sequential fill") for s in said), said  # it had written before
    assert "(discard)" in str(exc.value)  # refused at the segment's first write step
    assert "backing_inode" in str(exc.value)  # by the fingerprint: another image
    assert _sha256(other) == before  # not a byte of the swapped-in image written
