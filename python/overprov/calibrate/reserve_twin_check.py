"""Two checks the GC-reserve reading shares wherever it is offered (``reserve_reading.py`` with
an onset from empty, ``reserve_hull.py`` without one): the onset the measurement dated, and why a
reserve reading's twin is set aside (it misses a measured WAF figure)."""

from __future__ import annotations

from overprov.calibrate import discard_transient, gc_onset, plausibility
from overprov.calibrate.prediction import Prediction
from overprov.measurement_file import Measurement


def onset_from_empty(m: Measurement | None) -> float | None:
    """The onset of garbage collection from empty the measurement dated, or None (not
    measured, a lower bound, or dated after a fill)."""
    if m is None or m.onset_source != gc_onset.ONSET_FROM_EMPTY:
        return None
    return m.onset_spare_factor


def twin_misses_its_waf(pred: Prediction) -> str | None:
    """Why a reserve reading's twin is set aside: it misses a measured WAF figure by more than
    ``plausibility.TWIN_TOLERANCE``; None when it reproduces them all. The twin is refined to
    the measured IOPS and, through its reserve, to the WAF figures off the floor only
    (``twin.refine``), so a twin whose reserve gives way where the figure sits on the floor
    reproduces its IOPS (its page time stretched) with a WAF the figures deny: on a 15 MB
    drive without a reserve, a floor read at 5.01 and a twin reading 3.65 at 0% for 5.00
    measured (docs/calibrate-validation.md, "The onset from empty in the graded plan:
    switched on, off, diagnosed, kept off"). A d-choices reserve twin misses a figure on the
    floor too: its plateau under the threshold 1/W_floor is 0.80 W (d = 8), 0.66 W (d = 4) or
    W/2 (d = 2) (bench/foreign/results/femutwin/DIAGNOSIS.md; ``reserve_plateau.ON``, on since
    femumedian's verdict). With ``discard_transient.SPARE_FROM_ONSET`` a figure read after a
    discard is checked one-sidedly (``discard_transient.tolerated_waf``)."""
    checks = pred.fit.get("twin_check", [])
    if discard_transient.SPARE_FROM_ONSET:  # the figures after a discard checked one-sidedly
        later = discard_transient.after_discard(c["extra_op_percent"] for c in checks)
        checks = [
            c | {"measured_waf": discard_transient.tolerated_waf(c["measured_waf"], c["twin_waf"])}
            if c["extra_op_percent"] in later and c.get("measured_waf") and c.get("twin_waf")
            else c
            for c in checks
        ]  # fmt: skip
    miss = plausibility.twin_check_miss(checks, waf_only=True)
    if miss is None:
        return None
    c, err = miss
    return (
        f"its twin misses the measured WAF at {c['extra_op_percent']:g}% extra OP by "
        f"{100 * err:+.0f}% ({c['twin_waf']:.2f} for {c['measured_waf']:.2f}; at most "
        f"±{100 * plausibility.TWIN_TOLERANCE:.0f}%)"
    )
