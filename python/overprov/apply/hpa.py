"""SATA Host Protected Area / Accessible Max Address: make the drive report fewer sectors.

``hdparm -N DEV`` prints `` max sectors   = CURRENT/NATIVE, HPA is enabled|disabled`` (or
``ACCESSIBLE MAX ADDRESS enabled|disabled`` on ACS-3 drives). ``hdparm -Np<COUNT>`` sets COUNT
visible sectors permanently (``p``); hdparm refuses to shrink a drive without
``--yes-i-know-what-i-am-doing``. A drive takes one max-address change per power cycle, so the
whole device is discarded *before* the area is hidden, while it is still addressable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from overprov import blockdev
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
from overprov.apply.partition import require_whole_disk_with_discard
from overprov.blockdev import DeviceInfo, Runner, run_tool
from overprov.errors import ConfigError, ToolError

_MAX_SECTORS = re.compile(r"max sectors\s*=\s*(\d+)\s*/\s*(\d+)")


@dataclass(frozen=True)
class MaxSectors:
    current: int  # sectors visible now
    native: int  # sectors the drive really has
    accessible_max_address: bool  # ACS-3 AMAX rather than the older HPA feature set

    @property
    def hidden(self) -> int:
        return self.native - self.current


def parse_hdparm_n(text: str) -> MaxSectors | None:
    """Parse ``hdparm -N`` output; None if it shows no max sectors (not an ATA device)."""
    m = _MAX_SECTORS.search(text)
    if not m:
        return None
    return MaxSectors(int(m.group(1)), int(m.group(2)), "ACCESSIBLE MAX ADDRESS" in text)


def read_max_sectors(path: str, runner: Runner = run_tool) -> tuple[MaxSectors | None, str]:
    """(max sectors, "") or (None, why not)."""
    try:
        proc = runner(["hdparm", "-N", path], check=False)
    except ToolError as exc:
        return None, str(exc)
    parsed = parse_hdparm_n(proc.stdout)
    if parsed is None:
        said = " ".join((proc.stderr + " " + proc.stdout).split())
        return None, (
            f"`hdparm -N {path}` reported no max sectors ({said or 'no output'}): not an ATA "
            "drive, or a USB bridge/RAID controller that does not pass ATA commands"
        )
    return parsed, ""


@dataclass
class SetMaxSectorsStep(Step):
    device: DeviceInfo
    visible_sectors: int

    def __post_init__(self) -> None:
        self.title = (
            f"Set {self.device.path} to report {self.visible_sectors:,} sectors, permanently "
            "(one change per power cycle)"
        )
        self.busy_check = (self.device.path,)
        self.identity_changes = ("size_bytes",)  # the point of the step

    def commands(self) -> list[list[str]]:
        return [
            [
                "hdparm",
                "--yes-i-know-what-i-am-doing",
                f"-Np{self.visible_sectors}",
                self.device.path,
            ]
        ]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        now, why = read_max_sectors(self.device.path, runner)
        if now is None:
            raise VerificationError(f"cannot re-read max sectors: {why}")
        if now.current != self.visible_sectors:
            raise VerificationError(
                f"{self.device.path} reports {now.current:,} visible sectors after hdparm, "
                f"expected {self.visible_sectors:,}"
            )
        return [f"hdparm -N: max sectors = {now.current:,}/{now.native:,} (hidden {now.hidden:,})"]


@dataclass
class RescanStep(Step):
    """Make the kernel re-read the drive's capacity (SCSI/libata rescan)."""

    device: DeviceInfo
    expected_bytes: int

    def __post_init__(self) -> None:
        self.title = f"Make the kernel re-read the capacity of {self.device.path}"

    @property
    def rescan_file(self) -> str:
        return str(blockdev.SYSFS / "block" / self.device.name / "device" / "rescan")

    def show(self) -> list[str]:
        return [f"echo 1 > {self.rescan_file}"]

    def apply(self, runner: Runner = run_tool) -> list[str]:
        try:
            with open(self.rescan_file, "w") as f:
                f.write("1")
        except OSError as exc:
            raise ToolError(f"cannot write {self.rescan_file}: {exc.strerror}") from None
        return self.verify(runner)

    def verify(self, runner: Runner = run_tool) -> list[str]:
        return [check_size(self.device.path, self.expected_bytes)]


def plan_hpa(
    info: DeviceInfo,
    target: VisibleSize,
    *,
    runner: Runner = run_tool,
    why: str = "requested (--method hpa)",
) -> Plan:
    require_whole_disk_with_discard(info, "hpa")
    max_sectors, reason = read_max_sectors(info.path, runner)
    if max_sectors is None:
        raise ConfigError(f"--method hpa: {info.path}: {reason}")
    lss = info.logical_sector_bytes
    if max_sectors.current != max_sectors.native:
        raise ConfigError(
            f"--method hpa: {info.path} already hides {max_sectors.hidden:,} sectors "
            f"(max sectors = {max_sectors.current}/{max_sectors.native}); the hidden part "
            "cannot be discarded while it is hidden. Restore the native size first "
            f"(hdparm --yes-i-know-what-i-am-doing -Np{max_sectors.native} {info.path}), "
            "power-cycle the drive, then plan again"
        )
    if max_sectors.current * lss != info.size_bytes:
        raise ConfigError(
            f"--method hpa: hdparm reports {max_sectors.current:,} sectors of {lss} bytes but "
            f"the kernel sees {info.size_bytes:,} bytes for {info.path}; rescan or reboot "
            "before changing the max address"
        )
    capacity = max_sectors.native * lss
    user = target.user_bytes(capacity, lss)
    visible = user // lss
    facts = op_summary(capacity, visible * lss, "visible after HPA")
    facts.insert(
        1,
        f"hdparm -N: max sectors = {max_sectors.current:,}/{max_sectors.native:,} "
        f"({'ACCESSIBLE MAX ADDRESS' if max_sectors.accessible_max_address else 'HPA'})",
    )
    warnings = [
        "the new size is permanent (it survives power cycles) and a drive accepts one "
        "max-address change per power cycle; some USB bridges and RAID HBAs mishandle HPA",
    ]
    steps: list[Step] = [
        WipeSignaturesStep(info),
        DiscardStep(info, sample_offset=visible * lss, sample_length=capacity - visible * lss),
        SetMaxSectorsStep(info, visible),
        RescanStep(info, visible * lss),
    ]
    return Plan("hpa", (info,), why, steps, facts, warnings)
