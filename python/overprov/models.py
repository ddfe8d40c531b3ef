"""Analytic write-amplification models for uniform random single-page writes (DOMAIN.md §7).

``rho`` is over-provisioning ρ = (T−U)/U and α = 1 + ρ throughout.
"""

from __future__ import annotations

import math


def lambert_w0(x: float) -> float:
    """Principal branch W₀ of the Lambert W function for x ≥ −1/e (Halley's iteration)."""
    branch = -1.0 / math.e
    if x < branch - 1e-15:
        raise ValueError(f"lambert_w0 is real only for x >= -1/e, got {x}")
    if x == 0.0:
        return 0.0
    if x < -0.3:
        # series about the branch point: W = -1 + p - p²/3 + 11p³/72, p = sqrt(2(1 + e·x))
        p = math.sqrt(max(0.0, 2.0 * (1.0 + math.e * x)))
        w = -1.0 + p - p * p / 3.0 + 11.0 / 72.0 * p**3
    else:
        w = math.log1p(x)
    for _ in range(64):
        ew = math.exp(w)
        f = w * ew - x
        if f == 0.0:
            break
        wp1 = w + 1.0
        if wp1 == 0.0:
            break
        step = f / (ew * wp1 - (w + 2.0) * f / (2.0 * wp1))
        w -= step
        if abs(step) <= 1e-15 * (1.0 + abs(w)):
            break
    return w


def _alpha(rho: float) -> float:
    if not rho > 0.0:
        raise ValueError(f"over-provisioning rho must be > 0, got {rho}")
    return 1.0 + rho


def waf_fifo(rho: float) -> float:
    """FIFO/LRU victim selection, large blocks: α / (α + W₀(−α e^−α)).

    Desnoyers, "Analytic modeling of SSD write performance", SYSTOR 2012;
    Xiang & Kurkoski, "An improved analytic expression for write amplification in
    NAND flash", ICNC 2012.
    """
    a = _alpha(rho)
    return a / (a + lambert_w0(-a * math.exp(-a)))


def waf_greedy(rho: float, pages_per_block: int) -> float:
    """Greedy victim selection with b pages per block: A_LRU(kα)/k, k = 1 + 1/(2b).

    Desnoyers 2012, Eq. 12; agrees with the mean-field model of Bux & Iliadis,
    "Performance of greedy garbage collection in flash-based SSDs", Perf. Eval. 2010.
    """
    if pages_per_block < 1:
        raise ValueError(f"pages_per_block must be >= 1, got {pages_per_block}")
    k = 1.0 + 1.0 / (2.0 * pages_per_block)
    return waf_fifo(k * _alpha(rho) - 1.0) / k


def waf_random(rho: float) -> float:
    """Victim chosen uniformly at random among full blocks: α / (α − 1)."""
    a = _alpha(rho)
    return a / (a - 1.0)
