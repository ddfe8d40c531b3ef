"""A GC design that collects in batches: the batch reading (off by default, :data:`OFFERED`).

WiscSim's collector (WiscSee; bench/foreign/results/wiscgc/GC.md reads it from its source)
checks its stop only between batches of 2 × channels victims, listed greedily when the
collection starts, and at queue depth 32 a worker that queued for the one cleaner slot runs a
whole batch past the trigger (bench/foreign/results/wiscqd/DIAGNOSIS.md). On WiscSim's stored
drives a batch is 6–14% of the blocks (2 × channels over channels × blocks a channel: A 0.063,
D 0.067, E 0.083, F 0.091, C 0.100, B 0.125, G 0.143), where a drive whose collector takes one
victim at a time collects one block past the trigger. The later victims of a batch are fuller
than the first, so the batch raises the WAF, by a share that falls with spare space.

With the design on, uniform figures are read once more beside the greedy and d-choices
readings of ``gc_designs.py``: the twin's greedy GC, once triggered, collects
:data:`BATCH_SHARE` of the blocks before it checks its stop again (the core's ``[ftl]
gc_batch_victims``, docs/simulator.md). The share is fixed (0.1, the stored drives' median
0.091 rounded), not fitted: the figures cannot tell it (two WAF figures fix the spare). The
design's ``config.ftl`` keys carry the share (:data:`SHARE_KEY`, not a core key); a twin's
configuration turns it into a count of victims of that twin's blocks (:func:`resolve`), and a
scaled drive scales the count with its blocks (``scaled_drive.scale_config``): at one share the
WAF ratio is within 1.2% from 256 to 2,048 blocks
(bench/foreign/results/wiscbatch/diagnose-1-2.log).

Its WAF curve is the core's, simulated: the ratio of WAF with the batch to WAF without it on a
drive of :data:`TABLE_BLOCKS` blocks, at each spare of ``curve_table.table_rhos`` from
:data:`TABLE_RHO_MIN` up (:data:`TABLE`, rewritten by ``python -m overprov.calibrate.batch_gc``),
times the greedy model's (``fit.waf_at``); below it, the first simulated ratio.
"""

from __future__ import annotations

import json
import statistics
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from overprov.calibrate import curve_table
from overprov.calibrate import fit as fitmod

#: Whether uniform figures are also read with the batch design (``gc_designs.UNIFORM_DESIGNS``
#: holds it while this is on, read at each use). Off: bench/foreign/results/wiscbatch/RULE.md
#: decides it.
OFFERED = False
#: The victims a collection takes between two checks of its stop, a share of the twin's blocks.
BATCH_SHARE = 0.1
NAME = "greedy-batch"
#: The ``config.ftl`` key the design carries its share in until :func:`resolve` counts it.
SHARE_KEY = "gc_batch_share"
FTL: dict[str, Any] = {"policy": "greedy", "host_streams": "single", SHARE_KEY: BATCH_SHARE}
TABLE = "batch_gc_curve.json"
#: The table's simulated drive: this many blocks of ``fit.PAGES_PER_BLOCK`` pages at every
#: spare, a warm-up and a measured part of this many drive writes each, these seeds (averaged).
TABLE_BLOCKS = 2048
TABLE_DRIVE_WRITES = 3.0
TABLE_SEEDS = (1, 2)
#: Below this spare the table is not simulated (WAF above about 25: minutes a point).
TABLE_RHO_MIN = 0.02


def resolve(ftl: dict[str, Any] | None, physical_blocks: int) -> dict[str, Any] | None:
    """``ftl`` with :data:`SHARE_KEY` turned into the core's ``gc_batch_victims`` for a drive
    of ``physical_blocks`` erase blocks (at least 1); ``ftl`` itself when it has no share."""
    if not ftl or SHARE_KEY not in ftl:
        return ftl
    out = {k: v for k, v in ftl.items() if k != SHARE_KEY}
    out["gc_batch_victims"] = max(1, round(float(ftl[SHARE_KEY]) * physical_blocks))
    return out


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    return json.loads(resources.files("overprov.calibrate").joinpath(TABLE).read_text())


def curve(rho: float) -> float:
    """The design's WAF at spare ratio ``rho`` under uniform random writes (a ``fit.WafCurve``)."""
    t = _table()
    rhos, ratios = zip(
        *((r, q) for r, q in zip(t["rho"], t["ratio"], strict=True) if q), strict=True
    )
    rho = max(rho, fitmod.RHO_MIN)
    return fitmod.waf_at(rho) * curve_table.ratio_at(rho, list(rhos), list(ratios))


def named_curve() -> curve_table.NamedCurve:
    """:func:`curve` as the design's curve (``gc_designs.curve``)."""
    return curve_table.NamedCurve(
        f"greedy GC collecting {BATCH_SHARE:g} of the blocks between checks of its stop (a "
        "batch, WiscSim's form), under uniform random writes, simulated by the core",
        FTL,
        curve,
    )


def simulated_waf(rho: float, share: float | None, seed: int, blocks: int = TABLE_BLOCKS) -> float:
    """The core's greedy WAF at ``rho`` on a drive of ``blocks`` blocks, collecting ``share`` of
    them between stop checks (None: one victim at a time)."""
    from overprov import engine

    user_pages = int(blocks * fitmod.PAGES_PER_BLOCK / (1.0 + rho))
    ftl = resolve({SHARE_KEY: share}, blocks) if share else {}
    cfg = {
        "geometry": {"user_pages": user_pages, "op_ratio": rho,
                     "pages_per_block": fitmod.PAGES_PER_BLOCK},
        "ftl": ftl,
        "run": {"drive_writes": TABLE_DRIVE_WRITES,
                "warmup_drive_writes": TABLE_DRIVE_WRITES, "seed": seed},
    }  # fmt: skip
    return engine.run(engine.merge(engine.default_config(), cfg))["measured"]["waf"]


def simulated_ratio(rho: float) -> float | None:
    """WAF with the batch over WAF without it at ``rho``, the mean over :data:`TABLE_SEEDS`
    (None below :data:`TABLE_RHO_MIN`)."""
    if rho < TABLE_RHO_MIN:
        return None
    return statistics.fmean(
        simulated_waf(rho, BATCH_SHARE, s) / simulated_waf(rho, None, s) for s in TABLE_SEEDS
    )


def main() -> Path:
    """Rewrite :data:`TABLE` by simulation (run from a source checkout); its path."""
    what = (
        f"the core's greedy WAF collecting {BATCH_SHARE:g} of the blocks between stop checks "
        f"(ftl.gc_batch_victims) over its WAF without, {TABLE_BLOCKS} blocks of "
        f"{fitmod.PAGES_PER_BLOCK} pages, {TABLE_DRIVE_WRITES:g} + {TABLE_DRIVE_WRITES:g} drive "
        f"writes, seeds {list(TABLE_SEEDS)} averaged, uniform random writes (null: below "
        f"{TABLE_RHO_MIN:g}, not simulated)"
    )
    return curve_table.write_ratio_table(TABLE, what, simulated_ratio, share=BATCH_SHARE)


if __name__ == "__main__":
    print(f"wrote {main()}", file=sys.stderr)
