"""The slot a read of a written page holds past the SLC cache's cliff, carried from the probe's
die load to the workload's (``cliff_prediction``'s prediction with the read probes,
``PROBES_IN_PREDICTION``; bench/results/cliffslot/).

Why (bench/results/cliffslot/DIAGNOSIS.md, on seen drives): past the cliff a read of a written
page waits behind the TLC programs on its die, so under the workload its wait grows with the
dies' load (the truths' wait less the NAND read was 0.71–1.00 (median 0.79) times the dies'
busy share times the TLC program time wherever that share stayed under three quarters). The
prediction holds each such read for the probe past the cliff's measured wait (``cliff_past``),
measured at one load: the truths' waits under the workload ran from 0.69 times the probe's
(dies 25% busy) to 1.44 times (70% busy). The dies' load past the cliff is what the plan pins:
the workload's writes a second past the cliff over the QD32 write series' level past it (the
drive's TLC write rate) gave the truths' busy share within 0.06 on all 41 seen cases.

The form: the prediction from purged made once with the probe's wait, the dies' load read from
it (its level past the cliff times the workload's write share, over the measured series' level
past the cliff, at most one), then made again with each read of a written page past the cache
holding the probe's wait times (:data:`HALF_LOAD` + that load): the probe's wait where the dies
are half busy, less where they idle, more where they are busier.

With :data:`BEFORE_FROM_LOAD` (off; with :data:`SLOT_FROM_LOAD` only) the slot before the cliff
(the probe before the cliff's wait, held by a read of a written page until the host has written
the fitted cache) is carried the same way, to the dies' load before the cliff: the first
prediction's level before the cliff times the workload's write share, over the QD32 write
series' measured level before its cliff (bench/results/cliff3level/DIAGNOSIS.md: on 3% caches
the reads of written pages are three times as many before the cliff as on 1% ones, so the
probe's too-long slot there set the twin's level before the cliff 5–11% low).

- :data:`SLOT_FROM_LOAD`: whether the form acts (with ``PROBES_IN_PREDICTION`` only; off).
- :data:`BEFORE_FROM_LOAD`: whether it acts before the cliff too (off).
- :func:`before`: the probe before the cliff with its wait carried to the load before it.
- :func:`die_load`: the dies' load past the cliff from a prediction and the measured series.
- :func:`slot_us`: the slot past the cliff at that load.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from overprov.calibrate import cliff, read_probes

#: With ``cliff_prediction.PROBES_IN_PREDICTION`` (off by default): the slot past the cliff
#: carried to the workload's die load (bench/results/cliffslot/RULE.md); False: the probe's
#: wait as measured (``cliff_past``). Off: not met in bench/results/cliffslot/verdict.md (the 1%
#: caches gained, the 3% caches lost: a fresh case within 25% moved out)
SLOT_FROM_LOAD = False
#: With :data:`SLOT_FROM_LOAD`: the slot before the cliff carried to the dies' load before it
#: too (bench/results/cliff3level/RULE.md); False: the probe before the cliff's wait as measured.
#: Off: not met in bench/results/cliff3level/verdict.md (the 3% caches gained back, but the time
#: to the cliff moved out on seen 1% cases, and a fresh 3% case within 25% moved out)
BEFORE_FROM_LOAD = False
#: the dies' load at which the probe's wait is the workload's (chosen on the seen drives of
#: bench/results/cliffslot/DIAGNOSIS.md, not fitted per drive)
HALF_LOAD = 0.5


def die_load(iops_after: float, read_percent: int, measured_write_iops_after: float) -> float:
    """The dies' load past the cliff: a predicted level past the cliff (``iops_after``, all
    commands) times the workload's write share, over the QD32 write series' measured level
    past its cliff (the drive's TLC write rate), between 0 and 1."""
    if measured_write_iops_after <= 0:
        raise ValueError("cliff_slot: the measured series has no level past its cliff")
    writes = iops_after * (100 - read_percent) / 100
    return min(1.0, max(0.0, writes / measured_write_iops_after))


def slot_us(probe_after_read_us: float, load: float) -> float:
    """The slot (µs) a read of a written page holds past the cliff at the dies' ``load``: the
    probe past the cliff's wait times (:data:`HALF_LOAD` + ``load``)."""
    return probe_after_read_us * (HALF_LOAD + load)


def before(
    probe: read_probes.Probe, iops_before: float, read_percent: int, measured: cliff.Cliff
) -> tuple[read_probes.Probe, float]:
    """The probe before the cliff with its wait carried (:func:`slot_us`) to the dies' load
    before the cliff (:func:`die_load` of a predicted level before it, ``iops_before``, over the
    QD32 write series' ``measured`` level before its cliff), and that load."""
    load = die_load(iops_before, read_percent, measured.iops_before)
    return dataclasses.replace(probe, read_us=slot_us(probe.read_us, load)), load
