"""How sure a prediction is: an 80% interval from two measured sources.

1. **Measurement noise.** Each measured point carries its round-to-round spread (the standard
   error of its window's mean IOPS; WAF likewise). A parametric bootstrap redraws every point
   from that spread, refits the surrogate, and keeps each level's 10th and 90th percentile
   relative to the central fit.
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

from overprov.calibrate import fit as fitmod

#: z of the 90th percentile: an 80% two-sided interval.
Z80 = 1.2816
INTERVAL = "80%"


#: The model-form error at a fitted level: the twin reproduces its fitted figures within 2%
#: (docs/calibrate.md, "The twin").
AT_FITTED_REL_SD = 0.02


@dataclass(frozen=True)
class ModelForm:
    """The model-form error as a relative sd at a level: ``rel_sd`` whatever the level, or,
    when ``per_log_spare`` is set, ``sqrt(floor² + (per_log_spare · d)²)`` with d the distance
    in log spare space from the nearest fitted level (:func:`spare_distance`)."""

    rel_sd: float = 0.0
    per_log_spare: float | None = None
    floor: float = AT_FITTED_REL_SD
    source: str = ""

    def at(self, distance: float | None) -> float:
        if self.per_log_spare is None or distance is None:
            return self.rel_sd
        return math.hypot(self.floor, self.per_log_spare * distance)

    def describe(self) -> str:
        if self.per_log_spare is None:
            return f"relative sd {self.rel_sd:.3f}"
        return (
            f"relative sd {self.floor:.3f} at a fitted level, growing by {self.per_log_spare:.3f} "
            "per unit of log spare distance from the nearest fitted level"
        )


NO_MODEL_FORM = ModelForm()


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
_FILE = re.compile(r"\b[\w.-]+(?:/[\w.-]+)+\.(?:py|json|toml|csv)\b")


def in_words(source: str) -> str:
    """A recorded source as the interval text shows it: what was measured and when, without
    the scripts and data files that measured it ("10 generated drives (seeds 1-10) at 4GiB,
    2026-11-23"); the JSON keeps the whole record."""
    text = _FILE.sub("", source)
    text = re.sub(r"\(\s*(?:,\s*)*\)", "", text)  # a list that named files only
    text = re.sub(r"\s*,(?:\s*,)*\s*", ", ", text)
    return re.sub(r"\s+", " ", text).strip(" ,")


def recorded_model_form(simulated: bool) -> ModelForm | None:
    """The recorded model-form error (``model_form_error.json``) for a simulated target (a
    constant) or anything else (distance-dependent when the corpus benchmark recorded it)."""
    res = resources.files("overprov.calibrate").joinpath("model_form_error.json")
    if not res.is_file():
        return None
    doc = json.loads(res.read_text())
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
        )
    if "real_rel_sd" not in doc:
        return None
    what = f"published real-drive figures: {in_words(doc['source'])}"
    return ModelForm(float(doc["real_rel_sd"]), source=what)


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
) -> dict[str, Any]:
    """Per level, the 10th/90th percentiles of IOPS and WAF over refits to redrawn points,
    as ratios to the central fit; and per parameter its 10th/90th percentile."""

    def refit(pts: list[fitmod.Point]) -> fitmod.Surrogate:
        return fitmod.fit(
            pts, fob_iops=fob_iops, native_op=native_op, curve=curve, fit_efficiency=fit_efficiency
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
                iops=p.iops * math.exp(rng.gauss(0, max(p.iops_rel_sd, fitmod.MIN_REL_SD)))
                if p.iops
                else None,
                waf=max(1.0, p.waf * math.exp(rng.gauss(0, max(p.waf_rel_sd, fitmod.MIN_REL_SD))))
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
