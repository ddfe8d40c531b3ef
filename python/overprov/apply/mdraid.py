"""md RAID with OP: every member is discarded, then only (1−X) of each member is used.

RAID 1/4/5/6/10: ``mdadm --create ... --size=<KiB>`` uses that much of each member (mdadm's
``--size`` applies to these levels only). RAID 0 and linear ignore ``--size``, so each member
gets a GPT partition ending at (1−X)·C and the array is built on the partitions. Either way the
unused tail of every member was discarded first and is never written. (docs/apply.md.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from overprov import blockdev
from overprov.apply.base import (
    DiscardStep,
    Plan,
    Step,
    VerificationError,
    VisibleSize,
    WipeSignaturesStep,
    op_summary,
)
from overprov.apply.partition import (
    LINUX_RAID_TYPE,
    layout_for,
    partition_steps,
    require_whole_disk_with_discard,
)
from overprov.blockdev import DeviceInfo, Runner, run_tool
from overprov.capacity import MIB
from overprov.errors import ConfigError

SIZE_LEVELS = {"1", "4", "5", "6", "10"}
PARTITION_LEVELS = {"0", "linear"}
MIN_MEMBERS = {"0": 2, "linear": 1, "1": 2, "4": 3, "5": 3, "6": 4, "10": 2}


def normalise_level(level: str | int) -> str:
    text = str(level).lower().removeprefix("raid")
    if text not in MIN_MEMBERS:
        raise ConfigError(f"--raid-level: expected one of 0, 1, 4, 5, 6, 10, linear; got {level!r}")
    return text


@dataclass
class MdCreateStep(Step):
    md_path: str
    name: str
    level: str
    members: tuple[str, ...]
    size_kib: int | None  # None: whole members (RAID 0 / linear on partitions)

    def __post_init__(self) -> None:
        using = f"{self.size_kib:,} KiB of each member" if self.size_kib else "the partitions"
        self.title = (
            f"Create RAID {self.level} {self.md_path} from {len(self.members)} members, "
            f"using {using}"
        )
        self.busy_check = self.members

    def commands(self) -> list[list[str]]:
        argv = [
            "mdadm",
            "--create",
            self.md_path,
            "--run",
            f"--level={self.level}",
            f"--raid-devices={len(self.members)}",
        ]
        if self.size_kib is not None:
            argv.append(f"--size={self.size_kib}")
        argv += [f"--name={self.name}", *self.members]
        return [argv]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        md = os.path.basename(os.path.realpath(self.md_path))
        md_dir = blockdev.SYSFS / "block" / md / "md"
        try:
            component_kib = int((md_dir / "component_size").read_text())
            level = (md_dir / "level").read_text().strip()
            raid_disks = int((md_dir / "raid_disks").read_text())
        except (OSError, ValueError):
            raise VerificationError(f"{self.md_path} has no md attributes in sysfs") from None
        if raid_disks != len(self.members):
            raise VerificationError(
                f"{self.md_path} has {raid_disks} members, expected {len(self.members)}"
            )
        if self.size_kib is not None and component_kib != self.size_kib:
            raise VerificationError(
                f"{self.md_path} uses {component_kib:,} KiB per member, expected {self.size_kib:,}"
            )
        return [
            f"{self.md_path} ({md}): {level}, {raid_disks} members, "
            f"{component_kib:,} KiB used per member"
        ]


def plan_mdraid(
    infos: list[DeviceInfo] | tuple[DeviceInfo, ...],
    target: VisibleSize,
    level: str | int,
    *,
    md_name: str = "overprov",
    why: str = "requested (--method mdraid)",
) -> Plan:
    level = normalise_level(level)
    if len(infos) < MIN_MEMBERS[level]:
        raise ConfigError(
            f"--raid-level {level}: needs at least {MIN_MEMBERS[level]} devices, got {len(infos)}"
        )
    if len({i.path for i in infos}) != len(infos):
        raise ConfigError("--method mdraid: a device is listed twice")
    for info in infos:
        require_whole_disk_with_discard(info, "mdraid")
    if not md_name or "/" in md_name or len(md_name) > 32:
        raise ConfigError(f"--md-name: 1–32 characters without '/', got {md_name!r}")
    md_path = f"/dev/md/{md_name}"
    if Path(md_path).exists():
        raise ConfigError(f"--md-name: {md_path} already exists")
    lss = max(i.logical_sector_bytes for i in infos)
    smallest = min(i.size_bytes for i in infos)
    user = target.user_bytes(smallest, lss)
    user -= user % MIB
    if user <= 0:
        raise ConfigError(f"{target.describe()} leaves less than 1 MiB per member")
    steps: list[Step] = []
    warnings: list[str] = []
    sizes = {i.size_bytes for i in infos}
    if len(sizes) > 1:
        warnings.append(
            f"members differ in size; (1−X) of the smallest ({smallest:,} bytes) is used on each"
        )
    if level in SIZE_LEVELS:
        if smallest - user < 128 * MIB:
            warnings.append(
                "mdadm puts array data after a data offset of up to 128 MiB; with only "
                f"{(smallest - user) // MIB} MiB left unused per member, --size may not fit"
            )
        for info in infos:
            steps.append(WipeSignaturesStep(info))
            steps.append(DiscardStep(info, sample_offset=user, sample_length=smallest - user))
        members = tuple(i.path for i in infos)
        steps.append(MdCreateStep(md_path, md_name, level, members, user // 1024))
        facts = op_summary(smallest, user, "used of each member (mdadm --size)")
        how = f"mdadm --size={user // 1024} KiB per member"
    else:
        members_list = []
        for info in infos:
            layout = layout_for(info, user)
            steps += partition_steps(info, layout, LINUX_RAID_TYPE)
            members_list.append(blockdev.partition_node(info.path, 1))
        steps.append(MdCreateStep(md_path, md_name, level, tuple(members_list), None))
        facts = op_summary(smallest, user, "partition end on each member")
        how = f"RAID {level} ignores --size, so each member gets a partition ending at U"
    facts.insert(0, f"RAID {level} over {len(infos)} members as {md_path}: {how}")
    return Plan("mdraid", tuple(infos), why, steps, facts, warnings)
