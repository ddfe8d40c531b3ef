"""Generated consumer SATA drives for the write-cliff bench (bench/cliff_bench.py
``--consumer-seeds``): the consumer-tlc-sata preset with its cache, NAND timings, dies, write
buffer, controller ceiling and program granularity drawn from a seed.

What they share with the preset and the drive file docs/drives/consumer-1tb-sata-turbowrite.toml,
and what the generated family of ``overprov.calibrate.validation.drive`` rarely has together: a
SATA link (550 MB/s), a controller whose per-command time caps 4 KiB writes near the dies' rate,
a write buffer of tens of MiB left at its full size when the drive is simulated at a few GiB of
NAND (so its fill is a step of its own in a write series: docs/calibrate-cliff.md, "The consumer
presets' step: the write buffer's fill"), a cache of 1–6% of the capacity, and in half of them a
static region with the dynamic part on unwritten capacity (Samsung's TurboWrite, as the drive
file documents it). The ranges are the preset's values widened, not fitted to anything.
"""

from __future__ import annotations

import copy
import random

from overprov import presets

#: the preset's NAND per advertised byte (1000 GB sold on 1024 GiB)
NAND_PER_ADVERTISED = 1024 * 2**30 / 1e12


def consumer_drive(seed: int) -> dict:
    """The drive (a drive-file dict) of generated consumer drive ``seed``; its TLC program time
    is the drawn one (a twin keeps the preset's 700 µs: bench/cliff_bench.py)."""
    rng = random.Random(f"cliff-consumer-{seed}")
    d = copy.deepcopy(presets.get("consumer-tlc-sata"))
    advertised = rng.choice([500, 1000, 2000]) * 10**9
    d["description"] = f"generated consumer SATA drive {seed} (bench/cliff_consumer.py)"
    d["advertised_bytes"] = advertised
    d["physical_bytes"] = int(advertised * NAND_PER_ADVERTISED)
    timing = d["config"]["timing"]
    timing["nand"]["dies_per_channel"] = rng.choice([1, 2, 4])
    timing["nand"]["program_us"] = round(rng.uniform(500.0, 1200.0), 1)
    timing["nand"]["program_granularity"] = rng.choice(["unit", "page"])
    timing["controller"]["command_us"] = round(rng.uniform(8.0, 14.0), 2)
    timing["buffer"]["bytes"] = rng.choice([16, 32, 64]) * 2**20
    slc = timing["slc"]
    slc["max_bytes"] = int(advertised * rng.uniform(0.01, 0.06))
    slc["program_us"] = round(rng.uniform(150.0, 250.0), 1)
    if rng.random() < 0.5:
        slc["static_bytes"] = int(advertised * rng.uniform(0.003, 0.01))
        slc["dynamic_space"] = "unwritten"
    return d
