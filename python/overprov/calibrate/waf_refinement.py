"""A twin read from WAF figures alone, refined onto the lowest figure it was fitted to.

With IOPS figures the twin is refined against its measurement (``twin.refine``); with WAF figures
only nothing did, and the core's simulated drive at the fitted spare writes more than the
mean-field curve the fit reproduces (a d-choices-4 twin at a 2-3% spare: +6.8 to +8.1% at 0%;
bench/foreign/results/dharafloor/DIAGNOSIS.md). :func:`refine_waf` searches the twin's native
spare until its simulated WAF at the lowest fitted level is that figure's; ``predict`` calls it
where ``twin.WAF_REFINE`` is on (on since bench/foreign/results/wafrefine/RULE.md was met:
bench/foreign/results/wafrefine/verdict.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from overprov.calibrate import fit as fitmod
from overprov.calibrate.twin import TwinParameters


def refine_waf(
    p: TwinParameters,
    points: list[fitmod.Point],
    simulate_waf: Callable[[TwinParameters, float], float | None],
    *,
    iterations: int = 4,
    tolerance: float = 0.01,
) -> tuple[TwinParameters, list[dict[str, float]]]:
    """WAF figures only: the twin's native spare searched (a secant on log WAF against log
    spare over the written span, at most ``iterations`` extra runs) until its simulated WAF at
    the lowest fitted level with a figure above 1 is within ``tolerance`` of it; the best twin
    and the history of (iteration, native_op, rel_error). ``simulate_waf(p, x)``: the twin's
    WAF at level x. A reserve twin (its floor sets the WAF) is kept as is."""
    figs = [pt for pt in points if pt.has_steady_waf and pt.waf and pt.waf > 1.0]
    if p.gc_reserve is not None or not figs:
        return p, []
    pt = min(figs, key=lambda q: q.extra_op_percent)
    x, target = pt.extra_op_percent, math.log(pt.waf)  # type: ignore[arg-type]
    history: list[dict[str, float]] = []
    tried: list[tuple[float, float, TwinParameters]] = []  # (log spare, log WAF miss, twin)
    for it in range(iterations + 1):
        waf = simulate_waf(p, x)
        if not waf or waf <= 1.0:
            break
        miss = math.log(waf) - target
        history.append({"iteration": it, "native_op": p.native_op, "rel_error": math.expm1(miss)})
        tried.append((math.log(fitmod.rho_eff(p.native_op, x)), miss, p))
        if abs(math.expm1(miss)) <= tolerance or it == iterations:
            break
        if len(tried) == 1:  # first step: the spare the curve says the miss needs
            step = math.log(fitmod.rho_for_waf(pt.waf) / fitmod.rho_for_waf(waf))  # type: ignore[arg-type]
        else:
            (s0, m0, _), (s1, m1, _) = tried[-2], tried[-1]
            step = -m1 * (s1 - s0) / (m1 - m0) if m1 != m0 else 0.0
        s = tried[-1][0] + max(-0.5, min(0.5, step))  # at most a factor 1.65 a step
        rho0 = max(fitmod.RHO_MIN, fitmod.native_op_for(math.exp(s), x))
        p = replace(p, native_op=rho0)
    if not tried:
        return p, history
    return min(tried, key=lambda t: abs(t[1]))[2], history
