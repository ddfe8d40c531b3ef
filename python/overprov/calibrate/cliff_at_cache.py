"""The twin's mixed cliff dated where its host has written its fitted cache, not where the
twin's series first falls for good: a form of ``cliff_prediction``'s prediction from purged
with the read probes (``PROBES_IN_PREDICTION``), acting only with it (bench/results/clifffall/).

Why (bench/results/clifffall/DIAGNOSIS.md, on seen 1% drives): the twin's cache ends, by its
own construction, when its host has written the fitted cache (its writes go to SLC until then),
as the truths' do (their mixed cliffs found at 0.95–1.02 of their caches' bytes). But
``cliff_series.find_cliff`` dates the first lasting drop of the series, and the twin's mixed
series does not fall the way the truth's does: past its cache it falls a few % an interval,
so the drop's first intervals are not yet half-way down to the level after and are passed
over as a dip (9681, 9688: dated 4.6–6.0 GB past the cache, +28% and +31% in time); before its
cache a slow decline as reads find written pages, or the write buffer's fill lasting past the
series' first interval, is dated as the cliff (9705: 3.6 GB of a 10 GB cache, 9707: 0.72 of
2.55 GB: −66% and −84%).

The form: where the twin's series shows, split at the interval its host writes reach the fitted
cache, a lasting drop (the level after at least ``min_drop`` under the level before, both
medians as ``find_cliff`` reads them), the cliff is put there (:func:`cliff_at`); where it shows
none, ``find_cliff``'s as before.

- :data:`AT_CACHE`: whether the form acts (with ``PROBES_IN_PREDICTION`` only; off).
- :func:`cliff_at`: the cliff split at given host bytes, or None.
"""

from __future__ import annotations

import statistics

from overprov.calibrate.cliff_series import Cliff, Series, find_cliff

#: With ``cliff_prediction.PROBES_IN_PREDICTION`` (off by default): the twin's mixed cliff from
#: purged dated where its host has written its fitted cache (bench/results/clifffall/RULE.md:
#: not met, P1 only: 7 of 14 fresh truths predicted, all 7 within 25%;
#: bench/results/clifffall/verdict.md); False: ``find_cliff``'s first lasting drop, as before
AT_CACHE = False


def cliff_at(
    s: Series, host_bytes: float, *, bs_bytes: int = 4096, min_drop: float = 0.1
) -> Cliff | None:
    """The cliff of ``s`` put where its host has written ``host_bytes`` (full size): the time
    interpolated in the interval that crossed them, the level before the median of the
    intervals before that one (the first left out, as ``find_cliff`` leaves it out: the write
    buffer's burst), the level after the median of those after it up to garbage collection's
    start; None where either side has fewer than three intervals or the level after is not at
    least ``min_drop`` under the level before."""
    n = s.gc_started.index(True) if any(s.gc_started) else len(s.iops)
    written, prev_t = 0.0, 0.0
    for k in range(n):
        dt = s.times_s[k] - prev_t
        step = s.write_iops[k] * dt * bs_bytes
        if written + step >= host_bytes and step > 0:
            if k - 1 < 3 or n - (k + 1) < 3:
                return None
            before = statistics.median(s.iops[1:k])
            after = statistics.median(s.iops[k + 1 : n])
            if after > before * (1 - min_drop):
                return None
            share = (host_bytes - written) / step
            return Cliff(prev_t + share * dt, host_bytes, before, after)
        written += step
        prev_t = s.times_s[k]
    return None


def dated(s: Series, cache_bytes: float) -> Cliff | None:
    """The twin's mixed cliff: :func:`cliff_at` the fitted cache's bytes where it shows one,
    else ``find_cliff``'s."""
    got = cliff_at(s, cache_bytes)
    return got if got is not None else find_cliff(s)
