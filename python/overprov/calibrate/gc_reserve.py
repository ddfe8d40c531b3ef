"""A reading of the spare for a controller that holds free NAND as a garbage-collection
reserve, with a victim floor that caps WAF.

Some controllers run background garbage collection to keep a share of their blocks free
whatever the data: FEMU's black-box SSD keeps 65 of its 256 lines free while a victim qualifies
(``gc_thres_pcent``), MQSim up to ``GC_Exec_Threshold`` of each plane's blocks. NAND held free
holds no data, so it is no spare to the collector: what is left of the native spare after the
reserve may be nothing, or less than nothing (a reserve larger than the NAND beyond the user
space), and the extra OP is then the collector's only spare. When the data no longer fits
beside the reserve the reserve gives way, and what sets WAF is the victim the background
collector accepts: FEMU takes a victim only with at least 1/8 of its pages invalid, so WAF
stays at 1 ÷ (1/8) = 8 at every level where the greedy victim has fewer (docs/
calibrate-validation.md, "A fourth FTL, held out: FEMU's black-box SSD").

The reading (:class:`ReserveForm`)::

    ρ(x)   = s / (1 − x) − 1            s = 1 + ρ₀ − reserve, fitted down to SPARE_FACTOR_MIN
    WAF(x) = min(curve(ρ(x)), W_floor)   W_floor: the victim floor, fitted or none
    1/IOPS = t_cmd + WAF(x) · t_page     as ``fit.py``

The reserve and the native spare are one parameter (their difference is all the figures see);
the effective-spare reading is this one with ρ₀ ≥ ``fit.RHO_MIN`` and no floor. The floor is
a structural choice, fitted only when the figures call for it: the WAF figure at the lowest
level lies below what the curve fitted to the other levels predicts there by more than
:data:`FLOOR_SIGMAS` standard errors of such a prediction (the figure's spread and the
model-form error, ``model_rel_sd``). Then W_floor is that figure and ρ₀ is refitted with the
curve capped. Otherwise there is no floor and nothing distinguishes this reading from the
effective one but the lower bound on ρ₀ (``called_for`` False: ``bench/gc_reserve_bench.py``
does not add it). A floor above the fitted levels' WAF cannot be fitted, and is not: without a
figure at or below the level where the cap binds, the figures do not show it.

Its evidence is weighed as every reading's (``evidence.assess``): it counts one parameter more
than the effective reading when the floor is fitted (:attr:`ReserveSurrogate.waf_floor`), and
its leave-one-out fits cannot fit a floor from a held-out figure, so it earns weight only by
reproducing the fitted figures where the one-spare forms cannot.

Not part of calibrate: ``spare_readings.read_all`` does not offer it. Checked at the surrogate
level (``bench/gc_reserve_bench.py``) under a pre-registered rule
(``bench/foreign/results/gc-reserve/RULE.md``), it improved every held-out figure of the FEMU
drives whose reserve binds but missed the rule's 10% median on two of them, and moved MQSim's
30% WAF 2.4 points further off: not adopted (docs/calibrate-validation.md, "A controller-held
GC reserve and a victim floor").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError

#: A floor is fitted when the lowest level's WAF figure lies this many standard errors of a
#: held-out prediction below the curve fitted to the other levels.
FLOOR_SIGMAS = 3.0
#: The smallest spare factor 1 + ρ₀ − reserve searched: a reserve of up to half the user
#: capacity beyond the native spare.
SPARE_FACTOR_MIN = 0.5


@dataclass(frozen=True)
class CappedCurve:
    """``curve`` capped at ``floor`` (the victim floor's WAF)."""

    curve: fitmod.WafCurve
    floor: float

    def __call__(self, rho: float) -> float:
        return min(self.curve(rho), self.floor)

    @property
    def description(self) -> str:
        base = getattr(self.curve, "description", "greedy mean-field model, uniform random")
        return f"{base}, capped at WAF {self.floor:.3g} (a victim floor)"


@dataclass
class ReserveSurrogate(fitmod.Surrogate):
    """The fit's surrogate with the reserve reading's two extras: ``native_op`` may be negative
    (the spare beyond the reserve), and ``waf_floor`` (None: no floor fitted)."""

    waf_floor: float | None = None
    floor_test: dict = field(default_factory=dict)
    """Why a floor was fitted or not: the lowest level, its figure, the curve's prediction
    there from the other levels and the threshold (log ratio)."""


def _fit_spare(
    points: list[fitmod.Point], curve: fitmod.WafCurve, fob_iops: float | None = None
) -> ReserveSurrogate:
    """Least squares over the spare factor s in [SPARE_FACTOR_MIN, 1 + RHO_MAX] (ρ₀ = s − 1,
    negative allowed) with ``fit.py``'s objective; t_cmd held at 0 as ``fit.fit`` holds it."""
    n_iops = sum(1 for p in points if p.iops)
    n_waf = sum(1 for p in points if p.waf is not None)
    if n_waf == 0 and n_iops < 2:
        raise ConfigError("calibrate: the reserve reading needs a WAF figure or two IOPS figures")
    fit_cmd = n_iops + n_waf >= 3 and n_iops >= 2
    fixed = [] if fit_cmd else ["t_cmd_us = 0: too few points to fit a controller time"]
    cost_at = fitmod._Objective(points, fit_cmd, curve)
    s = fitmod._minimise(lambda f: cost_at(f - 1.0)[0], SPARE_FACTOR_MIN, 1.0 + fitmod.RHO_MAX)
    cost, t_cmd, t_page = cost_at(s - 1.0)
    return ReserveSurrogate(s - 1.0, t_page, t_cmd, fob_iops, fixed, cost, curve)


@dataclass(frozen=True)
class ReserveForm:
    """How the reserve reading fits figures (``evidence.assess`` calls :meth:`fit`): ``curve``
    the GC design's WAF curve, ``model_rel_sd`` the model-form error of a held-out prediction
    (the floor test's scale)."""

    curve: fitmod.WafCurve = fitmod.waf_at
    model_rel_sd: float = 0.0
    native_op: None = None  # ρ₀ is fitted (evidence.n_parameters)
    fit_efficiency: bool = False

    def floor_test(self, points: list[fitmod.Point]) -> dict:
        """Whether the lowest level's WAF figure calls for a floor (module docstring)."""
        steady = [p for p in points if not p.fresh]
        levels = sorted({p.extra_op_percent for p in steady})
        low = [p for p in steady if p.extra_op_percent == levels[0] and p.waf is not None]
        if len(levels) < 2 or not low:
            return {"called_for": False, "why": "no WAF figure below another level"}
        p_low = low[0]
        rest = [p for p in points if p.fresh or p.extra_op_percent != levels[0]]
        try:
            s = _fit_spare(rest, self.curve)
        except ConfigError:
            return {"called_for": False, "why": "the other levels cannot be fitted alone"}
        predicted = s.waf(p_low.extra_op_percent)
        sd = math.hypot(max(p_low.waf_rel_sd, fitmod.MIN_REL_SD), self.model_rel_sd)
        log_ratio = math.log(predicted / p_low.waf)  # type: ignore[operator]
        return {
            "called_for": log_ratio > FLOOR_SIGMAS * sd,
            "extra_op_percent": p_low.extra_op_percent,
            "waf": p_low.waf,
            "predicted_from_others": predicted,
            "log_ratio": log_ratio,
            "threshold": FLOOR_SIGMAS * sd,
        }

    def fit(self, points: list[fitmod.Point]) -> ReserveSurrogate:
        test = self.floor_test(points)
        curve = CappedCurve(self.curve, test["waf"]) if test["called_for"] else self.curve
        s = _fit_spare(points, curve)
        s.waf_floor = test["waf"] if test["called_for"] else None
        s.floor_test = test
        return s

    def called_for(self, points: list[fitmod.Point]) -> bool:
        """Whether the figures call for a floor: the reading differs from the effective one."""
        return bool(self.floor_test(points)["called_for"])
