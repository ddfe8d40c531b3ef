"""How sure a prediction is: an 80% interval from two measured sources.

1. **Measurement noise.** Each measured point carries its round-to-round spread (the standard
   error of its window's mean IOPS; WAF likewise). A parametric bootstrap redraws every point
   from that spread, refits the surrogate, and keeps each level's 10th and 90th percentile
   relative to the central fit. A typed figure (``--points``) is redrawn at
   ``cli.USER_POINT_REL_SD`` (5%): on most stored foreign truths 16-125 times their own
   round noise, yet the IOPS width it gives stands in for misses rule 3's unit does not show
   (bench/foreign/results/bootwidth/DIAGNOSIS.md: no single narrowing of it feasible).
2. **Model-form error.** The surrogate (greedy mean-field WAF, two time constants) is not the
   drive. How far its predictions fall from the truth is measured by
   ``bench/calibrate_bench.py`` and stored in ``model_form_error.json`` beside this file (with
   the drives, the date and the figures): on simulated drives it has never seen (a family of
   generated drive files; ``rel_sd``), and on published real-drive figures held out from the fit
   (``real_rel_sd``, far larger: real drives have costs the simulator does not model). A
   simulated target gets the first, every other source the second; it is added in quadrature
   (as a normal error at the same 80% level). For real drives it grows with the distance from
   the fitted levels (:class:`ModelForm`): at a fitted level the twin reproduces the figure, and
   the further a level lies from it (in log spare space) the more the model's form shows. Its
   scale is measured by ``bench/corpus_bench.py`` over published figures held out in turn.
   The slope is not one number: the cases come from few FTL families, each family's errors move
   together, so the slope a *new* drive's FTL may have is a posterior predictive over families
   (:func:`predictive_slopes`: random effects, families the unit of replication), and the
   interval's model-form part is that mixture's 90% quantile (:meth:`ModelForm.at`).
3. **What the fit itself shows.** When the figures are more than the surrogate's parameters, its
   misses on them (:func:`fit_residual_sd`) say how far the model's form is from this drive, and
   the model-form error is that residual sd times a scale measured on held-out figures of other
   FTL families (:func:`conditioned`; ``bench/conditioned_intervals.py``, the rule in
   ``bench/intervals/RULE.md``); figures that leave nothing to miss keep the distance rule.
4. **No WAF figure.** With IOPS figures only (no ``--waf-points``, no NAND write counter) the
   spare side is not identified where a GC reserve binds, and nothing in the fit's own figures
   shows it (docs/calibrate-validation.md, "Refusing an IOPS-only fit where a GC reserve may
   bind"). Such a fit's model-form error is hypot(the error of the rules above, ``rel_sd``) at
   every level, ``rel_sd`` the maximum-likelihood one over held-out IOPS-only predictions of
   foreign FTLs (``iops_only`` in ``model_form_error.json``; ``bench/intervals/
   iops_only_intervals.py``, the rule in ``bench/intervals/RULE-iops-only.md``).
5. **Distance where one reading carries** (``distance_term.py``, off: judged and not adopted
   under ``bench/foreign/results/scorecover/RULE.md``): a one-reading prediction's IOPS interval
   widened by a slope times the log spare distance from the fitted levels, after the above.
6. **Several readings** (``reading_mixture.py``, on: adopted under
   ``bench/foreign/results/scorenarrow/RULE.md``): a prediction several readings carry has the
   10th to 90th percentile of their evidence-weighted mixture, each reading's own interval as
   its 10th and 90th, not the hull of their figures and intervals (``spare_readings.combine``).
7. **An erase-cost reading's own residual** (``own_erase_residual.py``, off: judged and not
   adopted under ``bench/foreign/results/formterm/RULE.md``): that reading's residual in place
   of the greedy fit's in the rule of 3.
8. **The scale of rule 3 measured on foreign FTLs** (``conformal_scale.py``, off: not met
   under ``bench/foreign/results/narrowband/RULE.md`` with the erase residual also on; met under
   ``bench/foreign/results/narrowtwo/RULE.md`` without it on a base without the six reserve
   flags, left off at the merge: ``conformal_scale.ON``'s comment): the scale that holds 80% of a
   family's held-out figures for 80% of the families on the 72 stored foreign truths (0.387),
   in place of 0.82.
"""

from __future__ import annotations

import json
import math
import random
import re
import statistics
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from overprov.calibrate import evidence
from overprov.calibrate import fit as fitmod
from overprov.calibrate.reserve_transition import FloorEdge
from overprov.errors import ConfigError

#: z of the 90th percentile: an 80% two-sided interval.
Z80 = 1.2816
INTERVAL = "80%"


#: The model-form error at a fitted level: the twin reproduces its fitted figures within 2%
#: (docs/calibrate-model.md, "The twin").
AT_FITTED_REL_SD = 0.02


@dataclass(frozen=True)
class ModelForm:
    """The model-form error as a relative sd at a level: ``rel_sd`` whatever the level, or,
    when ``per_log_spare`` is set, ``sqrt(floor² + (per_log_spare · d)²)`` with d the distance
    in log spare space from the nearest fitted level (:func:`spare_distance`). With ``slopes``
    (equal-weight draws of the slope's posterior predictive, :func:`predictive_slopes`) the
    error at d is the mixture of normals with those slopes, given as the sd of the normal with
    the same 90% quantile, so that :func:`band` widens by that quantile."""

    rel_sd: float = 0.0
    per_log_spare: float | None = None
    floor: float = AT_FITTED_REL_SD
    source: str = ""
    slopes: tuple[float, ...] = ()
    residual_sd: float | None = None
    """The surrogate's residual sd on the fitted figures (:func:`fit_residual_sd`); set, the
    error is ``residual_scale · hypot(floor, residual_sd)`` at every level."""
    residual_scale: float = 1.0
    iops_only_sd: float | None = None
    """Set for a fit without a WAF figure: added in quadrature at every level."""
    edge: FloorEdge | None = None
    """Set for a GC-reserve reading with ``reserve_transition.TRANSITION_TERM`` on: its term
    at the level (:meth:`FloorEdge.sd_at`) added in quadrature to the residual, inside the
    scale."""

    def at(self, distance: float | None, level: float | None = None) -> float:
        base = self._at(distance, level)
        return base if self.iops_only_sd is None else math.hypot(base, self.iops_only_sd)

    def _at(self, distance: float | None, level: float | None = None) -> float:
        if self.residual_sd is not None:
            edge = self.edge.sd_at(level) if self.edge is not None and level is not None else 0
            return self.residual_scale * math.hypot(self.floor, self.residual_sd, edge)
        if self.per_log_spare is None or distance is None:
            return self.rel_sd
        if self.slopes:
            sds = [math.hypot(self.floor, s * distance) for s in self.slopes]
            return mixture_quantile(sds, 0.9) / Z80
        return math.hypot(self.floor, self.per_log_spare * distance)

    def slope_text(self) -> str:
        """The slope, or its posterior predictive's median and 90th percentile."""
        if not self.slopes:
            return f"{self.per_log_spare or 0.0:.3f}"
        hi = sorted(self.slopes)[int(0.9 * len(self.slopes))]
        return f"median {statistics.median(self.slopes):.3f}, 90th percentile {hi:.3f}"

    def describe(self) -> str:
        text = self._describe()
        if self.edge is not None:
            text += f"; with, in quadrature inside the scale, {self.edge.describe()}"
        if self.iops_only_sd is None:
            return text
        return (
            f"{text}; no WAF figure given, so widened in quadrature by {self.iops_only_sd:.3f} "
            "at every level (what IOPS-only fits missed on foreign FTLs)"
        )

    def _describe(self) -> str:
        if self.residual_sd is not None:
            return (
                f"relative sd {self.at(None):.3f}: {self.residual_scale:.2f} × the fit's own "
                f"residual sd on its figures ({self.residual_sd:.3f}, at least {self.floor:.3f})"
            )
        if self.per_log_spare is None:
            return f"relative sd {self.rel_sd:.3f}"
        if self.slopes:
            return (
                f"relative sd {self.floor:.3f} at a fitted level, growing with the log spare "
                f"distance from the nearest fitted level by a slope drawn from its posterior "
                f"predictive over FTL families ({self.slope_text()})"
            )
        return (
            f"relative sd {self.floor:.3f} at a fitted level, growing by {self.per_log_spare:.3f} "
            "per unit of log spare distance from the nearest fitted level"
        )


def normal_cdf(z: float) -> float:
    """The standard normal distribution function at ``z``."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def mixture_quantile(sds: list[float], p: float) -> float:
    """The p quantile (p > 0.5) of an equal-weight mixture of zero-mean normals with ``sds``."""
    lo, hi = 0.0, 10.0 * max(sds)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if sum(normal_cdf(mid / sd) for sd in sds) / len(sds) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


#: The between-family scale τ of the model-form slope has the prior Half-Cauchy(0,
#: SLOPE_PRIOR_SCALE) (Gelman 2006, Bayesian Analysis 1(3), for a group-level scale with few
#: groups): half of the greedy model's own sensitivity to spare, |d ln WAF / d ln ρ| → 1.
SLOPE_PRIOR_SCALE = 0.5
#: Family slopes are Half-Normal(τ) truncated here: an error three times the log spare distance.
SLOPE_MAX = 3.0
_S_GRID = [i * 0.005 for i in range(int(SLOPE_MAX / 0.005) + 1)]
_TAU_GRID = [10 ** (-3 + 5 * i / 299) for i in range(300)]  # 0.001 to 100


@dataclass(frozen=True)
class HeldOutError:
    """One held-out figure's log error, its noise sd (its interval without model-form error),
    its log spare distance from the fitted levels, and the FTL family it came from."""

    family: str
    log_error: float
    noise_sd: float
    distance: float


def predictive_slopes(
    errors: list[HeldOutError],
    *,
    floor: float = AT_FITTED_REL_SD,
    prior_scale: float = SLOPE_PRIOR_SCALE,
    draws: int = 50,
) -> tuple[float, ...]:
    """The model-form slope a new FTL family may have, as ``draws`` equal-weight quantiles of
    its posterior predictive. Random effects with the family as the unit of replication: a
    case's log error is N(0, noise² + floor² + (s_j·d)²) with s_j its family's slope, s_j ~
    Half-Normal(τ) (≤ :data:`SLOPE_MAX`), τ ~ Half-Cauchy(0, ``prior_scale``); integrated on
    grids of s and τ. Few families leave τ, and so the new family's slope, uncertain however
    many cases each family has."""
    families: dict[str, list[HeldOutError]] = {}
    for e in errors:
        families.setdefault(e.family, []).append(e)
    # each family's likelihood over the s grid, relative to its largest value
    fam_lik = []
    for cases in families.values():
        ll = []
        for s in _S_GRID:
            total = 0.0
            for c in cases:
                var = c.noise_sd**2 + floor**2 + (s * c.distance) ** 2
                total -= 0.5 * math.log(var) + c.log_error**2 / (2 * var)
            ll.append(total)
        top = max(ll)
        fam_lik.append([math.exp(v - top) for v in ll])
    prior_s = []  # Half-Normal(τ) on the s grid, normalised on it
    for tau in _TAU_GRID:
        w = [math.exp(-0.5 * (s / tau) ** 2) for s in _S_GRID]
        z = sum(w)
        prior_s.append([v / z for v in w])
    log_post = []
    for tau, w in zip(_TAU_GRID, prior_s, strict=True):
        # Half-Cauchy density × τ (the grid is uniform in log τ)
        lp = math.log(tau / (1 + (tau / prior_scale) ** 2))
        for lik in fam_lik:
            lp += math.log(max(sum(a * b for a, b in zip(w, lik, strict=True)), 1e-300))
        log_post.append(lp)
    top = max(log_post)
    post = [math.exp(v - top) for v in log_post]
    z = sum(post)
    pred = [0.0] * len(_S_GRID)
    for p, w in zip(post, prior_s, strict=True):
        if p / z < 1e-12:
            continue
        for i, v in enumerate(w):
            pred[i] += p / z * v
    cdf, acc = [], 0.0
    for v in pred:
        acc += v
        cdf.append(acc)
    out = []
    for k in range(draws):
        q = (k + 0.5) / draws * acc
        i = next(i for i, c in enumerate(cdf) if c >= q)
        if i == 0:
            out.append(0.0)
            continue
        frac = (q - cdf[i - 1]) / (cdf[i] - cdf[i - 1])
        out.append(_S_GRID[i - 1] + frac * (_S_GRID[i] - _S_GRID[i - 1]))
    return tuple(out)


NO_MODEL_FORM = ModelForm()


def fit_residual_sd(
    points: list[fitmod.Point],
    curve: fitmod.WafCurve = fitmod.waf_at,
    *,
    native_op: float | None = None,
    fit_efficiency: bool = False,
) -> float | None:
    """How far the surrogate (effective spare fitted, ``curve``; or, with ``native_op`` and
    ``fit_efficiency``, the raw spare read with its efficiency k fitted: a raw-spare reading)
    misses the figures it is fitted to: sqrt(Σ r² / (n − p)) over the log residuals r of its n
    figures (steady IOPS, WAF and fresh-out-of-box IOPS at the workload's queue depth), p the
    parameters the fit sets (ρ₀ or k; t_page with IOPS; t_cmd when fitted). None when n ≤ p or
    the figures cannot be fitted: a fit through as many figures as it has parameters shows
    nothing of its form."""
    pts = [p for p in points if p.queue_depth is None]
    try:
        s = fitmod.fit(pts, curve=curve, native_op=native_op, fit_efficiency=fit_efficiency)
    except ConfigError:
        return None
    n_iops = sum(1 for p in pts if p.iops)
    fits_cmd = n_iops > 0 and not any(f.startswith("t_cmd_us = 0") for f in s.fixed)
    fits_spare = native_op is None or (fit_efficiency and fitmod.has_waf(pts))
    return surrogate_residual_sd(s, pts, fits_spare + (n_iops > 0) + fits_cmd)


def surrogate_residual_sd(
    s: fitmod.Surrogate,
    points: list[fitmod.Point],
    n_parameters: int,
    more_log_errors: tuple[float, ...] = (),
) -> float | None:
    """sqrt(Σ r² / (n − ``n_parameters``)) over the log residuals r of the fitted surrogate
    ``s`` on ``points`` (its IOPS figures, and its WAF figures but the fresh ones) and
    ``more_log_errors`` (other figures it was fitted to, as log errors); None when n ≤ p."""
    res = []
    for p in points:
        if p.iops:
            res.append(math.log(s.iops(p.extra_op_percent, 1.0 if p.fresh else None) / p.iops))
        if p.has_steady_waf:
            res.append(math.log(s.waf(p.extra_op_percent) / p.waf))
    res += more_log_errors
    dof = len(res) - n_parameters
    return math.sqrt(sum(r * r for r in res) / dof) if dof > 0 else None


def conditioned(form: ModelForm, points: list[fitmod.Point], scale: float) -> ModelForm:
    """``form`` with its error set by what the fit shows (:func:`fit_residual_sd` times
    ``scale``); ``form`` unchanged when the figures leave the fit nothing to miss."""
    residual = fit_residual_sd(points)
    if residual is None:
        return form
    return replace(form, residual_sd=residual, residual_scale=scale)


def spare_distance(
    x: float, fitted_levels: list[float], native_op: float, spare_efficiency: float = 1.0
) -> float | None:
    """|ln ρ(x) − ln ρ(x_j)| for the nearest fitted level x_j (ρ the spare the reading gives
    each level, ``spare_efficiency · rho_eff``); None without fitted levels."""
    if not fitted_levels:
        return None

    def log_rho(level: float) -> float:
        rho = spare_efficiency * fitmod.rho_eff(native_op, level)
        return math.log(max(rho, fitmod.RHO_MIN))

    return min(abs(log_rho(x) - log_rho(f)) for f in fitted_levels)


#: a file of the repository named in a recorded source ("bench/corpus_bench.py")
_FILE = re.compile(r"\b[\w.-]+(?:/[\w.-]+)+\.(?:py|jsonl|json|toml|csv|md)\b")


def in_words(source: str) -> str:
    """A recorded source as the interval text shows it: what was measured and when, without
    the scripts and data files that measured it ("10 generated drives (seeds 1-10) at 4GiB,
    2026-11-23"); the JSON keeps the whole record."""
    text = _FILE.sub("", source)
    text = re.sub(r"\(\s*(?:,\s*)*\)", "", text)  # a list that named files only
    text = re.sub(r"\s*,(?:\s*,)*\s*", ", ", text)
    return re.sub(r"\s+", " ", text).strip(" ,")


def recorded() -> dict[str, Any] | None:
    """``model_form_error.json`` beside this module, None where it is missing."""
    res = resources.files("overprov.calibrate").joinpath("model_form_error.json")
    return json.loads(res.read_text()) if res.is_file() else None


def recorded_model_form(simulated: bool) -> ModelForm | None:
    """The recorded model-form error (``model_form_error.json``) for a simulated target (a
    constant) or anything else (distance-dependent when the corpus benchmark recorded it)."""
    return _form_of(recorded(), simulated)


def weighing_rel_sd(model_form: ModelForm | None) -> float:
    """The model-form sd the readings' evidence is weighed with (``evidence.assess``'s
    ``model_rel_sd``): ``model_form``'s, else the recorded form for a measured (not simulated)
    target's."""
    return evidence.model_form_rel_sd(model_form or recorded_model_form(False))


def _form_of(doc: dict[str, Any] | None, simulated: bool) -> ModelForm | None:
    """:func:`recorded_model_form` from the recorded document ``doc``."""
    if doc is None:
        return None
    if simulated:
        if "rel_sd" not in doc:
            return None
        what = f"generated simulated drives: {in_words(doc['source'])}"
        return ModelForm(float(doc["rel_sd"]), source=what)
    real = doc.get("real_distance")
    if real:
        return ModelForm(
            float(doc.get("real_rel_sd", 0.0)),
            per_log_spare=float(real["per_log_spare"]),
            floor=float(real.get("floor", AT_FITTED_REL_SD)),
            source="published real-drive figures and foreign FTLs, each held out in turn: "
            + in_words(real["source"]),
            slopes=tuple(float(s) for s in real.get("predictive_slopes", ())),
        )
    if "real_rel_sd" not in doc:
        return None
    what = f"published real-drive figures: {in_words(doc['source'])}"
    return ModelForm(float(doc["real_rel_sd"]), source=what)


def model_form_for(points: list[fitmod.Point], simulated: bool) -> ModelForm | None:
    """The recorded model-form error for a prediction fitted to ``points``: for a real drive or
    typed figures, set by what the fit shows (:func:`conditioned`, the scale recorded as
    ``fit_residual``) when the figures leave it something to miss; the recorded form otherwise;
    widened by the IOPS-only term when no figure holds a WAF (:func:`without_waf`)."""
    doc = recorded()
    form = _form_of(doc, simulated)
    if simulated or form is None:
        return form
    rec = doc.get("fit_residual")
    from overprov.calibrate import conformal_scale  # ON off: bench/foreign/results/narrowband

    out = conditioned(form, points, conformal_scale.scale(float(rec["scale"]))) if rec else form
    if out is not form:
        out = replace(
            out,
            source="the fit's own misses on its figures, scaled as measured on held-out figures "
            "of other FTL families: " + in_words(rec["source"]),
        )
    return without_waf(out, points, doc.get("iops_only"))


def model_sd_at(
    points: list[fitmod.Point], levels: list[float], simulated: bool = False
) -> dict[float, float | None]:
    """The model-form relative sd calibrate's uniform path gives a fit to ``points`` at each
    level (:func:`model_form_for`, at the level's log spare distance from the fitted levels by
    the central greedy fit, :func:`spare_distance`); None where nothing is recorded. For a
    prediction made apart from that path (a skewed workload's, ``victim_selection.predict``)
    that widens its interval by the same term (bench/intervals/RULE-skew.md)."""
    form = model_form_for(points, simulated)
    if form is None:
        return {x: None for x in levels}
    pts = [p for p in points if p.queue_depth is None]
    central = fitmod.fit(pts)
    fitted = sorted({p.extra_op_percent for p in pts if not p.fresh})
    return {
        x: form.at(spare_distance(x, fitted, central.native_op, central.spare_efficiency)) or None
        for x in levels
    }


def without_waf(
    form: ModelForm, points: list[fitmod.Point], rec: dict[str, Any] | None
) -> ModelForm:
    """``form`` widened by the recorded IOPS-only term (``rec``, ``model_form_error.json``'s
    ``iops_only``) when no figure holds a WAF; ``form`` itself otherwise."""
    if not rec or fitmod.has_waf(points):
        return form
    return replace(
        form,
        iops_only_sd=float(rec["rel_sd"]),
        source=f"{form.source}; and, with no WAF figure, {in_words(rec['source'])}",
    )


def bootstrap(
    points: list[fitmod.Point],
    levels: list[float],
    *,
    fob_iops: float | None = None,
    native_op: float | None = None,
    samples: int = 100,
    seed: int = 1,
    curve: fitmod.WafCurve = fitmod.waf_at,
    fit_efficiency: bool = False,
    min_rel_sd: float = fitmod.MIN_REL_SD,
) -> dict[str, Any]:
    """Per level, the 10th/90th percentiles of IOPS and WAF over refits to redrawn points,
    as ratios to the central fit; and per parameter its 10th/90th percentile. The refits
    search one grid of spare ratios at the same levels: the curve's values there are worked
    out once (``fit.remembered``: the same figures). Each figure is redrawn with its own
    relative sd, at least ``min_rel_sd`` (calibrate: ``fit.MIN_REL_SD``; lower only to study
    the band, bench/foreign/results/bootwidth/)."""
    remembered = fitmod.remembered(curve)

    def refit(pts: list[fitmod.Point]) -> fitmod.Surrogate:
        return fitmod.fit(
            pts,
            fob_iops=fob_iops,
            native_op=native_op,
            curve=remembered,
            fit_efficiency=fit_efficiency,
        )

    central = refit(points)
    rng = random.Random(seed)
    iops_ratios: dict[float, list[float]] = {x: [] for x in levels}
    waf_ratios: dict[float, list[float]] = {x: [] for x in levels}
    params: dict[str, list[float]] = {"native_op": [], "t_page_us": [], "t_cmd_us": []}
    if fit_efficiency:
        params["spare_efficiency"] = []
    for _ in range(samples):
        drawn = [
            replace(
                p,
                iops=p.iops * math.exp(rng.gauss(0, max(p.iops_rel_sd, min_rel_sd)))
                if p.iops
                else None,
                waf=max(1.0, p.waf * math.exp(rng.gauss(0, max(p.waf_rel_sd, min_rel_sd))))
                if p.waf is not None
                else None,
            )
            for p in points
        ]
        s = refit(drawn)
        for k in params:
            params[k].append(getattr(s, k))
        for x in levels:
            waf_ratios[x].append(s.waf(x) / central.waf(x))
            if central.t_page_us > 0:
                iops_ratios[x].append(s.iops(x) / central.iops(x))

    def q(values: list[float]) -> list[float]:
        if len(values) < 2:
            return [1.0, 1.0]
        cuts = statistics.quantiles(values, n=10, method="inclusive")
        return [cuts[0], cuts[-1]]

    return {
        "samples": samples,
        "iops": {x: q(v) for x, v in iops_ratios.items()},
        "waf": {x: q(v) for x, v in waf_ratios.items()},
        "parameters": {k: q(v) for k, v in params.items()},
    }


#: No WAF below 1: every host write is programmed at least once (overprov models no compression).
WAF_MIN = 1.0


def waf_band(value: float, ratio_low_high: list[float], model_rel_sd: float | None) -> list[float]:
    """:func:`band` for a WAF: neither end below :data:`WAF_MIN` (a wide interval's low end
    under a WAF near 1 would otherwise name a WAF no drive can have)."""
    return [max(WAF_MIN, v) for v in band(value, ratio_low_high, model_rel_sd)]


def band(value: float, ratio_low_high: list[float], model_rel_sd: float | None) -> list[float]:
    """[low, high] around ``value``: the bootstrap's ratios widened in quadrature (in log) by
    the model-form error at the same 80% level."""
    lo, hi = ratio_low_high
    log_lo = -math.log(max(lo, 1e-9))
    log_hi = math.log(max(hi, 1e-9))
    m = Z80 * model_rel_sd if model_rel_sd else 0.0
    return [
        value * math.exp(-math.sqrt(max(log_lo, 0.0) ** 2 + m * m)),
        value * math.exp(math.sqrt(max(log_hi, 0.0) ** 2 + m * m)),
    ]
