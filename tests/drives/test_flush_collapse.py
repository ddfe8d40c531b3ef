"""The consumer presets collapse under write-through and the enterprise preset does not, by
mechanism: without power-loss protection each write costs one data program plus the metadata
programs, one flush at a time, so the rate follows from the preset's own parameters."""

from __future__ import annotations

import pytest
from overprov import presets
from published import write_cache_off_iops

READ_SHARE = 0.70


@pytest.mark.parametrize("name", ["consumer-tlc-sata", "older-mlc-sata"])
def test_consumer_presets_collapse_to_the_flush_bound(name):
    timing = presets.get(name)["config"]["timing"]
    program_us = timing["nand"]["program_us"]
    meta = timing.get("flush", {}).get("metadata_flash_pages", 2)
    # the data page goes to SLC while the cache has room, else to TLC/MLC
    data_fast = timing["slc"]["program_us"] if timing.get("slc", {}).get("enabled") else program_us
    slowest = 1e6 / (program_us + meta * program_us) / (1 - READ_SHARE)
    fastest = 1e6 / (data_fast + meta * program_us) / (1 - READ_SHARE)
    iops = write_cache_off_iops(name)
    back = write_cache_off_iops(name, plp=True)
    print(f"{name}: write-through {iops:,.0f} IOPS (flush bound {slowest:,.0f}-{fastest:,.0f}), "
          f"with PLP {back:,.0f}")  # fmt: skip
    # 5% either side: the read share of a finite random run is not exactly 70%
    assert slowest * 0.95 <= iops <= fastest * 1.05, iops
    assert back > 10 * iops


def test_enterprise_preset_does_not_collapse():
    assert presets.get("enterprise-tlc-nvme")["config"]["timing"]["buffer"]["power_loss_protected"]
    iops = write_cache_off_iops("enterprise-tlc-nvme")
    back = write_cache_off_iops("enterprise-tlc-nvme", plp=False)
    print(f"enterprise: write-through {iops:,.0f} IOPS; the same drive without PLP {back:,.0f}")
    assert iops > 20_000
    # the mechanism, not the preset's speed: the same drive without PLP collapses too
    assert back < iops / 10
