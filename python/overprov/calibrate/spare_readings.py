"""Readings of figures a figure or two cannot tell apart: how a drive uses its spare NAND, and
which garbage collection it runs.

**The spare.** With the raw NAND beyond the user capacity known (``--physical``), figures that
fall short of (or beat) what greedy garbage collection on that much spare would give have two
readings:

- **effective spare** (``twin.toml``): the fit's usual form. The native spare ρ₀ is fitted to
  the figures and the raw NAND is not used: a drive that keeps part of its NAND for other uses
  (metadata, an SLC cache, retired blocks) has that much less spare, and extra OP adds to what
  is left, ``ρ(x) = (1 + ρ₀)/(1 − x) − 1``;
- **raw spare used k times as well** (``twin-raw-nand.toml``): ρ₀ is the raw NAND's, and WAF is
  that of the fit's curve at ``k·ρ(x)``, k (``Surrogate.spare_efficiency``) fitted to the WAF
  figures (1 when there are none). A drive whose garbage collection or data placement beats
  the twin's is k > 1; one that does worse, k < 1. Extra OP then helps in proportion to the
  spare the drive already has.

Under a skewed workload the simulator's own GC designs follow the second reading in steady
state, while figures taken over a run from a secure erase (a stretch at WAF 1 included) follow
the first more closely (docs/calibrate-validation.md, "Published figures").

**The GC design.** Under uniform random writes the simulator's designs (greedy or cost-benefit
victims, one write frontier or one per workload zone) give one WAF curve (within 2.3%, and
0.5% from 5% of spare up: docs/calibrate-model.md), but drives built by others do not all collect
greedily: uniform figures are read with greedy and with d-choices victims (d 2, 4, 8;
``gc_designs.UNIFORM_DESIGNS``, Van Houdt's mean-field curves), whose WAF falls more slowly
with spare space the smaller d is. Under a skewed workload the simulator's designs part
(cost-benefit with hot and cold data apart loses WAF with spare space fastest), so those
figures are read once per design of :data:`GC_DESIGNS`. Each reading has its own curve and
twin (``twin-<design>.toml``, ``twin-raw-nand-<design>.toml``; the greedy effective-spare twin
is ``twin-greedy.toml`` and ``twin.toml`` the copy of the reading with the largest weight).

calibrate states the median of the readings' weighted mixture (``mixture_centre``), weighted by
how well its form reproduces the figures it was fitted to and predicts each of them from the
others (``evidence.py``: a likelihood, equal weights when the figures cannot tell the readings
apart), with an interval the 10th to 90th percentile of the readings' evidence-weighted mixture,
each reading's own interval as its 10th and 90th percentile, over the readings that keep at
least ``evidence.SPAN_MIN_WEIGHT`` of the largest weight (``reading_mixture.py``; with its ``ON``
off, as before its rule: from the lowest to the highest of their figures and intervals).

**The raw NAND is information, not more readings.** The two spare readings are weighed as two
classes (:func:`class_weights`): the effective-spare readings among themselves exactly as
without the raw NAND, the raw-spare readings among themselves, and the raw-spare class takes
the share :func:`raw_share` of the weight, the rest the effective-spare class. That share is
what the figures' own leave-one-out gives the raw spare *beyond an even split*: with p the
pseudo-Bayesian-model-averaging probability of the raw class (each class's leave-one-out
likelihood, its readings mixed by their weights in it), the share is max(0, 2p − 1) =
max(0, tanh(Δ/4)), Δ the classes' difference of −2 ln leave-one-out likelihood — counted from
:data:`RAW_SHARE_MIN_DELTA` (2, positive evidence), max(0, tanh((Δ − 2)/4)): a preference of a
few hundredths, or of one, is no evidence. So where the figures cannot tell the classes apart
(nothing can be held out, or the leave-one-out is even or nearly so) the prediction is the one
without the raw NAND, figure for figure; the raw spare takes weight only as far as the
held-out figures prefer it positively. A raw-spare class none of whose readings
reproduces its fitted figures takes none (``evidence.reproduces``: a form that misses its own
fitted points is not trusted between them; where every form is refuted, the likelihoods of
refuted forms are no evidence for the raw NAND). The raw-spare readings' twins are simulated
and reported whatever their share (``twin-raw-nand*.toml``). Why: giving the raw NAND used to
*add* readings beside the effective ones, which moved the mean where figures could not choose
(docs/calibrate-validation.md, "The raw NAND made a prediction worse", "The raw NAND as
information (pre-registered rule)" and "The raw NAND given needs evidence, not any
preference").

The raw-spare reading's twin is simulated per level as the twin whose spare at that level is
``k·ρ(x)``: its drive file has ``k·ρ₀`` of spare (the 0% level) and level x is simulated at the
extra OP that gives the wanted spare (``twin_runs.simulated_level``). For k = 1 that is x itself.

The readings kept are combined into one prediction by ``combined_prediction.py``; the GC designs
by name are ``gc_designs.py``'s.
"""

from __future__ import annotations

import math
from typing import Any

from overprov.calibrate import closed_loop as loopmod
from overprov.calibrate import (
    erase_reading,
    evidence,
    gc_designs,
    reading_residual,
    reserve_held_out,
    reserve_hull,
    reserve_next,
    twin_runs,
    uncertainty,
    workload_curve,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.combined_prediction import (
    combine,
    evidence_weights,
    weighted_geomean,  # noqa: F401 - bench reads it here
)
from overprov.calibrate.gc_designs import DESIGNS, GC_DESIGNS
from overprov.calibrate.prediction import Prediction, SetAsideReading
from overprov.calibrate.summary import set_aside_text
from overprov.errors import ConfigError

SPARES = (predmod.EFFECTIVE, predmod.RAW)
#: A reading whose weight is below this share of the largest one leaves the interval: a name
#: for bench scripts that read it; the code here reads ``evidence.SPAN_MIN_WEIGHT`` itself.
SPAN_MIN_WEIGHT = evidence.SPAN_MIN_WEIGHT
#: The leave-one-out preference Δ (in −2 ln likelihood, 2 ln of a pseudo Bayes factor) the raw
#: spare must have before its class takes any weight: :func:`raw_share` is
#: max(0, tanh((Δ − this)/4)). 2: Kass & Raftery's (1995) "positive" evidence; below it a
#: preference is "not worth more than a bare mention" (0, any preference, was the rule before:
#: docs/calibrate-validation.md, "The raw NAND given needs evidence, not any preference",
#: pre-registered in bench/raw_nand/RULE-3.md and met on unseen drives).
RAW_SHARE_MIN_DELTA = 2.0
_spanned = reserve_hull.spans_only  # a plain reading kept only to be spanned (reserve_hull.py)


def class_weights(
    evidences: dict[predmod.TwinReading, dict[str, Any]],
) -> dict[predmod.TwinReading, float]:
    """Each reading's weight within its spare class (``evidence.weights`` over the class's
    readings alone): the effective-spare readings' are those they have without the raw NAND."""
    out: dict[predmod.TwinReading, float] = {}
    for spare in SPARES:  # a GC-reserve reading (reserve_hull.py) in the effective class
        mine = reserve_hull.weighed_in(evidences, spare)  # not a plain reading only spanned
        if mine:
            out.update(evidence_weights(evidences, mine))
    return {**out, **{r: 0.0 for r in evidences if r not in out}}  # those spanned: none


def loo_chi2(ev: dict[str, Any]) -> float:
    """A reading's leave-one-out term: its χ² less the residuals at its fitted figures."""
    return ev["chi2"] - ev.get("residual_chi2", ev["chi2"])


def _class_score(rs: list[predmod.TwinReading], within: dict, evidences: dict) -> float:
    """−2 ln of a class's leave-one-out likelihood, its readings mixed by their weights in it."""
    got = [(within[r], loo_chi2(evidences[r])) for r in rs if within[r] > 0]
    finite = [c for _, c in got if math.isfinite(c)]
    if not finite:
        return math.inf
    m = min(finite)
    return m - 2 * math.log(sum(w * math.exp(-(c - m) / 2) for w, c in got if math.isfinite(c)))


def raw_share(
    evidences: dict[predmod.TwinReading, dict[str, Any]],
    within: dict[predmod.TwinReading, float],
    min_delta: float | None = None,
) -> tuple[float, str]:
    """The share of the weight the raw-spare readings take, and why (the module's doc):
    max(0, tanh((Δ − m)/4)) with Δ the effective class's −2 ln leave-one-out likelihood less
    the raw class's and m ``min_delta`` (default :data:`RAW_SHARE_MIN_DELTA`); 0 when no
    raw-spare reading reproduces its fitted figures or nothing is held out, 1 when there is no
    effective-spare reading."""
    eff = [r for r in evidences if reserve_hull.class_of(r.spare) == predmod.EFFECTIVE]
    raw = [r for r in evidences if r.spare == predmod.RAW]
    if not raw:
        return 0.0, "no raw-spare reading"
    if not eff:
        return 1.0, "no effective-spare reading beside them"
    if not any(_reproduces(evidences[r]) for r in raw):
        return 0.0, "none of them reproduces its fitted figures"
    if not any(evidences[r].get("held_out") for r in evidences):
        return 0.0, "no figure can be held out to tell the spare readings apart"
    s_eff, s_raw = _class_score(eff, within, evidences), _class_score(raw, within, evidences)
    if not math.isfinite(s_raw):
        return 0.0, "their leave-one-out misses every held-out figure"
    delta = s_eff - s_raw
    m = RAW_SHARE_MIN_DELTA if min_delta is None else min_delta
    share = max(0.0, math.tanh((delta - m) / 4)) if math.isfinite(delta) else 1.0
    prefers = "prefers" if delta > 0 else "does not prefer"
    why = f"the figures' leave-one-out {prefers} the raw spare (Δχ² {delta:.3g})"
    if 0 < delta <= m:
        why += f", by no more than the {m:g} that counts as evidence"
    return share, why


def shared_weights(
    within: dict[predmod.TwinReading, float], share: float
) -> dict[predmod.TwinReading, float]:
    """The readings' weights: the raw-spare class ``share`` of the whole, the effective-spare
    class the rest, each reading its class's weight times its weight in the class."""
    return {r: w * (share if r.spare == predmod.RAW else 1.0 - share) for r, w in within.items()}


def reading(
    spare: str, design: str, raw_native_op: float | None, several: bool = False
) -> predmod.TwinReading:
    """The reading of ``spare`` (``predict.EFFECTIVE``/``RAW``) with GC design ``design``
    (``several``: one of several designs, ``TwinReading.several``)."""
    ftl = None if design == "greedy" else DESIGNS[design]
    native_op = raw_native_op if spare == predmod.RAW else None
    return predmod.TwinReading(spare, design, ftl, native_op, several)


def _aside_reason(
    r: predmod.TwinReading,
    weight: float,
    top: float,
    rejected: dict[predmod.TwinReading, predmod.TwinConfigError],
) -> str:
    """Why reading ``r`` has no twin simulated: the core rejects one (``rejected``), an
    effective spare the figures cannot fix, or its weight."""
    if r in rejected:
        return rejected[r].reason
    if weight >= evidence.SPAN_MIN_WEIGHT * top:
        return "its twin could not be simulated (the raw-spare reading stands in for it)"
    return (
        f"weight below {evidence.SPAN_MIN_WEIGHT:g} of the largest of its spare reading: the "
        "figures speak against it"
    )


def _rejected_note(
    rejected: dict[predmod.TwinReading, predmod.TwinConfigError],
    kept: dict[predmod.TwinReading, Prediction],
    share: float,
) -> str:
    """What setting aside readings whose twin cannot be simulated does to the figures: their
    share of the weight, and when they fitted less native spare than every reading kept, that
    the figures are the optimistic side's; with the levels to leave out to keep them."""
    if not rejected:
        return ""
    low = min(e.native_op for e in rejected.values())
    kept_low = min(p.fit["native_op"] for p in kept.values())
    at = ", ".join(f"{x:g}%" for x in sorted({e.extra_op_percent for e in rejected.values()}))
    held = f"; those held {share:.0%} of the weight"
    if low >= kept_low:
        return f"{held}; without {at} in --extra-op they would be simulated too"
    return (
        f"{held} and fitted less native spare than any reading kept ({100 * low:.2g}% against "
        f"{100 * kept_low:.2g}%): the figures are those of the readings with more spare, "
        f"optimistic if the figures' drive is read as those set aside read it; without {at} "
        "in --extra-op they would be simulated too"
    )


def _reproduces(ev: dict[str, Any]) -> bool:
    return evidence.reproduced(ev, untested=True)  # a χ² alone: nothing to test


def weigh(
    fig: predmod.PredictionInput, curves: dict[str, fitmod.WafCurve] | None = None
) -> tuple[dict[predmod.TwinReading, dict[str, Any]], dict[str, fitmod.WafCurve | None]]:
    """Every reading of typed figures and its evidence (``evidence.assess``: the surrogate's
    fits, milliseconds), with each GC design's WAF curve (simulated under a skewed workload
    when ``curves`` lacks it): what :func:`read_all` weighs before any twin is simulated. A
    reading the figures cannot fit (an effective spare from one IOPS figure) is left out when
    the raw spare stands beside it."""
    raw_native_op = fig.raw_native_op
    uniform = workload_curve.is_uniform(fig.workload)
    designs = list(gc_designs.UNIFORM_DESIGNS) if uniform else list(GC_DESIGNS)
    several = len(designs) > 1
    cv_sd = uncertainty.weighing_rel_sd(fig.model_form)
    forms: dict[predmod.TwinReading, evidence.ReadingForm] = {}
    design_curve: dict[str, fitmod.WafCurve | None] = {}
    for i, design in enumerate(designs):
        eff = reading(predmod.EFFECTIVE, design, raw_native_op, several)
        curve = (curves or {}).get(design)
        if curve is None and not uniform:
            gc = workload_curve.gc_text(eff.ftl)
            runs = len(workload_curve.grid())
            say = f"GC design {i + 1} of {len(designs)} ({gc}): its WAF curve, {runs} runs"
            twin_runs.say(fig.progress, say)
            curve = workload_curve.simulate_curve(
                fig.workload or {}, jobs=fig.jobs, ftl=eff.ftl, progress=fig.progress
            )
        elif curve is None:
            curve = gc_designs.curve(design)
        design_curve[design] = curve
        forms[eff] = eff.form(curve or fitmod.waf_at)
        if raw_native_op is not None:
            raw = reading(predmod.RAW, design, raw_native_op, several)
            forms[raw] = raw.form(curve or fitmod.waf_at)
    undated = reserve_hull.forms(fig, cv_sd, several)  # (off)
    plain = reserve_hull.replaced(fig, cv_sd, forms, undated)  # steep_pair.READ_AS_FLOOR (on)
    forms = {**{r: f for r, f in forms.items() if r not in plain}, **undated}  # type: ignore
    evidences: dict[predmod.TwinReading, dict[str, Any]] = {}
    for r, form in forms.items():
        try:
            evidences[r] = evidence.assess(form, fig.points, cv_sd)
        except ConfigError:  # one IOPS figure: no effective spare beside the raw one
            if raw_native_op is None:
                raise
    evidences.update(reserve_held_out.reweighed(forms, evidences, fig.points, cv_sd))  # (on)
    evidences.update(erase_reading.twins(forms, evidences, fig.points, cv_sd))  # where called for
    evidences.update(reserve_hull.spanned_beside(plain, fig.points, cv_sd))  # (off)
    return evidences, design_curve


def read_all(
    fig: predmod.PredictionInput, curves: dict[str, fitmod.WafCurve] | None = None
) -> Prediction:
    """Typed figures (``--points``/``--waf-points``) read every way they cannot tell apart,
    combined: both spare readings when the raw spare ``fig.raw_native_op`` is known (only the
    raw one when the figures cannot fix an effective spare: one IOPS figure and no WAF), each
    with every GC design (uniform figures: ``gc_designs.UNIFORM_DESIGNS``; under a skewed
    workload: :data:`GC_DESIGNS`). ``curves``: each design's WAF curve under the workload, when
    the caller has them. Each reading's evidence is weighed first (the surrogate's fits,
    milliseconds); only readings that keep ``evidence.SPAN_MIN_WEIGHT`` of the largest weight have
    their twins simulated, the others are listed under ``readings_set_aside``. ``twin.toml`` is
    a copy of the twin of the reading with the largest weight."""
    raw_native_op = fig.raw_native_op
    evidences, design_curve = weigh(fig, curves)
    within = class_weights(evidences)
    raw_weight, raw_why = raw_share(evidences, within)
    w_all = shared_weights(within, raw_weight)
    fig = reading_residual.weighted_input(fig, w_all, design_curve)  # off by default
    # a reading is simulated when it keeps SPAN_MIN_WEIGHT of the largest weight in its class
    # (the raw-spare readings' twins too when their class takes no weight: they are reported)
    top = {s: max((w for r, w in within.items() if reserve_hull.class_of(r.spare) == s),
                  default=0.0) for s in SPARES}  # fmt: skip
    top_of = {r: top[reserve_hull.class_of(r.spare)] for r in evidences}
    span = reserve_hull.hull(evidences)  # empty unless a GC-reserve reading is offered (off)
    low = {
        r for r in evidences if within[r] < evidence.SPAN_MIN_WEIGHT * top_of[r] and r not in span
    }
    # every kept reading fitted and its twins' configs checked at every level before the
    # first simulation: a reading the core cannot simulate is set aside, with its reason
    prepared: dict[predmod.TwinReading, predmod.Prepared] = {}
    rejected: dict[predmod.TwinReading, predmod.TwinConfigError] = {}
    for r in evidences:
        if r in low:
            continue
        try:
            with erase_reading.fitting(r.erase):
                prepared[r] = predmod.prepare(
                    fig, r, reserve_hull.curve_of(r, design_curve[r.design])
                )
        except predmod.TwinConfigError as exc:
            rejected[r] = exc
    if not prepared and rejected:
        first = next(iter(rejected.values()))
        more = f" (and {len(rejected) - 1} more readings likewise)" if len(rejected) > 1 else ""
        at = ", ".join(f"{x:g}%" for x in sorted({e.extra_op_percent for e in rejected.values()}))
        raise ConfigError(
            f"{first}{more}; no reading of the figures can be simulated at {at} extra OP: "
            "leave that level out of --extra-op"
        )
    readings: dict[predmod.TwinReading, Prediction] = {}
    missed: dict[predmod.TwinReading, str] = {}  # a GC-reserve twin that misses a WAF figure
    for i, (r, ready) in enumerate(prepared.items()):
        say = f"reading {i + 1} of {len(prepared)} ({reading_text(r)}): its twin "
        say += TWIN_REFINED if ready.has_iops else ""
        say += f"simulated at {len(set(fig.levels))} levels"
        twin_runs.say(fig.progress, say)
        try:
            with erase_reading.fitting(r.erase):
                curve = reserve_hull.curve_of(r, design_curve[r.design])
                readings[r] = predmod.read(fig, r, curve, ready)
        except ConfigError:
            if (raw_native_op is None or r.spare == predmod.RAW) and not _spanned(evidences[r]):
                raise
        if r.spare == predmod.RESERVE and (why := reserve_hull.twin_miss(readings[r])):
            missed[r] = why
            del readings[r]
    w_all = reserve_next.go_on(fig, evidences, w_all, low, rejected, missed, readings, design_curve)
    if not reserve_hull.answering(readings, evidences):
        raise ConfigError("no reading of the figures could be simulated")
    if span and not any(w_all[r] > 0 for r in readings):  # the heaviest twins set aside
        w_all = {**w_all, **evidence_weights(evidences, list(readings))}
    if not any(w_all[r] > 0 for r in readings):  # no effective-spare twin ran: the raw stand in
        raw_weight, raw_why = 1.0, "no effective-spare reading's twin could be simulated"
        w_all = shared_weights(within, raw_weight)
    best = max(readings, key=lambda r: w_all[r])
    raw_only = not any(r.spare == predmod.EFFECTIVE for r in evidences)
    note = "; the raw spare only: these figures cannot fix an effective spare beside it"
    set_aside = [
        SetAsideReading(
            r.spare, erase_reading.design_name(r), workload_curve.gc_text(DESIGNS[r.design]),
            w_all[r], evidences[r],
            reason=missed.get(r) or _aside_reason(r, within[r], top_of[r], rejected),
        )
        for r in evidences
        if r not in readings
    ]  # fmt: skip
    if len(readings) == 1 and not set_aside:
        (only,) = readings.values()
        if only.twin != predmod.TWIN:  # twin.toml is the one reading's twin too
            only.also_as(predmod.TWIN)
            only.twin = predmod.TWIN
        if raw_only:
            only.prediction_source += note
        only.prediction_source += reserve_hull.ambiguity_warning(fig, evidences)  # on by default
        return only
    # the heaviest first: the combined prediction's fit, twin and twin_iops are twin.toml's
    readings = {best: readings[best], **readings}
    combined = combine(readings, {r: evidences[r] for r in readings}, w_all, span)
    combined.twin = best.twin_name
    if best.twin_name != predmod.TWIN:
        combined.also_as(predmod.TWIN)
        combined.twin = predmod.TWIN
    if set_aside:
        combined.readings_set_aside = set_aside
        n_low = len(low)
        n_rejected = len(rejected)
        why = [
            f"{n_low} by weight (below {evidence.SPAN_MIN_WEIGHT:g} of the largest of its spare "
            "reading)",
            f"{n_rejected} whose twin the simulator cannot run at a level asked for",
            f"{len(missed)} GC-reserve readings whose twin misses a WAF figure",
            f"{len(set_aside) - n_low - n_rejected - len(missed)} whose twin could not be "
            "simulated (the raw-spare reading stands in)",
        ]
        n = len(set_aside)
        combined.prediction_source += (
            f"; {set_aside_text(n)} not simulated: "
            + ", ".join(w for w in why if not w.startswith("0 "))
            + " (readings_set_aside gives each one's reason)"
        )
        share = sum(w_all[r] for r in rejected) / sum(w_all.values())
        combined.prediction_source += _rejected_note(rejected, readings, share)
    if raw_native_op is not None and not raw_only:
        combined.prediction_source += (
            f"; the raw-spare readings take {raw_weight:.3g} of the weight: {raw_why} "
            "(spare_readings.raw_share)"
        )
    tied = sum(abs(w_all[r] - w_all[best]) < 1e-6 for r in readings) > 1
    why = "the first of equal weights" if tied else "the largest weight"
    combined.prediction_source += f"; twin.toml is the twin of {best.key} ({why})"
    if fig.other_qd_points:
        used = any("gc_mechanism" in p.fit for p in readings.values())
        qd = fig.measurement.qd if fig.measurement is not None else fitmod.WORKLOAD_QD
        combined.prediction_source += loopmod.note(
            len(fig.other_qd_points), used, qd, loopmod.weighs(fig.other_qd_points)
        )
    if raw_only:
        combined.prediction_source += note
    combined.prediction_source += reserve_hull.ambiguity_warning(fig, evidences, readings)
    return combined


#: With IOPS figures, what :func:`read_all` does to a twin first, as its progress line says.
TWIN_REFINED = "refined until it reproduces the IOPS figures, then "


def reading_text(r: predmod.TwinReading) -> str:
    """A reading in words: its spare reading and its garbage collection."""
    spare = {predmod.RAW: "raw spare", predmod.RESERVE: "spare beyond a GC reserve"}.get(
        r.spare, "effective spare"
    )
    return f"{spare}, {workload_curve.gc_text(r.ftl)}"
