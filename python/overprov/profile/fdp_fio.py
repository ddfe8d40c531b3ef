"""NVMe FDP for ``profile --fdp-ranges``: fio's data-placement options and their checks.

fio (HOWTO, "I/O engine specific parameters", fio 3.38 and later) tags writes with a placement
ID index through the ``io_uring_cmd`` engine on an NVMe generic character device
(``/dev/ngXnY``), not through a block device: ``cmd_type=nvme``, ``dataplacement=fdp``, and
``plid_select=scheme`` with ``dp_scheme=FILE``, a file of ``start, end, index`` lines in byte
offsets (the first line whose ``[start, end)`` holds a write's offset gives its index; offsets no
line covers get the default handle). fio 3.34-3.37 spell it ``fdp=1``/``fdp_pli`` and have no
offset scheme; earlier versions have none of it. The ranges are ``--fdp-ranges``'s
(:func:`overprov.placement_options.parse_ranges`), in percent of the tested span, the same map
a ``sim:`` target's simulated drive routes its writes by (docs/fdp.md).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from typing import Any

from overprov import fio as fiomod
from overprov.errors import ConfigError, ToolError

__all__ = [
    "FIO_MIN_VERSION",
    "FIO_OPTIONS",
    "char_device_check",
    "fio_job_options",
    "missing_fio_options",
    "plan_lines",
    "refuse_device_run",
    "scheme_text",
]

FIO_MIN_VERSION = "fio-3.38"
"""The first fio release with ``dataplacement``, ``plid_select=scheme`` and ``dp_scheme``."""
FIO_OPTIONS = ("cmd_type", "dataplacement", "plid_select", "dp_scheme")
"""The fio options an FDP job file uses beyond the ordinary ones."""
SCHEME_FILE = "fdp-scheme.txt"


def _fio_text(arg: str) -> str:
    try:
        out = subprocess.run(
            [fiomod.find_fio(), arg], capture_output=True, text=True, timeout=30, check=False
        )
    except OSError as exc:
        raise ToolError(f"cannot run fio {arg}: {exc}") from exc
    return out.stdout + out.stderr


def missing_fio_options() -> list[str]:
    """The FDP options this fio does not know: ``fio --cmdhelp=OPTION`` says "No such command"
    for a general option it lacks; ``cmd_type`` is the io_uring_cmd engine's
    (``fio --enghelp=io_uring_cmd`` lists it)."""
    missing = []
    for option in FIO_OPTIONS:
        if option == "cmd_type":
            text = _fio_text("--enghelp=io_uring_cmd")
            known = re.search(r"^cmd_type\b", text, re.MULTILINE) is not None
        else:
            known = "no such command" not in _fio_text(f"--cmdhelp={option}").lower()
        if not known:
            missing.append(option)
    return missing


def char_device_check(path: str) -> str | None:
    """None when ``path`` is an NVMe generic character device, else why FDP cannot use it."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return f"{path}: does not exist; FDP needs an NVMe generic character device (/dev/ngXnY)"
    if stat.S_ISCHR(mode) and re.fullmatch(r"ng\d+n\d+", os.path.basename(path)):
        return None
    if stat.S_ISBLK(mode):
        what = "a block device"
    elif stat.S_ISCHR(mode):
        what = "a character device but not an NVMe generic one (ngXnY)"
    else:
        what = "not a device"
    match = re.fullmatch(r"nvme(\d+)n(\d+)", os.path.basename(os.path.realpath(path)))
    generic = f"/dev/ng{match[1]}n{match[2]}" if match else "/dev/ngXnY"
    return (
        f"{path}: {what}; fio writes with FDP placement only through the NVMe generic "
        f"character device of the namespace ({generic}) with ioengine=io_uring_cmd"
    )


def scheme_text(ranges: list[dict[str, Any]], span_bytes: int, bs_bytes: int) -> str:
    """fio's ``dp_scheme`` file: the ranges in byte offsets of the tested span, rounded to the
    block size (so a block never straddles two ranges)."""

    def offset(percent: float) -> int:
        return int(round(span_bytes * percent / 100.0 / bs_bytes)) * bs_bytes

    return "".join(
        f"{offset(r['start_percent'])}, {offset(r['end_percent'])}, {r['id']}\n" for r in ranges
    )


def fio_job_options(scheme_file: str = SCHEME_FILE) -> dict[str, Any]:
    """The options each fio job of an FDP profile carries (with the member's generic
    character device as ``filename``)."""
    return {
        "ioengine": "io_uring_cmd",
        "cmd_type": "nvme",
        "dataplacement": "fdp",
        "plid_select": "scheme",
        "dp_scheme": scheme_file,
    }


def plan_lines(
    members: list[str], ranges: list[dict[str, Any]], span_bytes: int, bs_bytes: int
) -> list[str]:
    """``profile --dry-run --fdp-ranges`` on devices: the fio options, the scheme file, and
    what refuses the run (a member that is not a generic character device, an fio without the
    options)."""
    opts = " ".join(f"{k}={v}" for k, v in fio_job_options().items())
    lines = [
        "FDP (--fdp-ranges): each fio job would carry " + opts,
        f"  {SCHEME_FILE} (byte offsets of the tested span, placement ID index):",
    ]
    lines += [f"    {line}" for line in scheme_text(ranges, span_bytes, bs_bytes).splitlines()]
    refusals = [r for r in (char_device_check(m) for m in members) if r]
    missing = missing_fio_options()
    if missing:
        refusals.append(
            f"{fiomod.fio_version()} lacks {', '.join(missing)}: FDP placement needs "
            f"{FIO_MIN_VERSION} or later"
        )
    lines += [f"  refused: {r}" for r in refusals]
    lines.append(
        "  a run with --fdp-ranges is planned and shown here only; it runs on sim: targets"
    )
    return lines


def refuse_device_run(spec: str) -> ConfigError:
    """The error a non-simulated profile with ``--fdp-ranges`` raises."""
    return ConfigError(
        f"--fdp-ranges: {spec!r} is not a sim: target; on devices FDP is planned and shown "
        "(--dry-run lists the fio options, io_uring_cmd on /dev/ngXnY with "
        f"{FIO_MIN_VERSION} or later), not run"
    )
