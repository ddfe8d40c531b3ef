"""The core's low mark (``[ftl] gc_until_free_fraction``, docs/simulator.md) against an independent
page-level model of the same policy (bench/foreign/wiscsee/gc_reference.py, ``form="core"``):
greedy collection from ``gc_free_blocks`` free blocks until more than the mark's share of the
blocks are free, uniform random writes after a sequential fill."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from overprov import engine
from overprov.errors import ConfigError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign" / "wiscsee"))
import gc_reference  # noqa: E402

PAGES_PER_BLOCK = 32
SPAN_WRITES, WARM_SPAN_WRITES = 40.0, 8.0


def core_waf(blocks: int, user_pages: int, trigger: int, fraction: float | None) -> float:
    ftl = {"gc_free_blocks": trigger}
    if fraction is not None:
        ftl["gc_until_free_fraction"] = fraction
    cfg = {
        "geometry": {"user_pages": user_pages, "physical_blocks": blocks,
                     "pages_per_block": PAGES_PER_BLOCK, "op_ratio": None},
        "ftl": ftl,
        "run": {"drive_writes": SPAN_WRITES, "warmup_drive_writes": WARM_SPAN_WRITES},
    }  # fmt: skip
    return engine.run(engine.merge(engine.default_config(), cfg))["measured"]["waf"]


# (blocks, user pages, trigger, mark): a wide mark, none, a wide mark at more spare, and
# WiscSim drive C's marks at its 0% extra OP (0.88 -> 0.76 of 120 blocks: below 14.4 free
# blocks, until more than 28.8)
CASES = [(176, 4096, 6, 0.2), (176, 4096, 6, None), (176, 3072, 6, 0.3), (120, 2400, 14, 0.24)]


@pytest.mark.parametrize(("blocks", "user_pages", "trigger", "fraction"), CASES)
def test_the_core_collects_to_the_mark_as_the_independent_model_does(
    blocks, user_pages, trigger, fraction
):
    until = None if fraction is None else int(fraction * blocks)
    ref = gc_reference.run(blocks, PAGES_PER_BLOCK, user_pages, SPAN_WRITES, WARM_SPAN_WRITES,
                           "core", trigger, until).waf  # fmt: skip
    got = core_waf(blocks, user_pages, trigger, fraction)
    assert got == pytest.approx(ref, rel=0.005), (got, ref)


def test_the_mark_costs_waf_and_is_echoed_only_when_set():
    plain = core_waf(176, 4096, 6, None)
    marked = core_waf(176, 4096, 6, 0.2)
    assert marked > 1.2 * plain  # 2.99 against 2.13 (the first two CASES)
    resolved = engine.validate(engine.default_config())
    assert "gc_until_free_fraction" not in resolved["config"]["ftl"]
    with pytest.raises(ConfigError, match="ftl.gc_until_free_fraction"):
        engine.check(
            engine.merge(engine.default_config(), {"ftl": {"gc_until_free_fraction": 1.5}})
        )
