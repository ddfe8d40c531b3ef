"""``overprov apply``: dry run by default; ``--execute`` runs the plan step by step."""

from __future__ import annotations

import argparse
import shlex

from overprov import blockdev, device_users, hard_disk, units
from overprov.apply.auto import METHODS, build_plans
from overprov.apply.base import Plan, VisibleSize
from overprov.blockdev import CONFIRM_FLAG
from overprov.capacity import parse_capacity_gb, parse_extra_op_percent
from overprov.errors import EXIT_FAILED, UnsafeDeviceError
from overprov.options import ALLOW_HDD_HELP


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "apply",
        help="apply extra OP to drives (dry run unless --execute)",
        description=(
            "Reserve extra over-provisioning on one or more drives. Without --execute this "
            "only prints the plan: the exact commands, and why this method. With --execute "
            f"and {CONFIRM_FLAG} naming every device, it runs the plan step by step and "
            "verifies each step. ALL DATA ON THE DEVICES IS DESTROYED."
        ),
    )
    p.add_argument("devices", nargs="+", metavar="DEVICE", help="whole devices, e.g. /dev/sdb")
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument(
        "--extra-op",
        metavar="PERCENT",
        help="leave this percentage of the capacity unused (e.g. 20; the NAS vendor offers 1–60)",
    )
    size.add_argument(
        "--visible-gb",
        metavar="GB",
        help="keep an IDEMA capacity visible instead (e.g. 400 makes a 512 GB drive a 400 GB one)",
    )
    size.add_argument(
        "--visible-sectors",
        type=units.COUNT,
        metavar="N",
        help="keep exactly N logical sectors visible",
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        default="auto",
        help="how to reserve the space (default: auto, which explains its choice)",
    )
    p.add_argument(
        "--raid-level",
        metavar="N",
        help="build one md RAID array of this level from the devices (0, 1, 4, 5, 6, 10 or linear)",
    )
    p.add_argument(
        "--md-name",
        default="overprov",
        metavar="NAME",
        help="array name: /dev/md/NAME (default: overprov)",
    )
    p.add_argument("--execute", action="store_true", help="run the plan (destroys all data)")
    p.add_argument(
        CONFIRM_FLAG,
        dest="confirm",
        action="append",
        default=[],
        metavar="DEVICE",
        help="confirm one device by its exact name; repeat for every device",
    )
    p.add_argument(
        "--allow-hdd",
        action="store_true",
        help=ALLOW_HDD_HELP,
    )
    p.set_defaults(func=run)


def _target(args: argparse.Namespace) -> VisibleSize:
    if args.extra_op is not None:
        return VisibleSize(extra_op=parse_extra_op_percent(args.extra_op))
    if args.visible_gb is not None:
        return VisibleSize(visible_gb=parse_capacity_gb(args.visible_gb, "--visible-gb"))
    return VisibleSize(visible_sectors=args.visible_sectors)


def _safety_lines(plan: Plan, confirms: list[str], allow_hdd: bool) -> tuple[list[str], list[str]]:
    """What --execute would say about each device. Returns (lines, refusals): one refusal,
    ``DEVICE: why``, per device --execute would refuse whatever is confirmed."""
    lines = []
    refused = []
    for dev in plan.devices:
        in_use, overridable = blockdev.refusal_reasons(dev, allow_hdd=allow_hdd)
        if not in_use and (busy := device_users.held_exclusively(dev.path)):
            in_use.append(busy)
        confirmed = any(blockdev.same_device(c, dev.path) for c in confirms)
        if in_use:
            refused.append(f"{dev.path}: {'; '.join(in_use)}")
            lines.append(f"  safety {dev.path}: REFUSED, {hard_disk.refused_text(in_use)}")
        elif overridable and not confirmed:
            lines.append(f"  safety {dev.path}: would destroy data: {'; '.join(overridable)}")
        else:
            lines.append(
                f"  safety {dev.path}: nothing in use"
                + ("; confirmed" if confirmed else f"; --execute needs {CONFIRM_FLAG} {dev.path}")
            )
    return lines, refused


#: What the dry run's command has where a device's name confirms it: the user types the name
#: (a command that confirms itself would be run without reading the plan).
CONFIRM_PLACEHOLDER = "DEVICE"


def _execute_command(args: argparse.Namespace, plans: list[Plan], devices: list[str]) -> str:
    """The command that runs the plans on ``devices`` (as given), with
    :data:`CONFIRM_PLACEHOLDER` for every device not confirmed on this dry run's own command
    line (those the user typed keep their name)."""
    argv = ["overprov", "apply", *devices]
    if args.extra_op is not None:
        argv += ["--extra-op", str(args.extra_op)]
    elif args.visible_gb is not None:
        argv += ["--visible-gb", str(args.visible_gb)]
    else:
        argv += ["--visible-sectors", str(args.visible_sectors)]
    methods = {p.method for p in plans}
    if len(methods) == 1:
        argv += ["--method", methods.pop()]
    if args.raid_level is not None:
        argv += ["--raid-level", str(args.raid_level), "--md-name", args.md_name]
    argv.append("--execute")
    for plan in plans:
        for dev in plan.devices:
            typed = blockdev.confirmation_for(dev.path, args.confirm)
            argv += [CONFIRM_FLAG, typed or CONFIRM_PLACEHOLDER]
    return shlex.join(argv)


def run(args: argparse.Namespace) -> int:
    target = _target(args)
    plans = build_plans(
        args.devices,
        target,
        method=args.method,
        raid_level=args.raid_level,
        md_name=args.md_name,
    )
    all_devices = [d for plan in plans for d in plan.devices]
    for c in args.confirm:
        if not any(blockdev.same_device(c, d.path) for d in all_devices):
            what = (
                f"{c} stands for a device's name in the dry run's command: type the name "
                "of each device whose data may be destroyed"
                if c == CONFIRM_PLACEHOLDER
                else "that device is not part of this plan"
            )
            raise UnsafeDeviceError(
                f"{CONFIRM_FLAG} {c}: {what} ({', '.join(d.path for d in all_devices)})"
            )
    refused: list[str] = []
    for plan in plans:
        print(plan.show())
        if plan.done:  # nothing to write: no safety check to pass
            continue
        lines, refusals = _safety_lines(plan, args.confirm, args.allow_hdd)
        refused += refusals
        print("\n".join(lines))
    todo = [plan for plan in plans if not plan.done]
    if not todo:
        print(f"\nnothing to do: already at {target.describe()}; nothing was changed")
        return 0
    # one plan per device given, or one for them all (mdraid, never already done)
    given = [d for d, p in zip(args.devices, plans, strict=False) if not p.done]
    devices = given if len(plans) == len(args.devices) else list(args.devices)
    todo_devices = [d for plan in todo for d in plan.devices]
    if not args.execute and refused:
        print(
            "\ndry run: nothing was changed. --execute would be REFUSED now, whatever is "
            "confirmed: a device in use is never written:\n"
            + "\n".join(f"  {r}" for r in refused)
            + "\nStop what uses it (unmount it, stop the array, the pool or the program), then "
            "run this dry run again: it prints the command to execute the plan"
        )
        return EXIT_FAILED  # a refused action (docs/cli.md)
    if not args.execute:
        command = _execute_command(args, todo, devices)
        print(
            "\ndry run: nothing was changed. To run this plan, which DESTROYS ALL DATA on "
            f"{', '.join(d.path for d in todo_devices)}:\n  {command}"
        )
        if CONFIRM_PLACEHOLDER in shlex.split(command):
            print(
                f"  with each {CONFIRM_PLACEHOLDER} replaced by the name of a device above, "
                "typed by you once you have read its plan: one confirmation per device"
            )
        return 0
    # Refuse everything before changing anything.
    for plan in todo:
        plan.check_safety(args.confirm, allow_hdd=args.allow_hdd)
    for plan in todo:
        print(f"\nexecuting plan for {', '.join(d.path for d in plan.devices)}")
        plan.execute(args.confirm, allow_hdd=args.allow_hdd)
    print("\nall steps done and verified")
    return 0
