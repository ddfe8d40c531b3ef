"""One prediction from readings of the same levels (``spare_readings.read_all``'s and
``reserve_reading.py``'s): the readings' weights by their evidence, each figure's centre
(``mixture_centre``: the mixture's median, the weighted geometric mean off), the interval
(``reading_mixture``), and the prediction's source in words, with each reading's figures kept
(``ReadingFigures``)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from overprov.calibrate import (
    erase_reading,
    evidence,
    gc_designs,
    mixture_centre,
    prediction,
    reading_mixture,
    workload_curve,
)
from overprov.calibrate import predict as predmod
from overprov.calibrate.gc_designs import DESIGNS
from overprov.calibrate.prediction import CombinedLevel, Prediction, ReadingFigures


def evidence_weights(
    evidences: dict[predmod.TwinReading, dict[str, Any]], keys: list[predmod.TwinReading]
) -> dict[predmod.TwinReading, float]:
    """``evidence.weights_of`` the readings ``keys`` (χ², and whether each reproduces its
    fitted figures). With ``evidence.WAF_WEIGHTS`` (on), uniform designs only, where
    ``evidence.weighs_by_waf``: each timing form (the erase-cost form or not,
    ``TwinReading.erase``) keeps the weight its readings have so, and within it the GC
    designs share it by their WAF figures' χ² (``evidence.waf_weights``)."""
    w = evidence.weights_of({r: evidences[r] for r in keys})
    uniform = all(r.design in gc_designs.UNIFORM_DESIGNS for r in keys)  # as its rule judged
    if not (uniform and evidence.weighs_by_waf([evidences[r] for r in keys])):
        return w
    return evidence.waf_weights(w, {r: evidences[r] for r in keys}, lambda r: r.erase)


def weighted_geomean(values: list[float | None], weights: list[float]) -> float | None:
    """The weighted geometric mean of the values that are set (not None or 0) and have a positive
    weight; None when there is none."""
    got = [(v, w) for v, w in zip(values, weights, strict=True) if v and w > 0]
    total = sum(w for _, w in got)
    if not got or total <= 0:
        return None
    return math.exp(sum(w * math.log(v) for v, w in got) / total)


def combine(
    readings: dict[predmod.TwinReading, Prediction],
    evidences: dict[predmod.TwinReading, dict[str, Any]] | None = None,
    weights: dict[predmod.TwinReading, float] | None = None,
    span: set[predmod.TwinReading] | None = None,
) -> Prediction:
    """One prediction from readings of the same levels: each figure's geometric mean (IOPS, WAF:
    the mixture's median, ``mixture_centre``) weighted by ``weights``, else by evidence (None:
    equal weights), the interval the evidence-weighted mixture's (``reading_mixture.interval``)
    of the readings that keep ``evidence.SPAN_MIN_WEIGHT`` of the largest weight (with
    ``reading_mixture.ON`` off: from the lowest to the highest of their figures and intervals),
    and reaching the figures and intervals of those in ``span`` whatever their weight
    (``reserve_hull.hull``). The twin of the first is the prediction's."""
    keys = list(readings)
    docs = [readings[k] for k in keys]
    first = docs[0]
    if weights is not None:
        w_by = {k: weights[k] for k in keys}
    elif evidences:
        w_by = evidence_weights(evidences, keys)
    else:
        w_by = {k: 1.0 / len(keys) for k in keys}
    ws = [w_by[k] for k in keys]
    top = max(ws)
    hull = span or set()
    spanned = [w_by[k] >= evidence.SPAN_MIN_WEIGHT * top or k in hull for k in keys]
    rows = []
    for level_rows in zip(*(d.levels for d in docs), strict=True):
        kept = [r for r, keep in zip(level_rows, spanned, strict=True) if keep]
        iops, waf = mixture_centre.level_centres(level_rows, ws, top, weighted_geomean)  # on
        if reading_mixture.ON:  # on: bench/foreign/results/scorenarrow/verdict.md
            iops_span, waf_span = reading_mixture.level_spans(
                level_rows, ws, top, hull, keys, iops, waf
            )
        else:
            iops_span = reading_mixture.span(
                [v for r in kept for v in (r.steady_iops, r.steady_iops_low, r.steady_iops_high)]
            )
            waf_span = reading_mixture.span(
                [v for r in kept for v in (r.waf, r.waf_low, r.waf_high)]
            )
        rows.append(CombinedLevel(
            level_rows[0].extra_op_percent,
            steady_iops=iops,
            waf=waf,
            p99_latency_us=weighted_geomean([r.p99_latency_us for r in level_rows], ws),
            surrogate_iops=weighted_geomean([r.surrogate_iops for r in level_rows], ws),
            steady_iops_low=iops_span[0], steady_iops_high=iops_span[1],
            waf_low=waf_span[0], waf_high=waf_span[1],
            twin_iops=level_rows[0].twin_iops,
        ))  # fmt: skip
    interval = (
        f"from the lowest to the highest of the figures and intervals of {sum(spanned)} of the "
        f"{len(docs)} readings (those the figures leave at least "
        f"{evidence.SPAN_MIN_WEIGHT:g} of the largest weight; each {first.interval})"
    )
    if reading_mixture.ON:
        n_mixed = sum(w >= evidence.SPAN_MIN_WEIGHT * top for w in ws)
        interval = reading_mixture.describe(n_mixed, len(docs), evidence.SPAN_MIN_WEIGHT)
        interval += f" (each {first.interval})"
    if any(k in hull and w_by[k] < evidence.SPAN_MIN_WEIGHT * top for k in keys):
        interval += (
            "; with every reading that reproduces its fitted figures, its weight aside: the "
            "figures cannot tell a GC reserve's floor from a gentler curve (reserve_hull.py)"
        )
    spares = {k.spare for k in readings}
    designs = [d for d in DESIGNS if any(k.design == d for k in readings)]
    parts = []
    if predmod.RAW in spares and len(spares) > 1:
        raw = max((r for r in keys if r.spare == predmod.RAW), key=lambda r: w_by[r])
        k = readings[raw].fit["spare_efficiency"]
        gc = workload_curve.gc_text(DESIGNS[raw.design]).split(",")[0]
        parts.append(
            f"the spare effective (fitted) or raw used k times as well (k = {k:.3g} with {gc})"
        )
    if predmod.RESERVE in spares:
        parts.append("the fitted spare, or the spare beyond a GC reserve with a victim floor")
    if len(designs) > 1:
        parts.append(
            f"{len(designs)} GC designs: "
            + "; ".join(workload_curve.gc_text(DESIGNS[d]) for d in designs)
        )
    equal = max(ws) - min(ws) < 1e-6
    how = "equal weights: the figures cannot tell them apart" if equal else "weights in readings"
    source = (
        f"the {'' if equal else 'evidence-'}weighted geometric mean of {len(docs)} readings "
        f"({how}), each a twin simulated at every level"
    )
    if len(docs) == 1:  # no mean of one: said as what it is
        source = "the one reading the figures leave, its twin simulated at every level"
    source += "".join(f"; {p}" for p in parts) + "; readings holds each one's figures"
    target = first.recommendation.target_iops if first.recommendation is not None else None
    twins: dict[str, Any] = {}
    for d in docs:
        twins.update(d.twins)
    return dataclasses.replace(
        first,
        levels=rows,
        interval=interval,
        prediction_source=source,
        recommendation=(
            prediction.recommendation(rows, target) if first.recommendation is not None else None
        ),
        readings=[
            ReadingFigures(
                r.spare,
                erase_reading.design_name(r),
                levels=d.levels,
                fit=d.fit,
                twin=d.twin,
                prediction_source=d.prediction_source,
                gc=workload_curve.gc_text(DESIGNS[r.design]),
                weight=w_by[r],
                evidence=evidences[r] if evidences else None,
            )
            for r, d in readings.items()
        ],
        twins=twins,
    )
