"""Typed WAF figures at two levels that only the gentlest victim choice links, read as a GC
reserve with a victim floor (:data:`READ_AS_FLOOR`: on with femucarry's other five flags and
``mixture_centre.ON`` since bench/foreign/results/femumedian/verdict.md; alone not met, below).

**Why.** Typed figures (IOPS and WAF at 0% and 40%, the FOB, an IOPS figure at QD4) have no
onset of garbage collection from empty, so the reserve reading (``gc_reserve.py``) is not
offered to them (``reserve_reading.py`` offers it on a measured onset only) and they are read
with one effective spare per uniform GC design (``spare_readings.read_all``). On FEMU's
black-box SSD, whose reserve binds and whose victim floor holds WAF at 8, that reading misses
WAF at 10% by −34 to −50% (bench/foreign/results/scoreboard/cases-final.md). Two levels cannot
tell a floor from a gentler curve: holding out a level leaves no floor to predict it, so the
leave-one-out, the only term that weighs designs, is blind to it
(bench/intervals/hullgate/DIAGNOSIS.md), and FEMU's and MQSim's figures at 0% and 40% agree
within 4% while their WAF at 10% differs by 30-60%
(bench/foreign/results/femutyped/DIAGNOSIS.md). What the figures do show: how steeply WAF falls
from the lowest level to the other. A reserve that holds its floor past the lowest level and
then gives way makes that fall steeper than any victim choice at least as selective as d-choices
with d = 4 gives from one spare; only d = 2 (the gentlest, most spare-sensitive curve of
``gc_designs.D_GRID``) or none links them, and the evidence puts the plain readings' weight
there alone.

**The test** (:func:`fires`): with :data:`READ_AS_FLOOR`, two steady levels each with a WAF
figure (``reserve_hull.floor_in_waf``), and the effective-spare readings weighed as
``spare_readings`` weighs them leaving every design of :data:`SELECTIVE_DESIGNS` below
``evidence.SPAN_MIN_WEIGHT`` of the largest weight (:func:`gentlest_alone`). Where it
fires and a reserve reading of a uniform design is called for
(``gc_reserve.ReserveForm.called_for``, no onset: its spare fitted to the figures,
``reserve_hull.form_of``), the reserve readings replace the effective-spare ones
(``spare_readings.weigh``), weighed among themselves by ``evidence.weights``, and the fit's
plausibility gate passes figures one of them explains (``reserve_hull.explains``). Elsewhere
nothing changes. Picked on the seen scoreboard cases
(bench/foreign/results/femutyped/DIAGNOSIS.md) and judged under
bench/foreign/results/femutyped/RULE.md: **not met**, so off
(bench/foreign/results/femutyped/verdict.md). On the 72 scoreboard truths it changes only three
seen FEMU cases, each to both targets met; of three fresh FEMU drives one is answered (WAF +8% at
20%) and two are refused: among the reserve readings the leave-one-out picks the gentlest design
called for, whose twin misses the 0% floor and is set aside, and the others were not simulated.
Going on to the next reserve reading by weight there (``reserve_next.NEXT_READING``, off) was
judged with it under bench/foreign/results/femunext/RULE.md: **not met** (greedy's reserve
reading answers and misses WAF at 20% by +9 to +18% on fresh drives). Why greedy's takes the
weight (the 0% level held out leaves a fit without a floor:
bench/foreign/results/femuweight/DIAGNOSIS.md), and weighing like for like instead
(``reserve_held_out.SAME_FORM_ONLY``, on since femumedian's verdict): **not met** — the
non-greedy reserve twins miss the 0% floor and are set aside
(bench/foreign/results/femuweight/verdict.md).

**Say so instead** (:data:`HULL_WHERE_AMBIGUOUS`, off; :func:`ambiguous`): where the same test
fires and a reserve reading is called for, the reserve readings are offered BESIDE the
effective-spare ones (``reserve_hull.beside_where_ambiguous``), weighed with them as one class
so the centre stays the evidence's; the interval spans every reading that reproduces its fitted
figures (``reserve_hull.hull``), the plausibility gate is left as it is, and the prediction's
source carries :data:`WARNING` (``reserve_hull.ambiguity_warning``), which calibrate prints.
Judged under bench/foreign/results/steephull/RULE.md: **not met** (the pooled coverage over 90%),
so off. **With :data:`READ_AS_FLOOR` on** (the default since femumedian's verdict) the flag reads
the figures differently, as nothing is left beside the reserve readings to span: the reserve
readings still replace the effective-spare ones in the weighing (the centre stays theirs), and
the effective-spare readings they replaced that reproduce the figures are kept beside them with
no weight (``reserve_hull.spanned_beside``) and spanned by the interval (``reserve_hull.hull``);
the answer carries :data:`WARNING_SPANNED` where one of them was simulated, else
:data:`WARNING_AS_FLOOR` as without the flag. On the d-choices-2 drive of
tests/calibrate/test_gc_designs.py its WAF band at 10% is 2.86-13.09 for a truth of 4.79
(12.43-13.09 without). Judged with ``conformal_scale.ON`` under
bench/foreign/results/narrowsix/RULE.md: **not met** (the 72 and five fresh truths pooled 90.5%
inside, over the 90% ceiling; bench/foreign/results/narrowsix/verdict.md), so off.

**Say so, and only say so** (:data:`WARN_WHERE_AMBIGUOUS`, on): where the same test fires and a
reserve reading of a uniform design is called for (:func:`warns`), the answer's figures and
interval are left as they are and its source carries :data:`WARNING_ALONE`, which calibrate
prints: the levels between may lie far from the answer and outside its interval. A message, not
a figure, so no rule judged it. Where it speaks on the stored foreign truths
(bench/foreign/results/steephull/fires.txt, the same test): FEMU 6 × 240 and 11 × 290 of the
scoreboard's 72 (33 × 82 is refused before any reading) and the five fresh FEMU drives of
femutyped and steephull — each a drive whose WAF calibrate puts about half too low at 10%
(−49.9% to −50.8%) and 18–57% too low at 20% (bench/foreign/results/steephull/off/) — and on no
other (one MQSim and three NVMeVirt cases pass the first test, but no reserve reading is called
for there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from overprov.calibrate import evidence, gc_designs
from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError

#: Read typed two-level figures only the gentlest victim choice links as a GC reserve with a
#: victim floor (module doc). On with femucarry's other five flags and ``mixture_centre.ON``
#: since bench/foreign/results/femumedian/verdict.md (their rule met together; alone not met).
#: Off: typed figures are read as before.
READ_AS_FLOOR = True
#: Where :func:`gentlest_alone` fires on typed two-level figures with WAF, offer the reserve
#: readings called for BESIDE the plain ones (the centre stays the evidence's), span the
#: interval over every reading that reproduces the figures (``reserve_hull.hull``; not the
#: plausibility gate: ``reserve_hull.AT_THE_GATE`` untouched) and say so (:data:`WARNING`).
#: Off: typed figures are read as before (bench/foreign/results/steephull/RULE.md). With
#: :data:`READ_AS_FLOOR` on: the plain readings it replaced that reproduce the figures are
#: spanned beside the reserve ones with no weight (module doc; not met with the scale:
#: bench/foreign/results/narrowsix/verdict.md).
HULL_WHERE_AMBIGUOUS = False
#: The clause each warning below ends with: what would tell the two apart, and what calibrate
#: does with it (typed beside 0% and 40%, IOPS and WAF at 20% are read with the reserve reading
#: offered, ``three_levels.ON``: bench/foreign/results/level3/verdict.md; refused before it,
#: bench/foreign/results/midlevel/verdict.md).
TELLS_APART = (
    "a WAF figure at 10% or 20% extra OP would tell them apart: typed with IOPS and WAF at 20% "
    "too, calibrate reads the three levels (three_levels.py; on 9 FEMU drives so typed, WAF "
    "within 4% at every level) (steep_pair.py)"
)
#: What the answer says where :data:`HULL_WHERE_AMBIGUOUS` reads the figures (with
#: :data:`READ_AS_FLOOR` off; with it on, :data:`WARNING_SPANNED`).
WARNING = (
    "warning: the figures at two levels cannot tell a GC reserve's victim floor from a gentle "
    "victim choice (only d-choices with d = 2 links them), so the interval spans the readings "
    "of both that reproduce them; " + TELLS_APART
)
#: Where :func:`warns`: the answer carries :data:`WARNING_ALONE` (a message; figures unchanged).
WARN_WHERE_AMBIGUOUS = True
#: What the answer says where :data:`WARN_WHERE_AMBIGUOUS` speaks.
WARNING_ALONE = (
    "warning: the figures at two levels cannot tell a GC reserve's victim floor from a gentle "
    "victim choice (no victim choice more selective than d-choices with d = 2 links them, and a "
    "reserve with a floor reproduces them too), so the levels between may lie far from this "
    "answer and outside its interval "
    "(on FEMU's black-box SSD such figures put WAF at 10% extra OP half too low); " + TELLS_APART
)
#: What the answer says where :data:`READ_AS_FLOOR` read the figures as a reserve (:func:`fires`,
#: ``reserve_hull.ambiguity_warning``): the other reading is still there; a drive whose victim
#: choice is gentle (d-choices with d = 2, generated by overprov's core: tests/calibrate/
#: test_gc_designs.py) is put at 2.7 times its WAF at 10% by it.
WARNING_AS_FLOOR = (
    "warning: the figures at two levels cannot tell a GC reserve's victim floor from a gentle "
    "victim choice (no victim choice more selective than d-choices with d = 2 links them); they "
    "are read as a reserve with a floor, as FEMU's black-box SSD gives them; if the drive's "
    "victim choice is gentle instead, WAF at 10-20% extra OP lies far below this answer and "
    "outside its interval (a d = 2 drive: 2.7 times too high at 10%); " + TELLS_APART
)
#: What the answer says where :data:`READ_AS_FLOOR` read the figures as a reserve and
#: :data:`HULL_WHERE_AMBIGUOUS` spans the effective-spare readings it replaced that reproduce
#: them (``reserve_hull.spanned_beside``; said only where one of them was simulated and spanned).
WARNING_SPANNED = (
    "warning: the figures at two levels cannot tell a GC reserve's victim floor from a gentle "
    "victim choice (no victim choice more selective than d-choices with d = 2 links them); the "
    "figures are read as a reserve with a floor, as FEMU's black-box SSD gives them, and the "
    "interval also spans the gentle victim choice's readings that reproduce them, so at 10-20% "
    "extra OP it reaches from the floor's WAF down to the gentle curve's; " + TELLS_APART
)
#: The designs whose effective-spare reading, where one reproduces the figures, keeps them
#: plain: greedy and d-choices with d of at least 4 (``gc_designs.UNIFORM_DESIGNS``).
SELECTIVE_DESIGNS = ("greedy", "d-choices-8", "d-choices-4")


def plain_evidences(points: list[fitmod.Point], cv_sd: float) -> dict[str, dict[str, Any]] | None:
    """Each uniform design's effective-spare reading of ``points`` assessed (``evidence.assess``
    with ``cv_sd``), by design; None where a design's reading cannot fit them (not two levels
    with WAF)."""
    evidences = {}
    for design in gc_designs.UNIFORM_DESIGNS:
        form = evidence.ReadingForm(gc_designs.waf_curve(design), None, False)
        try:
            evidences[design] = evidence.assess(form, points, cv_sd)
        except ConfigError:
            return None
    return evidences


def gentlest_alone(points: list[fitmod.Point], cv_sd: float) -> bool:
    """Whether the effective-spare readings of the uniform designs, weighed as
    ``spare_readings.class_weights`` weighs them (``evidence.assess`` with ``cv_sd`` the
    model-form error of a held-out prediction, ``evidence.weights_of``; not regrouped by
    ``evidence.WAF_WEIGHTS``, on since wisctiming: the test is kept as its rules judged it,
    on the χ² of every figure), leave every design of
    :data:`SELECTIVE_DESIGNS` below ``evidence.SPAN_MIN_WEIGHT`` of the largest weight:
    only the gentlest victim choice links the figures, or none does (:func:`plain_evidences`)."""
    evidences = plain_evidences(points, cv_sd)
    if evidences is None:
        return False  # a reading the figures cannot fit: not two levels with WAF
    w = evidence.weights_of(evidences)
    top = max(w.values())
    return top > 0 and all(w[d] < evidence.SPAN_MIN_WEIGHT * top for d in SELECTIVE_DESIGNS)


def ambiguous(points: list[fitmod.Point], cv_sd: float, two_levels_with_waf: bool) -> bool:
    """:data:`HULL_WHERE_AMBIGUOUS` on, two steady levels each with a WAF figure
    (``two_levels_with_waf``: ``reserve_hull.floor_in_waf``), and :func:`gentlest_alone`."""
    return HULL_WHERE_AMBIGUOUS and two_levels_with_waf and gentlest_alone(points, cv_sd)


def fires(points: list[fitmod.Point], cv_sd: float, two_levels_with_waf: bool) -> bool:
    """:data:`READ_AS_FLOOR` on, two steady levels each with a WAF figure
    (``two_levels_with_waf``: ``reserve_hull.floor_in_waf``), and :func:`gentlest_alone`."""
    return READ_AS_FLOOR and two_levels_with_waf and gentlest_alone(points, cv_sd)


def warns(points: list[fitmod.Point], cv_sd: float, two_levels_with_waf: bool,
          reserve_called_for: Callable[[], bool]) -> bool:  # fmt: skip
    """:data:`WARN_WHERE_AMBIGUOUS` on, two steady levels each with a WAF figure,
    :func:`gentlest_alone`, and a reserve reading of a uniform design called for by them
    (``reserve_called_for``, asked last: the dearest test)."""
    return (
        WARN_WHERE_AMBIGUOUS
        and two_levels_with_waf
        and gentlest_alone(points, cv_sd)
        and reserve_called_for()
    )
