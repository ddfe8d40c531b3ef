"""A graded plan's later level's IOPS, read in the transient after its discard, carried to the
reserve reading's WAF there.

**Why.** Where the collector holds a reserve (an onset of garbage collection from empty dated
below 1, ``gc_onset.py``), a graded plan's later level (40%) is read over its graded and random
rounds from the discard on (``level_window.over_bursts``): 0.5-0.6 drive writes, all of them inside
the collector's transient after the discard. On the seven seen reserve-bound FEMU drives
(bench/foreign/results/femu40/runon_table.txt) that level's WAF reads 4.9-13.0% above FEMU's
steady WAF and its IOPS 4.8-11.6% below, their product (the NAND's write rate) within 0.3% of
the steady one; run on after the level, the IOPS come within 1% of the steady figure 0.25-0.5
drive writes later. The level's WAF figure is already checked one-sidedly against the reserve
reading (``discard_transient.py``); its IOPS figure is fitted as if steady, at the reading's
WAF, pulling t_page (and every predicted IOPS) down with it: the 40% IOPS predicted 4-8% low.

**What.** With :data:`CARRY` on, such a level's IOPS figure is carried to the WAF its WAF figure
counts as against the reserve reading at the onset (``discard_transient.tolerated_waf`` against
the greedy curve at the onset's spare, ``gc_reserve``'s spare from the onset): IOPS × WAF read ÷
WAF counted, the NAND's write rate kept. A figure at or below the reading's WAF is left as
read; one further above than ``discard_transient.TRANSIENT_ALLOWANCE`` is carried by that much
only. The WAF figure stays as read (the one-sided check reads it). Only the points see the
carried figure (the measurement keeps the read one). The first level, other queue depths, plans
not graded and drives whose onset lies at or above 1 are untouched (``level_window.over_bursts``
reads nothing over bursts there). Off by default: bench/foreign/results/femu40/RULE.md decides.
"""

from __future__ import annotations

import dataclasses

from overprov.calibrate import discard_transient
from overprov.calibrate import fit as fitmod
from overprov.calibrate.burst_start import over_bursts_stretch
from overprov.measurement_file import Level, Measurement

#: Carry a later graded level's IOPS, read in the transient after its discard, to the reserve
#: reading's WAF there (off: the figure as read).
CARRY = False


def in_transient(m: Measurement, lv: Level) -> bool:
    """Whether ``lv`` is a later level of ``m``'s graded plan read over the rounds from its
    discard on (``level_window.over_bursts``, ``burst_start.over_bursts_stretch``)."""
    return bool(over_bursts_stretch(m, lv))


def carried_iops(m: Measurement, lv: Level) -> float:
    """``lv``'s IOPS carried to the reading's WAF at its level (module docstring)."""
    onset = m.onset_spare_factor
    if lv.waf is None or onset is None or lv.waf <= 0:
        return lv.steady_iops
    reading = fitmod.waf_at(fitmod.rho_eff(onset - 1.0, lv.extra_op_percent))
    return lv.steady_iops * lv.waf / discard_transient.tolerated_waf(lv.waf, reading)


def levels_carried(m: Measurement, levels: list[Level]) -> list[Level]:
    """``levels`` with :data:`CARRY` on: each level in the transient after its discard
    (:func:`in_transient`) a copy with its IOPS carried (:func:`carried_iops`); else as given."""
    if not CARRY:
        return levels
    return [
        dataclasses.replace(lv, steady_iops=carried_iops(m, lv)) if in_transient(m, lv) else lv
        for lv in levels
    ]
