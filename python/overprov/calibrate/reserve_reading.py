"""A measured target's reserve reading: a GC reserve with a victim floor, fitted to the onset of
garbage collection from empty, weighed beside the target's one reading by evidence.

**When.** A measured target's points are read one way (``answer.predict``: the effective spare,
greedy). When its measurement dated the onset of garbage collection from empty
(``Measurement.onset_spare_factor`` with ``onset_source`` ``gc_onset.ONSET_FROM_EMPTY``: a plan
with ``plan.ONSET_FROM_EMPTY``, on by default) the reserve reading (``gc_reserve.py``) is
offered too, once per uniform GC design (``gc_designs.UNIFORM_DESIGNS``) where its floor is
called for and its capped fit reproduces the figures (``ReserveForm.called_for``), its spare
fitted to the onset as well (``ReserveForm.onset``; with ``spare_near_onset.SPARE_NEAR_ONSET``,
off, near it where the onset itself is not offered). That is the reading the pre-registered rule
``bench/foreign/results/gc-onset-plan/RULE.md`` passed on FEMU drives nobody had run
(docs/calibrate-validation.md, "The onset calibrate's plan dates"). Without an onset, or where
no design offers it, the prediction is the one reading's, unchanged.

**Weighed.** Every reading here, the target's own included, is weighed on the onset as one figure
more (``gc_reserve.with_onset``) and by ``evidence.weights``, as ``bench/gc_reserve_bench.py``
weighed them for the rule. One difference from the rule's cases: the rule weighed the effective
spare with every uniform design; a measured target's prediction has the greedy one only, as
without the onset.

**Its twin.** The reserve reading's twin carries the reserve and the floor (``twin.GcReserve``:
``[ftl] gc_free_blocks``, ``gc_victim_min_invalid_fraction``, ``gc_forced_free_blocks``), is
refined through its reserve (``twin.refine``) and simulated at every level as the target was
measured. Readings that keep :data:`evidence.SPAN_MIN_WEIGHT` of the largest weight have
their twins simulated; a twin that misses a measured WAF figure by more than
``plausibility.TWIN_TOLERANCE`` is set aside (:func:`twin_misses_its_waf`), and with every
reserve reading set aside the prediction is the target's one reading's. The prediction is the
kept twins' weighted geometric mean
(``spare_readings.combine``), ``twin.toml`` the heaviest one's twin. Its interval: the reserve
reading has no bootstrap (``gc_reserve.no_bootstrap``), so its own band is the model-form
error's; the combined interval spans the readings kept.
"""

from __future__ import annotations

from typing import Any

from overprov.calibrate import (
    evidence,
    gc_designs,
    gc_reserve,
    spare_near_onset,
    spare_readings,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import Prediction, SetAsideReading
from overprov.calibrate.reserve_twin_check import onset_from_empty, twin_misses_its_waf
from overprov.calibrate.uncertainty import weighing_rel_sd
from overprov.calibrate.workload_curve import gc_text

LOW_WEIGHT = "weight below 0.01 of the largest: the figures speak against it"


def offered(
    fig: predmod.PredictionInput, plain: predmod.TwinReading, central: fitmod.Surrogate
) -> dict[predmod.TwinReading, dict[str, Any]]:
    """Each reading's evidence with the onset: the target's own (``plain``, fitted as
    ``central``) and the reserve reading of each uniform design that offers it. Empty without
    an onset from empty."""
    onset = onset_from_empty(fig.measurement)
    if onset is None:
        return {}
    cv_sd = weighing_rel_sd(fig.model_form)  # as spare_readings weighs
    own = evidence.assess(plain.form(fitmod.waf_at), fig.points, cv_sd)
    out = {plain: gc_reserve.with_onset(own, central, onset)}
    for design, form in spare_near_onset.offered_forms(onset, cv_sd, fig.points):
        ftl = None if design == "greedy" else spare_readings.DESIGNS[design]
        r = predmod.TwinReading(predmod.RESERVE, design, ftl, reserve=form)
        ev = evidence.assess(form, form.checked_points(fig.points), cv_sd)
        out[r] = gc_reserve.with_onset(ev, form.fit(fig.points), onset)
    return out


def weights(evidences: dict[predmod.TwinReading, dict[str, Any]]) -> dict[Any, float]:
    """``evidence.weights`` over the readings, as the rule's bench weighed them."""
    return evidence.weights(
        {r: e["chi2"] for r, e in evidences.items()},
        {r: evidence.reproduced(e, untested=False) for r, e in evidences.items()},
        evidences,
    )  # fmt: skip


def predict(
    fig: predmod.PredictionInput, plain: predmod.TwinReading, ready: predmod.Prepared,
    plain_prediction: Prediction,
) -> Prediction:  # fmt: skip
    """The target's prediction with the reserve reading weighed beside its one reading
    (module doc); ``plain_prediction`` itself when there is no onset from empty, and with a note
    when no design offers the reserve reading."""
    onset = onset_from_empty(fig.measurement)
    if onset is None:
        return plain_prediction
    evidences = offered(fig, plain, ready.fitted.central)
    if len(evidences) == 1:
        plain_prediction.prediction_source += (
            f"; the onset of garbage collection from empty ({onset:.4g} of the capacity) calls "
            "for no GC reserve with a victim floor (gc_reserve.ReserveForm.called_for)"
        )
        return plain_prediction
    w = weights(evidences)
    top = max(w.values())
    kept = [r for r in evidences if w[r] >= evidence.SPAN_MIN_WEIGHT * top]
    readings: dict[predmod.TwinReading, Prediction] = {}
    rejected: dict[predmod.TwinReading, str] = {}
    for r in sorted(kept, key=lambda r: -w[r]):  # the heaviest first: its twin is twin.toml
        if r == plain:
            readings[r] = plain_prediction
            continue
        curve = gc_designs.waf_curve(r.design)
        try:  # every config its twin would run, checked before the first simulation
            ready_r = predmod.prepare(fig, r, curve)
        except predmod.TwinConfigError as exc:
            rejected[r] = exc.reason
            continue
        pred = predmod.read(fig, r, curve, ready_r)
        if (why := twin_misses_its_waf(pred)) is not None:
            rejected[r] = why
            continue
        pred.prediction_source += "; no bootstrap: its interval is the model-form error's"
        readings[r] = pred
    if not any(r.spare == predmod.RESERVE for r in readings):  # none simulated or reproduced
        plain_prediction.prediction_source += (
            f"; the onset of garbage collection from empty ({onset:.4g}) offered the GC-reserve "
            "reading, set aside: " + "; ".join(rejected.values())
        )
        return plain_prediction
    if plain in readings:  # one of several twins: twin-greedy.toml (twin.toml the heaviest's)
        name = predmod.TwinReading(several=True).twin_name
        plain_prediction.twins = {name: plain_prediction.twins[plain_prediction.twin]}
        plain_prediction.twin = name
    combined = spare_readings.combine(readings, evidences, {r: w[r] for r in readings})
    best = next(iter(readings))
    combined.twin = best.twin_name
    if best.twin_name != predmod.TWIN:
        combined.also_as(predmod.TWIN)
        combined.twin = predmod.TWIN
    aside = [r for r in evidences if r not in readings]
    if aside:
        combined.readings_set_aside = [
            SetAsideReading(r.spare, r.design, gc_text(r.ftl), w[r], evidences[r],
                            reason=rejected.get(r, LOW_WEIGHT))
            for r in aside
        ]  # fmt: skip
    share = sum(w[r] for r in evidences if r.spare == predmod.RESERVE)
    combined.prediction_source += (
        f"; the onset of garbage collection from empty ({onset:.4g} of the capacity) weighed "
        f"every reading and fitted the GC-reserve readings (reserve_reading.py), which take "
        f"{share:.3g} of the weight; twin.toml is the twin of {best.key}"
    )
    return combined
