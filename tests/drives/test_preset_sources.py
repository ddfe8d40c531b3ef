"""A preset's source text says how much NAND it has and on how many dies: those words must be
true to its data (consumer-tlc-sata said "1024 GiB of NAND (8 dies of 1 Tbit)" while its raw
NAND is 1000 GiB, ρ 0.0737)."""

from __future__ import annotations

import re

import pytest
from overprov import presets


@pytest.mark.parametrize("name", presets.names())
def test_the_source_states_the_nand_the_data_has(name):
    drive = presets.get(name)
    raw_gib = int(drive.get("raw_nand_bytes") or presets.physical_bytes(drive)) / 2**30
    source = " ".join(drive["source"].split())
    sold_on = re.search(r"sold on ([\d,.]+) GiB of NAND", source)
    if sold_on:
        assert float(sold_on.group(1).replace(",", "")) == pytest.approx(raw_gib, rel=1e-3)
    dies = re.search(r"(\d+) dies of ([\d.]+) (GiB|Gbit|Tbit)", source)
    if dies:
        n, size, unit = int(dies.group(1)), float(dies.group(2)), dies.group(3)
        per_die_gib = {"GiB": size, "Gbit": size / 8, "Tbit": size * 1024 / 8}[unit]
        assert n * per_die_gib == pytest.approx(raw_gib, rel=1e-3)
        timing = drive["config"]["timing"]["nand"]
        assert n == timing["channels"] * timing["dies_per_channel"]
