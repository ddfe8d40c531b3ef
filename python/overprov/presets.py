"""Drive presets (``data/presets.toml``) and scaling them to a size that simulates in seconds.

A preset is a full-size drive. Scaling by a factor s keeps every ratio: the NAND and user
capacities, the write buffer and the SLC cache shrink by s; dies, timings and block size stay,
so per-die throughput, WAF and the IOPS curve against drive writes keep their shape (checked by
tests/simulate/test_timed.py and bench/README.md).
"""

from __future__ import annotations

import copy
import tomllib
from functools import cache
from importlib import resources
from typing import Any

from overprov.errors import ConfigError
from overprov.units import parse_size_bytes

GIB = 2**30
GIB_PER_GB = GIB / 1e9
#: Default scaled size: physical NAND of about this many bytes.
DEFAULT_SCALED_PHYSICAL_BYTES = 32 * GIB


@cache
def all_presets() -> dict[str, dict[str, Any]]:
    text = resources.files("overprov").joinpath("data/presets.toml").read_text()
    return tomllib.loads(text)


def names() -> list[str]:
    return sorted(all_presets())


def is_drive_file(name: str) -> bool:
    """True when ``name`` is a path to a TOML drive file rather than a preset name."""
    return name.endswith(".toml")


def _read_drive_file(path: str) -> dict[str, Any]:
    # Stand-in until the drive-file loader lands: one preset's keys at the top level.
    try:
        with open(path, "rb") as fh:
            drive = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"drive file {path}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"drive file {path}: {exc}") from exc
    if "advertised_bytes" not in drive:
        raise ConfigError(f"drive file {path}: missing key advertised_bytes")
    return drive


def get(name: str) -> dict[str, Any]:
    """Preset ``name``, or the drive file at ``name`` when it ends in .toml."""
    if is_drive_file(name):
        return _read_drive_file(name)
    presets = all_presets()
    if name not in presets:
        raise ConfigError(f"--preset: no preset {name!r}; presets: {', '.join(names())}")
    return copy.deepcopy(presets[name])


def physical_bytes(preset: dict[str, Any]) -> float:
    return preset.get("physical_bytes") or preset["advertised_bytes"] * GIB_PER_GB


def scale_factor(preset: dict[str, Any], scale: str | None) -> float:
    """``scale``: None (to about 32 GiB of NAND), a factor ("1", "1/32", "0.05") or a target
    NAND size ("64GiB")."""
    full = physical_bytes(preset)
    if scale is None:
        return min(1.0, DEFAULT_SCALED_PHYSICAL_BYTES / full)
    text = scale.strip()
    try:
        if "/" in text:
            num, den = text.split("/")
            factor = float(num) / float(den)
        else:
            factor = float(text)
    except ValueError:
        factor = parse_size_bytes(text, "--scale", bare_unit="b") / full
    if not 0 < factor <= 1:
        raise ConfigError(f"--scale: must shrink the drive (0 < factor <= 1), got {scale!r}")
    return factor


def preset_config(name: str, scale: str | None = None) -> tuple[dict[str, Any], float]:
    """The SimConfig fragment of preset ``name`` scaled; returns (config, factor)."""
    preset = get(name)
    factor = scale_factor(preset, scale)
    cfg = preset.get("config", {})
    geo = cfg.setdefault("geometry", {})
    geo["advertised_bytes"] = int(preset["advertised_bytes"] * factor)
    if "physical_bytes" in preset:
        geo["physical_bytes"] = int(preset["physical_bytes"] * factor)
    else:
        geo["physical_bytes"] = int(preset["advertised_bytes"] * GIB_PER_GB * factor)
    geo.setdefault("extra_op_percent", 0.0)
    timing = cfg.setdefault("timing", {})
    buf = timing.setdefault("buffer", {})
    if "bytes" in buf:
        buf["bytes"] = int(buf["bytes"] * factor)
    slc = timing.get("slc", {})
    if slc.get("enabled"):
        slc["max_bytes"] = int(slc["max_bytes"] * factor)
    return cfg, factor


def describe(name: str) -> str:
    p = get(name)
    return f"{name}: {p.get('description', '')}"
