"""Drive presets (``data/presets.toml``) and scaling them to a size that simulates in seconds.

A preset is a full-size drive. Scaling by a factor s (``overprov.scaled_drive``) keeps every
ratio: the NAND and user capacities, the write buffer and the SLC cache shrink by s; dies,
timings and block size stay, so per-die throughput, WAF and the IOPS curve against drive writes
keep their shape (checked by tests/simulate/test_timed.py and bench/README.md).
"""

from __future__ import annotations

import copy
import tomllib
from functools import cache
from importlib import resources
from typing import Any

from overprov.errors import ConfigError
from overprov.scaled_drive import GIB, parse_scale, scale_config

GIB_PER_GB = GIB / 1e9


@cache
def all_presets() -> dict[str, dict[str, Any]]:
    text = resources.files("overprov").joinpath("data/presets.toml").read_text()
    return tomllib.loads(text)


def names() -> list[str]:
    return sorted(all_presets())


def get(name: str) -> dict[str, Any]:
    presets = all_presets()
    if name not in presets:
        raise ConfigError(f"--preset: no preset {name!r}; presets: {', '.join(names())}")
    return copy.deepcopy(presets[name])


def physical_bytes(preset: dict[str, Any]) -> float:
    return preset.get("physical_bytes") or preset["advertised_bytes"] * GIB_PER_GB


def scale_factor(preset: dict[str, Any], scale: str | None) -> float:
    """``scale``: None (to about 32 GiB of NAND), a factor ("1", "1/32", "0.05") or a target
    NAND size ("64GiB")."""
    return parse_scale(scale, physical_bytes(preset))


def preset_config(name: str, scale: str | None = None) -> tuple[dict[str, Any], float]:
    """The SimConfig fragment of preset ``name`` scaled (``overprov.scaled_drive``'s rule);
    returns (config, factor)."""
    preset = get(name)
    factor = scale_factor(preset, scale)
    cfg = preset.get("config", {})
    geo = cfg.setdefault("geometry", {})
    geo["advertised_bytes"] = preset["advertised_bytes"]
    geo["physical_bytes"] = physical_bytes(preset)
    geo.setdefault("extra_op_percent", 0.0)
    return scale_config(cfg, factor), factor


def describe(name: str) -> str:
    p = get(name)
    return f"{name}: {p.get('description', '')}"
