"""The physical surrogate of a drive's steady random-write IOPS against extra OP, and its fit.

Model (steady state, uniform random writes of one mapping unit, QD high enough to keep every
NAND die busy)::

    ρ_eff(x) = (1 + ρ₀) / (1 − x) − 1            spare space once a share x of the capacity
                                                   is left unwritten (trimmed) as extra OP
    WAF(x)   = waf_greedy(ρ_eff(x), b)            greedy garbage collection, mean-field model
                                                   (Bux & Iliadis 2010; ``overprov.models``)
    1/IOPS(x) = t_cmd + WAF(x) · t_page            time per host write

Unknowns: ρ₀, the drive's native (hidden) spare space over the user capacity; ``t_page``, the
effective NAND time per mapping unit written (programs, the reads garbage collection needs and
amortised erases, divided over the dies working in parallel); ``t_cmd``, the controller and link
time per command that does not scale with WAF (it sets the ceiling IOPS at high OP). Garbage
collection also reads every unit it relocates, (WAF − 1)·t_read per host write, so the fitted
t_cmd is the controller time less t_read and may be negative (down to −:data:`MAX_READ_SHARE`·t_page
from IOPS alone, −:data:`MAX_READ_SHARE_WITH_WAF`·t_page where a WAF figure is fitted, and
lower where a WAF figure and a FOB are fitted, as long as t_cmd + t_page stays at least
:data:`CMD_FLOOR_FOB_SHARE` of the FOB's time per write).

For a given ρ₀ the time per write is linear in (t_cmd, t_page), so the fit is a one-dimensional
search over ρ₀ with a non-negative weighted linear least squares inside. WAF points (from SMART
NAND and host write deltas) pin ρ₀; without them, and with fewer than three IOPS points, t_cmd is
held at −:data:`HELD_CMD_SHARE`·t_page, 0 (the NAND-bound drive), so the two remaining unknowns
are determined.

``b`` (mapping units per erase block) is not observable from outside; :data:`PAGES_PER_BLOCK` is
used (WAF moves by under 3% between b = 256 and b = 2048 at these ρ, ``models.waf_greedy``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from operator import mul
from typing import Any

from overprov import models
from overprov.calibrate import erase_cost
from overprov.errors import ConfigError
from overprov.units import plural

PAGES_PER_BLOCK = 512
#: The native spare space may go to (nearly) nothing: a drive whose firmware keeps most of its
#: raw NAND for other uses (the Samsung 850 Pro fit, docs/drives/samsung-850-pro-512.toml,
#: needed an effective native OP of 0.2%).
RHO_MIN = 0.001
RHO_MAX = 1.5
#: t_cmd may be negative down to −this·t_page: garbage collection also reads each unit it moves,
#: so 1/IOPS = t_cmd + W·t_prog + (W − 1)·t_read = (t_cmd − t_read) + W·(t_prog + t_read).
#: A move may then cost up to twice a host write (fits with a WAF figure:
#: :data:`MAX_READ_SHARE_WITH_WAF`). 0.9 everywhere (up to ten: a collection holding a channel
#: shared by up to 8 chips) was weighed under a pre-registered rule and not adopted: it met every
#: target with WAF figures on three fresh SSDsim drives (t_cmd down to −0.81·t_page) but, from
#: IOPS alone, refused an EagleTree case (native OP read as 106%) and took a FEMU case's WAF
#: from 35% to 51% off (docs/calibrate-validation.md, "A GC move that costs up to ten host
#: writes"; bench/foreign/results/tcmd-bound/RULE.md).
MAX_READ_SHARE = 0.5
#: The bound's share where at least one fitted figure carries a WAF (None: :data:`MAX_READ_SHARE`
#: everywhere): a move may cost up to ten host writes. A WAF figure pins the spare, so t_cmd is
#: not traded against it as from IOPS alone. Adopted under a pre-registered rule: the plan case
#: with WAF met every target on two fresh SSDsim drives with chips sharing a channel (t_cmd
#: −0.79 and −0.76·t_page), no harm on eight stored cases, IOPS-only fits the same to the bit
#: (docs/calibrate-validation.md, "The wider t_cmd bound only where a WAF figure pins the
#: spare"; bench/foreign/results/tcmd-bound2/RULE.md).
MAX_READ_SHARE_WITH_WAF: float | None = 0.9
#: Where a WAF figure and a FOB are among the fitted points, t_cmd may also lie anywhere with
#: t_cmd + t_page ≥ this · t_fob (t_fob: the fastest FOB's time per write; None: off, the share
#: bound alone). The line at WAF 1 is a host write with nothing to collect, which the FOB measures;
#: the steady one is no cheaper (it also erases), so the physical limit left where WAF figures pin
#: the line is its WAF-1 value, not a move's cost in host writes (which grows with the chips host
#: writes are spread over while a move stays in one chip: VSSIM, bench/foreign/vssim.py). The
#: region admitted is the union with :data:`MAX_READ_SHARE_WITH_WAF`'s, so every line admitted
#: without it is admitted with it. Adopted under a pre-registered rule: the plan case met both
#: targets on 3 of 3 fresh VSSIM drives of 12–32 chips with it (1 of 3 without: WAF 6.4% and
#: 8.9% off), four stored cases nearest the share bound the same but for their wall time, fits
#: without WAF or FOB unchanged (docs/calibrate-validation.md, "A GC move dearer than ten host
#: writes: a floor from the FOB beside the share bound"; bench/foreign/results/readshare/).
CMD_FLOOR_FOB_SHARE: float | None = 0.5
#: When the figures are too few to fit t_cmd (fewer IOPS and WAF figures than unknowns), it is
#: held at −this·t_page: a GC move's premium over a host write (its read, and on some drives a
#: second transfer), as a share of the move's time. 0: t_cmd = 0, a move costs what a host write
#: costs (the NAND-bound drive). 0.15 (the seen FTLs' median) was weighed under a pre-registered
#: rule and not adopted: it made the WAF from IOPS alone much better on three fresh EagleTree
#: drives and worse on FEMU, whose t_cmd is positive (docs/calibrate-validation.md, "A GC move
#: that costs more than a host write"; bench/foreign/results/iops-form/RULE.md).
HELD_CMD_SHARE = 0.0
#: Bounds of the spare efficiency k (``spare_readings.py``): from a twentieth to twenty times
#: the greedy drive's use of its spare space.
EFFICIENCY_MIN = 0.05
EFFICIENCY_MAX = 20.0
#: Floor on a point's relative uncertainty (IOPS and WAF), whatever its round-to-round spread.
MIN_REL_SD = 0.01
#: The queue depth of the workload figures are read under unless a figure says otherwise.
WORKLOAD_QD = 32


@lru_cache(maxsize=65536)
def _waf_cached(rho_grid: int) -> float:
    return models.waf_greedy(rho_grid / 1e4, PAGES_PER_BLOCK)


def waf_at(rho: float) -> float:
    """Greedy WAF at spare ratio ``rho`` (interpolated on a 1e-4 grid, cached)."""
    rho = max(rho, RHO_MIN)
    k = rho * 1e4
    lo = math.floor(k)
    f = k - lo
    a = _waf_cached(lo)
    return a if f == 0 else a + f * (_waf_cached(lo + 1) - a)


#: WAF as a function of the spare ratio ρ: :func:`waf_at` (greedy GC under uniform random
#: writes, the mean-field model) unless the figures were measured under another workload
#: (``workload_curve.py``: the twin simulated under that workload).
WafCurve = Callable[[float], float]


def at_lower_bound(native_op: float) -> bool:
    """A fitted native spare pinned to the search's lower bound :data:`RHO_MIN`: the figures
    would have it lower still, so they do not determine it."""
    return native_op <= RHO_MIN * 1.0001


def rho_eff(native_op: float, extra_op_percent: float) -> float:
    """Spare ratio over the written span when ``extra_op_percent`` of the capacity is unused."""
    return (1.0 + native_op) / (1.0 - extra_op_percent / 100.0) - 1.0


def native_op_for(spare_ratio: float, extra_op_percent: float) -> float:
    """The native spare that gives ``spare_ratio`` over the written span at
    ``extra_op_percent``: :func:`rho_eff` inverted."""
    return (1.0 + spare_ratio) * (1.0 - extra_op_percent / 100.0) - 1.0


def rho_for_waf(waf: float, curve: WafCurve = waf_at) -> float:
    """The spare ratio at which ``curve`` (default: the greedy model) gives ``waf``."""
    if waf <= 1.0:
        return RHO_MAX
    lo, hi = RHO_MIN, RHO_MAX * 4
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if curve(mid) > waf:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@dataclass(frozen=True)
class Point:
    """One measured (or published) steady figure at one extra-OP level."""

    extra_op_percent: float
    iops: float | None = None
    iops_rel_sd: float = MIN_REL_SD
    waf: float | None = None
    waf_rel_sd: float = 0.02
    fresh: bool = False
    """A fresh-out-of-box figure (``--fob-iops``): nothing to collect yet, so WAF 1 whatever
    the spare space; it pins t_cmd + t_page, the time per write without garbage collection."""
    queue_depth: int | None = None
    """The queue depth the IOPS figure was measured at when it is not the workload's (None:
    the workload's, QD32 unless said). Only the blocking-GC reading (``gc_blocking.py``) can
    fit such a figure; the analytic fit is given the workload's figures alone."""

    @property
    def has_steady_waf(self) -> bool:
        """Whether the point carries a steady WAF figure: a WAF, and not a fresh-out-of-box
        point's (whose WAF is 1 whatever the spare space)."""
        return self.waf is not None and not self.fresh


def split_queue_depths(points: list[Point], queue_depth: int) -> tuple[list[Point], list[Point]]:
    """(the figures at the workload's ``queue_depth``, those at another): the analytic fit has
    no queue-depth term and is given the first alone: refused (ConfigError) when there are
    none of those but some of these."""
    main = [replace(p, queue_depth=None) for p in points if p.queue_depth in (None, queue_depth)]
    other = [p for p in points if p.queue_depth not in (None, queue_depth)]
    if other and not main:
        raise ConfigError(
            f"no figure at the workload's queue depth (QD{queue_depth}) to fit: the "
            f"{plural(len(other), 'figure')} at another are read beside such figures, not alone"
        )
    return main, other


@dataclass
class Surrogate:
    native_op: float
    """ρ₀: native spare space ÷ user capacity."""
    t_page_us: float
    t_cmd_us: float
    fob_iops: float | None = None
    """Measured fresh-out-of-box IOPS, kept for the record. Not a cap: a drive's FOB can be
    lower than its steady IOPS at high OP (e.g. a one-second FOB round still filling its
    buffer), seen on generated drives."""
    fixed: list[str] = field(default_factory=list)
    """Parameters held rather than fitted, and why."""
    cost: float = 0.0
    """Weighted sum of squared residuals at the optimum."""
    curve: WafCurve = field(default=waf_at, repr=False, compare=False)
    """WAF against ρ: the greedy model, or the workload's simulated curve."""
    spare_efficiency: float = 1.0
    """k: the drive behaves as the curve's drive with k times its spare space. 1 unless the
    raw NAND is given and WAF figures fit it (``spare_readings.py``)."""
    erase_us_per_page: float = 0.0
    """t_erase: the share of t_page a fresh drive does not pay (its erases), fitted from FOB's
    gap below the steady line with ``erase_cost.ENABLED``; 0 otherwise."""

    def waf(self, extra_op_percent: float) -> float:
        return self.curve(self.spare_efficiency * rho_eff(self.native_op, extra_op_percent))

    def iops(self, extra_op_percent: float, waf: float | None = None) -> float:
        """Steady IOPS at ``extra_op_percent``; ``waf`` given (1: nothing to collect), a fresh
        drive's at that WAF: it erases nothing, so ``erase_us_per_page`` is not paid."""
        if waf is None:
            t = self.t_cmd_us + self.waf(extra_op_percent) * self.t_page_us
        else:
            t = erase_cost.fresh_time_us(self.t_cmd_us, self.t_page_us, self.erase_us_per_page, waf)
        return 1e6 / t if t > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        d = asdict(replace(self, curve=waf_at))
        d["curve"] = getattr(self.curve, "description", "greedy mean-field model, uniform random")
        if not self.erase_us_per_page:  # the form off (or no gap): the record as before
            del d["erase_us_per_page"]
        return d


def has_waf(points: list[Point]) -> bool:
    """Whether a WAF figure is among ``points``: what pins the spare side of a fit (the bound
    :func:`read_share`, the IOPS-only interval term, plausibility's IOPS-only rules)."""
    return any(p.waf is not None for p in points)


def read_share(has_waf: bool) -> float:
    """The share of the bound t_cmd ≥ −share·t_page: :data:`MAX_READ_SHARE_WITH_WAF` where a
    fitted figure carries a WAF (``has_waf``) and it is set, :data:`MAX_READ_SHARE` otherwise."""
    if has_waf and MAX_READ_SHARE_WITH_WAF is not None:
        return MAX_READ_SHARE_WITH_WAF
    return MAX_READ_SHARE


def fob_floor_us(points: list[Point]) -> float | None:
    """The floor t_cmd + t_page ≥ :data:`CMD_FLOOR_FOB_SHARE`·t_fob (µs) where it applies: set,
    a WAF figure and a FOB among ``points``; None otherwise (the share bound alone)."""
    fobs = [p.iops for p in points if p.fresh and p.iops]
    if CMD_FLOOR_FOB_SHARE is None or not fobs or not has_waf(points):
        return None
    return CMD_FLOOR_FOB_SHARE * 1e6 / max(fobs)


def lowest_cmd(t_page: float, share: float, floor_us: float | None = None) -> float:
    """The lowest t_cmd the bound admits at ``t_page``: −share·t_page, or below it down to
    ``floor_us`` − t_page where the floor (:func:`fob_floor_us`) is the looser."""
    low = -share * t_page
    return low if floor_us is None else min(low, floor_us - t_page)


def linear_fit(
    wafs: list[float],
    ys: list[float],
    ws: list[float],
    fit_cmd: bool,
    share: float | None = None,
    floor_us: float | None = None,
) -> tuple[float, float]:
    """Weighted least squares of y = t_cmd + W·t_page with t_page > 0 and
    t_cmd ≥ −share·t_page (``share`` None: :data:`MAX_READ_SHARE`) or, with ``floor_us``,
    t_cmd + t_page ≥ floor_us (:func:`fob_floor_us`); returns (t_cmd, t_page)."""
    k = MAX_READ_SHARE if share is None else share
    return _linear_fit(
        wafs, ys, ws, fit_cmd, sum(ws), sum(w * y for y, w in zip(ys, ws, strict=True)), k,
        floor_us,
    )  # fmt: skip


def _linear_fit(
    wafs: list[float],
    ys: list[float],
    ws: list[float],
    fit_cmd: bool,
    s: float,
    sy: float,
    share: float,
    floor_us: float | None = None,
) -> tuple[float, float]:
    """:func:`linear_fit` given the sums that do not depend on ``wafs``: ``s`` = Σw and ``sy``
    = Σw·y (:class:`_Objective` works them out once for all its steps); ``share``: the bound's
    (:func:`read_share`), ``floor_us`` its FOB floor (:func:`fob_floor_us`). Each sum adds the
    same products, formed the same way, in the same order as the sums written out in full
    (``sum`` of w·W·y is ``sum`` of (w·W)·y), so the figures are the same to the bit."""
    wx = list(map(mul, ws, wafs))  # w·W
    sxx = sum(map(mul, wx, wafs))  # Σ (w·W)·W
    sxy = sum(map(mul, wx, ys))  # Σ (w·W)·y
    if fit_cmd:
        sx = sum(wx)
        det = s * sxx - sx * sx
        if det > 1e-12 * max(1.0, s * sxx):
            t_page = (s * sxy - sx * sy) / det
            t_cmd = (sy - t_page * sx) / s
            if t_page <= 0:  # IOPS do not fall with WAF: a controller ceiling only
                return sy / s, 0.0
            if t_cmd >= -share * t_page:
                return t_cmd, t_page
            if floor_us is None:
                return _on_share(wafs, ys, ws, share)  # on the bound t_cmd = −k·t_page
            if t_cmd + t_page >= floor_us:
                return t_cmd, t_page
            return _on_bound(wafs, ys, ws, share, floor_us)
    if HELD_CMD_SHARE:  # t_cmd held at −k·t_page: y = t_page·(W − k)
        return _on_share(wafs, ys, ws, HELD_CMD_SHARE)
    # NAND time alone: Σ w·W·y / Σ w·W·W
    return 0.0, max(sxy / sxx, 0.0) if sxx > 0 else 0.0


def _on_share(wafs: list[float], ys: list[float], ws: list[float], k: float) -> tuple[float, float]:
    """Weighted least squares of y = t_page·(W − k), t_page ≥ 0: (t_cmd = −k·t_page, t_page)."""
    wd = [w * (wf - k) for wf, w in zip(wafs, ws, strict=True)]
    num = sum(map(mul, wd, ys))  # Σ (w·(W − k))·y
    den = sum(w * (wf - k) ** 2 for wf, w in zip(wafs, ws, strict=True))
    t_page = max(num / den, 0.0) if den > 0 else 0.0
    return -k * t_page, t_page


def _on_bound(
    wafs: list[float], ys: list[float], ws: list[float], k: float, floor_us: float
) -> tuple[float, float]:
    """The least squares over the union of t_cmd ≥ −k·t_page and t_cmd + t_page ≥ ``floor_us``
    when the free line lies in neither: the better of the two boundary lines (the share's on a
    tie). On the floor, y − floor = t_page·(W − 1), t_page ≥ 0."""
    on_share = _on_share(wafs, ys, ws, k)
    wd = [w * (wf - 1.0) for wf, w in zip(wafs, ws, strict=True)]
    den = sum(w * (wf - 1.0) ** 2 for wf, w in zip(wafs, ws, strict=True))
    if den <= 0:  # every row at W = 1: no slope to fit on the floor
        return on_share
    t_page = max(sum(d * (y - floor_us) for d, y in zip(wd, ys, strict=True)) / den, 0.0)
    on_floor = (floor_us - t_page, t_page)
    rows = list(zip(wafs, ys, ws, strict=True))

    def sse(line: tuple[float, float]) -> float:
        return sum(w * (y - line[0] - wf * line[1]) ** 2 for wf, y, w in rows)

    return on_floor if sse(on_floor) < sse(on_share) else on_share


class _Objective:
    """The fit's cost as a function of ρ₀ (and the spare efficiency k) for fixed ``points``:
    what does not depend on them (each point's time per write and weight, their sums, each
    level's 1 − x) is worked out once, not at each of the search's ~520 steps."""

    def __init__(
        self,
        points: list[Point],
        fit_cmd: bool,
        curve: WafCurve,
        steady_fit_cmd: bool | None = None,
    ) -> None:
        """``steady_fit_cmd`` not None: the erase-cost form (``erase_cost.py``), its value
        whether the steady figures alone fit t_cmd."""
        self.points, self.fit_cmd, self.curve = points, fit_cmd, curve
        self.iops_at = [i for i, p in enumerate(points) if p.iops]
        self.ys = [1e6 / points[i].iops for i in self.iops_at]  # type: ignore[operator]
        # relative residual (y − ŷ)/y with sd σ: weight 1/(σ·y)²
        self.ws = [
            1.0 / (max(points[i].iops_rel_sd, MIN_REL_SD) * y) ** 2
            for i, y in zip(self.iops_at, self.ys, strict=True)
        ]
        self.s = sum(self.ws)
        self.sy = sum(w * y for y, w in zip(self.ys, self.ws, strict=True))
        self.waf_at = [
            (i, p.waf, max(p.waf_rel_sd, MIN_REL_SD))
            for i, p in enumerate(points)
            if p.waf is not None
        ]
        self.share = read_share(bool(self.waf_at))  # the bound on t_cmd
        self.floor_us = fob_floor_us(points)  # and its FOB floor (None: off or no FOB)
        # :func:`rho_eff`'s spare ratio, (1 + ρ₀)/(1 − x) − 1, with 1 − x worked out once per
        # point (a fresh point's WAF is 1: nothing to collect)
        self.unused = [None if p.fresh else 1.0 - p.extra_op_percent / 100.0 for p in points]
        self.steady_fit_cmd = steady_fit_cmd
        # the erase-cost form: each IOPS row fresh or not; the steady rows' times, weights and
        # sums and the fresh rows' times and weights, none of which depends on ρ₀
        self.fresh = [points[i].fresh for i in self.iops_at]
        self.steady_rows = [j for j, f in enumerate(self.fresh) if not f]
        self.steady_ys = [self.ys[j] for j in self.steady_rows]
        self.steady_ws = [self.ws[j] for j in self.steady_rows]
        self.steady_s = sum(self.steady_ws)
        self.steady_sy = sum(w * y for y, w in zip(self.steady_ys, self.steady_ws, strict=True))
        self.fresh_ys = [y for y, f in zip(self.ys, self.fresh, strict=True) if f]
        self.fresh_ws = [w for w, f in zip(self.ws, self.fresh, strict=True) if f]

    def __call__(self, rho0: float, k: float = 1.0) -> tuple[float, float, float]:
        """(cost, t_cmd, t_page) at ρ₀ and k: relative residuals of time per write and of WAF
        (each point's model WAF worked out once, for its IOPS and its WAF figure alike)."""
        return self.times(rho0, k)[:3]

    def times(self, rho0: float, k: float = 1.0) -> tuple[float, float, float, float]:
        """(cost, t_cmd, t_page, t_erase) at ρ₀ and k; t_erase 0 but in the erase-cost form."""
        curve, spare = self.curve, 1.0 + rho0
        model = [1.0 if u is None else curve(k * (spare / u - 1.0)) for u in self.unused]
        wafs = [model[i] for i in self.iops_at]
        ys, ws = self.ys, self.ws
        t_erase = 0.0
        if not ys:
            t_cmd, t_page = 0.0, 0.0
        elif self.steady_fit_cmd is None or len(self.steady_rows) == len(ys):
            t_cmd, t_page = _linear_fit(
                wafs, ys, ws, self.fit_cmd, self.s, self.sy, self.share, self.floor_us
            )
        else:
            t_cmd, t_page, t_erase = self._erase_form(wafs)
        cost = 0.0
        for wf, y, w, fresh in zip(wafs, ys, ws, self.fresh, strict=True):
            cost += w * (y - (t_cmd + wf * t_page - (t_erase if fresh else 0.0))) ** 2
        for i, waf, sd in self.waf_at:
            cost += (math.log(model[i] / waf) / sd) ** 2
        return cost, t_cmd, t_page, t_erase

    def _erase_form(self, wafs: list[float]) -> tuple[float, float, float]:
        """(t_cmd, t_page, t_erase): ``erase_cost.split`` over this ρ₀'s model WAFs."""
        sw = [wafs[j] for j in self.steady_rows]

        def steady() -> tuple[float, float]:
            fit_cmd = bool(self.steady_fit_cmd)
            return _linear_fit(
                sw, self.steady_ys, self.steady_ws, fit_cmd, self.steady_s, self.steady_sy,
                self.share, self.floor_us,
            )  # fmt: skip

        def plain() -> tuple[float, float]:
            return _linear_fit(
                wafs, self.ys, self.ws, self.fit_cmd, self.s, self.sy, self.share, self.floor_us
            )

        return erase_cost.split(
            steady if self.steady_rows else None, plain, self.fresh_ys, self.fresh_ws
        )


def remembered(curve: WafCurve) -> WafCurve:
    """``curve`` with each value it gave kept (``functools.cache``), for the many fits of one
    set of levels: the bootstrap's refits search the same grid of spare ratios, so the same
    figures are looked up instead of worked out again."""
    return functools.cache(curve)


@lru_cache(maxsize=16)
def _log_grid(lo: float, hi: float) -> tuple[float, ...]:
    """:func:`_minimise`'s coarse grid: 401 points from ``lo`` to ``hi``, even in log."""
    return tuple(lo * (hi / lo) ** (i / 400) for i in range(401))


def _minimise(cost: Callable[[float], float], lo: float, hi: float) -> float:
    """The argument in [lo, hi] minimising ``cost``: a coarse grid in log, then golden-section
    refinement around the best."""
    grid = _log_grid(lo, hi)
    costs = [cost(r) for r in grid]
    i_best = min(range(len(costs)), key=lambda i: costs[i])
    a = grid[max(0, i_best - 1)]
    b = grid[min(len(grid) - 1, i_best + 1)]
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        c, d = b - g * (b - a), a + g * (b - a)
        if cost(c) < cost(d):
            b = d
        else:
            a = c
    return 0.5 * (a + b)


def fit(
    points: list[Point],
    *,
    fob_iops: float | None = None,
    native_op: float | None = None,
    curve: WafCurve = waf_at,
    fit_efficiency: bool = False,
) -> Surrogate:
    """Least-squares fit of the surrogate to ``points``; ``native_op`` given: held fixed.
    ``curve``: WAF against ρ under the figures' workload (default: the greedy model).
    ``fit_efficiency`` (with ``native_op``, the raw NAND's spare): fit the spare efficiency k
    to the WAF points instead (without WAF points it stays 1: nothing determines it)."""
    n_iops = sum(1 for p in points if p.iops)
    n_waf = sum(1 for p in points if p.waf is not None)
    if n_iops == 0 and n_waf == 0:
        raise ConfigError("no measured points to fit")
    for p in points:
        if not 0 <= p.extra_op_percent < 100:
            raise ConfigError(f"point at {p.extra_op_percent}% extra OP: must be in [0, 100)")
        if p.iops is not None and p.iops <= 0:
            raise ConfigError(f"point at {p.extra_op_percent}%: IOPS must be positive")
        if p.waf is not None and p.waf < 1:
            raise ConfigError(f"point at {p.extra_op_percent}%: WAF must be at least 1")
    fixed: list[str] = []
    unknowns = (native_op is None) + 2
    fit_cmd = n_iops + n_waf >= unknowns and n_iops >= 2
    if not fit_cmd:
        held = f"−{HELD_CMD_SHARE:g}·t_page (a GC move's read)" if HELD_CMD_SHARE else "0"
        fixed.append(
            f"t_cmd_us = {held}: too few points to fit a controller time besides the NAND's"
        )
    steady_fit_cmd = None
    if erase_cost.applies(n_waf > 0):  # the steady figures alone, FOB read by t_erase
        n_steady = sum(1 for p in points if p.iops and not p.fresh)
        steady_fit_cmd = n_steady + n_waf >= unknowns and n_steady >= 2
    cost_at = _Objective(points, fit_cmd, curve, steady_fit_cmd)
    if native_op is not None:
        fixed.append("native_op from the given advertised and physical sizes")
        k = 1.0
        if fit_efficiency and n_waf:
            k = _minimise(lambda kk: cost_at(native_op, kk)[0], EFFICIENCY_MIN, EFFICIENCY_MAX)
        elif fit_efficiency:
            fixed.append("spare_efficiency = 1: no WAF figure to fit it to")
        cost, t_cmd, t_page, t_erase = cost_at.times(native_op, k)
        fixed += _erase_fixed(t_erase, fit_cmd, steady_fit_cmd)
        return Surrogate(
            native_op, t_page, t_cmd, fob_iops, fixed, cost, curve, k, erase_us_per_page=t_erase
        )
    if n_waf == 0 and n_iops < 2:
        raise ConfigError(
            "one point cannot fix both the native OP and the NAND time; give "
            "another level, a WAF point, or --advertised and --physical"
        )
    rho0 = _minimise(lambda r: cost_at(r)[0], RHO_MIN, RHO_MAX)
    cost, t_cmd, t_page, t_erase = cost_at.times(rho0)
    fixed += _erase_fixed(t_erase, fit_cmd, steady_fit_cmd)
    return Surrogate(rho0, t_page, t_cmd, fob_iops, fixed, cost, curve, erase_us_per_page=t_erase)


def _erase_fixed(t_erase: float, fit_cmd: bool, steady_fit_cmd: bool | None) -> list[str]:
    """The note the erase-cost form adds to ``Surrogate.fixed``: t_cmd held where the steady
    figures alone cannot fit it though every figure could (FOB then sets t_erase instead)."""
    if t_erase > 0 and fit_cmd and not steady_fit_cmd:
        held = f"−{HELD_CMD_SHARE:g}·t_page (a GC move's read)" if HELD_CMD_SHARE else "0"
        return [
            f"t_cmd_us = {held}: FOB sets the erase time per page, too few steady points "
            "to fit a controller time besides the NAND's"
        ]
    return []
