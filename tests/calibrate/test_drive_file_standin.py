"""The stand-in drive-file path: ``sim:PATH.toml[@SCALE]`` reads one preset's keys from a file."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
from overprov import presets
from overprov.errors import ConfigError
from overprov.profile.sim_target import SimTarget, parse_spec


def _preset_as_file(tmp_path, name="older-mlc-sata"):
    """The preset's section of presets.toml, its keys moved to the top level."""
    text = resources.files("overprov").joinpath("data/presets.toml").read_text()
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith("["):
            inside = line.startswith(f"[{name}]") or line.startswith(f"[{name}.")
            if line.startswith(f"[{name}."):
                line = "[" + line[len(name) + 2 :]
            elif inside:
                continue
        if inside:
            lines.append(line)
    path = tmp_path / "drive.toml"
    path.write_text("\n".join(lines) + "\n")
    assert tomllib.loads(path.read_text())["config"] == tomllib.loads(text)[name]["config"]
    return path


def test_drive_file_gives_the_same_drive_as_its_preset(tmp_path):
    path = _preset_as_file(tmp_path)
    assert parse_spec(f"sim:{path}@1/64") == (str(path), "1/64")
    from_file = SimTarget(f"sim:{path}@1/64")
    from_preset = SimTarget("sim:older-mlc-sata@1/64")
    assert from_file.config == from_preset.config
    assert from_file.capacity_bytes == from_preset.capacity_bytes


def test_drive_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("description = 'no sizes'\n")
    with pytest.raises(ConfigError, match="bad.toml.*advertised_bytes"):
        presets.get(str(bad))
    with pytest.raises(ConfigError, match="missing.toml"):
        presets.get(str(tmp_path / "missing.toml"))
