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
residual noise. Off by default (its rule: bench/foreign/results/femuwin/RULE.md).
"""

from __future__ import annotations

from overprov.calibrate.burst_cycle import sinusoid_fit, sinusoid_terms

#: Read a first level without a burst cycle plain (off: through the cycle wherever it reads).
READ_PLAIN_WITHOUT_CYCLE = False
#: The least F ratio at which the rounds are read through the cycle (with the flag on).
MIN_VARIANCE_RATIO = 1.0


def variance_ratio(spans: list[tuple[float, float]], values: list[float], period: float) -> float:
    """F of the fitted sinusoid of ``period`` against the plain mean, both weighted by the
    spans' lengths: the variance it explains per its 2 degrees of freedom ÷ the residual's per
    ``n - 3`` (``inf`` where it explains every value)."""
    if len(values) <= 3:
        raise ValueError("an F ratio needs more than three rounds")
    c, a, b = sinusoid_fit(spans, values, period)
    w = [x1 - x0 for x0, x1 in spans]
    mean = sum(x * v for x, v in zip(w, values, strict=True)) / sum(w)
    fitted = [c + a * s + b * k for s, k in sinusoid_terms(spans, period)]
    rss = sum(x * (v - f) ** 2 for x, v, f in zip(w, values, fitted, strict=True))
    rss0 = sum(x * (v - mean) ** 2 for x, v in zip(w, values, strict=True))
    if rss <= 0:
        return float("inf")
    return ((rss0 - rss) / 2) / (rss / (len(values) - 3))


def shows_cycle(spans: list[tuple[float, float]], values: list[float], period: float) -> bool:
    """Whether the rounds are read through the cycle: always with :data:`READ_PLAIN_WITHOUT_CYCLE`
    off, else where their F ratio is at least :data:`MIN_VARIANCE_RATIO`."""
    return (
        not READ_PLAIN_WITHOUT_CYCLE or variance_ratio(spans, values, period) >= MIN_VARIANCE_RATIO
    )
