"""``--dry-run`` of profile, calibrate and qualify: identify the target, run the safety checks,
show the plan and its estimate (time, drive writes, wear as a share of the rated endurance when
it is known), and write nothing — no byte to the target, no output folder, no file created.

The target is identified read-only: a block device through ``blockdev.identify`` (sysfs,
lsblk, wipefs ``--no-act``) and the refusal rules of docs/safety.md, reported rather than
raised; a file through ``stat``; a simulated drive from its drive file. The estimate uses the
drive's own figures where they are known: a ``sim:`` drive's (:func:`sim_drive_iops`: the
controller, link and NAND bounds of its parameters, the NAND bound divided by the WAF of the
greedy model at the level's spare), else stated assumptions (a real drive says nothing of its
speed until it is written to).
"""

from __future__ import annotations

import argparse
import os
import stat
from dataclasses import dataclass, field
from typing import Any

from overprov import presets
from overprov.errors import ConfigError, OverprovError, UnsafeDeviceError
from overprov.file_location import check_missing_target, less_than_a_block, target_kind
from overprov.units import human_bytes, human_seconds

ASSUMED_RANDOM_IOPS = 50_000.0
"""A real drive's random-write IOPS, when nothing is known of it (profile's assumption)."""


def add_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help=f"identify and check the target, show the plan of the {what} and its estimate "
        "(time, drive writes, wear), and write nothing: no byte to the target, no output "
        "folder (docs/cli.md)",
    )


def refuse_json(json_path: object) -> None:
    """A dry run writes no document: refuse (ConfigError) its --json rather than leave the file
    unwritten without a word, or put the plan's text where ``--json -`` promises JSON."""
    if json_path is not None:
        raise ConfigError(
            f"--json {json_path}: a dry run writes nothing, no JSON document either; leave out "
            "--json, or --dry-run"
        )


@dataclass
class Identified:
    """A target as a dry run sees it, without opening it for writing."""

    spec: str
    kind: str
    capacity_bytes: int
    members: list[str]
    checks: list[str] = field(default_factory=list)
    """One line per finding of the safety checks (refusals are listed, not raised)."""
    sim: Any = None
    """The simulated drive (a ``SimTarget``, never opened) of a ``sim:`` spec."""


def check_members(spec: str, *, size_given: bool, bs_bytes: int = 4096) -> list[str]:
    """The members of a device or file target (``a,b`` is a RAID group), each refused as a run
    refuses it when it does not exist (without ``--size``, or in /dev), is neither a block
    device nor a regular file, or is a file of less than one block without ``--size`` (a run
    grows a file to ``--size``): read-only, before any output folder is made."""
    members = [m for m in spec.split(",") if m]
    for m in members:
        real = os.path.realpath(m)  # a symlink, a relative path, a trailing slash: what it names
        if not os.path.exists(real):
            check_missing_target(m, size_given=size_given)
        elif target_kind(real) == "file" and not size_given and os.stat(real).st_size < bs_bytes:
            raise less_than_a_block(spec, bs_bytes, size_given=False)
    return members


def identify(
    spec: str,
    *,
    size_bytes: int | None = None,
    bs_bytes: int = 4096,
    confirm: list[str] | None = None,
    allow_hdd: bool = False,
) -> Identified:
    """The target of ``spec`` identified read-only, with what its checks would say."""
    if spec.startswith("sim:"):
        from overprov.profile.sim_target import SimTarget

        t = SimTarget(spec)
        return Identified(
            spec, "sim", t.capacity_bytes, [spec], ["simulated: nothing is written"], t
        )
    from overprov import blockdev, device_users, file_guard, hard_disk
    from overprov.file_location import check_capacity, check_room
    from overprov.fio import check_job_filename
    from overprov.profile.fio_job import workload_start

    size_given = size_bytes is not None
    members = check_members(spec, size_given=size_given, bs_bytes=bs_bytes)  # as a run would
    sizes, checks, kinds = [], [], set()
    for m in members:
        real = os.path.realpath(m)  # a symlink, a relative path, a trailing slash: what it names
        if not os.path.exists(real):
            kinds.add("file")
            checks.append(f"{m}: does not exist; a run creates it ({human_bytes(size_bytes)})")
            sizes.append(size_bytes)
            continue
        st = os.stat(real)
        if stat.S_ISBLK(st.st_mode):
            kinds.add("block")
            info = blockdev.identify(m)  # a device not identified is refused, as in a run
            sizes.append(info.size_bytes)
            in_use, overridable = blockdev.refusal_reasons(info, allow_hdd=allow_hdd)
            if not in_use and (busy := device_users.held_exclusively(m)):
                in_use.append(busy)
            confirmed = blockdev.confirmation_for(m, confirm or []) is not None
            model = " ".join(x for x in (info.model, info.serial) if x) or info.name
            if in_use:
                checks.append(f"{m} ({model}): refused, {hard_disk.refused_text(in_use)}")
            elif not confirmed:
                why = f" ({'; '.join(overridable)})" if overridable else ""
                checks.append(
                    f"{m} ({model}): a run needs --i-understand-this-destroys-data {m}{why}"
                )
            else:
                checks.append(f"{m} ({model}): confirmed; a run destroys its data")
        else:
            kinds.add("file")
            sizes.append(max(st.st_size, size_bytes or 0))
            holds = st.st_blocks > 0
            confirmed = blockdev.confirmation_for(m, confirm or []) is not None
            in_use = file_guard.users(st)
            checks.append(
                f"{m}: file of {human_bytes(st.st_size)}"
                + (f"; refused, in use: {'; '.join(in_use)}" if in_use else "")
                + (
                    "; holds data: a run needs --i-understand-this-destroys-data " + m
                    if holds and not confirmed
                    else ""
                )
            )
    capacity = min(sizes) if sizes else 0
    if size_bytes is not None:
        capacity = min(capacity, size_bytes) if capacity else size_bytes
    capacity -= capacity % bs_bytes
    check_capacity(spec, capacity, bs_bytes, workload_start(bs_bytes), size_given=size_given)
    kind = "block" if kinds == {"block"} else "file"
    for m in members:
        try:
            check_job_filename(os.path.realpath(m))
        except OverprovError as exc:
            checks.append(f"{exc} (refused)")
    if len({device_users.identity_key(m) for m in members}) != len(members):
        checks.append(f"{spec}: names the same member twice (refused)")
    elif kind == "file" and capacity > 0:
        try:
            check_room([(m, capacity) for m in members])
        except (UnsafeDeviceError, OSError) as exc:
            checks.append(f"{exc} (refused)")
    return Identified(spec, kind, capacity, members, checks)


def sim_drive_iops(target: Any, extra_op_percent: float = 0.0) -> tuple[float, float]:
    """(fresh-out-of-box, steady) 4 KiB random-write IOPS of a simulated drive from its
    parameters: the fresh drive writes at the least of its controller, link and NAND (or SLC)
    bounds; in steady state the NAND bound is divided by the greedy model's WAF at the spare
    the level leaves (ρ of the drive plus the extra OP)."""
    from overprov import models

    resolved = presets.check(target.config)
    cfg, geo = resolved["config"], resolved["geometry"]
    timing = cfg["timing"]
    nand, ctrl, host = timing["nand"], timing["controller"], timing["host"]
    unit = geo["page_size_bytes"]
    dies = nand["channels"] * nand["dies_per_channel"]
    nand_iops = dies * nand["flash_page_bytes"] / (nand["program_us"] * 1e-6) / unit
    per_write_us = ctrl["command_us"] + ctrl["data_us_per_4kib"] * -(-unit // 4096)
    per_write_us += ctrl["map_update_us"]
    ceiling = ctrl["contexts"] * 1e6 / per_write_us if per_write_us > 0 else float("inf")
    link = host["link_mb_s"] * 1e6 / unit
    fresh_nand = nand_iops
    if timing["slc"]["enabled"]:
        fresh_nand = dies * nand["flash_page_bytes"] / 3 / (timing["slc"]["program_us"] * 1e-6)
        fresh_nand /= unit
    user = geo["user_pages"] * (1 - extra_op_percent / 100)
    rho = geo["blocks"] * geo["pages_per_block"] / max(user, 1) - 1
    waf = models.waf_greedy(max(rho, 1e-3), geo["pages_per_block"])
    fob = min(ceiling, link, fresh_nand)
    steady = min(ceiling, link, nand_iops / waf)
    return fob, steady


def header(ident: Identified, what: str) -> list[str]:
    lines = [
        f"dry run of {what} on {ident.spec}: nothing is written (no byte to the target, no "
        "output folder)",
        f"target: {ident.kind}, {human_bytes(ident.capacity_bytes)} tested"
        + (f" per member ({len(ident.members)} members)" if len(ident.members) > 1 else ""),
    ]
    lines += [f"check: {c}" for c in ident.checks]
    return lines


def wear_line(
    drive_writes: float, capacity_bytes: int, rated_tbw: float | None, lead: str = "writes"
) -> str:
    """Drive writes, their bytes and, with the rated TBW (TB), the share of the endurance."""
    count = f"{drive_writes:,.2f}" if drive_writes < 1000 else f"{drive_writes:,.0f}"
    text = f"{lead} {count} drive writes ({human_bytes(drive_writes * capacity_bytes)})"
    if rated_tbw:
        text += f", {drive_writes * capacity_bytes / (rated_tbw * 1e12):.3%} of the rated endurance"
    return text


def qualify_text(spec: str, tests: list[str], s: Any, options: dict[str, Any]) -> str:
    """``qualify --dry-run``: the target, its checks, and per test the drive writes and time
    it plans, at the drive's steady IOPS (a ``sim:`` drive's own, else an assumption)."""
    ident = identify(
        spec,
        size_bytes=options.get("size_bytes"),
        bs_bytes=s.bs_bytes,
        confirm=options.get("confirm"),
        allow_hdd=bool(options.get("allow_hdd")),
    )
    cap = max(ident.capacity_bytes, 1)
    if ident.sim is not None:
        steady = sim_drive_iops(ident.sim)[1] * 4096 / s.bs_bytes
        whose = "the drive's steady figure from its parameters"
    else:
        steady = ASSUMED_RANDOM_IOPS
        whose = "an assumption: a real drive's speed is known only once it is written"
    round_dw = steady * s.bs_bytes * s.round_seconds / cap
    write_share = (100 - s.read_percent) / 100
    to_steady = min(s.steady_drive_writes, s.max_rounds * round_dw)
    idle_s = len(s.idle_waits_s) * s.idle_burst_seconds * s.idle_repeats * 2
    planned = {
        "cache": 1 + 2 * round_dw * write_share,
        "trim_recovery": 1 + to_steady + (1 - s.discard_percent / 100) + round_dw,
        "idle_recovery": 1 + to_steady + steady * s.bs_bytes * idle_s / cap,
        "consistency": min(s.cliff_drive_writes, s.max_rounds * round_dw)
        if ident.sim is None
        else s.cliff_drive_writes,
    }
    lines = header(ident, "qualify")
    per_s = steady * s.bs_bytes
    for name in tests:
        dw = planned[name]
        lines.append(f"  {name}: about {dw:.2f} drive writes, {human_seconds(dw * cap / per_s)}")
    total_dw = sum(planned[name] for name in tests)
    kind = " of simulated I/O time" if ident.sim is not None else ""
    lines.append(
        f"estimate: about {human_seconds(total_dw * cap / per_s)}{kind}; "
        + wear_line(total_dw, cap, None)
    )
    lines.append(f"  at {steady:,.0f} random-write IOPS ({whose})")
    return "\n".join(lines)
