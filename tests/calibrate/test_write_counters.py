"""SimTarget.write_counters: the host and NAND write counters a drive reports via SMART."""

from __future__ import annotations

from overprov.profile.sim_target import SimTarget
from overprov.profile.targets import RoundSpec


def test_sim_target_write_counters_give_the_drives_waf():
    with SimTarget("sim:older-mlc-sata@1/64") as t:
        t.purge()
        fill = t.run(RoundSpec("fill", "write", 131072, 32, 1, t.capacity_bytes))
        first = t.write_counters()
        assert first["host_bytes"] == fill.combined.bytes_written
        assert first["nand_bytes"] == first["host_bytes"]  # a sequential fill moves nothing
        rnd = t.run(RoundSpec("r", "randwrite", 4096, 32, 1, t.capacity_bytes, seconds=4))
        second = t.write_counters()
        host = second["host_bytes"] - first["host_bytes"]
        assert host == rnd.combined.bytes_written
        assert second["nand_bytes"] - first["nand_bytes"] > host  # random writes need GC
