"""The core's geometry refusals in the words of simulate's flags: ``--extra-op`` without a
size to take it from, and a ``--user-bytes`` too small for a drive (with the smallest that
would do, found by asking the core)."""

from __future__ import annotations

import argparse
import copy
from collections.abc import Callable
from typing import Any

from overprov.engine import default_config, validate
from overprov.errors import ConfigError
from overprov.units import human_bytes

_NO_ADVERTISED = "geometry.advertised_bytes: extra_op_percent without a physical size"
_TOO_SMALL = ("geometry.physical_blocks: the drive has no blocks", "OP too small to collect")
MAX_USER_BYTES = 2**44  # the core's limit is 16 TiB of 4 KiB pages: no search beyond it


#: simulate's config_from_args and sweep_configs (simulate/cli.py, which imports this module)
MakeConfig = Callable[[argparse.Namespace], dict[str, Any]]
MakeSweep = Callable[[dict[str, Any], argparse.Namespace], list[dict[str, Any]]]


def in_flag_words(
    message: str, args: argparse.Namespace, make_config: MakeConfig, make_sweep: MakeSweep
) -> str:
    """``message`` (a core refusal of simulate's ``args``) said with the flags that caused it,
    or unchanged; ``make_config`` and ``make_sweep`` rebuild the configs the flags make."""
    if message.startswith(_NO_ADVERTISED) and getattr(args, "extra_op", None):
        return (
            "--extra-op needs --advertised SIZE or --preset NAME: extra OP is a share of the "
            "advertised capacity, and without a physical size (--physical-bytes, "
            "--physical-blocks) nothing gives it"
        )
    user_bytes = getattr(args, "user_bytes", None)
    if user_bytes is None or not any(t in message for t in _TOO_SMALL):
        return message
    config = refused_config(args, make_config, make_sweep)
    least = None if config is None else smallest_user_bytes(config)
    if config is None or least is None:
        return message
    return (
        f"--user-bytes {human_bytes(user_bytes)}: too small for a drive with these settings: "
        f"give a whole number of erase blocks ({block_bytes(config):,} B each), at least "
        f"{human_bytes(least)} ({least:,} B), so that over-provisioning leaves the spare "
        f"blocks garbage collection needs ({message})"
    )


def refused_config(
    args: argparse.Namespace, make_config: MakeConfig, make_sweep: MakeSweep
) -> dict[str, Any] | None:
    """The first of simulate's configs (as its flags make them, unscaled) that the core
    refuses, or None."""
    try:
        configs = [] if args.demo else make_sweep(make_config(args), args)
    except ConfigError:
        return None
    return next((c for c in configs if not _accepted(c, None)), None)


def _accepted(config: dict[str, Any], user_bytes: int | None) -> bool:
    """Whether the core accepts ``config`` (with ``user_bytes`` in place of its own)."""
    trial = copy.deepcopy(config)
    if user_bytes is not None:
        trial.setdefault("geometry", {})["user_bytes"] = user_bytes
    try:
        validate(trial)
    except ConfigError:
        return False
    return True


def block_bytes(config: dict[str, Any]) -> int:
    """One erase block of ``config`` (page size × pages per block, the core's defaults where
    the config leaves them out)."""
    geo = {**default_config()["geometry"], **{
        k: v for k, v in config.get("geometry", {}).items() if v is not None
    }}  # fmt: skip
    return int(geo["page_size_bytes"]) * int(geo["pages_per_block"])


def smallest_user_bytes(config: dict[str, Any]) -> int | None:
    """The smallest ``geometry.user_bytes``, in whole erase blocks, that the core accepts with
    the rest of ``config`` unchanged (bisection; sizes that are not whole blocks round their
    pages, so one just above may still be refused); None if none up to MAX_USER_BYTES."""
    unit = block_bytes(config)
    hi = 1
    while not _accepted(config, hi * unit):
        hi *= 2
        if hi * unit > MAX_USER_BYTES:
            return None
    lo = hi // 2  # refused, or 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _accepted(config, mid * unit):
            hi = mid
        else:
            lo = mid
    return hi * unit
