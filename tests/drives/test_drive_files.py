"""Drive files: a TOML file with the keys of one preset describes a drive for `simulate --preset`,
`profile sim:` and `drive show`; errors name the file, line and key; scales too small to keep
the drive's behaviour are refused with the smallest valid scale named."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from overprov import drive_cli, presets
from overprov.errors import ConfigError
from overprov.profile.target_kinds import make_target


def _preset_as_file(tmp_path: Path, name: str) -> Path:
    """Write the packaged preset `name` as a drive file (its keys at the top level)."""
    text = resources.files("overprov").joinpath("data/presets.toml").read_text()
    lines, keep = [], False
    for line in text.splitlines():
        if line.startswith("["):
            head = line.strip("[]").split(".")
            keep = head[0] == name
            if keep:
                rest = ".".join(head[1:])
                lines.append(f"[{rest}]" if rest else "")
            continue
        if keep:
            lines.append(line)
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    assert tomllib.loads(path.read_text())["advertised_bytes"] > 0
    return path


def test_a_preset_written_as_a_file_builds_the_same_config(tmp_path):
    path = _preset_as_file(tmp_path, "consumer-tlc-sata")
    for scale in (None, "8GiB", "1/128"):
        from_file, f1 = presets.preset_config(str(path), scale)
        from_name, f2 = presets.preset_config("consumer-tlc-sata", scale)
        assert (from_file, f1) == (from_name, f2)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        # an unknown key deep in the config: the file, its line and the dotted key
        (
            "advertised_bytes = 1_000_000_000\n[config.timing]\nenabled = true\n"
            "[config.timing.nand]\nchannels = 2\nprogam_us = 3.0\n",
            ("unknown key 'config.timing.nand.progam_us'", "drive.toml:6)"),
        ),
        # an invalid value, found by the core's validation
        (
            "advertised_bytes = 1_000_000_000\n[config.timing]\nenabled = true\n"
            "[config.timing.nand]\nprogram_us = -3.0\n",
            ":5: config.timing.nand.program_us: must be a positive number",
        ),
        # an unknown top-level key
        ('description = "x"\nadvertised_bytes = 1_000_000_000\ncolour = "red"\n', ":3: colour:"),
        # a wrong type
        ('advertised_bytes = "1TB"\n', ":1: advertised_bytes: must be a int"),
        # a TOML syntax error: tomllib's line
        ("advertised_bytes = \n", ("not valid TOML", "drive.toml:1)")),
    ],
)
def test_drive_file_errors_name_file_line_and_key(tmp_path, text, where):
    path = tmp_path / "drive.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as exc:
        presets.get(str(path))
    assert str(path) in str(exc.value), exc.value
    for part in (where,) if isinstance(where, str) else where:
        assert part in str(exc.value), exc.value


def test_missing_file_and_missing_capacity(tmp_path):
    with pytest.raises(ConfigError, match="no such drive file"):
        presets.get(str(tmp_path / "nope.toml"))
    (tmp_path / "d.toml").write_text('description = "no size"\n')
    with pytest.raises(ConfigError, match="advertised_bytes: missing"):
        presets.get(str(tmp_path / "d.toml"))


def test_too_small_a_scale_is_refused_naming_the_smallest(tmp_path):
    with pytest.raises(ConfigError) as exc:
        presets.preset_config("consumer-tlc-sata", "512MiB")
    least = presets.smallest_factor(presets.get("consumer-tlc-sata"))
    assert f"{least:.6g}" in str(exc.value)
    # the smallest scale named is accepted
    presets.preset_config("consumer-tlc-sata", str(least))
    # the same refusal on the profile's path, for a drive file too
    path = _preset_as_file(tmp_path, "consumer-tlc-sata")
    with pytest.raises(ConfigError, match="too small"):
        make_target(f"sim:{path}@512MiB", None)


def test_profile_and_simulate_build_one_drive_from_a_file(overprov_cli, tmp_path):
    path = _preset_as_file(tmp_path, "older-mlc-sata")
    target = make_target(f"sim:{path}@2GiB", None)
    cfg, factor = presets.preset_config(str(path), "2GiB")
    assert target.factor == factor
    # the target is the same drive with the profiler's own run settings on top
    assert target.config["timing"] == cfg["timing"]
    for key in ("physical_bytes", "advertised_bytes", "pages_per_block"):
        assert target.config["geometry"][key] == cfg["geometry"][key]
    out = tmp_path / "sim.json"
    rc, _, err = overprov_cli(
        "simulate", "--preset", str(path), "--scale", "2GiB", "--extra-op", "20",
        "--warmup", "0.2", "--drive-writes", "0.5", "--no-progress", "--json", str(out),
    )  # fmt: skip
    assert rc == 0, err
    doc = json.loads(out.read_text())
    assert doc["runs"][0]["timed"]["ios"] > 0


def test_drive_show_prints_parameters_derived_figures_and_sources(overprov_cli, tmp_path):
    rc, text, err = overprov_cli("drive", "show", "consumer-tlc-sata")
    assert rc == 0, err
    needles = (
        "timing.nand.program_us = 700.0",
        "raw_nand_bytes",
        "ρ = 0.07",
        "nand_write_mb_s: 374 MB/s",
        "controller_ceiling",
        "sources:",
        "860 EVO",
    )
    for needle in needles:
        assert needle in text, (needle, text)
    # 8 dies × 32 KiB / 700 µs = 374.5 MB/s; the figure is computed, not stored
    d = drive_cli.derived("consumer-tlc-sata")
    assert d["nand_write_mb_s"] == pytest.approx(8 * 32768 / 700e-6 / 1e6)
    path = _preset_as_file(tmp_path, "enterprise-tlc-nvme")
    rc, text, err = overprov_cli("drive", "show", str(path))
    assert rc == 0 and "(drive file)" in text and "write_through_flushes" not in text, text


def test_drive_show_of_a_misspelt_preset_names_the_argument_and_the_presets(overprov_cli):
    """`drive show` has no --preset: its refusal named that option."""
    rc, _, err = overprov_cli("drive", "show", "consumer-tlc")
    assert rc == 2
    assert err.startswith("overprov drive: NAME|FILE: no preset 'consumer-tlc' "), err
    assert "presets: consumer-tlc-sata," in err and "--preset" not in err
