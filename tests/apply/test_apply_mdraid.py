"""md RAID plans on loop devices made for the test; executed only where the kernel has md."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import pytest
from overprov import blockdev
from overprov.apply import VisibleSize, build_plans
from overprov.errors import ConfigError

pytestmark = pytest.mark.root

MIB = 2**20


def commands(plan) -> list[str]:
    return [c for step in plan.steps for c in step.show()]


def test_raid1_uses_mdadm_size_on_discarded_members(loop_device):
    a = loop_device(size_bytes=256 * MIB)
    b = loop_device(size_bytes=256 * MIB)
    (plan,) = build_plans([a, b], VisibleSize(extra_op=0.2), raid_level="1", md_name="optest")
    size_kib = math.floor(256 * MIB * 0.8 / MIB) * MIB // 1024
    assert plan.method == "mdraid" and plan.why.startswith("auto: --raid-level 1")
    assert commands(plan) == [
        f"wipefs --all {a}",
        f"blkdiscard {a}",
        f"wipefs --all {b}",
        f"blkdiscard {b}",
        f"mdadm --create /dev/md/optest --run --level=1 --raid-devices=2 --size={size_kib} "
        f"--name=optest {a} {b}",
    ]
    # 51 MiB left per member is less than mdadm's largest data offset: said in the plan
    assert any("data offset" in w for w in plan.warnings)


def test_raid0_ignores_size_so_members_are_partitioned(loop_device):
    a = loop_device(size_bytes=128 * MIB)
    b = loop_device(size_bytes=128 * MIB)
    (plan,) = build_plans([a, b], VisibleSize(extra_op=0.25), raid_level="0", method="mdraid")
    cmds = commands(plan)
    last = 96 * MIB // 512 - 1
    assert (
        f"sgdisk --clear --new=1:2048:{last} --typecode=1:FD00 --change-name=1:overprov {a}" in cmds
    )
    assert cmds[-1] == (
        f"mdadm --create /dev/md/overprov --run --level=0 --raid-devices=2 "
        f"--name=overprov {a}p1 {b}p1"
    )


def test_raid_level_checks(loop_device):
    a = loop_device(size_bytes=64 * MIB)
    b = loop_device(size_bytes=64 * MIB)
    with pytest.raises(ConfigError, match="needs at least 3 devices"):
        build_plans([a, b], VisibleSize(extra_op=0.2), raid_level="5")
    with pytest.raises(ConfigError, match="--raid-level: expected one of"):
        build_plans([a, b], VisibleSize(extra_op=0.2), raid_level="7")
    with pytest.raises(ConfigError, match="required with --method mdraid"):
        build_plans([a, b], VisibleSize(extra_op=0.2), method="mdraid")
    with pytest.raises(ConfigError, match="applies to --method mdraid or auto"):
        build_plans([a, b], VisibleSize(extra_op=0.2), method="partition", raid_level="1")
    with pytest.raises(ConfigError, match="listed twice"):
        build_plans([a, a], VisibleSize(extra_op=0.2), raid_level="1")


@pytest.mark.skipif(not Path("/proc/mdstat").exists(), reason="kernel has no md driver")
def test_raid1_plan_executed(loop_device):
    a = loop_device(size_bytes=512 * MIB)
    b = loop_device(size_bytes=512 * MIB)
    (plan,) = build_plans([a, b], VisibleSize(extra_op=0.4), raid_level="1", md_name="optest-exec")
    try:
        plan.execute([a, b], echo=lambda _line: None)
        md = Path("/dev/md/optest-exec").resolve().name
        kib = int((Path("/sys/block") / md / "md" / "component_size").read_text())
        assert kib == math.floor(512 * MIB * 0.6 / MIB) * MIB // 1024
        assert blockdev.identify(a).holders == (md,)
    finally:
        subprocess.run(["mdadm", "--stop", "/dev/md/optest-exec"], capture_output=True)
        for dev in (a, b):
            subprocess.run(["mdadm", "--zero-superblock", dev], capture_output=True)
