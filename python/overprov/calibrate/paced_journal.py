"""A journal FTL whose collection is paced and which programs pages of its own: the paced-journal
reading of typed two-level WAF figures (:data:`ON`, on).

**The mechanism.** Dhara (dlbeer/dhara; bench/foreign/dhara.py) keeps every sector in a circular
journal and collects its tail in order (FIFO); once the journal is full every host write first
runs g + 1 tail steps (g its ``gc_ratio``), and one journal page in 16 is a checkpoint. Its WAF
under uniform random writes at extra OP x is::

    WAF(x) = min(P, m · F(s / (1 − x) − 1))

with m the metadata factor (the FTL's own pages: the FOB WAF, 16/15 on Dhara), F the collector's
curve at the journal's spare s (≈ 1.02 of the user capacity on Dhara), and P = (g + 1) · m the
pace: where F would ask more, the journal grows into its reserve and WAF is the pace
(bench/foreign/results/dhara10/DIAGNOSIS.md: the 0% WAF within 1% of (g + 1) · m on 16 of 21
drives, the form within 2.1% at 10–30% on 21 of 21 with the two typed figures and m).

**Calibrate's parts.** That is the reserve reading's form (``gc_reserve.ReserveForm``: a curve
capped at a floor, its spare fitted) on figures ÷ m (``metadata_factor.ENABLED``), the cap the
lowest level's figure. What differs is when the cap is taken. A reserve's victim floor is a
structure the figures must earn: ``ReserveForm.floor_test`` calls for it only where the lowest
figure lies ``gc_reserve.FLOOR_SIGMAS`` sd below the curve fitted to the other levels. A paced
journal's cap is there by mechanism at every level; the only question is whether it binds at the
lowest one, so the paced reading (``reserve_hull.UndatedReserveForm`` with ``paced``, its floor test
:func:`cap_binds`) takes it wherever that figure lies below the curve at all (log ratio > 0). On
Dhara with a high gc_ratio (18–28) the pace sits 0.16–0.37 in log below the curve at 0%, under the
3-sd threshold (0.505), and the effective-spare readings carried instead (10% −5.2% on P).

**Where it acts** (:func:`applies`): with :data:`ON`, typed figures under uniform
writes, no onset of garbage collection from empty, two steady levels each with a WAF figure
(``reserve_hull.floor_in_waf``), and a metadata factor m > 1 applied (a FOB WAF typed,
``--fob-waf``, with typed WAF figures: ``predict.PredictionInput.metadata_factor``, over 1 only
with ``metadata_factor.ENABLED`` and where ``metadata_factor.unjudged`` is "", a measured FOB WAF
noted, not applied): a drive that programs pages of its own before it has anything to
collect. The reserve readings of the selective designs (``reserve_hull.FLOOR_NEEDS_SELECTIVE``) read
so then replace the effective-spare readings (``reserve_hull.replaces_plain``, as
``reserve_hull.FACTOR_READS_FLOOR`` has them), weighed among themselves by their evidence. Without a
FOB WAF over 1 nothing changes. Judged under bench/foreign/results/dhara10/RULE.md: **met**, on with
``metadata_factor.ENABLED`` (bench/foreign/results/dhara10/verdict.md).

**Not mended**: a gc_ratio of 1 (Dhara's E: WAF 2.14 at 0–20%, 1.55 at 40%) is refused at
calibrate's plausibility gate (the plain fit's native OP 191%); passing the gate where a paced
reading explains the figures was tried on E (seen) and does not answer it either: the reserve
twin puts its NAND where the curve runs at half the cap's WAF (``twin.reserve_collector``), and
half of a cap of 2.0 asks a native spare of 452%, which calibrate refuses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from overprov.calibrate import workload_curve
from overprov.calibrate.reserve_twin_check import onset_from_empty

if TYPE_CHECKING:
    from overprov.calibrate.predict import PredictionInput

#: Read two-level WAF figures with a metadata factor over 1 as a paced journal (module doc).
#: On with ``metadata_factor.ENABLED`` since bench/foreign/results/dhara10/verdict.md (fresh
#: Dhara V–Y 4 of 4 within 5% at every level, today's defaults 1 of 4; no guard moved).
ON = True
#: Why the cap was taken (the floor test's ``why``).
CAP_BINDS = "the pace's cap binds: the lowest figure lies below the curve from the others"


def cap_binds(test: dict) -> dict:
    """``gc_reserve.ReserveForm.floor_test``'s result with the threshold 0: the cap called for
    wherever the lowest level's figure lies below the curve fitted to the other levels."""
    if "log_ratio" not in test:
        return test
    return {**test, "called_for": test["log_ratio"] > 0.0, "threshold": 0.0, "why": CAP_BINDS}


def applies(fig: PredictionInput, two_levels_with_waf: bool) -> bool:
    """Whether :data:`ON` reads these figures (module doc: uniform writes, no onset from empty,
    two steady levels each with WAF, ``two_levels_with_waf``: ``reserve_hull.floor_in_waf``, and
    a metadata factor over 1)."""
    return (
        ON
        and fig.metadata_factor > 1.0
        and two_levels_with_waf
        and workload_curve.is_uniform(fig.workload)
        and onset_from_empty(fig.measurement) is None
    )
