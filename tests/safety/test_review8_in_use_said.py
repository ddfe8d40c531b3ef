"""What a device holds and what uses it, said where a NAS admin reads it before ``apply
--execute``. ``apply``'s dry run on a device in use (mounted, open in another process, held
exclusively) printed the command to execute the plan as if it would run, under a safety line
that said REFUSED: it now ends by saying --execute would be refused, naming the device and its
user, and prints no command to paste. A device held exclusively with no mount, holder or writer
to show (what a ZFS pool does to its disks) was not seen at all by the dry run; its exclusive
open is tried as --execute's is. ``status`` listed the device's signatures in its --json only,
not in the text. Loop devices on sparse files, made and detached by the loop_device fixture;
the dry run writes nothing (the device's digest is compared)."""

from __future__ import annotations

import hashlib
import json
import subprocess

import pytest
from safety_helpers import MIB, held, mkfs_ext4

pytestmark = pytest.mark.root


def digest(dev: str) -> str:
    with open(dev, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def refused_dry_run(dev: str, overprov_cli) -> str:
    before = digest(dev)
    rc, out, err = overprov_cli("apply", dev, "--extra-op", "20", "--method", "partition")
    assert rc == 1, out + err
    assert digest(dev) == before
    tail = out[out.index("dry run: nothing was changed") :]
    assert "--execute would be REFUSED now" in tail
    assert "--execute" not in tail.replace("--execute would be REFUSED", "")  # no command
    assert "overprov apply" not in tail
    return tail


@pytest.mark.parametrize("how", ["writer", "exclusive"])
def test_a_device_open_in_another_process_is_said_refused_naming_it(how, loop_device, overprov_cli):
    dev = loop_device(size_bytes=4 * MIB)
    with held(dev, how) as pid:
        tail = refused_dry_run(dev, overprov_cli)
    (line,) = [ln for ln in tail.splitlines() if ln.startswith(f"  {dev}: ")]
    assert f"pid {pid} (" in line
    if how == "exclusive":
        assert "open exclusively" in line


def test_a_mounted_device_is_said_refused_naming_the_mount(loop_device, tmp_path, overprov_cli):
    dev = loop_device(size_bytes=8 * MIB)
    mkfs_ext4(dev)
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    subprocess.run(["mount", "-o", "ro", dev, str(mnt)], check=True, capture_output=True)
    try:
        tail = refused_dry_run(dev, overprov_cli)
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True, check=False)
    assert f"  {dev}: mounted at {mnt}" in tail


def test_a_free_device_still_gets_the_command(loop_device, overprov_cli):
    dev = loop_device(size_bytes=4 * MIB)
    rc, out, err = overprov_cli("apply", dev, "--extra-op", "20", "--method", "partition")
    assert rc == 0, out + err
    assert "REFUSED" not in out
    assert f"  overprov apply {dev} --extra-op 20 --method partition --execute" in out


def test_status_says_what_the_device_holds(loop_device, overprov_cli, tmp_path):
    dev = loop_device(size_bytes=8 * MIB)
    rc, out, err = overprov_cli("status", dev)
    assert rc == 0, err
    assert "signatures:" not in out  # a blank device
    mkfs_ext4(dev)
    rc, out, err = overprov_cli("status", dev, "--json", str(tmp_path / "s.json"))
    assert rc == 0, err
    assert "  signatures: ext4 (data on it: apply erases it)" in out
    assert json.loads((tmp_path / "s.json").read_text())["signatures"] == ["ext4"]


@pytest.mark.parametrize("command", ["profile", "qualify"])
def test_the_dry_run_of_a_run_says_a_device_held_exclusively_is_refused(
    command, loop_device, overprov_cli
):
    """``profile`` and ``qualify`` open their device O_EXCL and are refused there; their dry
    run said "confirmed; a run destroys its data"."""
    dev = loop_device(size_bytes=16 * MIB)
    confirm = ("--i-understand-this-destroys-data", dev, "--allow-hdd")
    with held(dev, "exclusive") as pid:
        rc, out, err = overprov_cli(command, dev, "--dry-run", *confirm)
    assert rc == 0, out + err
    text = out + err
    assert f"{dev} (loop" in text
    assert "refused, in use now: the kernel has it open exclusively" in text
    assert f"pid {pid} (" in text
    assert "confirmed; a run destroys its data" not in text
