"""The closed-loop reading of IOPS across queue depths: a host keeping QD writes in flight over
N parallel units.

The analytic surrogate (``fit.py``) reads IOPS at one queue depth, the workload's (QD₀):
``1/IOPS = t_cmd + WAF·t_page``. It has no queue-depth term. This reading adds one from
Little's law for a closed loop (Lazowska et al., *Quantitative System Performance*, 1984,
ch. 3: throughput = customers in the loop ÷ the time each spends in it): a host write holds one
of N parallel units (dies, LUNs) for its program time ``t_unit``, so without garbage collection
``min(QD, N)`` writes run at once and the time per write is ``t_unit / min(QD, N)``; the
collections' work, (WAF − 1) relocations per host write, holds the units as well and does not
depend on the queue depth (a collection that blocks the units it runs on, FEMU's by whole
lines over every LUN). So::

    1/IOPS(x, QD) = 1/IOPS(x, QD₀) + t_unit · (1/min(QD, N) − 1/min(QD₀, N))
    t_unit        = min(QD₀, N) · (t_cmd + t_page)       (the time per write at WAF 1, QD₀)

At QD₀ it is the analytic reading unchanged; with QD ≥ N the bound is N ÷ the unit time a
host write costs (its program and its share of the relocations), and with QD ≪ N the IOPS are
QD ÷ the write latency, the two regimes joined where QD = N. One parameter is added: N.

What identifies N: a figure at a second queue depth (calibrate's plan measures QD4 at its
highest level, ``plan.py``). Below QD₀ such a figure fixes N when N < QD₀ and only bounds it,
N ≥ about QD₀, when the units outnumber the queue depth (every N ≥ QD₀ gives the same IOPS at
every QD ≤ QD₀). Within the N the figures allow (χ² within :data:`DELTA_CHI2` of its least)
N is taken nearest to what the analytic fit's slope says when a relocation costs a program and
a read on one unit, spread over all N: ``t_page = t_unit·(1 + t_read/t_prog)/N``, so
``N_gc = t_unit·(1 + t_read/t_prog)/t_page`` with the read share of the core's NAND
(``gc_blocking.READ_SHARE``). Without figures at another queue depth N is N_gc.

On in the predictions at other queue depths only (:data:`ENABLED`, not :data:`WEIGH`): the
record ``fit.gc_mechanism.closed_loop`` gives the analytic reading's share of such a
prediction; the readings' weights are as without it. Both ways were evaluated under
pre-registered rules (docs/calibrate-validation.md, "IOPS that depend on queue depth over many
parallel units"): in the evidence too it failed (it takes MQSim's weight from the blocking-GC
reading); in the predictions only it passed, and changes nothing where the blocking-GC
reading keeps weight 1. A third way, in the evidence only with QD4 figures at two levels
(:data:`WEIGH_FROM_LEVELS`, the plan's probe at 0% too), failed its rule as well ("A second
probe level"): a 0% figure does not refute the term on MQSim within the figures' noise, and on
FEMU the weight it wins exposes the WAF curve's miss at 10%; it stays off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from overprov.calibrate import evidence, gc_blocking
from overprov.calibrate import fit as fitmod
from overprov.units import plural

#: Whether calibrate weighs the analytic reading with this queue-depth term at figures taken
#: at another queue depth (False: scored there with its QD₀ figure, as before).
ENABLED = True
#: With :data:`ENABLED`: whether the term also enters the analytic reading's evidence (True:
#: its residuals at the other-QD figures read through N units; rule A, failed, not adopted) or
#: only its predictions there (False: evidence as before, so the weights and the QD₀ figures
#: are unchanged; rule B, passed and adopted).
WEIGH = False
#: With :data:`ENABLED` and not :data:`WEIGH`: the term enters the evidence too when the IOPS
#: figures at other queue depths lie at this many extra-OP levels or more (None: never). Under
#: a closed loop ``1/IOPS(x, QD) − 1/IOPS(x, QD₀)`` is the same at every level; under GC that
#: blocks the host queue it follows the GC work, so figures at two levels can refute the term
#: where one figure cannot (docs/calibrate-validation.md, "A second probe level": evaluated
#: with 2 under a pre-registered rule, failed, not adopted).
WEIGH_FROM_LEVELS: int | None = None
#: The unit counts tried: a geometric grid of 8 steps per doubling from 1 to this.
MAX_UNITS = 1024
STEPS_PER_DOUBLING = 8
#: N within this much χ² of the least are allowed by the figures (one parameter: 1σ).
DELTA_CHI2 = 1.0


def unit_grid() -> list[float]:
    n = int(round(math.log2(MAX_UNITS) * STEPS_PER_DOUBLING))
    return [2.0 ** (k / STEPS_PER_DOUBLING) for k in range(n + 1)]


def unit_us(units: float, fob_us: float, queue_depth: int) -> float:
    """t_unit: a host write's hold on one unit, from the time per write at WAF 1 at QD₀."""
    return min(queue_depth, units) * fob_us


def shift_us(units: float, fob_us: float, queue_depth: int, at_qd: int) -> float:
    """The time per write at ``at_qd`` less that at QD₀ (``queue_depth``), in µs."""
    t = unit_us(units, fob_us, queue_depth)
    return t * (1.0 / min(at_qd, units) - 1.0 / min(queue_depth, units))


def iops_at(iops: float, units: float, fob_us: float, queue_depth: int, at_qd: int) -> float:
    """IOPS at ``at_qd`` from the IOPS at QD₀ (``iops``) at the same WAF."""
    return 1e6 / (1e6 / iops + shift_us(units, fob_us, queue_depth, at_qd))


def units_from_gc(t_cmd_us: float, t_page_us: float, queue_depth: int) -> float:
    """N_gc: the units the analytic slope says a collection's relocations spread over, with
    t_unit taken at N ≥ QD₀ (clamped to the grid; QD₀ and below when the slope is steep)."""
    fob_us = t_cmd_us + t_page_us
    if t_page_us <= 0 or fob_us <= 0:
        return float(MAX_UNITS)
    n = queue_depth * fob_us * (1.0 + gc_blocking.READ_SHARE) / t_page_us
    return min(max(n, 1.0), float(MAX_UNITS))


@dataclass
class ClosedLoopReading:
    units: float
    fob_us: float
    queue_depth: int
    units_gc: float
    units_allowed: tuple[float, float] | None
    """The least and greatest N the figures allow (None: no figure at another queue depth)."""
    residual_chi2: float = 0.0
    residuals: list[dict[str, Any]] = field(default_factory=list)
    held_out: list[dict[str, Any]] = field(default_factory=list)
    held_out_chi2: float = 0.0

    def iops_at(self, iops: float, at_qd: int) -> float:
        return iops_at(iops, self.units, self.fob_us, self.queue_depth, at_qd)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mechanism": "closed loop: QD writes in flight over N parallel units (closed_loop.py)",
            "units": self.units,
            "unit_us": unit_us(self.units, self.fob_us, self.queue_depth),
            "fob_us": self.fob_us,
            "queue_depth": self.queue_depth,
            "units_gc": self.units_gc,
            "units_allowed": list(self.units_allowed) if self.units_allowed else None,
            "residual_chi2": self.residual_chi2,
            "held_out_chi2": self.held_out_chi2,
            "residuals": self.residuals,
            "held_out": self.held_out,
        }


def _sd(p: fitmod.Point) -> float:
    return max(p.iops_rel_sd, fitmod.MIN_REL_SD)


def _errors(
    central: fitmod.Surrogate, others: list[fitmod.Point], units: float, queue_depth: int
) -> list[float]:
    fob_us = central.t_cmd_us + central.t_page_us
    return [
        math.log(iops_at(central.iops(p.extra_op_percent), units, fob_us, queue_depth,
                         p.queue_depth or queue_depth) / p.iops)  # type: ignore[operator]
        for p in others
    ]  # fmt: skip


def choose_units(
    central: fitmod.Surrogate, others: list[fitmod.Point], queue_depth: int
) -> tuple[float, tuple[float, float] | None]:
    """(N, the range of N the figures allow): N_gc without figures at another queue depth;
    else the allowed N nearest N_gc (in log)."""
    n_gc = units_from_gc(central.t_cmd_us, central.t_page_us, queue_depth)
    if not others:
        return n_gc, None
    chi2 = {
        n: sum((e / _sd(p)) ** 2 for e, p in zip(_errors(central, others, n, queue_depth), others,
                                                   strict=True))
        for n in unit_grid()
    }  # fmt: skip
    least = min(chi2.values())
    allowed = [n for n, c in chi2.items() if c <= least + DELTA_CHI2]
    best = min(allowed, key=lambda n: abs(math.log(n / n_gc)))
    return best, (min(allowed), max(allowed))


def fit(
    central: fitmod.Surrogate,
    others: list[fitmod.Point],
    queue_depth: int,
    model_rel_sd: float = 0.0,
) -> ClosedLoopReading:
    """The reading on the analytic fit ``central`` (at QD₀ = ``queue_depth``) and the IOPS
    figures at other queue depths (``others``): N chosen, the residuals there, and with two
    such figures or more each predicted from the others (N from the rest), its error scored
    with the model-form error ``model_rel_sd`` as ``evidence.py`` scores held-out figures. A
    figure alone at another queue depth is all that identifies N: nothing is left to predict
    it from (N_gc assumes the units outnumber the queue depth; it would score a drive where
    they do not on that assumption, not on its figures)."""
    others = [p for p in others if p.iops and not p.fresh]
    units, allowed = choose_units(central, others, queue_depth)
    r = ClosedLoopReading(units, central.t_cmd_us + central.t_page_us, queue_depth,
                          units_from_gc(central.t_cmd_us, central.t_page_us, queue_depth),
                          allowed)  # fmt: skip
    for e, p in zip(_errors(central, others, units, queue_depth), others, strict=True):
        r.residual_chi2 += (e / _sd(p)) ** 2
        r.residuals.append({"extra_op_percent": p.extra_op_percent, "figure": "iops",
                            "fresh": False, "queue_depth": p.queue_depth,
                            "log_error": e})  # fmt: skip
    for i, p in enumerate(others if len(others) >= 2 else []):
        n, _ = choose_units(central, others[:i] + others[i + 1 :], queue_depth)
        (e,) = _errors(central, [p], n, queue_depth)
        r.held_out_chi2 += (e / math.hypot(_sd(p), model_rel_sd)) ** 2
        r.held_out.append({"extra_op_percent": p.extra_op_percent, "figure": "iops",
                           "queue_depth": p.queue_depth, "units": n, "log_error": e})  # fmt: skip
    return r


def levels_of(other_qd: list[fitmod.Point]) -> int:
    """How many extra-OP levels the IOPS figures at another queue depth lie at."""
    return len({p.extra_op_percent for p in other_qd if p.iops and not p.fresh})


def weighs(other_qd: list[fitmod.Point]) -> bool:
    """Whether the term enters the analytic reading's evidence with these figures (:data:`WEIGH`,
    or :data:`WEIGH_FROM_LEVELS` levels of them)."""
    return ENABLED and (
        WEIGH or (WEIGH_FROM_LEVELS is not None and levels_of(other_qd) >= WEIGH_FROM_LEVELS)
    )


def assess(
    form: evidence.ReadingForm,
    points: list[fitmod.Point],
    model_rel_sd: float,
    other_qd: list[fitmod.Point],
    queue_depth: int,
) -> tuple[dict[str, Any], ClosedLoopReading | None]:
    """``evidence.assess`` of the analytic reading with the figures at other queue depths
    read through this reading when :data:`ENABLED` and :data:`WEIGH` (its residuals and
    held-out errors there added, one parameter more: N); else ``evidence.assess`` as it is
    (those figures scored with the QD₀ figure), with the reading when :data:`ENABLED` (for
    the predictions at other queue depths), None when not."""
    if not ENABLED or not other_qd:
        return evidence.assess(form, points, model_rel_sd, other_qd=other_qd), None
    if not weighs(other_qd):
        reading = fit(form.fit(points), other_qd, queue_depth, model_rel_sd)
        return evidence.assess(form, points, model_rel_sd, other_qd=other_qd), reading
    assessed = evidence.assess(form, points, model_rel_sd)
    r = fit(form.fit(points), other_qd, queue_depth, model_rel_sd)
    assessed["chi2"] += r.residual_chi2 + r.held_out_chi2
    assessed["residual_chi2"] += r.residual_chi2
    assessed["n_figures"] += len(r.residuals)
    assessed["n_parameters"] += 1
    assessed["residuals"] = [*assessed["residuals"], *r.residuals]
    assessed["held_out"] = [*assessed["held_out"], *r.held_out]
    return assessed, r


def note(
    n_figures: int, used: bool, queue_depth: int | None = None, weighed: bool | None = None
) -> str:
    """What became of ``n_figures`` figures at another queue depth (``used``: the blocking-GC
    reading fitted them; ``weighed``: the analytic reading's evidence read them through N units,
    :func:`weighs`; None: :data:`ENABLED` and :data:`WEIGH`), for the prediction's source;
    ``queue_depth``: the fit's own (QD₀)."""
    if weighed is None:
        weighed = ENABLED and WEIGH
    own = (
        f"its QD{queue_depth} one"
        if queue_depth is not None
        else "its one at the workload's queue depth"
    )
    return f"; {plural(n_figures, 'figure')} at another queue depth " + (
        "fitted by the blocking-GC reading (its dies) and by the analytic reading through N "
        "parallel units (closed_loop.py)"
        if used and weighed
        else "fitted by the blocking-GC reading alone (its dies); the analytic reading's "
        f"figure there is {own}, scored as such"
        if used
        else "not used: only the blocking-GC reading reads them, and it needs three IOPS "
        "figures under uniform random writes"
    )
