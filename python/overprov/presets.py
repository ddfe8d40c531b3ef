"""Drives: the packaged presets (``data/presets.toml``) and drive files, and scaling a drive to a
size that simulates in seconds. The one place a drive description becomes a simulator config:
``simulate --preset``, ``profile sim:`` and ``drive show`` all build drives here.

A drive is named by a preset name or by the path of a TOML drive file holding the keys of one
preset at its top level (``description``, ``source``, ``advertised_bytes``, ``physical_bytes``,
``[config.…]``, and optionally ``[notes]``: a source note per config key). Errors in a drive
file name the file, the line and the key.

A preset is a full-size drive. Scaling by a factor s (``overprov.scaled_drive``, the one rule
for presets and plain drives) keeps every ratio: the NAND and user capacities and the SLC cache
shrink by s; dies, timings, block size and the write buffer stay, so per-die throughput, WAF and
the IOPS curve against drive writes keep their shape (checked by tests/simulate/test_timed.py
and bench/README.md). A scale too small to keep that (too few erase
blocks, or a buffer smaller than one flash page per die) is refused, naming the smallest valid
scale.
"""

from __future__ import annotations

import copy
import re
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from overprov.config_file import key_line
from overprov.errors import ConfigError
from overprov.scaled_drive import GIB, MIN_SCALED_BLOCKS, parse_scale, scale_config

GIB_PER_GB = GIB / 1e9
#: Top-level keys of a drive (a preset or a drive file) and their types.
DRIVE_KEYS: dict[str, type | tuple[type, ...]] = {
    "description": str,
    "source": str,
    "advertised_bytes": int,
    "physical_bytes": int,
    "config": dict,
    "notes": dict,
    "raw_nand_bytes": int,
}


@cache
def all_presets() -> dict[str, dict[str, Any]]:
    text = resources.files("overprov").joinpath("data/presets.toml").read_text()
    return tomllib.loads(text)


def names() -> list[str]:
    return sorted(all_presets())


def is_drive_file(name: str) -> bool:
    """A drive is named by a path when it looks like one (a .toml name or a directory part)."""
    return name.endswith(".toml") or "/" in name


def get(name: str, option: str = "--preset") -> dict[str, Any]:
    """The drive ``name``: a preset name or the path of a drive file; an error names
    ``option``, where the name was given."""
    if is_drive_file(name):
        return load_drive_file(name)
    presets = all_presets()
    if name not in presets:
        raise ConfigError(
            f"{option}: no preset {name!r} (and not a drive file: give a path ending in .toml); "
            f"presets: {', '.join(names())}"
        )
    return copy.deepcopy(presets[name])


def load_drive_file(path: str | Path) -> dict[str, Any]:
    """Read and check a drive file; errors name the file, the line and the key."""
    from overprov import inputs  # bounded: size, UTF-8, depth, no nan/inf

    p = Path(path)
    text = inputs.read_text(p, "drive file")
    drive = inputs.parse_toml(text, str(p), "drive file")

    def fail(key: str, message: str) -> ConfigError:
        line = key_line(text, key)
        where = f"{p}:{line}" if line else str(p)
        return ConfigError(f"{where}: {key}: {message}")

    for key, value in drive.items():
        if key not in DRIVE_KEYS:
            raise fail(key, f"unknown key; a drive file has {', '.join(DRIVE_KEYS)}")
        want = DRIVE_KEYS[key]
        if not isinstance(value, want) or isinstance(value, bool):
            kind = want.__name__ if isinstance(want, type) else "value"
            raise fail(key, f"must be a {kind}, got {value!r}")
    if "advertised_bytes" not in drive:
        raise ConfigError(f"{p}: advertised_bytes: missing (the capacity on the label, bytes)")
    for key in ("advertised_bytes", "physical_bytes"):
        if key in drive and drive[key] <= 0:
            raise fail(key, f"must be above 0, got {drive[key]}")
    from overprov.config_file import check_shape
    from overprov.engine import default_config

    # every config key known and of its kind before any figure is scaled
    check_shape(drive.get("config", {}), default_config(), str(p), text, "config.")
    try:
        check(_build(drive, 1.0))
    except ConfigError as exc:
        field, _, message = str(exc).partition(": ")
        message = re.sub(r" at line \d+ column \d+$", "", message)
        raise fail(f"config.{field}", message) from exc
    drive["file"] = str(p)
    return drive


def check(config: dict[str, Any]) -> dict[str, Any]:
    """Validate a config in the Rust core (field-named errors); returns it resolved."""
    from overprov import engine

    return engine.validate(config)


def physical_bytes(preset: dict[str, Any]) -> float:
    return preset.get("physical_bytes") or preset["advertised_bytes"] * GIB_PER_GB


def scale_factor(preset: dict[str, Any], scale: str | None, option: str = "--scale") -> float:
    """``scale``: None (to about 32 GiB of NAND), a factor ("1", "1/32", "0.05") or a target
    NAND size ("64GiB"); ``option`` names it in refusals."""
    return parse_scale(scale, physical_bytes(preset), option)


def _build(preset: dict[str, Any], factor: float) -> dict[str, Any]:
    cfg = copy.deepcopy(preset.get("config", {}))
    geo = cfg.setdefault("geometry", {})
    geo["advertised_bytes"] = preset["advertised_bytes"]
    geo["physical_bytes"] = physical_bytes(preset)
    geo.setdefault("extra_op_percent", 0.0)
    cfg.setdefault("timing", {})
    return scale_config(cfg, factor)


def smallest_factor(preset: dict[str, Any]) -> float:
    """The smallest scale keeping the drive's behaviour: at least ``MIN_SCALED_BLOCKS`` erase
    blocks, and an SLC cache (if it has one) and its static region (if any) of at least one
    flash page per die."""
    full = check(_build(preset, 1.0))
    geo, timing = full["config"]["geometry"], full["config"]["timing"]
    block_bytes = geo["page_size_bytes"] * geo["pages_per_block"]
    factor = MIN_SCALED_BLOCKS * block_bytes / physical_bytes(preset)
    slc = timing["slc"]
    if timing["enabled"] and slc["enabled"]:
        # the SLC cache must hold at least one flash page per die, or it never spreads
        nand = timing["nand"]
        need = nand["channels"] * nand["dies_per_channel"] * nand["flash_page_bytes"]
        smallest = min(b for b in (slc["max_bytes"], slc.get("static_bytes", 0)) if b > 0)
        factor = max(factor, need / smallest)
    return min(factor, 1.0)


def opens_at(factor: float, least: float) -> bool:
    """Whether a drive whose smallest scale is ``least`` (:func:`smallest_factor`) is built at
    ``factor``: a factor 1e-9 short of the smallest, as a scale written to a few digits may be,
    counts as the smallest."""
    return factor >= least * (1 - 1e-9)


def preset_config(
    name: str, scale: str | None = None, option: str = "--scale"
) -> tuple[dict[str, Any], float]:
    """The SimConfig fragment of drive ``name`` (a preset or a drive file) scaled; returns
    (config, factor). A scale below the smallest that keeps the drive's behaviour is refused,
    naming ``option`` (``--scale``, or a target's ``@SCALE``)."""
    return drive_config(get(name), scale, name, option)


def drive_config(
    preset: dict[str, Any], scale: str | None, name: str, option: str = "--scale"
) -> tuple[dict[str, Any], float]:
    """As :func:`preset_config` for a drive held in memory (a drive file's keys: calibrate's
    twin is simulated from its dict, the file being only an output); ``name`` names it in
    errors."""
    factor = scale_factor(preset, scale, option)
    least = smallest_factor(preset)
    if not opens_at(factor, least):
        nand_gib = physical_bytes(preset) * least / GIB
        raise ConfigError(
            f"{option}: {scale!r} is too small for {name}: the smallest scale that keeps its "
            f"behaviour is {least:.6g} ({nand_gib:.3g}GiB of NAND): at least "
            f"{MIN_SCALED_BLOCKS} erase blocks and an SLC cache of one flash page per die"
        )
    return _build(preset, factor), factor


def describe(name: str) -> str:
    p = get(name)
    return f"{name}: {p.get('description', '')}"
