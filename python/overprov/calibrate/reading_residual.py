"""The model-form error from the readings that carry the prediction (off by default).

calibrate's interval for typed figures widens each reading's bootstrap band by a model-form
relative sd ``scale · hypot(floor, R)``, R the residual sd of the *greedy* surrogate on the
fitted figures (``uncertainty.fit_residual_sd``, ``uncertainty.model_form_for``), even when the
evidence gives the weight of the prediction to another reading: on WiscSim the d-choices-4
reading carries it, its residual 0.039–0.079 against greedy's 0.088–0.120
(bench/intervals/plan-width-terms.md).

With :data:`WEIGHTED` on, R is instead the readings' own residuals on the same figures (each
reading's WAF curve and spare: :func:`uncertainty.fit_residual_sd`), pooled by the readings'
evidence weights as a mixture's second moment, sqrt(Σ w_r R_r² / Σ w_r) over the readings whose
residual is defined (:func:`weighted_residual_sd`); and the scale is the one recorded for that R
(``model_form_error.json``'s ``fit_residual_weighted``, fitted as the greedy one was; the greedy
one where none is recorded). Figures that leave the greedy fit nothing to miss keep their form
(the distance rule). The rule that judges it: bench/intervals/RULE-weighted-residual.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from overprov.calibrate import fit as fitmod
from overprov.calibrate import uncertainty

#: Off: calibrate's intervals use the greedy surrogate's residual (the recorded rule).
WEIGHTED = False


@dataclass(frozen=True)
class WeighedReading:
    """A reading as its residual is worked out: its WAF curve (None: greedy), the raw spare it
    holds with its efficiency fitted (None: the effective spare fitted), and its weight."""

    curve: fitmod.WafCurve | None
    native_op: float | None
    weight: float


def weighted_residual_sd(
    points: list[fitmod.Point], readings: Iterable[WeighedReading]
) -> float | None:
    """sqrt(Σ w R² / Σ w) over the ``readings`` of positive weight whose residual sd R on
    ``points`` is defined; None when there is none."""
    num = den = 0.0
    for r in readings:
        if r.weight <= 0:
            continue
        res = uncertainty.fit_residual_sd(
            points,
            curve=r.curve or fitmod.waf_at,
            native_op=r.native_op,
            fit_efficiency=r.native_op is not None,
        )
        if res is None:
            continue
        num += r.weight * res * res
        den += r.weight
    return math.sqrt(num / den) if den > 0 else None


def recorded_scale(default: float) -> float:
    """The scale recorded for the weighted residual (``fit_residual_weighted``), else
    ``default``."""
    rec = (uncertainty.recorded() or {}).get("fit_residual_weighted")
    return float(rec["scale"]) if rec else default


def weighted_form(
    form: uncertainty.ModelForm | None,
    points: list[fitmod.Point],
    readings: Iterable[WeighedReading],
) -> uncertainty.ModelForm | None:
    """``form`` with its residual the readings' weighted one (module text) when :data:`WEIGHTED`
    is on and ``form`` is set by the greedy fit's residual; ``form`` itself otherwise."""
    if not WEIGHTED or form is None or form.residual_sd is None:
        return form
    res = weighted_residual_sd(points, readings)
    if res is None:
        return form
    return replace(
        form,
        residual_sd=res,
        residual_scale=recorded_scale(form.residual_scale),
        source=form.source + "; the residual that of the readings, by their evidence weights",
    )


def weighted_input(fig, weights: dict, curves: dict[str, fitmod.WafCurve | None]):
    """``fig`` (a ``predict.PredictionInput``) with :func:`weighted_form`'s model-form error,
    from ``weights`` (each ``predict.TwinReading`` weighed, ``spare_readings.read_all``'s
    weights) and each GC design's WAF curve (``curves``); ``fig`` itself when that is
    unchanged."""
    got = [WeighedReading(curves.get(r.design), r.native_op, w) for r, w in weights.items()]
    mf = weighted_form(fig.model_form, fig.points, got)
    return fig if mf is fig.model_form else replace(fig, model_form=mf)
