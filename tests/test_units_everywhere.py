"""One size rule in every command: the same string means the same bytes.

SI suffixes are powers of 1000 (with or without B), IEC suffixes powers of 1024, a bare number
is bytes (``overprov.units``). Each command that takes a size is run through the CLI.
"""

from __future__ import annotations

import json

import pytest
from overprov import cli

CASES = [
    ("1G", 10**9),
    ("1GB", 10**9),
    ("1T", 10**12),
    ("1.5TB", 1.5e12),
    ("1GiB", 2**30),
    ("1TiB", 2**40),
    ("64000000000", 64e9),
]


@pytest.mark.parametrize(("text", "size_bytes"), CASES)
def test_capacity(overprov_cli, text, size_bytes):
    rc, out, err = overprov_cli("capacity", text, "--json", "-")
    assert rc == 0, err
    assert json.loads(out)["capacity_gb"] == pytest.approx(size_bytes / 1e9)


def test_capacity_bare_number_is_bytes(overprov_cli):
    rc, _, err = overprov_cli("capacity", "512")  # 512 bytes: not a drive
    assert rc == 2 and "'512' is 512 bytes, less than 1 GB" in err


@pytest.mark.parametrize(("text", "size_bytes"), CASES)
def test_plan(overprov_cli, text, size_bytes):
    rc, out, err = overprov_cli(
        "plan", "--capacity", "960GB", "--daily-writes", text, "--rated-tbw", text, "--json", "-"
    )
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["daily_write_bytes"] == pytest.approx(size_bytes)
    rc, out, err = overprov_cli("plan", "--capacity", text, "--json", "-")
    assert rc == 0, err
    assert json.loads(out)["capacity_bytes"] == pytest.approx(size_bytes)


@pytest.mark.parametrize(("text", "size_bytes"), CASES[:2] + CASES[4:5])
def test_simulate(overprov_cli, tmp_path, text, size_bytes):
    out = tmp_path / "s.json"
    rc, _, err = overprov_cli(
        "simulate", "--user-bytes", text, "--pages-per-block", "64", "--drive-writes", "0.01",
        "--warmup", "0", "--precondition", "none", "--no-progress", "--json", str(out),
    )  # fmt: skip
    assert rc == 0, err
    run = json.loads(out.read_text())["runs"][0]
    assert run["config"]["geometry"]["user_bytes"] == size_bytes
    # the simulator holds whole 4 KiB pages: the size rounded down to one
    assert size_bytes - 4096 < run["geometry"]["user_bytes"] <= size_bytes


@pytest.mark.parametrize(("text", "size_bytes"), CASES)
def test_profile_size(text, size_bytes):
    args = cli.build_parser().parse_args(["profile", "/tmp/x.img", "--size", text])
    assert args.size == size_bytes


def test_simulate_preset_scale_as_a_size(overprov_cli):
    from overprov import presets

    name = presets.names()[0]
    _, f_si = presets.preset_config(name, "64G")
    _, f_iec = presets.preset_config(name, "64GiB")
    assert f_iec / f_si == pytest.approx(2**30 / 1e9)


def test_profile_block_size_follows_fio():
    args = cli.build_parser().parse_args(["profile", "/tmp/x.img", "--bs", "4k"])
    assert args.bs == 4096
