"""``overprov status DEVICE`` listed the device's signatures (a file system, a RAID member) in
its --json document only: the text a NAS admin reads before ``apply`` said nothing of the ext4
on it. Loop device on a sparse file, made and detached by the loop_device fixture."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

pytestmark = pytest.mark.root

MIB = 2**20


def test_status_says_what_the_device_holds(loop_device, overprov_cli, tmp_path):
    mkfs = shutil.which("mkfs.ext4") or shutil.which("mkfs.ext4", path="/usr/sbin:/sbin")
    if mkfs is None:
        pytest.skip("mkfs.ext4 not installed")
    dev = loop_device(size_bytes=8 * MIB)
    subprocess.run([mkfs, "-q", "-F", dev], check=True, capture_output=True)
    rc, out, err = overprov_cli("status", dev, "--json", str(tmp_path / "s.json"))
    assert rc == 0, err
    assert "  signatures: ext4 (data on it: apply erases it)" in out
    assert json.loads((tmp_path / "s.json").read_text())["signatures"] == ["ext4"]


def test_a_blank_device_has_no_signature_line(loop_device, overprov_cli):
    rc, out, err = overprov_cli("status", loop_device(size_bytes=4 * MIB))
    assert rc == 0, err
    assert "signatures:" not in out
