"""Analytic write-amplification and endurance models (docs/concepts.md).

All WAF models assume uniform random single-page writes to a full drive (the worst case for
over-provisioning; sequential writes have WAF ≈ 1) unless a hot/cold skew is given.

Notation, used throughout:

- ``rho`` is over-provisioning **ρ = (T−U)/U** (T physical, U user capacity), so a vendor's
  "7 %" is ``rho=0.07``; α = T/U = 1 + ρ; spare factor Sf = (T−U)/T = ρ/(1+ρ).
- ``pages_per_block`` (b) counts the FTL's mapping units (usually 4 KiB) per erase block.

Which model is which (see docs/models.md for the derivations and the check against a
simulation):

=========================  ==============================================================
``waf_fifo``               FIFO/LRU victim, b → ∞: α / (α + W₀(−α e^−α)) (Desnoyers 2012;
                           Xiang & Kurkoski 2012)
``waf_greedy``             greedy victim, b pages/block, N → ∞ blocks: the mean-field
                           ("large system") model of Bux & Iliadis 2010; the d → ∞ limit of
                           Van Houdt 2013. It reproduces the published greedy values
                           (docs/concepts.md).
``waf_greedy_desnoyers``   Desnoyers' closed-form approximation A_LRU(kα)/k, k = 1 + 1/(2b)
                           (Desnoyers Eq. 12); within 0.02 of ``waf_greedy``.
``waf_random``             uniformly random victim: α/(α−1), any b.
``waf_d_choices``          d-choices victim (the fewest valid pages among d random blocks):
                           fixed point of Van Houdt's 2013 mean-field model; d=1 is random,
                           d → ∞ is greedy.
``waf_agarwal_marrow``     (1+ρ)/(2ρ) (Agarwal & Marrow 2010), a rough approximation.
``waf_hotcold_mixed``      hot/cold skew, hot and cold data sharing one write frontier
                           (Desnoyers' hot/cold LRU equation; greedy via the Eq. 12 k-correction)
``waf_hotcold_separated``  hot and cold data in separate pools with the spare space split
                           optimally between them (Desnoyers 2012)
=========================  ==============================================================

References:

- P. Desnoyers, "Analytic modeling of SSD write performance", SYSTOR 2012; extended as
  "Analytic models of SSD write performance", ACM Trans. on Storage 10(2), 2014.
- L. Xiang, B. Kurkoski, "An improved analytic expression for write amplification in NAND
  flash", ICNC 2012 (arXiv:1110.4245).
- W. Bux, I. Iliadis, "Performance of greedy garbage collection in flash-based solid-state
  drives", Performance Evaluation 67(11), 2010.
- B. Van Houdt, "A mean field model for a class of garbage collection algorithms in
  flash-based solid state drives", SIGMETRICS 2013 (journal version: Queueing Systems 77, 2014).
- R. Agarwal, M. Marrow, "A closed-form expression for write amplification in NAND flash",
  IEEE GLOBECOM Workshops 2010.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

# ---------------------------------------------------------------------------------------------
# What no drive can show

MAX_PLAUSIBLE_WAF = 1e6
"""No drive writes a million NAND bytes per host byte: rewriting a whole 256 MiB erase block
for every 512-byte host write, a worst case beyond any FTL, gives 5.2·10⁵. A larger figure
comes from a counter that wrapped, was reset or is read in the wrong unit."""


def implausible_waf(waf: float | None) -> str | None:
    """Why ``waf`` cannot be a drive's write amplification, or None when it can be (or is
    None). Below 1 is possible (compression, deduplication); negative, NaN or above
    :data:`MAX_PLAUSIBLE_WAF` is not."""
    if waf is None:
        return None
    if math.isnan(waf) or waf < 0:
        return f"a WAF of {waf:g}, which cannot be (NAND and host bytes are never negative)"
    if waf > MAX_PLAUSIBLE_WAF:
        return (
            f"a WAF of {waf:.3g}, more than any drive can have (the bound is "
            f"{MAX_PLAUSIBLE_WAF:g}): a counter has probably wrapped, been reset or is read in "
            "the wrong unit"
        )
    return None


# ---------------------------------------------------------------------------------------------
# Lambert W and argument checks


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
    if not rho > 0.0 or math.isinf(rho):
        raise ValueError(f"over-provisioning rho must be a finite number > 0, got {rho}")
    return 1.0 + rho


def _check_pages_per_block(pages_per_block: int) -> int:
    if isinstance(pages_per_block, bool) or int(pages_per_block) != pages_per_block:
        raise ValueError(f"pages_per_block must be an integer, got {pages_per_block!r}")
    if pages_per_block < 1:
        raise ValueError(f"pages_per_block must be >= 1, got {pages_per_block}")
    return int(pages_per_block)


def _check_fraction(name: str, value: float) -> float:
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} must be a fraction strictly between 0 and 1, got {value}")
    return value


def _bracketed_root(
    f: Callable[[float], float], lo: float, hi: float, iterations: int = 200
) -> float:
    """Root of f on [lo, hi] where f(lo) and f(hi) have opposite signs, to the width a
    bisection stops at (1e-15 of the root). Each step takes the secant through the bracket's
    ends, halving the value kept at an end that stayed twice in a row (the Illinois variant of
    regula falsi: M. Dowell, P. Jarratt, "A modified regula falsi method for computing the root
    of an equation", BIT 11, 1971), and the midpoint where the secant leaves the bracket: the
    same root as bisection, to within its width, in a fifth of the evaluations of f (the
    d-choices model's 201-point curve: 2.24 CPU s by bisection, 0.42 this way)."""
    f_lo = f(lo)
    f_hi = f(hi)
    if f_lo == 0.0:
        return lo
    if f_hi == 0.0:
        return hi
    if (f_lo > 0.0) == (f_hi > 0.0):
        raise ArithmeticError(f"root not bracketed on [{lo}, {hi}]")
    kept = 0  # the end the last step left in place: -1 lo, 1 hi
    for _ in range(iterations):
        x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
        if not lo < x < hi:
            x = 0.5 * (lo + hi)
        f_x = f(x)
        if f_x == 0.0:
            return x
        if (f_x > 0.0) == (f_lo > 0.0):
            lo, f_lo = x, f_x
            if kept == 1:
                f_hi *= 0.5
            kept = 1
        else:
            hi, f_hi = x, f_x
            if kept == -1:
                f_lo *= 0.5
            kept = -1
        if hi - lo <= 1e-15 * max(1.0, abs(0.5 * (lo + hi))):
            break
    return 0.5 * (lo + hi)


# ---------------------------------------------------------------------------------------------
# Uniform random writes


def waf_fifo(rho: float) -> float:
    """FIFO/LRU victim selection, large blocks: α / (α + W₀(−α e^−α)).

    Desnoyers, "Analytic modeling of SSD write performance", SYSTOR 2012;
    Xiang & Kurkoski, "An improved analytic expression for write amplification in
    NAND flash", ICNC 2012.
    """
    a = _alpha(rho)
    return a / (a + lambert_w0(-a * math.exp(-a)))


@dataclass(frozen=True)
class GreedyFixedPoint:
    """The mean-field steady state of greedy garbage collection (Bux & Iliadis 2010).

    Every victim holds ``victim_valid_pages − 1`` or ``victim_valid_pages`` valid pages (the
    "two successive values" of Bux & Iliadis); ``mean_victim_valid_pages`` is their average.
    """

    waf: float
    victim_valid_pages: int
    mean_victim_valid_pages: float


def greedy_fixed_point(rho: float, pages_per_block: int) -> GreedyFixedPoint:
    """Mean-field (N → ∞ blocks) steady state of greedy GC with b pages per block.

    Model: every block is written full (b valid pages, host and GC copies share one write
    frontier); each valid page is invalidated independently at the same rate (uniform random
    writes); greedy always erases a block with the fewest valid pages. In the limit of many
    blocks the population above the victim level j is deterministic: blocks pass through each
    level k > j at the birth rate λ and spend 1/k there (mass λ/k); a pool of mass x sits at
    level j, and blocks falling to j−1 are taken at once. With L = 1 valid page in total
    (n = α/b blocks) and H = Σ_{k=j+1..b} 1/k:

        λ·H + x = n                 (all blocks)
        λ·(b − j) + j·x = 1         (all valid pages = pages freed per unit time)

    so λ = (1 − j·n) / (b − j − j·H), x = n − λ·H, and the level j is the one with
    0 ≤ x ≤ λ/j (the pool drains no faster than blocks arrive). WAF = b·λ.
    """
    b = _check_pages_per_block(pages_per_block)
    n = _alpha(rho) / b
    harmonic = 0.0  # Σ_{k=j+1..b} 1/k
    for j in range(b - 1, 0, -1):
        harmonic += 1.0 / (j + 1)
        denominator = b - j - j * harmonic
        if denominator <= 0.0:
            continue
        lam = (1.0 - j * n) / denominator
        pool = n - lam * harmonic
        if lam > 0.0 and -1e-12 <= pool <= lam / j + 1e-12:
            mean_victim = j - j * pool / lam
            return GreedyFixedPoint(
                waf=b * lam, victim_valid_pages=j, mean_victim_valid_pages=mean_victim
            )
    # Victims hold no valid page at all: GC never copies (needs ρ ≥ b−1 or so).
    return GreedyFixedPoint(waf=1.0, victim_valid_pages=0, mean_victim_valid_pages=0.0)


def waf_greedy(rho: float, pages_per_block: int) -> float:
    """Greedy victim selection (fewest valid pages), b pages per block, many blocks.

    The mean-field ("large system") model of Bux & Iliadis, "Performance of greedy garbage
    collection in flash-based solid-state drives", Performance Evaluation 2010 — also the
    d → ∞ limit of Van Houdt's 2013 mean-field model (``waf_d_choices``). This is the model
    the published greedy values are computed with; see ``greedy_fixed_point`` for the equations.
    Desnoyers' closed form (``waf_greedy_desnoyers``) approximates it within 0.02.
    """
    return greedy_fixed_point(rho, pages_per_block).waf


def waf_greedy_desnoyers(rho: float, pages_per_block: int) -> float:
    """Desnoyers' approximation of greedy with b pages per block: A_LRU(kα)/k, k = 1 + 1/(2b).

    Desnoyers 2012 / ACM TOS 2014, Eq. 12. Closed form; about 0.02 below the mean-field
    model (``waf_greedy``) at ρ = 7.37 %, b = 64, and closer for larger ρ or b.
    """
    b = _check_pages_per_block(pages_per_block)
    k = 1.0 + 1.0 / (2.0 * b)
    return waf_fifo(k * _alpha(rho) - 1.0) / k


def waf_random(rho: float) -> float:
    """Victim chosen uniformly at random among full blocks: α / (α − 1), for any b."""
    a = _alpha(rho)
    return a / (a - 1.0)


def _d_choices_level(ck: float, s_next: float, d: int) -> float:
    """Solve ck·s + s^d = 1 + ck·s_next for s in [s_next, 1] (increasing in s)."""
    rhs = 1.0 + ck * s_next
    if d == 1:
        return rhs / (ck + 1.0)
    lo, hi = s_next, 1.0
    s = min(1.0, max(s_next, rhs / (ck + 1.0)))
    for _ in range(100):
        g = ck * s + s**d - rhs
        if g > 0.0:
            hi = s
        else:
            lo = s
        slope = ck + d * s ** (d - 1)
        step = s - g / slope if slope > 0.0 else 0.5 * (lo + hi)
        s_new = step if lo < step < hi else 0.5 * (lo + hi)
        if abs(s_new - s) <= 1e-15:
            return s_new
        s = s_new
    return s


def waf_d_choices(rho: float, pages_per_block: int, d: int) -> float:
    """d-choices victim selection: of d blocks drawn uniformly at random, erase the one with
    the fewest valid pages. d = 1 is ``waf_random``; d → ∞ tends to ``waf_greedy``.

    B. Van Houdt, "A mean field model for a class of garbage collection algorithms in
    flash-based solid state drives", SIGMETRICS 2013. This computes the fixed point of that
    mean-field model (N → ∞ blocks). Counting per GC event, with x_k the fraction of blocks
    holding k valid pages, S_k = Σ_{i≥k} x_i, a victim taken from level k with probability
    S_k^d − S_{k+1}^d and the b − v host writes of one event moving blocks down a level in
    proportion to k·x_k, the flow across the boundary between levels k and k−1 balances as

        c·k·(S_k − S_{k+1}) = 1 − S_k^d,    c = α·(b − v)/b,

    solved downwards from S_{b+1} = 0; c is fixed by the valid-page total Σ_{k≥1} S_k = b/α,
    and WAF = b/(b − v) = α/c.
    """
    b = _check_pages_per_block(pages_per_block)
    if isinstance(d, bool) or int(d) != d or d < 1:
        raise ValueError(f"d (number of choices) must be an integer >= 1, got {d!r}")
    d = int(d)
    a = _alpha(rho)
    if d == 1:
        return waf_random(rho)
    target = b / a

    def excess(c: float) -> float:
        total = 0.0
        s_next = 0.0
        for k in range(b, 0, -1):
            s_next = _d_choices_level(c * k, s_next, d)
            total += s_next
        return total - target

    # v lies between 0 (victims empty) and b/α (random's victims), so α−1 ≤ c ≤ α.
    c = _bracketed_root(excess, (a - 1.0) * (1.0 - 1e-9), a, iterations=200)
    return a / c


def waf_agarwal_marrow(rho: float) -> float:
    """(1+ρ)/(2ρ): Agarwal & Marrow, "A closed-form expression for write amplification in NAND
    flash", GLOBECOM Workshops 2010. A rougher approximation (2.17 at ρ = 0.3, where the
    Lambert-W model gives 2.36 and simulated greedy 2.35, per Xiang & Kurkoski 2012)."""
    a = _alpha(rho)
    return a / (2.0 * (a - 1.0))


# ---------------------------------------------------------------------------------------------
# The registry: GC victim policy → its analytic WAF model (uniform random page writes)


@dataclass(frozen=True)
class WafModel:
    """The analytic WAF model of one GC victim policy, as every command names and cites it."""

    policy: str  # the simulator's ftl.policy name
    description: str  # what the model is and its source, for headings
    legend: str  # a curve or column label; {b} is pages per block, {d} the sample size
    citation: str  # the paper
    waf: Callable[[float, int, int], float]  # (ρ, pages per block, d) → WAF
    needs_d: bool = False  # the model takes the d-choices sample size

    def label(self, pages_per_block: int, d: int | None = None) -> str:
        return self.legend.format(b=pages_per_block, d=d)


WAF_MODELS: dict[str, WafModel] = {
    m.policy: m
    for m in (
        WafModel(
            "greedy",
            "greedy GC, mean-field model (Bux & Iliadis 2010)",
            "greedy model, b={b} (Bux & Iliadis)",
            "W. Bux, I. Iliadis, Performance Evaluation 67(11), 2010",
            lambda rho, b, d: waf_greedy(rho, b),
        ),
        WafModel(
            "fifo",
            "FIFO/LRU GC, Lambert-W model (Desnoyers 2012; Xiang & Kurkoski 2012)",
            "FIFO model (Desnoyers)",
            "P. Desnoyers, SYSTOR 2012; L. Xiang, B. Kurkoski, ICNC 2012",
            lambda rho, b, d: waf_fifo(rho),
        ),
        WafModel(
            "random",
            "random-victim GC, α/(α−1)",
            "random-victim model α/(α−1)",
            "P. Desnoyers, SYSTOR 2012 (random victim selection)",
            lambda rho, b, d: waf_random(rho),
        ),
        WafModel(
            "d-choices",
            "d-choices GC, mean-field model (Van Houdt 2013)",
            "d-choices model, d={d} (Van Houdt)",
            "B. Van Houdt, SIGMETRICS 2013",
            lambda rho, b, d: waf_d_choices(rho, b, d),
            needs_d=True,
        ),
    )
}

#: The policies whose model needs nothing beyond ρ and the pages per block.
WAF_POLICIES: tuple[str, ...] = tuple(p for p, m in WAF_MODELS.items() if not m.needs_d)


def model_for(policy: str | None) -> WafModel | None:
    """The analytic model of a GC policy, or None when there is none (cost-benefit)."""
    return WAF_MODELS.get(policy or "")


def waf_for_policy(
    policy: str, rho: float, pages_per_block: int = 256, d: int | None = None
) -> float:
    """WAF under uniform random writes for a victim policy name (``WAF_MODELS``)."""
    model = model_for(policy)
    if model is None:
        raise ValueError(f"unknown GC policy {policy!r}; expected one of {', '.join(WAF_MODELS)}")
    if model.needs_d and d is None:
        raise ValueError(f"the {policy} model needs the sample size d")
    return model.waf(rho, pages_per_block, d or 0)


# ---------------------------------------------------------------------------------------------
# Hot/cold skew (Desnoyers 2012, section on non-uniform traffic)


def waf_hotcold_mixed(
    rho: float,
    hot_write_fraction: float,
    hot_space_fraction: float,
    pages_per_block: int | None = None,
) -> float:
    """Hot/cold traffic with hot and cold data sharing one write frontier.

    A fraction r = ``hot_write_fraction`` of the writes goes to a fraction f =
    ``hot_space_fraction`` of the user space ("80/20" is r=0.8, f=0.2). For FIFO/LRU cleaning
    (``pages_per_block=None``) Desnoyers' hot/cold equation: a page of class i survives one
    trip through the log with probability s_i = exp(−r_i·α / (f_i·A)), each host write of class
    i is copied 1/(1−s_i) times, so the WAF A solves

        A = Σ_i r_i / (1 − exp(−r_i·α / (f_i·A)))        (i ∈ {hot, cold})

    which for r = f reduces to ``waf_fifo``. With ``pages_per_block`` = b, greedy cleaning is
    approximated as in Desnoyers Eq. 12: A_greedy ≈ A_LRU(kα)/k, k = 1 + 1/(2b) (at r = f
    this is ``waf_greedy_desnoyers``). Example (Desnoyers 2012): 80/20, ρ = 7.37 %, b = 64 → 7.07.
    """
    r = _check_fraction("hot_write_fraction", hot_write_fraction)
    f = _check_fraction("hot_space_fraction", hot_space_fraction)
    a = _alpha(rho)
    k = 1.0
    if pages_per_block is not None:
        k = 1.0 + 1.0 / (2.0 * _check_pages_per_block(pages_per_block))
    a_eff = k * a
    classes = ((r, f), (1.0 - r, 1.0 - f))

    def excess(waf: float) -> float:
        return sum(ri / -math.expm1(-ri * a_eff / (fi * waf)) for ri, fi in classes) - waf

    # A ≥ 1 and the root lies below the worst single-class amplification bound.
    hi = 2.0
    while excess(hi) > 0.0:
        hi *= 2.0
    return _bracketed_root(excess, 1.0 + 1e-12, hi) / k


@dataclass(frozen=True)
class HotColdSplit:
    """Optimal separation of hot and cold data: the WAF and how the spare space is split."""

    waf: float
    hot_rho: float  # ρ of the hot pool: its spare / its user space
    cold_rho: float
    hot_share_of_spare: float  # fraction of all spare space given to the hot pool


def waf_hotcold_separated(
    rho: float,
    hot_write_fraction: float,
    hot_space_fraction: float,
    pages_per_block: int | None = None,
) -> HotColdSplit:
    """Hot and cold data written to separate pools (two write frontiers, perfect
    classification), with the spare space divided between the pools to minimise the total
    WAF = r·A(ρ_hot) + (1−r)·A(ρ_cold), ρ_hot = s/f, ρ_cold = (ρ−s)/(1−f) (Desnoyers 2012).

    A is ``waf_greedy`` (mean-field) with ``pages_per_block`` = b, else ``waf_fifo``. The
    objective is convex in s (each A is convex and decreasing), so a golden-section search
    finds the optimum. Example (Desnoyers 2012): 80/20, ρ = 7.37 %, b = 64 → 4.55.
    """
    r = _check_fraction("hot_write_fraction", hot_write_fraction)
    f = _check_fraction("hot_space_fraction", hot_space_fraction)
    _alpha(rho)
    if pages_per_block is None:

        def pool(x: float) -> float:
            return waf_fifo(x)
    else:
        b = _check_pages_per_block(pages_per_block)

        def pool(x: float) -> float:
            return waf_greedy(x, b)

    def total(spare_hot: float) -> float:
        return r * pool(spare_hot / f) + (1.0 - r) * pool((rho - spare_hot) / (1.0 - f))

    lo, hi = rho * 1e-9, rho * (1.0 - 1e-9)
    inv_phi = (math.sqrt(5.0) - 1.0) / 2.0
    x1 = hi - inv_phi * (hi - lo)
    x2 = lo + inv_phi * (hi - lo)
    f1, f2 = total(x1), total(x2)
    for _ in range(200):
        if hi - lo <= 1e-12 * rho:
            break
        if f1 <= f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - inv_phi * (hi - lo)
            f1 = total(x1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + inv_phi * (hi - lo)
            f2 = total(x2)
    spare_hot = 0.5 * (lo + hi)
    return HotColdSplit(
        waf=total(spare_hot),
        hot_rho=spare_hot / f,
        cold_rho=(rho - spare_hot) / (1.0 - f),
        hot_share_of_spare=spare_hot / rho,
    )


# ---------------------------------------------------------------------------------------------
# Endurance (docs/concepts.md)

# Typical rated program/erase cycles by NAND type, with the typical range (docs/concepts.md). The
# defaults are the low end of each range, so a plan built on them errs on the safe side.
PE_CYCLES: dict[str, tuple[int, str]] = {
    "slc": (100_000, "100,000 or more"),
    "mlc": (10_000, "10,000–20,000"),
    "tlc": (1_000, "about 1,000–3,000"),
    "qlc": (300, "a few hundred"),
}


def tbw_bytes(raw_capacity_bytes: float, pe_cycles: float, waf: float) -> float:
    """Host bytes a drive can absorb: TBW ≈ raw NAND capacity × rated P/E cycles / WAF."""
    if raw_capacity_bytes <= 0 or pe_cycles <= 0:
        raise ValueError("raw_capacity_bytes and pe_cycles must be > 0")
    if not waf >= 1.0:
        raise ValueError(f"waf must be >= 1, got {waf}")
    return raw_capacity_bytes * pe_cycles / waf


def dwpd(tbw: float, capacity_bytes: float, years: float) -> float:
    """Drive writes per day: DWPD = TBW / (capacity × 365 × years)."""
    if capacity_bytes <= 0 or years <= 0:
        raise ValueError("capacity_bytes and years must be > 0")
    return tbw / (capacity_bytes * 365.0 * years)


def service_years(tbw: float, daily_host_write_bytes: float) -> float:
    """Years until ``tbw`` host bytes are written at ``daily_host_write_bytes`` per day."""
    if daily_host_write_bytes <= 0:
        raise ValueError("daily_host_write_bytes must be > 0")
    return tbw / (daily_host_write_bytes * 365.0)
