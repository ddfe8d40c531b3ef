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
the first more closely (docs/calibrate.md, "Published figures").

**The GC design.** Under uniform random writes the simulator's designs (greedy or cost-benefit
victims, one write frontier or one per workload zone) give one WAF curve (within 2.3%, and
0.5% from 5% of spare up: docs/calibrate.md), so the twin's own, greedy on one frontier, stands
for all. Under a skewed workload they part (cost-benefit with hot and cold data apart loses
WAF with spare space fastest), and figures do not say which the drive runs; so each reading is
made once per design of :data:`GC_DESIGNS`, each with its own simulated curve and twin
(``twin-<design>.toml``, ``twin-raw-nand-<design>.toml``).

calibrate states the weighted geometric mean of the readings' figures, each reading weighted by
how well its form reproduces the figures it was fitted to and predicts each of them from the
others (``evidence.py``: a likelihood, equal weights when the figures cannot tell the readings
apart), with an interval from the lowest to the highest of the figures and intervals of the
readings that keep at least :data:`SPAN_MIN_WEIGHT` of the largest weight.

The raw-spare reading's twin is simulated per level as the twin whose spare at that level is
``k·ρ(x)``: its drive file has ``k·ρ₀`` of spare (the 0% level) and level x is simulated at the
extra OP that gives the wanted spare (``twin_runs.simulated_level``). For k = 1 that is x itself.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from overprov.calibrate import evidence, prediction, uncertainty, workload_curve
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import Prediction
from overprov.errors import ConfigError

#: The garbage collection designs a skewed workload's figures are read with (``config.ftl``
#: keys), by name; the first is the twin's own, the one uniform figures are read with.
GC_DESIGNS: dict[str, dict[str, str]] = {
    "greedy": {"policy": "greedy", "host_streams": "single"},
    "greedy-zones": {"policy": "greedy", "host_streams": "workload"},
    "cost-benefit": {"policy": "cost-benefit", "host_streams": "single"},
    "cost-benefit-zones": {"policy": "cost-benefit", "host_streams": "workload"},
}
SPARES = (predmod.EFFECTIVE, predmod.RAW)
#: A reading whose weight is below this share of the largest one leaves the interval: the
#: figures speak against it (exp(−χ²/2) < 0.01: Δχ² > 9.2, three standard errors).
SPAN_MIN_WEIGHT = 0.01


def reading(spare: str, design: str, raw_native_op: float | None) -> predmod.TwinReading:
    """The reading of ``spare`` (``predict.EFFECTIVE``/``RAW``) with GC design ``design``."""
    ftl = None if design == "greedy" else GC_DESIGNS[design]
    native_op = raw_native_op if spare == predmod.RAW else None
    return predmod.TwinReading(spare, design, ftl, native_op)


def _geomean(values: list[float | None], weights: list[float]) -> float | None:
    got = [(v, w) for v, w in zip(values, weights, strict=True) if v and w > 0]
    total = sum(w for _, w in got)
    if not got or total <= 0:
        return None
    return math.exp(sum(w * math.log(v) for v, w in got) / total)


def _span(values: list[float | None]) -> tuple[float | None, float | None]:
    got = [v for v in values if v is not None]
    return (min(got), max(got)) if got else (None, None)


def combine(
    readings: dict[predmod.TwinReading, Prediction],
    evidences: dict[predmod.TwinReading, dict[str, Any]] | None = None,
) -> Prediction:
    """One prediction from readings of the same levels: the geometric mean of each figure
    weighted by each reading's evidence (``evidence.assess``; None: equal weights), the interval
    from the lowest to the highest of the figures and intervals of the readings that keep
    :data:`SPAN_MIN_WEIGHT` of the largest weight. The twin of the first is the prediction's."""
    keys = list(readings)
    docs = [readings[k] for k in keys]
    first = docs[0]
    if evidences:
        w_by = evidence.weights({k: evidences[k]["chi2"] for k in keys})
    else:
        w_by = {k: 1.0 / len(keys) for k in keys}
    ws = [w_by[k] for k in keys]
    top = max(ws)
    spanned = [w >= SPAN_MIN_WEIGHT * top for w in ws]
    rows = []
    for level_rows in zip(*(d.levels for d in docs), strict=True):
        row: dict[str, Any] = {"extra_op_percent": level_rows[0]["extra_op_percent"]}
        for key in ("steady_iops", "waf", "p99_latency_us", "surrogate_iops"):
            row[key] = _geomean([r.get(key) for r in level_rows], ws)
        for key, lo, hi in (("steady_iops", "steady_iops_low", "steady_iops_high"),
                            ("waf", "waf_low", "waf_high")):  # fmt: skip
            row[lo], row[hi] = _span([
                r.get(k) for r, keep in zip(level_rows, spanned, strict=True) if keep
                for k in (key, lo, hi)
            ])  # fmt: skip
        row["twin_iops"] = level_rows[0].get("twin_iops")
        rows.append(row)
    n_span = sum(spanned)
    interval = (
        f"from the lowest to the highest of the figures and intervals of {n_span} of the "
        f"{len(docs)} readings (those the figures leave at least {SPAN_MIN_WEIGHT:g} of the "
        f"largest weight; each {first.interval})"
    )
    spares = {k.spare for k in readings}
    designs = [d for d in GC_DESIGNS if any(k.design == d for k in readings)]
    parts = []
    if len(spares) > 1:
        k = next(p for r, p in readings.items() if r.key == predmod.RAW).fit["spare_efficiency"]
        parts.append(
            f"the spare effective (fitted) or raw used k times as well (k = {k:.3g} with greedy GC)"
        )
    if len(designs) > 1:
        parts.append(
            f"{len(designs)} GC designs: "
            + "; ".join(workload_curve.gc_text(GC_DESIGNS[d]) for d in designs)
        )
    equal = max(ws) - min(ws) < 1e-6
    how = "equal weights: the figures cannot tell them apart" if equal else "weights in readings"
    source = (
        f"the {'' if equal else 'evidence-'}weighted geometric mean of {len(docs)} readings "
        f"({how}), each a twin simulated at every level: "
        + "; ".join(parts)
        + "; readings holds each one's figures"
    )
    target = first.recommendation["target_iops"] if first.recommendation is not None else None
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
        readings={
            r.key: {
                "levels": d.levels,
                "fit": d.fit,
                "twin": d.twin,
                "prediction_source": d.prediction_source,
                "gc": workload_curve.gc_text(GC_DESIGNS[r.design]),
                "weight": w_by[r],
                **({"evidence": evidences[r]} if evidences else {}),
            }
            for r, d in readings.items()
        },
        twins=twins,
    )


def read_all(
    fig: predmod.PredictionInput, curves: dict[str, fitmod.WafCurve] | None = None
) -> Prediction:
    """Typed figures (``--points``/``--waf-points``) read every way they cannot tell apart,
    combined: both spare readings when the raw spare ``fig.raw_native_op`` is known (only the
    raw one when the figures cannot fix an effective spare: one IOPS figure and no WAF), and
    under a skewed workload each of :data:`GC_DESIGNS`. ``curves``: each design's WAF curve
    under the workload, when the caller has them. A single reading is returned as it is."""
    raw_native_op = fig.raw_native_op
    uniform = workload_curve.is_uniform(fig.workload)
    designs = ["greedy"] if uniform else list(GC_DESIGNS)
    readings: dict[predmod.TwinReading, Prediction] = {}
    forms: dict[predmod.TwinReading, evidence.ReadingForm] = {}
    for design in designs:
        eff = reading(predmod.EFFECTIVE, design, raw_native_op)
        raw = reading(predmod.RAW, design, raw_native_op)
        curve = (curves or {}).get(design)
        if curve is None and not uniform:
            curve = workload_curve.simulate_curve(fig.workload or {}, jobs=fig.jobs, ftl=eff.ftl)
        forms[eff] = eff.form(curve or fitmod.waf_at)
        if raw_native_op is not None:
            forms[raw] = raw.form(curve or fitmod.waf_at)
        try:
            readings[eff] = predmod.read(fig, eff, curve)
        except ConfigError:
            if raw_native_op is None:
                raise
        if raw_native_op is not None:
            readings[raw] = predmod.read(fig, raw, curve)
    raw_only = not any(r.spare == predmod.EFFECTIVE for r in readings)
    note = "; the raw spare only: these figures cannot fix an effective spare beside it"
    if len(readings) == 1:
        (only,) = readings.values()
        if raw_only:  # twin.toml is the raw reading's twin too
            only.also_as(predmod.TWIN)
            only.twin = predmod.TWIN
            only.prediction_source += note
        return only
    mf = fig.model_form or uncertainty.recorded_model_form(False)
    cv_sd = mf.rel_sd if mf is not None else 0.0
    combined = combine(
        readings, {k: evidence.assess(forms[k], fig.points, cv_sd) for k in readings}
    )
    if raw_only:
        combined.also_as(predmod.TWIN)
        combined.prediction_source += note
    return combined
