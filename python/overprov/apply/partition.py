"""Partition + discard: works on any drive that supports discard (TRIM).

Discard the whole device, then write a GPT whose only partition starts at 1 MiB and ends at
U = (1−X)·C (aligned down to 1 MiB). The unpartitioned tail was discarded and is never written,
so the controller can use it as spare area. (docs/apply.md.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from overprov import blockdev, gpt
from overprov.apply.base import (
    DiscardStep,
    Plan,
    Step,
    VerificationError,
    VisibleSize,
    WipeSignaturesStep,
    check_size,
    op_summary,
)
from overprov.blockdev import DeviceInfo, Runner, run_tool
from overprov.capacity import MIB
from overprov.errors import ConfigError

LINUX_FS_TYPE = "8300"  # sgdisk type code: Linux filesystem
LINUX_RAID_TYPE = "FD00"  # sgdisk type code: Linux RAID
PARTITION_NAME = "overprov"
TYPE_GUIDS = {
    LINUX_FS_TYPE: "0FC63DAF-8483-4772-8E79-3D69D8477DE4",
    LINUX_RAID_TYPE: "A19D880F-05FC-4D3B-A006-743F0F84911E",
}
"""The GPT partition type GUID sgdisk writes for each type code (UEFI spec, "GPT Partition
Entry Array"; sgdisk(8) --list-types)."""


@dataclass(frozen=True)
class PartitionLayout:
    sector_bytes: int
    first_lba: int
    last_lba: int  # inclusive
    capacity_bytes: int

    @property
    def start_bytes(self) -> int:
        return self.first_lba * self.sector_bytes

    @property
    def end_bytes(self) -> int:
        """First byte after the partition: the start of the unpartitioned tail."""
        return (self.last_lba + 1) * self.sector_bytes

    @property
    def size_bytes(self) -> int:
        return self.end_bytes - self.start_bytes


def layout_for(info: DeviceInfo, user_bytes: int) -> PartitionLayout:
    """One partition from 1 MiB to ``user_bytes``; checks room for the backup GPT."""
    lss = info.logical_sector_bytes
    if user_bytes % lss:
        user_bytes -= user_bytes % lss
    first = MIB // lss
    last = user_bytes // lss - 1
    last_usable = info.size_bytes // lss - 1 - gpt.gpt_backup_sectors(lss)
    if last < first:
        raise ConfigError(
            f"{info.path}: a partition ending at {user_bytes:,} bytes would not reach past "
            "the first MiB; the device is too small or the extra OP too large"
        )
    if last > last_usable:
        gpt_bytes = (info.size_bytes // lss - 1 - last_usable) * lss
        said = (
            f"{info.path}: a partition ending at {user_bytes:,} bytes overlaps the backup GPT "
            f"in the last {gpt_bytes:,} bytes of the device"
        )
        if user_bytes >= info.size_bytes // MIB * MIB:  # no tail left at all: extra OP 0
            raise ConfigError(
                f"{said}. An extra OP of 0 % leaves the whole device usable, so no partition "
                "change is needed: leave the device as it is (to remove the OP partition an "
                "earlier apply made, see 'Undo' in docs/apply.md); any extra OP above 0 % "
                "leaves room for the backup GPT"
            )
        raise ConfigError(f"{said}; use a larger extra OP")
    return PartitionLayout(lss, first, last, info.size_bytes)


@dataclass
class GptPartitionStep(Step):
    device: DeviceInfo
    layout: PartitionLayout
    type_code: str = LINUX_FS_TYPE

    def __post_init__(self) -> None:
        self.title = (
            f"Write a new GPT on {self.device.path} with one partition from sector "
            f"{self.layout.first_lba} to {self.layout.last_lba} "
            f"({self.layout.size_bytes / MIB:,.0f} MiB); the tail stays unpartitioned"
        )
        self.busy_check = (self.device.path,)

    def commands(self) -> list[list[str]]:
        return [
            [
                "sgdisk",
                "--clear",
                f"--new=1:{self.layout.first_lba}:{self.layout.last_lba}",
                f"--typecode=1:{self.type_code}",
                f"--change-name=1:{PARTITION_NAME}",
                self.device.path,
            ]
        ]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        notes = [check_size(self.device.path, self.device.size_bytes)]
        table = gpt.read_gpt(self.device.path, self.layout.sector_bytes)
        if table is None:
            raise VerificationError(f"no valid GPT found on {self.device.path} after sgdisk")
        if not table.backup_valid:
            raise VerificationError(f"the backup GPT header on {self.device.path} is invalid")
        got = [(p.number, p.first_lba, p.last_lba) for p in table.partitions]
        want = [(1, self.layout.first_lba, self.layout.last_lba)]
        if got != want:
            raise VerificationError(
                f"partition table on {self.device.path} is {got}, expected {want}"
            )
        tail = self.layout.capacity_bytes - self.layout.end_bytes
        notes.append(
            f"GPT re-read from the device: partition 1 = sectors {self.layout.first_lba}"
            f"–{self.layout.last_lba}; unpartitioned tail {tail:,} bytes "
            f"({tail / self.layout.capacity_bytes * 100:.2f} %)"
        )
        return notes


@dataclass
class KernelPartitionsStep(Step):
    """sgdisk asks the kernel to re-read the table; partx also works where that is ignored."""

    device: DeviceInfo
    layout: PartitionLayout

    def __post_init__(self) -> None:
        self.title = f"Tell the kernel about the new partition of {self.device.path}"
        self.busy_check = (self.device.path,)

    def commands(self) -> list[list[str]]:
        return [["partx", "--update", self.device.path]]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        node = blockdev.partition_node(self.device.path, 1)
        name = os.path.basename(node)
        sysdir = blockdev.SYSFS / "class" / "block" / name
        try:
            start = int((sysdir / "start").read_text()) * 512
            size = int((sysdir / "size").read_text()) * 512
        except OSError:
            raise VerificationError(f"the kernel does not show {node} after partx") from None
        if (start, size) != (self.layout.start_bytes, self.layout.size_bytes):
            raise VerificationError(
                f"kernel sees {node} at {start:,}+{size:,} bytes, expected "
                f"{self.layout.start_bytes:,}+{self.layout.size_bytes:,}"
            )
        return [f"kernel shows {node}: {size:,} bytes from byte {start:,}"]


def made_already(info: DeviceInfo, layout: PartitionLayout, type_code: str = LINUX_FS_TYPE) -> str:
    """Why ``info`` already holds what :func:`partition_steps` would make of it (its GPT, both
    copies valid, has one partition, 1, named :data:`PARTITION_NAME`, of ``type_code``, over
    exactly ``layout``, and the kernel shows it there), else "". Such a drive is at the OP
    asked for: wiping and discarding it again would only destroy its data. Reads only."""
    try:
        table = gpt.read_gpt(info.path, layout.sector_bytes)
    except OSError:
        return ""
    if table is None or not table.backup_valid:
        return ""
    got = [(p.number, p.first_lba, p.last_lba, p.type_guid, p.name) for p in table.partitions]
    want = (1, layout.first_lba, layout.last_lba, TYPE_GUIDS[type_code], PARTITION_NAME)
    kernel = [(p.start_bytes, p.size_bytes) for p in info.partitions]
    if got != [want] or kernel != [(layout.start_bytes, layout.size_bytes)]:
        return ""
    return (
        f"{info.path} already holds the partition this plan makes: partition 1 "
        f'"{PARTITION_NAME}" from sector {layout.first_lba} to {layout.last_lba} (GPT read '
        "from the device, the kernel shows it); nothing is wiped, discarded or written"
    )


def partition_steps(
    info: DeviceInfo, layout: PartitionLayout, type_code: str = LINUX_FS_TYPE
) -> list[Step]:
    tail = layout.capacity_bytes - layout.end_bytes
    return [
        WipeSignaturesStep(info),
        DiscardStep(info, sample_offset=layout.end_bytes, sample_length=tail),
        GptPartitionStep(info, layout, type_code),
        KernelPartitionsStep(info, layout),
    ]


def require_whole_disk_with_discard(info: DeviceInfo, method: str) -> None:
    if info.is_partition:
        raise ConfigError(
            f"--method {method}: {info.path} is a partition; OP is applied to a whole device "
            f"(give /dev/{info.parent})"
        )
    if not info.supports_discard:
        raise ConfigError(
            f"--method {method}: {info.path} does not support discard (TRIM), so the space "
            "left unused cannot be handed back to the controller; purge the drive first "
            "(ATA secure erase, nvme format/sanitize) and never write the tail, or use a "
            "method the controller sees (nvme-ns)"
        )


def plan_partition(
    info: DeviceInfo, target: VisibleSize, *, why: str = "requested (--method partition)"
) -> Plan:
    require_whole_disk_with_discard(info, "partition")
    user = target.user_bytes(info.size_bytes, info.logical_sector_bytes)
    layout = layout_for(info, user)
    facts = op_summary(info.size_bytes, layout.end_bytes, "partition ends at")
    facts.insert(1, f"logical sector {layout.sector_bytes} bytes; partition starts at 1 MiB")
    done = made_already(info, layout)
    steps = [] if done else partition_steps(info, layout)
    return Plan("partition", (info,), why, steps, facts, done=done)
