"""The core configured as a WiscSim drive is (bench/foreign/results/wiscvictim/DIAGNOSIS.md,
"What the core would need"): its pages and blocks, (A) the translation blocks WiscSim holds
open taken off the NAND, its GC thresholds in the core's blocks, host and GC pages sharing the
open blocks; with ``allocator`` (B) a free pool per channel (``ftl.channel_pools``) and the
stop checked between batches of 2 × channels victims (``ftl.gc_batch_victims``).

WiscSim collects when its free blocks are fewer than (1 − high) × N (N: all its blocks, the held
ones counted as used) and stops once they are more than (1 − low) × N
(bench/foreign/results/wiscgc/GC.md): the core's ``gc_free_blocks`` is ⌈(1 − high) × N⌉ − 1,
and its low mark a share of the N − h blocks it has whose floor is ⌊(1 − low) × N⌋.
"""

from __future__ import annotations

import math

# the thresholds' products rounded to this many digits before ceil/floor (0.12 × 100 is not 12.0)
_DIGITS = 9


def gc_blocks(blocks: int, high: float, low: float) -> tuple[int, int]:
    """(trigger, stop) in free blocks of a WiscSim drive of ``blocks``: collect at ``trigger`` or
    fewer, until more than ``stop``."""
    trigger = math.ceil(round((1 - high) * blocks, _DIGITS)) - 1
    stop = math.floor(round((1 - low) * blocks, _DIGITS))
    return trigger, stop


def core_config(
    channels: int, blocks_per_channel: int, pages_per_block: int, high: float, low: float,
    user_pages: int, held_blocks: int, allocator: bool,
) -> dict:  # fmt: skip
    """The core's config overrides (geometry, ftl) for a WiscSim drive whose host writes
    ``user_pages``; ``held_blocks``: the translation blocks held open (A); ``allocator``: (B) and
    the batch stop on."""
    blocks = channels * blocks_per_channel
    trigger, stop = gc_blocks(blocks, high, low)
    have = blocks - held_blocks
    ftl = {
        "policy": "greedy",
        "gc_free_blocks": trigger,
        # a share whose floor on the blocks the core has is WiscSim's stop
        "gc_until_free_fraction": (stop + 0.5) / have,
        "gc_frontier": "shared",
    }
    if allocator:
        ftl["channel_pools"] = channels
        ftl["gc_batch_victims"] = 2 * channels
    return {
        "geometry": {"user_pages": user_pages, "physical_blocks": have,
                     "pages_per_block": pages_per_block, "op_ratio": None},
        "ftl": ftl,
    }  # fmt: skip
