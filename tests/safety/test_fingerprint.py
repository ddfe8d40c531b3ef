"""The device fingerprint (overprov.fingerprint) on real loop devices: what it records, how a
swapped backing image shows, the run marker, and `apply --execute` refusing a device that is
no longer the one its plan was made for, or a profile whose marker was overwritten mid-run."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from loop_lock import attach_lock
from overprov import fingerprint, gpt
from overprov.apply import VisibleSize, build_plans
from overprov.blockdev import CONFIRM_FLAG
from overprov.errors import UnsafeDeviceError
from safety_helpers import (
    MIB,
    QUICK_PROFILE,
    Digests,
    backing_of,
    cli,
    flush,
    long_profile,
    running_profile,
    slow_tool,
    started_cli,
    swapped_backing,
    tool,
    wait_for_file,
    wait_for_round,
)

pytestmark = [pytest.mark.root]


def test_a_loop_device_has_a_weak_identity_told_apart_by_its_backing_file(loop_device):
    a = loop_device(size_bytes=64 * MIB)
    b = loop_device(size_bytes=64 * MIB)
    fa, fb = fingerprint.read(a), fingerprint.read(b)
    assert not fa.strong and fa.serial is None and fa.wwn is None
    assert fa.size_bytes == 64 * MIB and fa.logical_sector_bytes == 512
    st = os.stat(backing_of(a))
    assert (fa.backing_device, fa.backing_inode) == (st.st_dev, st.st_ino)
    assert fa.differences(fingerprint.read(a)) == []
    diffs = fa.differences(fb)
    assert [d.split(":")[0] for d in diffs] == ["backing_inode"]
    assert fingerprint.Fingerprint.from_dict(fa.to_dict()) == fa


def test_a_different_sector_size_or_size_is_a_difference(loop_device):
    a = loop_device(size_bytes=64 * MIB)
    b = loop_device(size_bytes=32 * MIB, sector_bytes=4096)
    names = [d.split(":")[0] for d in fingerprint.read(a).differences(fingerprint.read(b))]
    assert names == ["size_bytes", "logical_sector_bytes", "physical_sector_bytes",
                     "backing_inode"]  # fmt: skip


def test_the_run_marker_is_read_back_from_the_device(loop_device):
    dev = loop_device(size_bytes=16 * MIB)
    assert fingerprint.read_marker(dev) is None
    run_id = "0123456789abcdef0123456789abcdef"
    fd = os.open(dev, os.O_RDWR)
    try:
        fingerprint.write_marker(fd, run_id)
    finally:
        os.close(fd)
    assert fingerprint.read_marker(dev) == run_id
    head = backing_of(dev).read_bytes()[: fingerprint.MARKER_BYTES]
    assert head == fingerprint.marker_block(run_id)  # on the backing file, not only cached


def test_apply_refuses_a_device_swapped_after_the_plan_was_made(loop_device, tmp_path):
    dev = loop_device(size_bytes=64 * MIB)
    plans = build_plans([dev], VisibleSize(extra_op=0.2), method="partition")
    other = tmp_path / "other.img"
    with open(other, "wb") as f:
        f.truncate(64 * MIB)  # the same size, just as blank
    with swapped_backing(dev, other):
        before = Digests.of(other)
        with pytest.raises(UnsafeDeviceError, match="backing_inode") as exc:
            plans[0].execute([dev], allow_hdd=True, echo=lambda _line: None)
        flush(dev)
        assert Digests.of(other) == before
    assert "not the device that was identified" in str(exc.value)


def test_apply_holds_its_device_so_it_cannot_be_swapped_while_a_step_runs(loop_device, tmp_path):
    """Between the re-identification and the tool that writes, another backing image is
    attached at the device's node (`sgdisk` is made slow to open that window): the node
    must not change hands while the plan holds it, and the other image stays untouched."""
    dev = loop_device(size_bytes=64 * MIB)
    own = backing_of(dev)
    other = tmp_path / "other.img"
    with open(other, "wb") as f:
        f.truncate(64 * MIB)
    before = Digests.of(other)
    started = tmp_path / "sgdisk-started"
    argv = ["apply", dev, "--extra-op", "20", "--method", "partition", "--allow-hdd",
            "--execute", CONFIRM_FLAG, dev]  # fmt: skip
    proc = started_cli(*argv, path_first=slow_tool("sgdisk", tmp_path / "bin", started))
    losetup = tool("losetup") or "losetup"
    try:
        wait_for_file(proc, started)
        with attach_lock():
            subprocess.run([losetup, "--detach", dev], capture_output=True, check=False)
            swap = subprocess.run([losetup, dev, str(other)], capture_output=True, check=False)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if backing_of_or_none(dev) == other:
            subprocess.run([losetup, "--detach", dev], capture_output=True, check=False)
    assert Digests.of(other) == before, "the plan wrote to a device it never identified"
    assert swap.returncode != 0  # the node stayed the planned device's
    assert proc.returncode == 0, out + err
    table = gpt.read_gpt(str(own), 512)  # the plan went on to write the device it planned
    assert table is not None and len(table.partitions) == 1


def backing_of_or_none(dev: str) -> Path | None:
    try:
        return backing_of(dev)
    except OSError:
        return None


def test_apply_re_identifies_before_every_step(loop_device):
    dev = loop_device(size_bytes=64 * MIB)
    plan = build_plans([dev], VisibleSize(extra_op=0.2), method="partition")[0]
    said: list[str] = []
    plan.execute([dev], allow_hdd=True, echo=said.append)
    steps = [line for line in said if line.startswith("step ")]
    checks = [line for line in said if line.startswith("  re-identified: ")]
    assert len(steps) == len(plan.steps) == len(checks) == 4


def test_profile_stops_when_its_run_marker_is_overwritten_between_rounds(loop_device, tmp_path):
    """O_EXCL keeps out mounts and other exclusive openers, not a plain writer: the check
    before every round sees that the device's first 4 KiB no longer hold this run's id."""
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    dev = loop_device(size_bytes=64 * MIB)
    out = tmp_path / "out"
    args = long_profile(dev)
    with running_profile(*args, out=out) as proc:
        wait_for_round(proc, out, "op00-r002")
        fd = os.open(dev, os.O_WRONLY)  # a plain open: allowed beside the profiler's O_EXCL
        try:
            os.pwrite(fd, b"someone else's data".ljust(4096, b"\0"), 0)
            os.fsync(fd)
        finally:
            os.close(fd)
        _, stderr = proc.communicate(timeout=90)
    assert proc.returncode == 1, stderr  # refused: another writer was there
    assert "hold run identifier None, not this run's" in stderr
    doc = json.loads((out / "results.json").read_text())
    assert doc["status"] == "failed"
    assert not (out / "fio" / f"op00-r{len(doc['phases'][0]['rounds']) + 2:03d}.fio").exists()


def test_a_refused_profile_is_resumed_as_a_new_one_once_confirmed(loop_device, tmp_path):
    """A profile refused at identify wrote nothing and recorded no fingerprint: --resume with
    the confirmation starts it afresh (all checks, a new run identifier), not as a resume."""
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    dev = loop_device(size_bytes=64 * MIB)
    out = tmp_path / "out"
    out.mkdir()  # a folder the command did not make keeps the refused run's record
    quick = ["--allow-hdd", "--size", "8MiB", *QUICK_PROFILE]
    refused = cli("profile", dev, *quick, "--out", str(out))
    assert refused.returncode == 1 and "was not confirmed" in refused.stderr
    assert json.loads((out / "results.json").read_text())["target"]["members"] == []
    resumed = cli("profile", "--resume", str(out), "--allow-hdd", "--no-report", CONFIRM_FLAG, dev)
    assert resumed.returncode == 3, resumed.stderr  # the quick profile's phase is skipped
    doc = json.loads((out / "results.json").read_text())
    assert doc["status"] == "complete"
    assert fingerprint.read_marker(dev) == doc["target"]["members"][0]["run_id"]
