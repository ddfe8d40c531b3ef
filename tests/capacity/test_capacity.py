"""Capacity arithmetic: IDEMA LBA counts, GB↔GiB, hidden OP, total ρ, and the CLI."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from overprov import capacity
from overprov.errors import ConfigError


@pytest.mark.parametrize(
    ("gb", "sectors"),
    [(120, 234_441_648), (512, 1_000_215_216), (2000, 3_907_029_168)],
)
def test_idema_512_byte_sector_counts_from_the_standard(gb, sectors):
    assert capacity.idema_lba_count(gb, 512) == sectors


@pytest.mark.parametrize("gb", [50, 120, 240, 480, 512, 960, 1000, 1920, 2000, 3840, 7680])
def test_idema_4096_byte_count_is_the_same_capacity(gb):
    n4k = capacity.idema_lba_count(gb, 4096)
    assert n4k * 4096 == capacity.idema_lba_count(gb, 512) * 512
    assert capacity.idema_capacity_bytes(gb, 4096) == capacity.idema_capacity_bytes(gb, 512)


def test_idema_inverse_gives_back_the_advertised_gb():
    assert capacity.gb_from_idema_lba_count(1_000_215_216, 512) == 512
    assert capacity.gb_from_idema_lba_count(125_026_902, 4096) == 512
    assert capacity.gb_from_idema_lba_count(3_907_029_168) == 2000


def test_idema_rejects_bad_input():
    with pytest.raises(ConfigError, match="sector_bytes"):
        capacity.idema_lba_count(512, 520)
    with pytest.raises(ConfigError, match="capacity"):
        capacity.idema_lba_count(0)


def test_hidden_op_and_total_rho_follow_the_definitions():
    assert pytest.approx(0.073741824, abs=1e-12) == capacity.HIDDEN_OP
    # X = 0: total ρ is the hidden OP itself
    assert capacity.total_rho(0.0) == pytest.approx(capacity.HIDDEN_OP)
    # X = 20 %: ρ = T/U − 1 with T = C GiB and U = 0.8·C GB
    assert capacity.total_rho(0.2) == pytest.approx(1.073741824 / 0.8 - 1)
    r = capacity.total_rho(0.28)
    assert capacity.spare_factor(r) == pytest.approx(r / (1 + r))
    # ρ = (T−U)/U directly
    assert capacity.rho(128, 100) == pytest.approx(0.28)
    with pytest.raises(ConfigError):
        capacity.total_rho(1.0)


def test_gb_gib_round_trip():
    assert capacity.gb_to_gib(512) == pytest.approx(476.837158203125)
    assert capacity.gib_to_gb(capacity.gb_to_gib(960)) == pytest.approx(960)


def test_user_bytes_for_extra_op_is_aligned_down_to_a_mib():
    c = capacity.idema_capacity_bytes(512)
    u = capacity.user_bytes_for_extra_op(c, 0.2)
    assert u % capacity.MIB == 0
    assert 0 <= 0.8 * c - u < capacity.MIB


@pytest.mark.parametrize(
    ("text", "gb"),
    [("512", 512), ("512GB", 512), ("1.92TB", 1920), ("476.837158203125GiB", 512)],
)
def test_parse_capacity_units(text, gb):
    assert capacity.parse_capacity_gb(text) == Fraction(gb)


@pytest.mark.parametrize("bad", ["-5", "100", "abc", "150%"])
def test_parse_extra_op_rejects_out_of_range(bad):
    with pytest.raises(ConfigError, match="--extra-op"):
        capacity.parse_extra_op_percent(bad)


def test_parse_extra_op_accepts_percent_forms():
    assert capacity.parse_extra_op_percent("20") == pytest.approx(0.2)
    assert capacity.parse_extra_op_percent("7.5%") == pytest.approx(0.075)


def test_cli_capacity_text_says_which_definition(overprov_cli):
    rc, out, err = overprov_cli("capacity", "512GB", "--extra-op", "20")
    assert rc == 0, err
    assert "1,000,215,216" in out and "125,026,902" in out
    assert "7.37 %" in out
    assert "ρ = (T−U)/U = 34.22 %" in out
    assert "T = C GiB of NAND" in out


def test_cli_capacity_json_and_sectors(overprov_cli):
    rc, out, _ = overprov_cli("capacity", "--sectors", "234441648", "--json", "-")
    assert rc == 0
    doc = json.loads(out)
    assert doc["capacity_gb"] == 120
    assert doc["idema_sectors_512"] == 234_441_648
    assert doc["rho"] == pytest.approx(capacity.HIDDEN_OP)


def test_cli_capacity_needs_exactly_one_input(overprov_cli):
    rc, _, err = overprov_cli("capacity")
    assert rc == 2
    assert "give either a capacity" in err


def test_cli_sector_size_without_sectors_is_refused_not_ignored(overprov_cli):
    """`capacity 1TB --sector-size 4096` printed the same as without it."""
    rc, out, err = overprov_cli("capacity", "1TB", "--sector-size", "4096")
    assert (rc, out) == (2, "")
    assert err.strip() == (
        "overprov capacity: --sector-size: only with --sectors (the size of the sectors it counts)"
    )
    rc, out, _ = overprov_cli("capacity", "--sectors", "244190646", "--sector-size", "4096")
    assert rc == 0 and out.startswith("244,190,646 sectors of 4096 bytes = IDEMA 1000.000 GB")
