"""The core's free pool per channel and batch stop (``[ftl] channel_pools``,
``gc_batch_victims``, docs/simulator.md) against an independent page-level model of WiscSim's
allocator and collector (bench/foreign/wiscsee/gc_reference.py ``form="wiscsim"`` with
``held_blocks`` and ``channel_pools``, batches of 2 x channels): the core configured as the
drive is (bench/foreign/wiscsee/twin.py), uniform random writes after a sequential fill."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from overprov import engine
from overprov.errors import ConfigError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign" / "wiscsee"))
import gc_reference  # noqa: E402
import twin  # noqa: E402

PAGES_PER_BLOCK = 32
SPAN_WRITES, WARM_SPAN_WRITES = 40.0, 8.0
SEEDS = (1, 2, 3, 4)

# (channels, blocks a channel, user pages, high, low, held blocks): WiscSim drives C, F and G at
# 0% extra OP with their 4 translation blocks. Not here: C at 20%, where the core is +0.6% off
# the model over 24 seeds (1.674 against 1.664): the second batch ends near the stop (about
# 28 of 29 free blocks), so whether a third runs amplifies any small difference
# (bench/foreign/results/wisctwin/README.md)
CASES = [
    (6, 20, 2400, 0.88, 0.76, 4),
    (5, 22, 2268, 0.87, 0.77, 4),
    (7, 14, 2240, 0.92, 0.86, 4),
]


def core_waf(channels, per, user, high, low, held, allocator, seed=1) -> float:
    cfg = twin.core_config(channels, per, PAGES_PER_BLOCK, high, low, user, held, allocator)
    cfg["run"] = {"drive_writes": SPAN_WRITES, "warmup_drive_writes": WARM_SPAN_WRITES,
                  "seed": seed}  # fmt: skip
    return engine.run(engine.merge(engine.default_config(), cfg))["measured"]["waf"]


@pytest.mark.parametrize(("channels", "per", "user", "high", "low", "held"), CASES)
def test_the_core_allocates_and_stops_as_the_independent_model_does(
    channels, per, user, high, low, held
):
    blocks = channels * per
    kw = {
        "high": high,
        "low": low,
        "channels": channels,
        "held_blocks": held,
        "channel_pools": True,
    }
    runs = [
        gc_reference.run(
            blocks, PAGES_PER_BLOCK, user, SPAN_WRITES, WARM_SPAN_WRITES, "wiscsim", seed=s, **kw
        )
        for s in SEEDS
    ]
    ref = sum(r.waf for r in runs) / len(SEEDS)
    got = sum(core_waf(channels, per, user, high, low, held, True, s) for s in SEEDS) / len(SEEDS)
    assert got == pytest.approx(ref, rel=0.005), (got, ref)


def test_the_options_change_the_waf_and_are_echoed_only_when_set():
    plain = core_waf(6, 20, 2400, 0.88, 0.76, 4, False)
    pooled = core_waf(6, 20, 2400, 0.88, 0.76, 4, True)
    assert pooled != plain
    resolved = engine.validate(engine.default_config())
    assert "channel_pools" not in resolved["config"]["ftl"]
    assert "gc_batch_victims" not in resolved["config"]["ftl"]
    with pytest.raises(ConfigError, match="ftl.channel_pools"):
        engine.check(engine.merge(engine.default_config(), {"ftl": {"channel_pools": 4}}))
    with pytest.raises(ConfigError, match="ftl.gc_batch_victims"):
        engine.check(
            engine.merge(
                engine.default_config(),
                {"ftl": {"gc_batch_victims": 4, "gc_trigger": "per-write"}},
            )
        )
