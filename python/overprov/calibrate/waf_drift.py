"""A level's WAF figure still drifting at the end of the plan: its uncertainty widened by the
drift its own rounds show.

**Why.** After a level's discard a greedy collector's WAF overshoots its steady value and
settles only some tenths of a drive write later; the plan's highest level is read inside that
transient (on FEMU its 40% figure reads 3.9-13% above FEMU's steady WAF,
docs/calibrate-validation.md, "The reserve reading's curve between its floor and 40%"). Given the
fit's nominal sd (``fit.Point.waf_rel_sd``, 2%) such a figure outweighs the measured onset of
garbage collection (``gc_reserve.ONSET_REL_SD``, 3%) in the reserve reading's spare and sets the
reserve twin's reserve (``twin._corrected_reserve``).

**What.** The level's random rounds after its graded prefix (``graded_run.is_graded_round``),
each one's WAF from the write counters' deltas: the drift is the difference of the
host-weighted mean WAF of their last and first halves, relative to their mean (a figure still
falling, or rising, by that much over the window). With :data:`SD_FROM_DRIFT` on, the level's
WAF sd is the nominal one and the drift in quadrature (:func:`waf_rel_sd`), set once where a
measurement's points are made (``predict.points_from``), so the spare fit, the reading's
reproduction check (``evidence.assess``), the bootstrap and the twin's anchor
(:func:`anchors_reserve`) all see the same figure and sd. Off by default and not adopted
(bench/foreign/results/settle40/RULE.md, bench/foreign/results/settle40/verdict.md): the 0%
level's rounds swing with the collector's bursts at the floor and read as a drift that frees the
effective-spare fit from the floor (two FEMU drives refused), and where the drift is read only
after a discard it is smaller than the figure's bias, so the 20% WAF stays 20-58% high.
"""

from __future__ import annotations

from itertools import pairwise

from overprov.calibrate.counter_waf import round_wafs
from overprov.measurement_file import Level, Measurement

#: Widen a level's WAF sd by the drift of its own rounds (off: the nominal sd).
SD_FROM_DRIFT = False
#: The nominal relative sd of a level's WAF figure (``fit.Point``'s default).
NOMINAL_WAF_REL_SD = 0.02
#: A drift is read from at least this many random rounds (two halves of two).
MIN_ROUNDS = 4
#: The widest sd a figure may have and still set the reserve twin's reserve: the onset's
#: (``gc_reserve.ONSET_REL_SD``); a figure less sure than the onset leaves the reserve to the fit.
ANCHOR_MAX_REL_SD = 0.03


def random_round_wafs(m: Measurement, level: Level) -> list[tuple[float, int]]:
    """(WAF, host bytes) of each random round of ``level``'s last run at the plan's queue depth,
    from the write counters' deltas (``counter_waf.round_wafs``), a round that wrote no host
    bytes passed over; empty for a probe level or without counters."""
    if level.queue_depth is not None:
        return []
    prefix = f"op{level.extra_op_percent:g}-r"
    pairs = [(prev, r) for prev, r in pairwise(m.rounds) if r.label.startswith(prefix)]
    got = round_wafs(pairs)
    if got is None:
        return []
    # a segment run again (a resumed measurement): its last run's rounds
    last_run = max((i for i, (_, r) in enumerate(pairs) if r.label.endswith("-r001")), default=0)
    return [(w.waf, w.host_written_bytes) for w in got[last_run:] if w.host_written_bytes > 0]


def drift(m: Measurement, level: Level) -> float | None:
    """The relative change of the level's WAF over its random rounds (last half's host-weighted
    mean less the first half's, over the mean of all); None with fewer than :data:`MIN_ROUNDS`."""
    rows = random_round_wafs(m, level)
    if len(rows) < MIN_ROUNDS:
        return None
    half = len(rows) // 2

    def mean(part: list[tuple[float, int]]) -> float:
        return sum(w * h for w, h in part) / sum(h for _, h in part)

    return (mean(rows[-half:]) - mean(rows[:half])) / mean(rows)


def waf_rel_sd(m: Measurement, level: Level) -> float:
    """The relative sd of ``level``'s WAF figure: the nominal one, widened in quadrature by its
    drift when :data:`SD_FROM_DRIFT` is on and the drift can be read."""
    d = drift(m, level) if SD_FROM_DRIFT else None
    return NOMINAL_WAF_REL_SD if d is None else (NOMINAL_WAF_REL_SD**2 + d**2) ** 0.5


def anchors_reserve(waf_rel_sd_of_figure: float) -> bool:
    """Whether a WAF figure of this sd may set the reserve twin's reserve
    (``twin._corrected_reserve``): always with :data:`SD_FROM_DRIFT` off."""
    return not SD_FROM_DRIFT or waf_rel_sd_of_figure <= ANCHOR_MAX_REL_SD
