"""apply --method nvme-ns addresses the controller of the namespace it was given, and no other.

Under native NVMe multipath (nvme_core.multipath on, the default of many distributions) a
namespace's disk nvmeXnY is named after its subsystem's instance X, not a controller's:
/dev/nvme0n1 may be a namespace of controller nvme1 while /dev/nvme0 is another drive
(github.com/linux-nvme/nvme-cli/issues/510). The plan guessed /dev/nvme0 from the name, and
its first step detached namespace 1 of that other drive, checking only the block device it
was given."""

from __future__ import annotations

import json
import shlex
import subprocess

import pytest
from apply_fakes import (
    NVME_SERIAL,
    FakeNvmeController,
    load_nvme,
    make_info,
    nvme_sysfs,
)
from overprov import blockdev, fingerprint
from overprov.apply import VisibleSize, plan_auto, plan_nvme_namespace
from overprov.apply.nvme import DetachStep, controller_path
from overprov.errors import ConfigError, UnsafeDeviceError

T_ENT = 3_840_755_982_336
NVME0N1 = make_info("nvme0n1", size_bytes=T_ENT, serial=NVME_SERIAL)


def drive(path: str, serial: str) -> FakeNvmeController:
    fake = FakeNvmeController(
        load_nvme("id-ctrl-nsmgmt.json") | {"sn": serial},
        load_nvme("id-ns-nsmgmt-512.json"),
        path=path,
    )
    return fake


class TwoDrives:
    """Two NVMe drives answering at /dev/nvme0 and /dev/nvme1; commands routed by path."""

    def __init__(self) -> None:
        self.other = drive("/dev/nvme0", "ANOTHER-DRIVE-0001")  # not the namespace's drive
        self.own = drive("/dev/nvme1", NVME_SERIAL)

    def __call__(self, argv, *, check=True):
        for fake in (self.other, self.own):
            if argv[2] == fake.path:
                return fake(argv, check=check)
        raise AssertionError(f"unexpected command in test: {argv}")


def test_a_multipath_namespace_is_planned_on_its_own_controller(tmp_path, monkeypatch):
    """/dev/nvme0n1 of subsystem 0, reached through controller nvme1: the plan reads and
    addresses /dev/nvme1; /dev/nvme0, another drive, gets no command (it got them all)."""
    monkeypatch.setattr(blockdev, "SYSFS", nvme_sysfs(tmp_path / "sys", multipath=["nvme1"]))
    assert controller_path(NVME0N1) == "/dev/nvme1"
    drives = TwoDrives()
    plan = plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.2), runner=drives)
    commands = [c for step in plan.steps for c in step.show()]
    assert commands[0] == "nvme detach-ns /dev/nvme1 --namespace-id=1 --controllers=65"
    assert all(shlex.split(c)[2] == "/dev/nvme1" for c in commands)
    assert drives.other.commands == []


def test_a_namespace_on_two_controllers_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(
        blockdev, "SYSFS", nvme_sysfs(tmp_path / "sys", multipath=["nvme1", "nvme2"])
    )
    with pytest.raises(ConfigError, match=r"through 2 controllers \(nvme1, nvme2"):
        plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.2), runner=TwoDrives())


def test_the_controller_is_not_guessed_from_the_name(tmp_path, monkeypatch):
    """sysfs naming no controller: refused, and auto keeps to the block device itself."""
    sysfs = tmp_path / "sys"
    (sysfs / "class" / "block" / "nvme0n1").mkdir(parents=True)
    monkeypatch.setattr(blockdev, "SYSFS", sysfs)
    drives = TwoDrives()
    with pytest.raises(ConfigError, match="not guessed from the name"):
        plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.2), runner=drives)
    plan = plan_auto(NVME0N1, VisibleSize(extra_op=0.2), runner=drives)
    assert plan.method == "partition"
    assert drives.other.commands == []


def test_a_controller_with_another_drive_s_serial_is_refused_when_planning(tmp_path, monkeypatch):
    """sysfs says nvme0, but the drive answering there is not the namespace's (its serial
    differs): refused before any step, instead of after detach-ns had run."""
    monkeypatch.setattr(blockdev, "SYSFS", nvme_sysfs(tmp_path / "sys", controller="nvme0"))
    drives = TwoDrives()
    with pytest.raises(ConfigError) as exc:
        plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.2), runner=drives)
    assert "answers with serial 'ANOTHER-DRIVE-0001'" in str(exc.value)
    assert f"/dev/nvme0n1 reports '{NVME_SERIAL}'" in str(exc.value)
    assert {c[1] for c in drives.other.commands} <= {"id-ctrl"}  # read only


def test_detach_re_identifies_the_controller_as_well_as_the_namespace(tmp_path, monkeypatch):
    """The first step writes to the controller: it is re-identified before it, as the later
    steps' is (was: only the namespace's block device was)."""
    monkeypatch.setattr(blockdev, "SYSFS", nvme_sysfs(tmp_path / "sys", controller="nvme1"))
    checked = []
    monkeypatch.setattr(fingerprint, "check_same", lambda *a, **k: checked.append(a[1]))
    drives = TwoDrives()
    plan = plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.2), runner=drives)
    detach = plan.steps[0]
    assert isinstance(detach, DetachStep)
    recorded = fingerprint.of_device(NVME0N1)
    detach.reidentify(recorded, [], " (before step 1/5)", drives)  # the same drive: passes
    assert checked == ["/dev/nvme0n1"]  # the block device is still re-identified
    drives.own.ctrl["sn"] = "SWAPPED-DRIVE-0002"  # another drive now answers at /dev/nvme1
    with pytest.raises(UnsafeDeviceError, match="before step 1/5.*serial: recorded"):
        detach.reidentify(recorded, [], " (before step 1/5)", drives)
    assert not any(c[1] == "detach-ns" for c in drives.own.commands)


def test_status_reads_the_multipath_namespace_s_own_controller(tmp_path, monkeypatch):
    """status's NVMe line (tnvmcap, the OP from the layout) is the namespace's drive's."""
    from overprov.apply import status

    monkeypatch.setattr(blockdev, "SYSFS", nvme_sysfs(tmp_path / "sys", multipath=["nvme1"]))
    info = make_info("nvme0n1", size_bytes=T_ENT, serial=NVME_SERIAL)
    monkeypatch.setattr(blockdev, "identify", lambda path, runner=None: info)
    drives = TwoDrives()
    drives.other.ctrl["tnvmcap"] = 2 * T_ENT

    def runner(argv, *, check=True):
        if argv[0] == "hdparm":
            return subprocess.CompletedProcess(argv, 0, "\n/dev/nvme0n1:\n", "")
        return drives(argv, check=check)

    st = status.device_status("/dev/nvme0n1", runner=runner)
    assert st["nvme"]["controller"] == "/dev/nvme1"
    assert st["nvme"]["tnvmcap_bytes"] == T_ENT
    json.dumps(st)


def test_a_device_that_is_no_namespace_is_refused_by_name(tmp_path, monkeypatch):
    """The refusal a loop device or a SATA disk gets says what it is not (not a word of
    sysfs and controllers)."""
    monkeypatch.setattr(blockdev, "SYSFS", tmp_path / "sys")
    with pytest.raises(ConfigError, match=r"^--method nvme-ns: /dev/sdx is not an NVMe namespace$"):
        plan_nvme_namespace(make_info("sdx"), VisibleSize(extra_op=0.2), runner=TwoDrives())
