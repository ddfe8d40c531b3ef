"""Scaling by default: a WAF run too long at full size runs a scaled drive (the presets' one
rule), says so with the measured error, and --scale 1 runs full size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov import engine, presets, scaled_drive
from overprov.cli import main

GIB = 2**30


def drive(advertised: int, extra_op: float, **run: float) -> dict:
    return {
        "geometry": {"advertised_bytes": advertised, "extra_op_percent": extra_op},
        "run": run or {"warmup_drive_writes": 2.0, "drive_writes": 4.0},
    }


def test_scale_config_keeps_ratios() -> None:
    full = drive(480_000_000_000, 10.0)
    small = scaled_drive.scale_config(full, 1 / 16)
    a, b = engine.validate(full), engine.validate(small)
    assert abs(a["op_ratio"] - b["op_ratio"]) < 1e-4
    assert b["geometry"]["pages_per_block"] == a["geometry"]["pages_per_block"]
    assert abs(b["geometry"]["user_pages"] * 16 / a["geometry"]["user_pages"] - 1) < 1e-3
    assert full["geometry"]["advertised_bytes"] == 480_000_000_000  # a copy


def test_an_slc_cache_and_its_static_region_scale_with_capacity() -> None:
    cfg = {"timing": {"slc": {"enabled": True, "max_bytes": 42 * 10**9, "static_bytes": 6 * 10**9}}}
    slc = scaled_drive.scale_config(cfg, 1 / 64)["timing"]["slc"]
    assert (slc["max_bytes"], slc["static_bytes"]) == (42 * 10**9 // 64, 6 * 10**9 // 64)


def test_presets_scale_by_the_same_rule() -> None:
    cfg, factor = presets.preset_config("consumer-tlc-sata", "1/8")
    full, _ = presets.preset_config("consumer-tlc-sata", "1")
    assert factor == 1 / 8
    assert cfg == scaled_drive.scale_config(full, 1 / 8)


def test_short_runs_stay_full_size() -> None:
    cfgs = [drive(16_000_000_000, x) for x in (0.0, 20.0)]
    out = scaled_drive.scale_sweep(cfgs, None)
    assert out.factor == 1.0 and out.note is None and out.configs == cfgs


def test_long_waf_sweep_is_scaled_to_the_default_size() -> None:
    cfgs = [drive(480_000_000_000, x) for x in (0.0, 10.0, 30.0)]
    assert scaled_drive.estimated_seconds(cfgs[0]) > scaled_drive.AUTO_SCALE_SECONDS
    out = scaled_drive.scale_sweep(cfgs, None)
    physical = [scaled_drive.physical_bytes(c) for c in out.configs]
    assert all(abs(p / (32 * GIB) - 1) < 0.01 for p in physical)  # one factor for all points
    assert out.note is not None
    assert "scaled drive: 1/15 of full size" in out.note
    bound = scaled_drive.MEASURED_WAF_ERROR_PERCENT.get("uniform")
    said = f"uniform ≤ {bound:.1f} %" if bound is not None else "uniform: not measured"
    assert said in out.note
    assert "--scale 1 runs full size" in out.note


def test_scale_1_forces_full_size_and_timed_runs_are_not_scaled() -> None:
    cfgs = [drive(480_000_000_000, 10.0)]
    assert scaled_drive.scale_sweep(cfgs, "1").configs == cfgs
    timed = [engine.merge(cfgs[0], {"timing": {"enabled": True}})]
    assert scaled_drive.scale_sweep(timed, None).configs == timed


def test_scale_refuses_enlarging() -> None:
    with pytest.raises(Exception, match="--scale: must shrink"):
        scaled_drive.scale_sweep([drive(16_000_000_000, 0.0)], "2")


@pytest.mark.slow
def test_cli_auto_scales_and_reports_it(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "s.json"
    args = ["simulate", "--advertised", "480G", "--extra-op", "10", "--precondition", "none"]
    args += ["--warmup", "0", "--drive-writes", "2", "--no-progress", "--json", str(out)]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "scaled drive: 1/15 of full size (32.0 GiB of NAND instead of 480.0 GiB" in text
    rep = json.loads(out.read_text())["runs"][0]
    assert rep["geometry"]["physical_bytes"] <= 32 * GIB * 1.01
    assert rep["config"]["geometry"]["advertised_bytes"] == 32_000_000_000


def test_a_scale_above_the_drive_s_nand_names_the_drive_s_size(overprov_cli):
    """`--scale 4TB` on a smaller drive was refused as a factor ("0 < factor <= 1")."""
    rc, _, err = overprov_cli(
        "simulate", "--preset", "consumer-tlc-sata", "--scale", "4TB", "--extra-op", "0", "--check"
    )
    assert rc == 2
    assert err.strip() == (
        "overprov simulate: --scale: '4TB' is more NAND than the drive has at full size "
        "(1000 GiB): give a smaller NAND size, or 1 for full size"
    )
