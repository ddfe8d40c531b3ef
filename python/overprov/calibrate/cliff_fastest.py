"""The twin's controller ceiling lifted to the fastest the write series ran before its cache's
step, not to its plateau: a form of ``cliff_prediction``'s prediction with the read probes
(``PROBES_IN_PREDICTION``), acting only with it (bench/results/cliffplateau/).

Why (bench/results/cliffplateau/DIAGNOSIS.md, on seen 1% drives): a twin whose controller
ceiling is under the series' plateau is lifted to the plateau ÷ 0.95 (``cliff_prediction
.lift_ceiling``), 5% above the level its dies must then hold. Its write buffer (as many
full-size bytes as the measured drive's held) is fed at that ceiling and drained at the dies'
rate just under it, so it fills at the 5% difference: on 9682 at 1% a 0.56 GB buffer full
after 11 GB of host writes, twice the cache. Until then the twin's series reads its ceiling
whatever its SLC program time, and the bisection of that time finds no plateau it can meet
(the fit refused), or meets it with a drive whose buffer never fills before its cache's end
(its cache's size then corrected by what its buffer held). The measured drive's series shows
otherwise: its first round, while its buffer filled, ran at 101,638 IOPS (9682), 6.4 times its
plateau, so its controller takes commands at least that fast.

The form: where the twin's ceiling is lifted (it was under the plateau, as before), it is lifted
to the fastest round before the step (:func:`lift_iops`) ÷ 0.95 rather than to the plateau's;
a twin not lifted before is not lifted now.

- :data:`LIFT_TO_FASTEST`: whether the form acts (with ``PROBES_IN_PREDICTION`` only; off).
- :func:`lift_iops`: the level the ceiling is lifted to.
"""

from __future__ import annotations

from overprov.calibrate.cliff_series import Cliff, Series

#: With ``cliff_prediction.PROBES_IN_PREDICTION`` (off by default): a lifted twin's ceiling put
#: at the series' fastest round before its step (bench/results/cliffplateau/RULE.md); False: at
#: its plateau, as before
LIFT_TO_FASTEST = False


def lift_iops(measured: Series, step: Cliff | None, plateau_iops: float) -> float:
    """The level a lifted twin's ceiling is put just above: the fastest interval of
    ``measured`` that ends at or before its step (``step``: the cache's, full-size time) or
    ``plateau_iops`` where that is faster (or there is no step)."""
    if step is None:
        return plateau_iops
    before = [x for t, x in zip(measured.times_s, measured.iops, strict=True) if t <= step.time_s]
    return max([plateau_iops, *before])
