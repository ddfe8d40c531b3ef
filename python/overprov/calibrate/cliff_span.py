"""How long the twin's mixed series from purged runs, taken from the mix as the prediction runs
it (``cliff_prediction``'s prediction with the read probes, ``PROBES_IN_PREDICTION``;
bench/results/cliffsmall/).

Why (bench/results/cliffsmall/DIAGNOSIS.md, on seen drives): a cliff's level after is the
median of the series' intervals from the cliff to the series' end (``cliff_series.find_cliff``),
and past the cliff of a mix with reads the level keeps falling (the share of reads that find a
written page, each waiting behind TLC programs, grows with every page written). Where the
series ends therefore sets the level after. Both the truth's series (bench/cliff_bench.py's
``_seconds``) and the twin's (``cliff_prediction._seconds``) end when the drive has written its
cache 2.25 times at the write rate of a 5-s probe; but the twin's probe runs the core's own
closed loop on the fitted twin, whose reads wait for nothing (no read probe's slot, no command
ceiling), while its prediction runs the request-level loop with the probes' slots. The twin's
probe writes faster than its own prediction does, so its series ends sooner after its cliff
and its level after is read nearer the cliff, where it has fallen less.

The form: the 5-s probe that sets the series' length run through the same loop, with the same
arguments, as the prediction's series (``cliff.read_slot_series``), so the rate it measures is
the rate of the mix the twin predicts.

- :data:`SPAN_FROM_MIX`: whether the form acts (with ``PROBES_IN_PREDICTION`` only; off).
- :func:`mix_seconds`: the series' length from the prediction's own loop.
"""

from __future__ import annotations

import statistics
from typing import Any

from overprov.calibrate import cliff

#: With ``cliff_prediction.PROBES_IN_PREDICTION`` (off by default): the twin's mixed series
#: from purged as long as its own mix writes the fitted cache 2.25 times at its 5-s rate
#: (bench/results/cliffsmall/RULE.md); False: the rate of the core's closed loop, as before.
#: Off: not met in bench/results/cliffsmall/verdict.md nor, judged again for the 1% caches' IOPS
#: lost, in bench/results/cliffloss/verdict.md (a fresh case within 25% moved out)
SPAN_FROM_MIX = False
#: with :data:`SPAN_FROM_MIX`: the series' intervals lengthened with it (as many intervals as
#: before); False: as long as before (more intervals)
INTERVALS_IN_PROPORTION = False
#: the probe's length at the simulated scale (s) and its intervals' (as ``_seconds``')
PROBE_S = 5.0
PROBE_INTERVAL_S = 1.0
#: the cache's bytes the series writes (as ``cliff_prediction._seconds`` from purged)
CACHE_WRITES = 2.25


def mix_seconds(
    drive: dict[str, Any], scale: float, cache_bytes: float, series_kw: dict[str, Any]
) -> float:
    """The series' length (full-size s) for ``drive`` (fitted) at ``scale``: :data:`CACHE_WRITES`
    times ``cache_bytes`` at the median write rate (4 KiB writes) of a :data:`PROBE_S`-s probe
    (at the simulated scale) run by ``cliff.read_slot_series`` with ``series_kw`` (the
    prediction's own arguments but its length); the mean where the median is under one write a
    second, as ``cliff_prediction._seconds``."""
    kw = {k: v for k, v in series_kw.items() if k not in ("seconds", "interval_s")}
    probe = cliff.read_slot_series(
        drive, scale, seconds=PROBE_S / scale, interval_s=PROBE_INTERVAL_S / scale, **kw
    )
    rate = statistics.median(probe.write_iops) * 4096
    if rate < 4096:
        rate = statistics.fmean(probe.write_iops) * 4096
    return max(CACHE_WRITES * cache_bytes, 1.0) / max(rate, 1.0)
