"""Safety on loop devices made for the test: what is in use is refused even when confirmed;
what only holds data is refused unless exactly this device is confirmed; a dry run writes
nothing."""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from overprov import blockdev, gpt
from overprov.apply.cli import _target
from overprov.blockdev import CONFIRM_FLAG, DeviceRefusedError, check_destroyable, open_exclusive
from overprov.errors import ConfigError, UnsafeDeviceError

pytestmark = pytest.mark.root

MIB = 2**20


def sh(*argv: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which(argv[0]) or shutil.which(argv[0], path="/usr/sbin:/sbin")
    if exe is None:
        pytest.skip(f"{argv[0]} not installed")
    return subprocess.run([exe, *argv[1:]], capture_output=True, text=True, check=True)


def device_sha256(dev: str) -> str:
    h = hashlib.sha256()
    with open(dev, "rb") as f:
        for chunk in iter(lambda: f.read(MIB), b""):
            h.update(chunk)
    return h.hexdigest()


@pytest.fixture
def mounted_ext4(loop_device, tmp_path):
    dev = loop_device(size_bytes=64 * MIB)
    sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", dev)
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    sh("mount", dev, str(mnt))
    # frozen (still mounted, still in use): the journal is flushed and the filesystem writes
    # nothing more, so a digest of the device sees only what overprov might write. Without
    # it, ext4's first journal commit after the mount (within its 5 s commit interval) could
    # land between two digests.
    sh("fsfreeze", "--freeze", str(mnt))
    try:
        yield dev, mnt
    finally:
        subprocess.run(["fsfreeze", "--unfreeze", str(mnt)], capture_output=True, check=False)
        subprocess.run(["umount", str(mnt)], capture_output=True, check=False)


def test_mounted_device_is_refused_even_when_confirmed(mounted_ext4, overprov_cli):
    dev, mnt = mounted_ext4
    with pytest.raises(DeviceRefusedError) as exc:
        check_destroyable(dev, dev)
    assert f"mounted at {mnt}" in exc.value.in_use
    assert "refused even with confirmation" in str(exc.value)

    digest = device_sha256(dev)
    rc, out, err = overprov_cli(
        "apply",
        dev,
        "--extra-op",
        "20",
        "--method",
        "partition",
        "--execute",
        "--i-understand-this-destroys-data",
        dev,
    )
    assert rc == 1  # a refused action
    assert f"mounted at {mnt}" in err
    assert "REFUSED, in use now" in out
    assert device_sha256(dev) == digest


def test_mounted_device_is_busy_for_open_exclusive(mounted_ext4):
    dev, _ = mounted_ext4
    with pytest.raises(UnsafeDeviceError, match="is busy"):
        open_exclusive(dev)


def test_ext4_signature_refused_unless_exactly_this_device_is_confirmed(
    loop_device, tmp_path, overprov_cli
):
    dev = loop_device(size_bytes=64 * MIB)
    other = loop_device(size_bytes=64 * MIB)
    sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", dev)

    with pytest.raises(DeviceRefusedError) as exc:
        check_destroyable(dev, None, allow_hdd=True)
    assert exc.value.overridable == ("carries an ext4 signature",)
    assert exc.value.in_use == ()

    # confirming a different device is not a confirmation, and is never overridable
    with pytest.raises(DeviceRefusedError) as exc:
        check_destroyable(dev, other)
    assert f"the confirmation names {other}" in str(exc.value)

    # the exact device, also through a symlink, lets it through
    assert check_destroyable(dev, dev).signatures == ("ext4",)
    link = tmp_path / "by-id-link"
    link.symlink_to(dev)
    assert check_destroyable(str(link), dev).path == dev
    assert check_destroyable(dev, str(link)).path == dev

    # and the CLI then applies the plan, wiping the signature
    rc, out, err = overprov_cli(
        "apply", dev, "--extra-op", "20", "--execute", "--i-understand-this-destroys-data", dev
    )
    assert rc == 0, err
    info = blockdev.identify(dev)
    assert "ext4" not in info.signatures
    assert info.partition_table == "gpt"


def test_active_swap_is_refused_even_when_confirmed(loop_device):
    dev = loop_device(size_bytes=64 * MIB)
    sh("mkswap", dev)
    proc = subprocess.run(["swapon", dev], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.skip(f"swapon not possible here: {proc.stderr.strip()}")
    try:
        with pytest.raises(DeviceRefusedError) as exc:
            check_destroyable(dev, dev)
        assert "is active swap" in exc.value.in_use
    finally:
        subprocess.run(["swapoff", dev], capture_output=True, check=False)


def test_mounted_partition_refuses_the_whole_disk(loop_device, tmp_path):
    dev = loop_device(size_bytes=128 * MIB)
    sh("sgdisk", "--new=1:2048:+32M", "--new=2:0:+32M", dev)
    sh("partx", "--update", dev)  # this kernel may not parse GPT itself
    part = dev + "p1"
    sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", part)
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    sh("mount", part, str(mnt))
    try:
        with pytest.raises(DeviceRefusedError) as exc:
            check_destroyable(dev, dev)
        assert f"partition {part} is mounted at {mnt}" in exc.value.in_use
        msg = str(exc.value)
        assert "has 2 partitions" not in msg  # overridable reasons are waived by confirming
        with pytest.raises(DeviceRefusedError) as exc:
            check_destroyable(dev, None, allow_hdd=True)
        assert "has a gpt partition table" in exc.value.overridable
        assert any(r.startswith("has 2 partitions (") for r in exc.value.overridable)
        assert f"partition {part} carries an ext4 signature" in exc.value.overridable
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True, check=False)


def _fake_sysfs_with_holder(real_dev: str, root: Path, holder: str) -> None:
    """Copy a loop device's sysfs attributes into ``root`` and add a holder."""
    st = os.stat(real_dev)
    name = Path(real_dev).name
    real = Path("/sys/class/block") / name
    fake = root / "class" / "block" / name
    (fake / "queue").mkdir(parents=True)
    (fake / "holders").mkdir()
    (fake / "holders" / holder).mkdir()
    for attr in ("size", "ro", "dev"):
        (fake / attr).write_text((real / attr).read_text())
    for attr in (
        "logical_block_size",
        "physical_block_size",
        "rotational",
        "discard_max_bytes",
        "discard_granularity",
        "write_cache",
    ):
        (fake / "queue" / attr).write_text((real / "queue" / attr).read_text())
    link = root / "dev" / "block" / f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"
    link.parent.mkdir(parents=True)
    link.symlink_to(fake)


def test_held_device_is_refused_even_when_confirmed_simulated_sysfs(
    loop_device, tmp_path, monkeypatch
):
    """This kernel has no md or device-mapper to create a real holder, so the holder appears
    in a copy of the device's sysfs directory; everything else is the real loop device."""
    dev = loop_device(size_bytes=64 * MIB)
    _fake_sysfs_with_holder(dev, tmp_path / "sys", "md127")
    monkeypatch.setattr(blockdev, "SYSFS", tmp_path / "sys")
    with pytest.raises(DeviceRefusedError) as exc:  # the copy has no loop/backing_file: its
        check_destroyable(dev, dev, allow_hdd=True)  # disk unknown needs it (hard_disk.py)
    assert exc.value.in_use == ("held by md127",)


@pytest.mark.skipif(not Path("/proc/mdstat").exists(), reason="kernel has no md driver")
def test_md_member_is_refused_real_holder(loop_device):
    a = loop_device(size_bytes=64 * MIB)
    b = loop_device(size_bytes=64 * MIB)
    md = "/dev/md/overprov-test-holder"
    sh("mdadm", "--create", md, "--run", "--level=1", "--raid-devices=2", a, b)
    try:
        with pytest.raises(DeviceRefusedError) as exc:
            check_destroyable(a, a)
        assert any(r.startswith("held by md") for r in exc.value.in_use)
    finally:
        subprocess.run(["mdadm", "--stop", md], capture_output=True, check=False)


def test_dry_run_executes_nothing(loop_device, overprov_cli):
    dev = loop_device(size_bytes=64 * MIB, fill="random")
    backing = loop_device.backing_file(dev)
    digest = device_sha256(dev)
    blocks = os.stat(backing).st_blocks

    rc, out, err = overprov_cli("apply", dev, "--extra-op", "20")
    assert rc == 0, err
    assert "dry run: nothing was changed" in out
    assert "$ blkdiscard " + dev in out  # the plan is shown ...
    # ... even with the confirmation given, without --execute nothing runs
    rc, out, _ = overprov_cli(
        "apply", dev, "--extra-op", "20", "--i-understand-this-destroys-data", dev
    )
    assert rc == 0 and "dry run" in out
    # --execute without the confirmation is refused
    rc, _, err = overprov_cli("apply", dev, "--extra-op", "20", "--execute")
    assert rc == 1 and "was not confirmed" in err

    assert device_sha256(dev) == digest
    assert os.stat(backing).st_blocks == blocks
    assert gpt.read_gpt(dev, 512) is None


def test_confirming_a_device_outside_the_plan_is_refused(loop_device, overprov_cli):
    dev = loop_device(size_bytes=64 * MIB, fill=b"\x11")
    other = loop_device(size_bytes=64 * MIB)
    digest = device_sha256(dev)
    rc, _, err = overprov_cli(
        "apply",
        dev,
        "--extra-op",
        "20",
        "--execute",
        "--i-understand-this-destroys-data",
        dev,
        "--i-understand-this-destroys-data",
        other,
    )
    assert rc == 1  # a refused action
    assert f"{other}: that device is not part of this plan" in err
    assert device_sha256(dev) == digest


def test_open_exclusive_reports_a_second_opener_as_busy(loop_device):
    dev = loop_device(size_bytes=64 * MIB)
    fd = open_exclusive(dev)
    try:
        with pytest.raises(UnsafeDeviceError, match="is busy"):
            open_exclusive(dev)
    finally:
        os.close(fd)
    os.close(open_exclusive(dev))


def test_rotational_is_a_reason_unless_allowed(loop_device):
    dev = loop_device(size_bytes=64 * MIB)
    info = blockdev.identify(dev)
    _, reasons = blockdev.refusal_reasons(info)
    _, allowed = blockdev.refusal_reasons(info, allow_hdd=True)
    assert any("rotational" in r for r in reasons) == info.rotational
    assert not any("rotational" in r for r in allowed)


def test_identify_refuses_what_is_not_a_block_device(tmp_path):
    f = tmp_path / "plain-file"
    f.write_bytes(b"x")
    with pytest.raises(ConfigError, match="not a block device"):
        blockdev.identify(str(f))
    with pytest.raises(ConfigError, match="does not exist"):
        blockdev.identify(str(tmp_path / "missing"))


def test_the_suggested_command_passes_the_checks_on_a_rotational_device(loop_device, overprov_cli):
    """A loop device reports itself rotational: the dry run lists it as a reason, and the
    command it suggests (its confirmation, no --allow-hdd) passes every check --execute makes
    before the first step. Only the checks run; nothing is written."""
    from overprov import cli
    from overprov.apply.auto import build_plans

    dev = loop_device(size_bytes=64 * MIB, rotational=True)  # over RAM: no rotational disk
    digest = device_sha256(dev)
    rc, out, err = overprov_cli("apply", dev, "--extra-op", "20")
    assert rc == 0, err
    assert f"safety {dev}: would destroy data: is rotational" in out
    suggested = _suggested_command(out)
    assert suggested[-2:] == ["--i-understand-this-destroys-data", "DEVICE"]
    suggested[-1] = dev  # the confirmation the user types
    args = cli.build_parser(suggested[1:]).parse_args(suggested[1:])
    assert args.execute and not args.allow_hdd
    for plan in build_plans(args.devices, _target(args), method=args.method):
        plan.check_safety(args.confirm, allow_hdd=args.allow_hdd)  # raises if refused
    assert device_sha256(dev) == digest


def _suggested_command(out: str) -> list[str]:
    """The command a dry run prints to run its plan."""
    lines = [ln.strip() for ln in out.splitlines() if ln.strip().startswith("overprov apply ")]
    assert len(lines) == 1, out
    suggested = shlex.split(lines[0])
    assert suggested[:2] == ["overprov", "apply"] and "--execute" in suggested
    return suggested


def test_the_dry_run_s_command_does_not_confirm_itself(loop_device, overprov_cli):
    """The dry run printed its command with the confirmation filled in: pasted, it destroyed
    the data without the device's name ever being typed. The command has DEVICE there; pasted as
    printed it is refused by that name and nothing is written. A device the user confirmed on
    the dry run's own line keeps its name."""
    dev = loop_device(size_bytes=64 * MIB, fill=b"\x5a")
    digest = device_sha256(dev)
    rc, out, err = overprov_cli("apply", dev, "--extra-op", "20")
    assert rc == 0, err
    suggested = _suggested_command(out)
    assert dev not in suggested[suggested.index("--execute") :]
    assert suggested.count("DEVICE") == 1
    assert "with each DEVICE replaced by the name of a device above, typed by you" in out
    rc, _, err = overprov_cli(*suggested[1:])
    assert rc == 1
    assert "DEVICE stands for a device's name in the dry run's command" in err
    assert device_sha256(dev) == digest
    rc, out, err = overprov_cli("apply", dev, "--extra-op", "20", CONFIRM_FLAG, dev)
    assert rc == 0, err
    assert _suggested_command(out)[-2:] == [CONFIRM_FLAG, dev]
    assert "DEVICE" not in out


@pytest.mark.root
def test_a_device_given_again_through_a_link_is_named_as_typed(loop_device, tmp_path, overprov_cli):
    """'apply /dev/loopN LINK' (LINK -> /dev/loopN) said '/dev/loopN is listed twice', as if
    the user had typed that name twice: the refusal names the link as typed and what it is."""
    dev = loop_device(size_bytes=16 * 2**20)
    link = tmp_path / "disk-by-name"
    link.symlink_to(dev)
    rc, _, err = overprov_cli("apply", dev, str(link), "--extra-op", "20")
    assert rc == 2, err
    assert f"device: {link} is listed twice (as {dev})" in err
