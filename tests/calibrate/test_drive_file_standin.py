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


@pytest.mark.parametrize("t_cmd_us", [3.0, -2.0])
def test_twin_carries_the_fitted_times_in_a_drive_file(tmp_path, t_cmd_us):
    """t_cmd ≥ 0: one controller context holding t_cmd per command plus t_page per mapping
    update (t_cmd + WAF·t_page per host write); t_cmd < 0: the NAND alone with GC read time.
    Either way the file passes the drive-file checks (presets.load_drive_file)."""
    from overprov.calibrate import twin

    p = twin.TwinParameters(4 * 2**30, 0.07, 12.0, t_cmd_us, {}, "test")
    drive = presets.load_drive_file(twin.write(tmp_path / "twin.toml", p))
    timing = drive["config"]["timing"]
    per_page = twin.DIES * twin.UNITS_PER_FLASH_PAGE
    if t_cmd_us >= 0:
        assert timing["controller"] == {
            "contexts": 1, "command_us": 3.0, "data_us_per_4kib": 0.0, "map_update_us": 12.0,
        }  # fmt: skip
        assert timing["nand"]["program_us"] == pytest.approx(12.0 * twin.NAND_SHARE * per_page)
    else:
        assert "controller" not in timing
        assert timing["nand"]["read_us"] == pytest.approx(2.0 * per_page)
        assert timing["nand"]["program_us"] == pytest.approx(10.0 * per_page)
