"""Pick a method per device and build the plans (nothing here writes to a device)."""

from __future__ import annotations

from collections.abc import Sequence

from overprov import blockdev
from overprov.apply.base import Plan, VisibleSize
from overprov.apply.hpa import plan_hpa, read_max_sectors
from overprov.apply.mdraid import plan_mdraid
from overprov.apply.nvme import controller_path, id_ctrl, plan_nvme_namespace
from overprov.apply.partition import plan_partition
from overprov.blockdev import DeviceInfo, Runner, run_tool
from overprov.errors import ConfigError, ToolError

METHODS = ("auto", "partition", "hpa", "nvme-ns", "mdraid")

PARTITION_WHY = "partition + discard works on any drive that supports discard and is easy to undo"


def plan_auto(info: DeviceInfo, target: VisibleSize, *, runner: Runner = run_tool) -> Plan:
    """NVMe with namespace management → nvme-ns; everything else → partition + discard.
    HPA is never picked automatically (permanent, one change per power cycle, mishandled by
    some USB bridges and HBAs); the reason says so when the drive supports it."""
    if info.rotational:
        note = (
            " (the device reports itself rotational: on a hard disk OP gains nothing; "
            "loop and some virtual devices report rotational too)"
        )
    else:
        note = ""
    if info.is_nvme:
        try:
            ctrl = id_ctrl(controller_path(info), runner)
        except (ToolError, ConfigError) as exc:
            return plan_partition(
                info, target, why=f"auto: NVMe, but nvme id-ctrl failed ({exc}); {PARTITION_WHY}"
            )
        if ctrl.namespace_management:
            why = (
                f"auto: NVMe controller supports namespace management (OACS {ctrl.oacs:#x}, "
                "bit 3): a smaller namespace leaves the rest as unallocated NVM capacity "
                "(unvmcap) that the controller itself holds, without relying on TRIM"
            )
            try:
                return plan_nvme_namespace(info, target, runner=runner, why=why)
            except ConfigError as exc:
                return plan_partition(
                    info,
                    target,
                    why=f"auto: namespace management is supported but not usable here "
                    f"({exc}); {PARTITION_WHY}",
                )
        return plan_partition(
            info,
            target,
            why=f"auto: NVMe without namespace management (OACS {ctrl.oacs:#x}, bit 3 clear); "
            f"{PARTITION_WHY}{note}",
        )
    max_sectors, reason = read_max_sectors(info.path, runner)
    if max_sectors is not None:
        why = (
            f"auto: ATA drive (hdparm -N: max sectors = {max_sectors.current}/"
            f"{max_sectors.native}); HPA is possible but not chosen automatically because it is "
            f"permanent, allowed once per power cycle and mishandled by some USB bridges and "
            f"HBAs; {PARTITION_WHY} (use --method hpa to hide the area from the OS){note}"
        )
    else:
        why = f"auto: {PARTITION_WHY}; no NVMe namespace management or ATA HPA here{note}"
    return plan_partition(info, target, why=why)


def build_plans(
    paths: Sequence[str],
    target: VisibleSize,
    *,
    method: str = "auto",
    raid_level: str | None = None,
    md_name: str = "overprov",
    runner: Runner = run_tool,
) -> list[Plan]:
    if method not in METHODS:
        raise ConfigError(f"--method: expected one of {', '.join(METHODS)}, got {method!r}")
    if not paths:
        raise ConfigError("device: give at least one device")
    infos = [blockdev.identify(p, runner=runner) for p in paths]
    seen: dict[str, str] = {}  # device number → name as given: another node or link is that device
    for given, info in zip(paths, infos, strict=True):
        if info.dev in seen:
            same = "" if seen[info.dev] == given else f" (as {seen[info.dev]})"
            raise ConfigError(f"device: {given} is listed twice{same}")
        seen[info.dev] = given
    if method == "mdraid" or (method == "auto" and raid_level is not None):
        if raid_level is None:
            raise ConfigError("--raid-level: required with --method mdraid")
        why = (
            "requested (--method mdraid)"
            if method == "mdraid"
            else f"auto: --raid-level {raid_level} given, so one md array is built and every "
            "member is prepared the same way"
        )
        return [plan_mdraid(infos, target, raid_level, md_name=md_name, why=why)]
    if raid_level is not None:
        raise ConfigError(f"--raid-level: applies to --method mdraid or auto, not {method}")
    plans = []
    for info in infos:
        if method == "auto":
            plans.append(plan_auto(info, target, runner=runner))
        elif method == "partition":
            plans.append(plan_partition(info, target))
        elif method == "hpa":
            plans.append(plan_hpa(info, target, runner=runner))
        else:
            plans.append(plan_nvme_namespace(info, target, runner=runner))
    return plans
