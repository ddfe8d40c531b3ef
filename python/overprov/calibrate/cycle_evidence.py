"""Whether a first level's rounds show the collector's burst cycle at all (its F ratio).

**Why.** ``burst_cycle.read_first_level`` reads a graded plan's first level through a constant
and one sinusoid of period ``1 / WAF`` fitted to its stretch's rounds: where the collector
swings its WAF with that period the sinusoid takes the swing out of the mean (FEMU: F, the
fit's variance ratio against the plain mean, 1.6-46.5 on 32 of 44 stored stretches). On FEMU
drives whose collector starts deep (an onset from empty below 0.72: GC thresholds 53-59%) the
rounds show no such cycle (F 0.1-0.8 on all six such drives under both chunk sizings, and no
better at any period within 0.9-1.2 × ``1 / WAF``), and the sinusoid fitted there only adds its
own noise to the constant: against the settled truths the 0% WAF read through it missed by a
median 3.0% (worst 6.6%), read plain by 2.0% (worst 5.1%), and one round left out moved it over
a median 14.5% against 8.8% (bench/foreign/results/femuwin/DIAGNOSIS.md, diagnosis.txt part 5;
seen data, the form chosen on it).

**What.** With :data:`READ_PLAIN_WITHOUT_CYCLE` on, ``burst_cycle.read_first_level`` leaves the
first level as read (the plain figures over the same stretch) where the fitted sinusoid's F is
below :data:`MIN_VARIANCE_RATIO`, 1: the sinusoid explains less per degree of freedom than the
residual noise. Off by default: its rule (bench/foreign/results/femuwin/RULE.md) was not met
(bench/foreign/results/femuwin/verdict.md: three fresh deep-onset drives met every target with
it, but a stored one, L1 33 × 82, read its 10% WAF 2 points worse). Judged again together with
``burst_start.LATE_START`` (bench/results/burstplain/RULE.md), not met either
(bench/results/burstplain/verdict.md: a fresh deep-onset drive refused, 33 × 82 still loses its
WAF target).
"""

from __future__ import annotations

#: Read a first level without a burst cycle plain (off: through the cycle wherever it reads).
READ_PLAIN_WITHOUT_CYCLE = False
#: The least F ratio at which the rounds are read through the cycle (with the flag on).
MIN_VARIANCE_RATIO = 1.0


def variance_ratio(values: list[float], fitted: list[float], weights: list[float]) -> float:
    """F of a fit with 3 parameters (a constant and a sinusoid's two) against the plain mean,
    both weighted: the variance the fit explains per its 2 degrees of freedom beyond the mean ÷
    the residual's per ``n - 3`` (``inf`` where it explains every value)."""
    if len(values) <= 3:
        raise ValueError("an F ratio needs more than three rounds")
    mean = sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)
    rss = sum(w * (v - f) ** 2 for w, v, f in zip(weights, values, fitted, strict=True))
    rss0 = sum(w * (v - mean) ** 2 for w, v in zip(weights, values, strict=True))
    if rss <= 0:
        return float("inf")
    return ((rss0 - rss) / 2) / (rss / (len(values) - 3))
