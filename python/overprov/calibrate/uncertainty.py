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
   (as a normal error at the same 80% level).
"""

from __future__ import annotations

import json
import math
import random
import statistics
from dataclasses import replace
from importlib import resources
from typing import Any

from overprov.calibrate import fit as fitmod

#: z of the 90th percentile: an 80% two-sided interval.
Z80 = 1.2816
INTERVAL = "80%"


def model_form_error(simulated: bool) -> tuple[float, str] | None:
    """The validation's measured model-form error for a simulated or a real drive: (relative
    sd, where it comes from); None if the validation has not been recorded."""
    res = resources.files("overprov.calibrate").joinpath("model_form_error.json")
    if not res.is_file():
        return None
    doc = json.loads(res.read_text())
    key = "rel_sd" if simulated else "real_rel_sd"
    if key not in doc:
        return None
    what = "generated simulated drives" if simulated else "published real-drive figures"
    return float(doc[key]), f"{what}: {doc['source']}"


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
