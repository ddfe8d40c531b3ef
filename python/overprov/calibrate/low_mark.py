"""A GC design that collects from a high mark down to a low one: the low-mark reading (off by
default, :data:`OFFERED`).

WiscSim's collector (WiscSee; bench/foreign/results/wiscgc/GC.md reads it from its source)
starts when the free blocks fall below one share of the blocks and, once started, collects
greedily until they are above a larger share: between the two marks the pool swings by a
fixed share of the NAND. The core collects the same way with ``[ftl] gc_until_free_fraction``
(docs/simulator.md). With the design on, uniform figures are read once more, with the twin's
GC collecting from the core's trigger until :data:`GAP` of the blocks are free, beside the
greedy and d-choices readings of ``gc_designs.py``; like them it is weighed by its evidence
(``spare_readings.weigh``).

Its WAF curve is the core's, simulated: the ratio of WAF with the mark to WAF without it, on the
same drive, at each spare of ``curve_table.table_rhos`` (:data:`TABLE`, rewritten by
``python -m overprov.calibrate.low_mark``), times the greedy model's (``fit.waf_at``). Below the
spare the mark needs (the core refuses a mark beyond the spare blocks) the curve is the greedy
model's at the spare left beyond the whole mark, ``(1 + ρ)(1 − GAP) − 1``, which rises
steeply there, and the twin there cannot be simulated (its reading is set aside at that level).

What it can tell: little. On WiscSim drive C's geometry (120 blocks ×8, marks 0.88 → 0.76 and
gaps 0.04–0.20 of the blocks) a greedy twin with its spare fitted to the mark's 0% WAF
reproduces the mark's WAF at 40% within 0.2% (bench/foreign/results/wiscgc/shape.log): the
mark's swing acts as a fixed reserve, which a fitted spare absorbs (as ``gc_designs``' docstring
says of a fixed reserve), so the figures cannot tell the gap and the design cannot bend the curve.
:data:`GAP` is therefore fixed (0.08: WiscSim drive E's 0.90 → 0.82, between C's 0.12 and D's
0.04, all seen), not fitted.
"""

from __future__ import annotations

import json
import math
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from overprov.calibrate import curve_table
from overprov.calibrate import fit as fitmod

#: Whether uniform figures are also read with the low-mark design (``gc_designs.UNIFORM_DESIGNS``
#: holds it while this is on, read at each use: bench/foreign/evaluate.py ``--low-mark-reading``
#: sets it).
#: Off: its rule was not met (bench/foreign/results/wiscgc/RULE.md;
#: bench/foreign/results/wiscgc/verdict.md).
OFFERED = False
#: The swing between the marks, a share of the twin's blocks.
GAP = 0.08
NAME = "greedy-low-mark"
FTL: dict[str, Any] = {"policy": "greedy", "host_streams": "single", "gc_until_free_fraction": GAP}
TABLE = "low_mark_curve.json"
#: The table's simulated drive: 2^18 user pages of 4 KiB in blocks of ``fit.PAGES_PER_BLOCK``,
#: a warm-up and a measured part of this many drive writes each.
TABLE_USER_PAGES = 1 << 18
TABLE_DRIVE_WRITES = 6.0


def min_rho() -> float:
    """The smallest spare ratio at which the mark leaves the core spare blocks to collect with
    (the mark, two frontiers and one block): ``(1 + ρ)(1 − GAP)`` ≥ 1, about."""
    return 1.0 / (1.0 - GAP) - 1.0


def _beyond_mark(rho: float) -> float:
    return fitmod.waf_at(max((1.0 + rho) * (1.0 - GAP) - 1.0, fitmod.RHO_MIN))


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    return json.loads(resources.files("overprov.calibrate").joinpath(TABLE).read_text())


def curve(rho: float) -> float:
    """The design's WAF at spare ratio ``rho`` under uniform random writes (a ``fit.WafCurve``)."""
    t = _table()
    rhos, ratios = t["rho"], t["ratio"]
    pairs = [(r, q) for r, q in zip(rhos, ratios, strict=True) if q is not None]
    if not pairs or rho < pairs[0][0]:
        return _beyond_mark(rho)
    if rho >= pairs[-1][0]:
        return fitmod.waf_at(rho) * pairs[-1][1]
    for (r0, q0), (r1, q1) in zip(pairs, pairs[1:], strict=False):
        if r0 <= rho < r1:
            f = (math.log(rho) - math.log(r0)) / (math.log(r1) - math.log(r0))
            return fitmod.waf_at(rho) * ((1 - f) * q0 + f * q1)
    return _beyond_mark(rho)  # unreachable: the pairs cover [first, last)


def named_curve() -> curve_table.NamedCurve:
    """:func:`curve` as the design's curve (``gc_designs.curve``)."""
    return curve_table.NamedCurve(
        f"greedy GC collecting from its trigger until {GAP:g} of the blocks are free (a low "
        "mark, WiscSim's form), under uniform random writes, simulated by the core",
        FTL,
        curve,
    )


def simulated_ratio(rho: float) -> float | None:
    """WAF with the mark over WAF without it on the table's drive at ``rho`` (None where the
    core refuses the mark)."""
    from overprov import engine
    from overprov.errors import ConfigError

    def waf(ftl: dict[str, Any]) -> float:
        cfg = {
            "geometry": {"user_pages": TABLE_USER_PAGES, "op_ratio": rho,
                         "pages_per_block": fitmod.PAGES_PER_BLOCK},
            "ftl": ftl,
            "run": {"drive_writes": TABLE_DRIVE_WRITES,
                    "warmup_drive_writes": TABLE_DRIVE_WRITES},
        }  # fmt: skip
        return engine.run(engine.merge(engine.default_config(), cfg))["measured"]["waf"]

    try:
        marked = waf({"gc_until_free_fraction": GAP})
    except ConfigError:
        return None
    return marked / waf({})


def main() -> Path:
    """Rewrite :data:`TABLE` by simulation (run from a source checkout); its path."""
    rhos = curve_table.table_rhos()
    doc = {
        "what": f"the core's greedy WAF collecting until {GAP:g} of the blocks are free over "
        f"its WAF without the mark, {TABLE_USER_PAGES} user pages, {fitmod.PAGES_PER_BLOCK}-page "
        f"blocks, {TABLE_DRIVE_WRITES:g} + {TABLE_DRIVE_WRITES:g} drive writes, uniform random "
        "writes (null: the core refuses the mark at that spare)",
        "gap": GAP,
        "rho": rhos,
        "ratio": [simulated_ratio(r) for r in rhos],
    }
    return curve_table.write_table(doc, TABLE)


if __name__ == "__main__":
    print(f"wrote {main()}", file=sys.stderr)
