"""Typed WAF figures at two levels that d-choices victims with d = 4 link, and that a GC reserve
with a victim floor reproduces as well: no typed figure tells the two apart, so the answer says
so (:data:`WARN`, a message; the figures and the interval are left as they are).

**Why.** ``steep_pair.READ_AS_FLOOR`` reads two-level figures as a reserve with a floor only
where no victim choice more selective than d = 2 links them (``steep_pair.gentlest_alone``).
FEMU's black-box SSD in its older harness configuration (``gc_thres_pcent`` 75: a quarter of the
lines held free, the namespace three quarters of the NAND, victims at least 1/8 invalid) gives
WAF 8.00 at 0% extra OP (the floor: the data cannot fit beside the reserve) and 1.49 at 40%,
and the d-choices-4 curve from one effective spare passes through both (ρ₀ ≈ 0.077, residual χ²
0.13-0.71): the plain d = 4 reading carries weight 1.00, WAF at 10% comes out 34-37% low and
nothing changes (bench/foreign/results/status72/table.md: results/femu.json,
femu-midlevel/femu-8luns.json, femu-units/femu-16luns.json and femu-32luns-400us.json).

**Nothing in the typed figures separates them** (bench/foreign/results/femud4/DIAGNOSIS.md).
Both readings read IOPS through the same form (1/IOPS = t_cmd + WAF·t_page), so the IOPS pair
adds nothing the WAF pair does not say; the FOB is written before any garbage collection; the
QD4 figure reads the parallel units (``closed_loop.py``), whatever the victim choice. Two drives
overprov's core generates from each FEMU drive's figures with the same timing, one with a true
d-choices-4 collector on a native spare that puts its WAF at 0% on the other's, one with greedy
victims behind a reserve with a floor (``twin.reserve_collector``), give typed figures within
3.4% of each other (FOB, IOPS and WAF at 0% and 40%, QD4 at 40%), well within the figures'
noise, while the reserve drive's WAF is 1.66-1.83 times the d-4 drive's at 10% and 1.20-1.25
times at 20%; calibrate reads both with the plain d = 4 reading (weight 1.00) and calls for a
reserve reading on both. Reading such figures as a floor would put a true d = 4 drive's WAF at
10% 31-48% too high (greedy's reserve reading) where it puts FEMU's within 11%: a trade, not a
separation, so no rule was written (the brief's clause: no d = 2-style trade).

**The test** (:func:`speaks`): :data:`WARN` on, uniform writes without an onset of garbage
collection from empty, two steady levels each with a WAF figure (``reserve_hull.floor_in_waf``),
the answer's own weights (:func:`answer_links`: d-choices-4 carried at 0.1 or more, greedy and
d-choices-8 not; the surrogate weighing below depends on which figures beside the WAF pair it
weighs, e.g. the FOB, where the answer's is the one the user reads: on MQSim's fresh-2chips and
patched cases the answer weighs d-choices-8 at 0.77-0.79, so nothing is said there), the
effective-spare readings weighed as ``steep_pair.gentlest_alone`` weighs them
(``steep_pair.plain_evidences``, ``evidence.weights_of``) keeping d-choices-4 within
``evidence.SPAN_MIN_WEIGHT`` of the largest weight and leaving greedy and d-choices-8 below it
(only d = 4, or d = 4 and d = 2, link the levels: disjoint from ``gentlest_alone``, whose
figures ``steep_pair.READ_AS_FLOOR`` reads) with its reading reproducing them (so
``reserve_hull.NONE_LINKS`` does not read them as a reserve either), and a reserve reading of
a selective design (``steep_pair.SELECTIVE_DESIGNS`` other than d = 4: greedy or d-choices-8,
without an onset, ``reserve_hull.form_of``) called for by the figures
(``gc_reserve.ReserveForm.called_for``: a floor at the lower level that reproduces every
figure). Where it holds, the prediction's source carries :data:`WARNING` (``answer.predict``):
what the figures cannot tell, and no direction the answer's error takes (on MQSim's patched
case, where the surrogate test alone spoke, WAF at 10% lies 2% below the answer). Where it
speaks over the scoreboard's 72 stored truths (their stored answers' weights):
bench/foreign/results/femud4/fires.txt (the four FEMU drives).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from overprov.calibrate import (
    distance_term,
    evidence,
    reserve_hull,
    steep_pair,
    uncertainty,
    workload_curve,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import Prediction
from overprov.calibrate.reserve_twin_check import onset_from_empty
from overprov.errors import ConfigError

#: Where :func:`speaks`, the answer carries :data:`WARNING` (a message; figures unchanged).
#: Off: the answer is as before.
WARN = True
#: The design whose effective-spare reading links the figures as a reserve with a floor does.
LINKING_DESIGN = "d-choices-4"
#: The victim choices more selective than it (greedy, d-choices-8: ``steep_pair.SELECTIVE_DESIGNS``
#: but it).
STRICTER_DESIGNS = tuple(d for d in steep_pair.SELECTIVE_DESIGNS if d != LINKING_DESIGN)
#: What the answer says where :func:`speaks`.
WARNING = (
    "warning: the figures at two levels cannot tell d-choices victims with d = 4 from a GC "
    "reserve with a victim floor: this answer reads them by d = 4, weighing no more selective "
    "victim choice, and a reserve reading reproduces them as well (drives generated with each "
    "give the same typed figures within 3.4%); the figures cannot tell which the drive holds, "
    "and the two part between the levels (on drives generated from FEMU's figures the "
    "reserve's WAF at 10% extra OP is 1.66-1.83 times the d = 4 drive's), so WAF at 10-20% "
    "extra OP may lie outside this answer's interval; a WAF figure at 10% or 20% extra OP "
    "would tell them apart (floor_or_choices.py)"
)


def choices_link(points: list[fitmod.Point], cv_sd: float) -> bool:
    """Whether the effective-spare readings of the uniform designs, weighed as
    ``steep_pair.gentlest_alone`` weighs them, keep :data:`LINKING_DESIGN` within
    ``evidence.SPAN_MIN_WEIGHT`` of the largest weight and leave every more selective design
    below it (greedy, d-choices-8), and its reading reproduces them within their noise
    (``evidence.reproduced``; so ``reserve_hull.none_links`` does not hold and the plain readings
    answer): d = 4 is the most selective victim choice that links them."""
    evidences = steep_pair.plain_evidences(points, cv_sd)
    if evidences is None:
        return False  # a reading the figures cannot fit: not two levels with WAF
    w = evidence.weights_of(evidences)
    top = max(w.values())
    cut = evidence.SPAN_MIN_WEIGHT * top
    return (
        top > 0
        and w[LINKING_DESIGN] >= cut
        and all(w[d] < cut for d in STRICTER_DESIGNS)
        and evidence.reproduced(evidences[LINKING_DESIGN], untested=False)
    )


def floor_reproduces(points: list[fitmod.Point], cv_sd: float) -> bool:
    """Whether a reserve reading of greedy or d-choices-8 (no onset: ``reserve_hull.form_of``)
    is called for by the figures and reproduces them (:func:`reserve_called_for`)."""
    return reserve_called_for(points, cv_sd, STRICTER_DESIGNS)


def reserve_called_for(points: list[fitmod.Point], cv_sd: float, designs: Iterable[str]) -> bool:
    """Whether a reserve reading of one of ``designs`` (no onset: ``reserve_hull.form_of``) is
    called for by ``points`` (``gc_reserve.ReserveForm.called_for``: a floor at the lower level
    that reproduces every figure); a form that cannot fit them is not (a message never refuses
    an answer)."""
    for design in designs:
        try:
            if reserve_hull.form_of(design, cv_sd).called_for(points):
                return True
        except ConfigError:
            continue
    return False


def answer_links(weights: Mapping[str, float]) -> bool:
    """Whether the answer's own weights (summed per GC design, :func:`design_weights`) carry
    :data:`LINKING_DESIGN` and no more selective design (greedy, d-choices-8) at
    ``distance_term.CARRY_WEIGHT`` (0.1) or more: the answer reads the figures by d = 4 and by
    no victim choice more selective."""
    carried = {d for d, w in weights.items() if w >= distance_term.CARRY_WEIGHT}
    return LINKING_DESIGN in carried and not carried.intersection(STRICTER_DESIGNS)


def design_weights(pred: Prediction) -> dict[str, float]:
    """The weights the answer ``pred`` combines its readings with, summed per GC design (the
    effective and the raw spare reading of one design together); {} for a prediction of one
    reading (its design not named)."""
    out: dict[str, float] = {}
    for r in pred.readings or []:
        out[r.design] = out.get(r.design, 0.0) + (1.0 if r.weight is None else r.weight)
    return out


def speaks(fig: predmod.PredictionInput, weights: Mapping[str, float]) -> bool:
    """:data:`WARN` on, uniform writes, no onset of garbage collection from empty, two steady
    levels each with a WAF figure, :func:`answer_links` on the answer's ``weights``
    (:func:`design_weights`), :func:`choices_link` and :func:`floor_reproduces` (module doc; the
    dearest test last)."""
    if not (WARN and fig.typed and reserve_hull.floor_in_waf(fig.points)):
        return False
    if not workload_curve.is_uniform(fig.workload) or onset_from_empty(fig.measurement) is not None:
        return False
    if not answer_links(weights):
        return False
    cv_sd = uncertainty.weighing_rel_sd(fig.model_form)
    return choices_link(fig.points, cv_sd) and floor_reproduces(fig.points, cv_sd)


def warning(fig: predmod.PredictionInput, pred: Prediction) -> str:
    """:data:`WARNING` as a clause of the prediction's source where :func:`speaks` on ``pred``'s
    weights; else ""."""
    return f"; {WARNING}" if speaks(fig, design_weights(pred)) else ""
