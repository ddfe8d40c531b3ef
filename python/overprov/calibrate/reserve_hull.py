"""Typed figures a GC reserve with a victim floor reproduces as well as an effective spare does:
the reserve reading offered beside the spare readings, and the interval the hull of every
reading that reproduces the figures (:data:`OFFERED`, off).

**Why.** The GC-reserve reading (``gc_reserve.py``) is offered to a measured target only where
its measurement dated the onset of garbage collection from empty (``reserve_reading.py``).
Typed figures (``--points``/``--waf-points``) have no onset, so they are read with effective
spares alone (``spare_readings.read_all``). On a drive whose controller holds free NAND as a
reserve and caps WAF with a victim floor, figures at 0% and 40% extra OP are then read along
one spare curve from the 0% figure, while the drive holds its floor through 20%: tcmd-bound2's
generated reserve drives, WAF low by −0.28 to −1.06 in log at 10–30%, 2 of 18 held-out figures
inside (bench/intervals/widthtrans/DIAGNOSIS.md, bench/intervals/hullres/DIAGNOSIS.md).

**What.** With :data:`OFFERED`, typed figures under uniform writes at two steady levels, each
with a WAF figure (:func:`applies`: the floor is in the write counters, not read through the
IOPS form alone; calibrate's plan gives 0% and 40%) are offered the reserve reading of each
uniform GC design (``gc_designs.UNIFORM_DESIGNS``) whose floor they call for and whose capped
fit reproduces them (``gc_reserve.ReserveForm.called_for``, no onset). They are weighed with the
effective-spare readings as one class (``evidence.weights``; :func:`class_of`), so the central
prediction is the evidence-weighted mean as before. Two figures cannot tell a floor from a
gentler curve: the floor is read from the lowest level, so leaving that level out leaves no
floor to predict it and the leave-one-out term speaks against the reserve reading whatever the
drive. So the interval spans every reading that reproduces its fitted figures
(``evidence.reproduces``), its weight aside (:func:`hull`): where the figures cannot tell the
readings apart the interval says so. A reserve reading's twin that misses a WAF figure
(``reserve_twin_check.twin_misses_its_waf``) is set aside, as with the onset.

Judged under bench/intervals/RULE-hullres.md: **not met**, so off
(bench/intervals/hullres/verdict.md): on six fresh generated drives the reserve ones went from 4
to 14 of 24 held-out figures inside (one drive refused in both arms by the fit's plausibility
gate, which runs before any reading is offered; the misses at the level where the floor gives
way), a guard missed its IOPS target in both arms; the pooled tally with the 11 stored cases it
reaches rose 83% → 88%.

Two parts more, each under its own switch and read only with :data:`OFFERED` (judged under
bench/intervals/RULE-hullres2.md): :data:`AT_THE_GATE`, the plausibility gate that refuses a
plain fit before any reading is offered (``plausibility.fit_misses_its_points``) passes figures a
reserve reading of these explains (:func:`explains`), as ``plausibility.RESERVE_READING_GATE``
does for the onset-dated reading; :data:`UNDATED_EDGE`, the reading's transition term on the
curve's side of its floor's edge set on the seen generated reserve drives
(``reserve_transition.UndatedFloorEdge``). That rule was **not met**, so :data:`OFFERED` stays
off (bench/intervals/hullres2/verdict.md): on four fresh reserve drives 23 of 24 held-out figures
inside (one answered only through the gate; on two whose floor gives way before 10% the centre
stays the effective reading's, the hull taking the truths), the guards unchanged, the pooled
tally 83% → 88%; but with the flag on the gate also answers a refused FEMU case (14 LUNs × 224
blocks without an onset) a test holds refused, which no criterion had judged.

Judged on the refused cases the gate would answer under bench/intervals/RULE-hullgate.md: **not
met**, so off (bench/intervals/hullgate/verdict.md): binding FEMU figures without an onset, typed,
get the reserve reading's centre (WAF within 0.3–11%) in intervals one reading wide (4–16%); as a
measurement (``calibrate --from``) the gate hands them to the plain fit, as this module offers its
reading to typed figures only (WAF −57% to −79%); a drive whose reserve does not bind is widened.
Why the d = 2 reading keeps the centre where the floor gives way:
bench/intervals/hullgate/DIAGNOSIS.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overprov.calibrate import (
    evidence,
    gc_designs,
    gc_reserve,
    paced_journal,
    plausibility,
    steep_pair,
    three_levels,
    uncertainty,
    workload_curve,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.reserve_twin_check import onset_from_empty, twin_misses_its_waf
from overprov.errors import ConfigError

#: Offer the GC-reserve reading to typed figures without an onset, and span the interval over
#: every reading that reproduces the figures (module doc). Off: typed figures are read as before.
OFFERED = False
#: With :data:`OFFERED`: the fit's plausibility gate passes figures a reserve reading explains
#: (:func:`explains`); off, it refuses on the plain fit alone, before any reading is offered.
AT_THE_GATE = True
#: Where ``steep_pair.READ_AS_FLOOR`` replaces the plain readings, offer the reserve reading of
#: the selective designs only (``steep_pair.SELECTIVE_DESIGNS``: greedy, d-choices d >= 4): under
#: d = 2 a per-victim floor holds no plateau (the sampled best falls short so often that the pool
#: drains to the forced count, where the floor does not act: its twin runs at the design's curve,
#: not at the floor; bench/foreign/results/femutwin/DIAGNOSIS.md), so the reading min(curve, W)
#: does not describe that collector. Off: every design whose floor the figures call for (judged
#: with ``reserve_held_out.WAF_TERMS_TOO`` under bench/foreign/results/femucarry/RULE.md: not met;
#: on with ``mixture_centre.ON`` since bench/foreign/results/femumedian/verdict.md).
FLOOR_NEEDS_SELECTIVE = True
#: ``steep_pair.READ_AS_FLOOR`` reads two-level figures with WAF that no victim choice links
#: (:func:`none_links`) as well as those only the gentlest links (``steep_pair.fires``): a floor
#: held through 20% leaves every plain reading refuted, greedy's keeps the weight by its
#: leave-one-out and ``steep_pair.gentlest_alone`` does not fire (femunext's 69 x 43, femutwin's
#: 52 x 41). Off: ``steep_pair.fires`` alone (bench/foreign/results/femucarry/RULE.md: not met;
#: on with ``mixture_centre.ON`` since bench/foreign/results/femumedian/verdict.md).
NONE_LINKS = True
#: Where a metadata factor m > 1 was applied to the figures (``metadata_factor.ENABLED``: a FOB
#: WAF typed with typed WAF figures at two levels under uniform writes,
#: ``metadata_factor.unjudged``; ``predict.PredictionInput.metadata_factor``), read two-level
#: figures with WAF as a reserve with a floor as where ``steep_pair.fires``
#: (:func:`replaces_plain`): a drive programming pages of its own at a fixed rate (a journal's
#: checkpoints, Dhara's) paces its collection, and d-choices-4 from one spare links such figures too
#: (bench/foreign/results/dharafloor/DIAGNOSIS.md). Off: judged under
#: bench/foreign/results/dharafloor/RULE.md.
FACTOR_READS_FLOOR = False
#: The mark on the evidence of an effective-spare reading kept beside the reserve readings
#: only to be spanned (:func:`spanned_beside`, ``steep_pair.HULL_WHERE_AMBIGUOUS``).
SPANS_ONLY = "spans_only"
#: With :data:`OFFERED`: the readings' transition term on the curve's side as
#: ``reserve_transition.UndatedFloorEdge`` gives it; off, as for an onset-dated reading.
UNDATED_EDGE = True


@dataclass(frozen=True)
class UndatedReserveForm(gc_reserve.ReserveForm):
    """The reserve reading fitted without an onset: its surrogate marked ``undated_edge`` when
    :data:`UNDATED_EDGE` is on (``reserve_transition.floor_edge`` reads the mark); with ``paced``
    a paced journal's, its floor test ``paced_journal.cap_binds``'s."""

    paced: bool = False

    def floor_test(self, points: list[fitmod.Point]) -> dict:
        test = super().floor_test(points)
        return paced_journal.cap_binds(test) if self.paced else test

    def fit(self, points: list[fitmod.Point]) -> gc_reserve.ReserveSurrogate:
        s = super().fit(points)
        s.undated_edge = UNDATED_EDGE  # type: ignore[attr-defined]
        return s


def floor_in_waf(points: list[fitmod.Point]) -> bool:
    """Two steady levels, each with a WAF figure: the floor is in the write counters at the
    lower one, and nothing else is left to hold out. With three or more levels a level the
    floor is not read from can be held out and the leave-one-out weighs the readings: this
    test does not offer it there (not judged: bench/intervals/RULE-hullres.md), typed figures
    with WAF at each of three levels or more are offered it by ``three_levels.reads_reserve``
    (on, :func:`applies`)."""
    steady = {p.extra_op_percent for p in points if not p.fresh}
    waf_at = {p.extra_op_percent for p in points if p.has_steady_waf}
    return len(steady) == 2 and waf_at == steady


def applies(fig: predmod.PredictionInput) -> bool:
    """Whether :data:`OFFERED` reads these figures: uniform writes, no onset of garbage
    collection from empty (with one, ``reserve_reading.py`` offers the reading), and
    :func:`floor_in_waf`; or, with ``three_levels.ON`` (on), typed figures with a WAF figure at
    each of three steady levels or more (``three_levels.reads_reserve``)."""
    return (
        ((OFFERED and floor_in_waf(fig.points)) or three_levels.reads_typed(fig))
        and workload_curve.is_uniform(fig.workload)
        and onset_from_empty(fig.measurement) is None
    )


def replaces_plain(fig: predmod.PredictionInput, cv_sd: float) -> bool:
    """Whether ``steep_pair.READ_AS_FLOOR`` (on) reads these figures: uniform writes, no onset
    of garbage collection from empty, and ``steep_pair.fires`` (only the gentlest victim
    choice links the two levels), or with :data:`FACTOR_READS_FLOOR` (off) a metadata factor
    over 1 applied to two levels with WAF: the reserve readings then replace the effective-spare
    ones (``spare_readings.weigh``); so they do where ``paced_journal.applies`` (on)."""
    if paced_journal.applies(fig, floor_in_waf(fig.points)):
        return True
    return (
        steep_pair.READ_AS_FLOOR
        and workload_curve.is_uniform(fig.workload)
        and onset_from_empty(fig.measurement) is None
        and (
            steep_pair.fires(fig.points, cv_sd, floor_in_waf(fig.points))
            or FACTOR_READS_FLOOR
            and fig.metadata_factor > 1.0
            and floor_in_waf(fig.points)
            or NONE_LINKS
            and floor_in_waf(fig.points)
            and none_links(fig.points, cv_sd)
        )
    )


def none_links(points: list[fitmod.Point], cv_sd: float) -> bool:
    """No effective-spare reading of a uniform design (``evidence.assess`` with ``cv_sd``, as
    ``steep_pair.gentlest_alone`` assesses them) reproduces the figures within their noise
    (``evidence.reproduced``): no victim choice from one spare links the levels. False where a
    design's reading cannot fit them (``steep_pair.plain_evidences``)."""
    evidences = steep_pair.plain_evidences(points, cv_sd)
    if evidences is None:
        return False
    return not any(evidence.reproduced(e, untested=False) for e in evidences.values())


def replaced(
    fig: predmod.PredictionInput, cv_sd: float, forms: dict[predmod.TwinReading, Any],
    undated: dict[predmod.TwinReading, gc_reserve.ReserveForm],
) -> dict[predmod.TwinReading, Any]:  # fmt: skip
    """The effective-spare readings of ``forms`` (reading → form) the reserve readings
    ``undated`` replace where :func:`replaces_plain` (``steep_pair.READ_AS_FLOOR``, on); {}
    elsewhere (``spare_readings.weigh``)."""
    if not (undated and replaces_plain(fig, cv_sd)):
        return {}
    return {r: f for r, f in forms.items() if r.spare == predmod.EFFECTIVE}


def spanned_beside(
    plain: dict[predmod.TwinReading, Any], points: list[fitmod.Point], cv_sd: float
) -> dict[predmod.TwinReading, dict[str, Any]]:
    """With ``steep_pair.HULL_WHERE_AMBIGUOUS`` (off), of the effective-spare readings
    ``plain`` that ``steep_pair.READ_AS_FLOOR`` replaced (:func:`replaced`), those that
    reproduce the figures (``evidence.assess`` with ``cv_sd``, ``evidence.reproduced``), each
    evidence marked :data:`SPANS_ONLY`: kept beside the reserve readings with no weight
    (:func:`weighed_in`), so the centre stays the reserve readings', and spanned by the
    interval (:func:`hull`). {} with the flag off (``spare_readings.weigh``)."""
    if not (steep_pair.HULL_WHERE_AMBIGUOUS and plain):
        return {}
    out = {}
    for r, form in plain.items():
        try:
            ev = evidence.assess(form, points, cv_sd)
        except ConfigError:
            continue
        if evidence.reproduced(ev, untested=False):
            out[r] = {**ev, SPANS_ONLY: True}
    return out


def spans_only(ev: dict[str, Any]) -> bool:
    """Whether a reading's evidence is marked :data:`SPANS_ONLY` (:func:`spanned_beside`)."""
    return bool(ev.get(SPANS_ONLY))


def weighed_in(
    evidences: dict[predmod.TwinReading, dict[str, Any]], spare: str
) -> list[predmod.TwinReading]:
    """The readings of ``evidences`` weighed in the spare class ``spare`` (:func:`class_of`;
    ``spare_readings.class_weights``): every one but those only spanned (:func:`spans_only`),
    which take no weight."""
    return [r for r, e in evidences.items() if class_of(r.spare) == spare and not spans_only(e)]


def answering(
    readings: dict[predmod.TwinReading, Any], evidences: dict[predmod.TwinReading, dict[str, Any]]
) -> list[predmod.TwinReading]:
    """The simulated ``readings`` that can answer: all but those only spanned
    (:func:`spans_only`): where every reserve reading's twin is set aside the answer is
    refused as without them (``spare_readings.read_all``)."""
    return [r for r in readings if not spans_only(evidences[r])]


def beside_where_ambiguous(fig: predmod.PredictionInput, cv_sd: float) -> bool:
    """Whether ``steep_pair.HULL_WHERE_AMBIGUOUS`` (off) reads these figures: uniform writes, no
    onset of garbage collection from empty, and ``steep_pair.ambiguous`` (only the gentlest
    victim choice links the two levels): the reserve readings are then offered beside the
    effective-spare ones and the interval spans those that reproduce the figures (:func:`hull`)."""
    return (
        steep_pair.HULL_WHERE_AMBIGUOUS
        and workload_curve.is_uniform(fig.workload)
        and onset_from_empty(fig.measurement) is None
        and steep_pair.ambiguous(fig.points, cv_sd, floor_in_waf(fig.points))
    )


def ambiguity_warning(
    fig: predmod.PredictionInput,
    evidences: dict[predmod.TwinReading, dict[str, Any]],
    readings: dict[predmod.TwinReading, Any] | None = None,
) -> str:
    """``steep_pair.WARNING`` as a clause of the prediction's source where
    :func:`beside_where_ambiguous` offered a reserve reading beside the plain ones (with
    ``steep_pair.READ_AS_FLOOR`` on, ``steep_pair.WARNING_SPANNED`` instead, and only where a
    plain reading only spanned (:func:`spanned_beside`) is among the simulated ``readings``: the
    interval reaches it); else ``steep_pair.WARNING_AS_FLOOR`` where ``steep_pair.fires`` read
    them as a reserve (uniform writes, no onset from empty); ``steep_pair.WARNING_ALONE`` where
    ``steep_pair.warns`` (the same, no reserve reading offered); else ""."""
    cv_sd = uncertainty.weighing_rel_sd(fig.model_form)
    offered = any(r.spare == predmod.RESERVE for r in evidences)
    if offered and beside_where_ambiguous(fig, cv_sd):
        if not steep_pair.READ_AS_FLOOR:
            return f"; {steep_pair.WARNING}"
        if any(spans_only(evidences[r]) for r in readings or ()):
            return f"; {steep_pair.WARNING_SPANNED}"
    if not workload_curve.is_uniform(fig.workload) or onset_from_empty(fig.measurement) is not None:
        return ""  # a skewed workload's readings and a dated reserve speak for themselves
    if offered:  # read as a floor where only d = 2 links them: the other reading still fits
        as_floor = steep_pair.fires(fig.points, cv_sd, floor_in_waf(fig.points))
        return f"; {steep_pair.WARNING_AS_FLOOR}" if as_floor else ""

    def called_for() -> bool:  # a message must never refuse an answer: a form that cannot fit
        for design in gc_designs.UNIFORM_DESIGNS:  # these figures is not called for
            try:
                if form_of(design, cv_sd).called_for(fig.points):
                    return True
            except ConfigError:
                continue
        return False

    warn = steep_pair.warns(fig.points, cv_sd, floor_in_waf(fig.points), called_for)
    return f"; {steep_pair.WARNING_ALONE}" if warn else ""


def forms(
    fig: predmod.PredictionInput, cv_sd: float, several: bool = True
) -> dict[predmod.TwinReading, gc_reserve.ReserveForm]:
    """The reserve reading of each uniform design the figures call for (none unless
    :func:`applies`, :func:`replaces_plain` or :func:`beside_where_ambiguous`); ``cv_sd`` the
    model-form error of a held-out prediction."""
    if not (applies(fig) or replaces_plain(fig, cv_sd) or beside_where_ambiguous(fig, cv_sd)):
        return {}
    out = {}
    selective = FLOOR_NEEDS_SELECTIVE and replaces_plain(fig, cv_sd)
    paced = paced_journal.applies(fig, floor_in_waf(fig.points))  # the pace's cap (on)
    for design, ftl in gc_designs.UNIFORM_DESIGNS.items():
        if selective and design not in steep_pair.SELECTIVE_DESIGNS:
            continue
        form = form_of(design, cv_sd, paced)
        if form.called_for(fig.points):
            ftl_or_none = None if design == "greedy" else ftl
            r = predmod.TwinReading(predmod.RESERVE, design, ftl_or_none, several=several,
                                    reserve=form)  # fmt: skip
            out[r] = form
    return out


def form_of(design: str, cv_sd: float, paced: bool = False) -> UndatedReserveForm:
    """The reserve reading of a uniform GC design without an onset (greedy's curve the fit's);
    with ``paced`` a paced journal's (``paced_journal.py``: its cap wherever it binds)."""
    return UndatedReserveForm(gc_designs.waf_curve(design), cv_sd, paced=paced)


def explains(points: list[fitmod.Point], cv_sd: float, typed: bool = False) -> bool:
    """With :data:`OFFERED` and :data:`AT_THE_GATE` on (or where ``steep_pair.fires``), figures
    of :func:`floor_in_waf` (with ``three_levels.ON``, on, also ``typed`` figures of
    ``three_levels.reads_reserve``) that a
    reserve reading of a uniform design is called for by and whose fit misses none of them by
    more than ``plausibility.FIT_ERROR_MAX`` (``plausibility.surrogate_misses_its_points``);
    ``calibrate`` runs its gate on uniform writes only."""
    undated = OFFERED and AT_THE_GATE or steep_pair.fires(points, cv_sd, floor_in_waf(points))
    if not (undated and floor_in_waf(points) or typed and three_levels.reads_reserve(points)):
        return False
    for design in gc_designs.UNIFORM_DESIGNS:
        form = form_of(design, cv_sd)
        try:
            if (
                form.called_for(points)
                and plausibility.surrogate_misses_its_points(form.fit(points), points) is None
            ):
                return True
        except ConfigError:
            continue
    return False


def class_of(spare: str) -> str:
    """The spare class a reading is weighed in (``spare_readings.class_weights``): the reserve
    readings with the effective-spare ones."""
    return predmod.EFFECTIVE if spare == predmod.RESERVE else spare


def curve_of(r: predmod.TwinReading, curve: fitmod.WafCurve | None) -> fitmod.WafCurve | None:
    """The WAF curve a reading's twin is prepared with: a reserve reading's is its design's
    (greedy's the fit's own), as ``reserve_reading.py`` gives it."""
    return (curve or fitmod.waf_at) if r.spare == predmod.RESERVE else curve


def hull(evidences: dict[predmod.TwinReading, dict[str, Any]]) -> set[predmod.TwinReading]:
    """The readings the interval spans whatever their weight: with a reserve reading offered,
    every one that reproduces its fitted figures (with :data:`OFFERED`, or
    ``steep_pair.HULL_WHERE_AMBIGUOUS`` where it offers them); none otherwise (nor when the
    reserve readings replace the effective ones alone, ``steep_pair.READ_AS_FLOOR``: the
    interval is then theirs). With ``steep_pair.READ_AS_FLOOR`` and
    ``steep_pair.HULL_WHERE_AMBIGUOUS`` (:data:`OFFERED` off): the plain readings kept beside
    the reserve ones to be spanned (:func:`spanned_beside`), and only those."""
    spans = OFFERED or steep_pair.HULL_WHERE_AMBIGUOUS
    if not spans or not any(r.spare == predmod.RESERVE for r in evidences):
        return set()
    if steep_pair.READ_AS_FLOOR and not OFFERED:  # the plain readings the floor replaced
        return {r for r, e in evidences.items() if spans_only(e)}
    return {r for r, e in evidences.items() if evidence.reproduced(e, untested=False)}


def twin_miss(pred: Any) -> str | None:
    """Why a reserve reading's twin is set aside (``reserve_twin_check.twin_misses_its_waf``: it
    misses a WAF figure); None when it reproduces them. Its interval is the model-form error's
    (no bootstrap), which its prediction's source says."""
    why = twin_misses_its_waf(pred)
    if why is None:
        pred.prediction_source += "; no bootstrap: its interval is the model-form error's"
    return why


plausibility.UNDATED_RESERVE_EXPLAINS = explains  # the gate's hook (plausibility.py)
