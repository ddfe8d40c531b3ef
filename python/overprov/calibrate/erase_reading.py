"""The erase-cost form offered as a reading of typed figures, weighed by the evidence with the
plain ones (:data:`OFFERED`: adopted by bench/foreign/results/erasegreedy/RULE-2.md, off again
since bench/foreign/results/erasecheck/RULE.md).

**Why.** The erase-cost form (``erase_cost.py``: FOB read as t_cmd + t_page − t_erase, t_erase
≥ 0 FOB's gap below the steady line) met every target on fresh NVMeVirt drives with costly
erases but, applied to every fit, moved held-out figures elsewhere (MQSim's IOPS at 10%
11.3 → 20.4%; bench/foreign/results/erasecost/verdict.md). Its verdict named the next step: the
form offered beside the plain one, so that it acts only where the figures call for it.

**What.** With :data:`OFFERED`, typed figures (``spare_readings.read_all``) are first read
every way they are read without it. When none of those readings reproduces its fitted figures
(``evidence.reproduces``: the plain form is refuted under every spare reading and GC design)
and a FOB figure is among the points, each reading is offered an erase-cost twin
(``TwinReading.erase``): the same spare reading and GC design, fitted with the erase-cost form
(:func:`fitting`), kept when its fit reads a positive t_erase (otherwise it is the plain reading
to the bit). The twins are weighed with the plain readings in their spare class by
``evidence.weights`` (their χ², and whether each reproduces its fitted figures: t_erase counts
as one more fitted parameter, :func:`assess`), so an erase-cost twin takes the weight where it
reproduces the figures the plain readings miss, and where the plain form reproduces them
nothing is offered and the prediction is the one without this module, figure for figure.
With :data:`WHEN_IMPLIED_FAILS` the twins are offered also where a plain reading reproduces but
not the reading of the GC design the figures' WAF implies (:func:`implied_design`): on NVMeVirt
drive N a d-choices-4 reading reproduced by trading a 6% WAF miss for its IOPS while the WAF
figures have greedy's shape, and shut out the twins that fit them
(bench/foreign/results/nvmen/DIAGNOSIS.md).

The gate (no plain reading reproduces) is the rule's reading of "where the figures call for
it": with the form offered beside a plain reading that reproduces, its one more parameter fits
FOB exactly and the likelihood (which has no charge for a parameter) would prefer it wherever
FOB lies above the line at all — the case where the form everywhere harmed MQSim and FEMU.

Adopted after three rules, then turned off by a fourth. Weighed first and not adopted
(bench/foreign/results/erasereading/verdict.md; docs/calibrate-validation.md, "The erase-cost
form offered as a reading, weighed by the evidence"): on a fresh costly-erase NVMeVirt drive (J)
it met every target the plain readings missed, and no held-out figure got worse anywhere (every
stored case identical), but the second (K) is refused before any reading is offered, by
calibrate's plausibility gate on the plain greedy fit (``plausibility.fit_misses_its_points``).
With the gate passing figures an erase-cost fit explains (:data:`AT_THE_GATE`, :func:`explains`)
it was weighed again (bench/foreign/results/erasegate/verdict.md): fresh M met, K answered within
the targets, no harm, but fresh N missed its WAF target by its plain reading, on and off.
With :data:`WHEN_IMPLIED_FAILS` (bench/foreign/results/erasegreedy/verdict.md): read as
greedy where no design is implied it harmed IOPS-only cases of J and N (not adopted); with no
design implied without WAF, fresh R, S, T met every target of the plan case and no harm held
over 21 cases: **adopted**, both flags on (bench/foreign/results/erasegreedy/RULE-2.md). Checked
at a measured plan's 2% spread a figure (bench/foreign/results/erasecheck/verdict.md):
on generated GC-reserve drive R6 :data:`OFFERED` moved the weight from d-choices-2 to
greedy+erase and a held-out IOPS error grew by more than a point, so both flags were turned
off. With :data:`WITHOUT_FLOOR` (no twin where no uniform design reads the WAF figures with one
native spare: a GC-reserve floor, MQSim) fresh U and V met every target at 5% and 2%, and
erasecheck's 11 cases and erasegate's 21 showed no harm
(bench/foreign/results/erasefloor/verdict.md): **all three on**. With :data:`WITHOUT_HIGH_WAF`
(off: no twin where a steady WAF figure is above 9, MQSim's retried drives) weighed under
bench/foreign/results/eraseall/RULE.md."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from typing import Any

from overprov.calibrate import erase_cost, evidence, gc_designs, plausibility
from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError

#: Offer an erase-cost twin beside each reading where no plain reading reproduces its fitted
#: figures (module doc), and the gate's hook (:data:`AT_THE_GATE`). On by
#: bench/foreign/results/erasegreedy/RULE-2.md, off again by
#: bench/foreign/results/erasecheck/RULE.md (harm at a 2% spread a figure), on again with
#: :data:`WITHOUT_FLOOR` by bench/foreign/results/erasefloor/RULE.md; off, typed figures are
#: read as before.
OFFERED = True
#: With :data:`OFFERED`: calibrate's plausibility gate (``plausibility.fit_misses_its_points``)
#: passes figures with FOB whose plain fit misses them when an erase-cost fit explains them
#: (:func:`explains`); off, it refuses on the plain fit alone, before any reading is offered
#: (drive K, bench/foreign/results/erasereading/verdict.md). Weighed under
#: bench/foreign/results/erasegate/RULE.md.
AT_THE_GATE = True
#: With :data:`OFFERED`: offer the erase-cost twins also where the plain reading of the GC
#: design the figures' WAF implies (:func:`implied_design`; none without WAF figures at two
#: levels) does not reproduce its fitted figures, though another plain reading does (drive
#: N: d-choices-4 reproduced, trading a 6% WAF miss for its IOPS, and shut the twins out;
#: bench/foreign/results/nvmen/DIAGNOSIS.md). Off: only where none reproduces. Weighed under
#: bench/foreign/results/erasegreedy/RULE.md (not adopted: with greedy implied without WAF,
#: IOPS-only cases were harmed) and bench/foreign/results/erasegreedy/RULE-2.md (none
#: implied without WAF: adopted, on); off with :data:`OFFERED` by
#: bench/foreign/results/erasecheck/RULE.md; on again by bench/foreign/results/erasefloor/RULE.md.
WHEN_IMPLIED_FAILS = True
#: With :data:`OFFERED`: offer nothing (no twin, no pass at the gate's hook) where the WAF
#: figures at two levels or more are read by no uniform GC design with one native spare: the
#: smallest spread of the native spare each WAF implies (:func:`shape_spread`) above
#: :data:`SHAPE_SPREAD_MAX`. A GC-reserve floor (generated drives R6, R7, R8: 9.8–35 points)
#: and MQSim's WAFs (1.6 points) are such figures; every NVMeVirt erase drive seen reads
#: within 0.4 points (bench/foreign/results/erasefloor/DIAGNOSIS.md). There the twins' one
#: more parameter fitted a misfit that is not an erase cost and harmed held-out figures
#: (bench/foreign/results/erasecheck/verdict.md). Off: as without it. Adopted (on, with
#: :data:`OFFERED` and :data:`WHEN_IMPLIED_FAILS`) by bench/foreign/results/erasefloor/RULE.md.
WITHOUT_FLOOR = True
#: :data:`WITHOUT_FLOOR`'s bound on the implied native spare's spread (a fraction: 1 point).
SHAPE_SPREAD_MAX = 0.01
#: With :data:`OFFERED`: offer nothing (no twin, no pass at the gate's hook) also where a
#: steady WAF figure lies above :data:`STEADY_WAF_MAX` (:func:`high_waf_in_figures`). MQSim's
#: retried drives the twins read (eleven seen, 7% native spare: WAF 10.1–19.3 at 0%) pass
#: :data:`WITHOUT_FLOOR`'s 1-point bound, and there the twin's t_erase (0.5–1.4 of the
#: program time a page, against MQSim's 0.16–0.32) carried a misfit that is not an erase
#: cost; the NVMeVirt erase drives (16 seen: 5.1–8.1 at 0%) and WiscSim F, G (3.6, 4.0) keep
#: their twins (bench/foreign/results/eraseall/DIAGNOSIS.md). Off: as without it. Weighed
#: under bench/foreign/results/eraseall/RULE.md.
WITHOUT_HIGH_WAF = False
#: :data:`WITHOUT_HIGH_WAF`'s bound: between the seen NVMeVirt erase drives' largest 0% WAF
#: (8.06, drive Q) and the seen twin-read MQSim drives' smallest (10.19, u640x16).
STEADY_WAF_MAX = 9.0
#: The suffix of an erase-cost twin's design in its reading's name (``prediction.json``).
SUFFIX = "+erase"


@contextlib.contextmanager
def fitting(erase: bool = True) -> Iterator[None]:
    """Fits inside read FOB by the erase-cost form (``erase_cost.ENABLED``, wherever it
    applies) when ``erase``; the flags as they were afterwards."""
    if not erase:
        yield
        return
    was = erase_cost.ENABLED, erase_cost.ONLY_WITH_WAF
    erase_cost.ENABLED, erase_cost.ONLY_WITH_WAF = True, False
    try:
        yield
    finally:
        erase_cost.ENABLED, erase_cost.ONLY_WITH_WAF = was


@dataclasses.dataclass(frozen=True)
class EraseForm(evidence.ReadingForm):
    """A reading's form fitted with the erase-cost form (``evidence.assess`` fits it)."""

    def fit(self, points: list[fitmod.Point]) -> fitmod.Surrogate:
        with fitting():
            return super().fit(points)


def erase_form(form: evidence.ReadingForm) -> EraseForm:
    """The erase-cost form of a reading's form: its curve, spare and k as they are."""
    return EraseForm(form.curve, form.native_op, form.fit_efficiency)


def assess(
    form: EraseForm, points: list[fitmod.Point], cv_sd: float
) -> tuple[dict[str, Any], float]:
    """(evidence, t_erase µs): ``evidence.assess`` of the erase-cost form, t_erase counted as a
    fitted parameter where the central fit reads one."""
    ev = evidence.assess(form, points, cv_sd)
    t_erase = form.fit(points).erase_us_per_page
    if t_erase > 0:
        ev["n_parameters"] += 1
    return ev, t_erase


def has_fob_figure(points: list[fitmod.Point]) -> bool:
    """Whether a fresh-out-of-box IOPS figure is among the points: what the erase-cost form
    reads t_erase from."""
    return any(p.fresh and p.iops for p in points)


def _steady_wafs(points: list[fitmod.Point]) -> list[fitmod.Point]:
    """The points with a steady (not fresh-out-of-box) WAF figure."""
    return [p for p in points if p.has_steady_waf]


def _spreads(curves: dict[str, fitmod.WafCurve], points: list[fitmod.Point]) -> dict[str, float]:
    """Each design's spread of the native spare its curve implies at each steady WAF figure's
    level (:func:`implied_design`); {} with fewer than two levels with a WAF figure."""
    wafs = {p.extra_op_percent: p.waf for p in _steady_wafs(points)}
    if len(wafs) < 2:
        return {}

    def spread(curve: fitmod.WafCurve) -> float:
        rho0 = [fitmod.native_op_for(fitmod.rho_for_waf(w, curve), x) for x, w in wafs.items()]
        return max(rho0) - min(rho0)

    return {d: spread(c) for d, c in curves.items()}


def shape_spread(
    points: list[fitmod.Point], curves: dict[str, fitmod.WafCurve] | None = None
) -> float | None:
    """The smallest spread over the GC designs (``curves``; the uniform designs' own curves
    when None) of the native spare each steady WAF figure implies: small where one design reads
    the WAF figures with one spare; None with fewer than two levels with a WAF figure."""
    return _least(_spreads(_curves_or_uniform(curves), points))


def _curves_or_uniform(
    curves: dict[str, fitmod.WafCurve] | None,
) -> dict[str, fitmod.WafCurve]:
    """``curves``, or the uniform designs' own curves when None."""
    if curves is None:
        return {d: gc_designs.waf_curve(d) for d in gc_designs.UNIFORM_DESIGNS}
    return curves


def _least(spreads: dict[str, float]) -> float | None:
    """The smallest of the designs' spreads (:func:`_spreads`); None without any."""
    return min(spreads.values()) if spreads else None


def _floor_in(spreads: dict[str, float]) -> bool:
    """:func:`floor_in_figures` read from the designs' spreads (:func:`_spreads`)."""
    spread = _least(spreads)
    return spread is not None and spread > SHAPE_SPREAD_MAX


def floor_in_figures(
    points: list[fitmod.Point], curves: dict[str, fitmod.WafCurve] | None = None
) -> bool:
    """With :data:`WITHOUT_FLOOR`: the WAF figures are read by no uniform design with one
    native spare (:func:`shape_spread` above :data:`SHAPE_SPREAD_MAX`); False without it or
    without WAF figures at two levels."""
    return WITHOUT_FLOOR and _floor_in(_spreads(_curves_or_uniform(curves), points))


def high_waf_in_figures(points: list[fitmod.Point]) -> bool:
    """With :data:`WITHOUT_HIGH_WAF`: a steady WAF figure above :data:`STEADY_WAF_MAX`; False
    without it or without a steady WAF figure."""
    wafs = [p.waf for p in _steady_wafs(points)]
    return WITHOUT_HIGH_WAF and bool(wafs) and max(wafs) > STEADY_WAF_MAX


def implied_design(curves: dict[str, fitmod.WafCurve], points: list[fitmod.Point]) -> str | None:
    """The GC design (a key of ``curves``, each design's WAF curve) whose curve reads the
    figures' steady WAFs with one native spare: the smallest spread of the native spare each
    WAF implies (ρ₀ = (1 + ρ)(1 − x) − 1, ρ the curve's spare at that WAF; a curve of the
    drive's shape implies one ρ₀ at every level, bench/foreign/results/nvmen/DIAGNOSIS.md §1).
    None when fewer than two levels have a WAF figure: the figures imply no design (read as
    greedy, the harm of bench/foreign/results/erasegreedy/verdict.md: IOPS-only figures of J
    and N). Greedy when it ties; otherwise the first design of the fewest."""
    return _implied_in(_spreads(curves, points))


def _implied_in(spreads: dict[str, float]) -> str | None:
    """:func:`implied_design` read from the designs' spreads (:func:`_spreads`)."""
    best = _least(spreads)
    if best is None:
        return None
    return "greedy" if spreads.get("greedy") == best else min(spreads, key=lambda d: spreads[d])


def _reading_fails(evidences: dict[Any, dict[str, Any]], design: str | None) -> bool:
    """No plain reading of ``design`` (either spare, no reserve) reproduces its fitted figures;
    False when there is none of it (or no design)."""
    plain = [
        e
        for r, e in evidences.items()
        if getattr(r, "design", None) == design
        and not getattr(r, "erase", False)
        and getattr(r, "reserve", None) is None
    ]
    return bool(plain) and not any(evidence.reproduced(e, untested=False) for e in plain)


def called_for(
    evidences: dict[Any, dict[str, Any]],
    points: list[fitmod.Point],
    curves: dict[str, fitmod.WafCurve] | None = None,
) -> bool:
    """Whether the figures call for the form: :data:`OFFERED`, a FOB figure among the points,
    and no reading reproduces its fitted figures; with :data:`WHEN_IMPLIED_FAILS`, also when
    no plain reading of the design the WAF figures imply (:func:`implied_design` over
    ``curves``, each design's WAF curve) does; never, with :data:`WITHOUT_FLOOR`, where no
    design reads the WAF figures with one spare (:func:`floor_in_figures`), nor, with
    :data:`WITHOUT_HIGH_WAF`, where a WAF figure is high (:func:`high_waf_in_figures`)."""
    if not OFFERED or not evidences or not has_fob_figure(points):
        return False
    # each design's spread over ``curves``, read once for both tests (the floor's over the
    # uniform designs' own curves where ``curves`` is empty; then no design is implied)
    spreads = _spreads(curves, points) if curves and (WITHOUT_FLOOR or WHEN_IMPLIED_FAILS) else {}
    floor = WITHOUT_FLOOR and _floor_in(
        spreads if curves else _spreads(_curves_or_uniform(None), points)
    )
    if floor or high_waf_in_figures(points):
        return False
    if not any(evidence.reproduced(e, untested=False) for e in evidences.values()):
        return True
    return WHEN_IMPLIED_FAILS and _reading_fails(evidences, _implied_in(spreads))


def twins(
    forms: dict[Any, evidence.ReadingForm],
    evidences: dict[Any, dict[str, Any]],
    points: list[fitmod.Point],
    cv_sd: float,
) -> dict[Any, dict[str, Any]]:
    """The erase-cost twin of each plain reading (``forms``, ``evidences``: the spare readings'
    own) and its evidence, where the figures call for them (:func:`called_for`, with each
    design's WAF curve from ``forms``) and its fit
    reads a positive t_erase; {} otherwise. A reserve reading (its own fit) has none."""
    curves = {r.design: f.curve for r, f in forms.items() if getattr(r, "reserve", None) is None}
    if not called_for(evidences, points, curves):
        return {}
    out = {}
    for r, form in forms.items():
        if r not in evidences or getattr(r, "reserve", None) is not None:
            continue
        try:
            ev, t_erase = assess(erase_form(form), points, cv_sd)
        except ConfigError:
            continue
        if t_erase > 0:
            out[dataclasses.replace(r, erase=True)] = ev
    return out


def design_name(r: Any) -> str:
    """A reading's design as its name in ``prediction.json`` gives it: an erase-cost twin's
    with :data:`SUFFIX`."""
    return r.design + SUFFIX if getattr(r, "erase", False) else r.design


def explains(points: list[fitmod.Point]) -> bool:
    """With :data:`OFFERED` and :data:`AT_THE_GATE` on, figures with a FOB figure whose greedy
    fit by the erase-cost form (:func:`fitting`) reads a positive t_erase and misses none of
    them by more than ``plausibility.FIT_ERROR_MAX`` (``plausibility.surrogate_misses_its_points``,
    the gate's own test)."""
    if not (OFFERED and AT_THE_GATE and has_fob_figure(points)):
        return False
    if floor_in_figures(points) or high_waf_in_figures(points):
        return False
    try:
        with fitting():
            surrogate = fitmod.fit(points)
    except ConfigError:
        return False
    return (
        surrogate.erase_us_per_page > 0
        and plausibility.surrogate_misses_its_points(surrogate, points) is None
    )


plausibility.ERASE_COST_EXPLAINS = explains  # the gate's hook (plausibility.py)
