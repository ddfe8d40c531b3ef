"""Which victim selection a drive's garbage collection runs, read from one figure measured under
a skewed workload beside its uniform figures.

Under uniform random writes greedy, FIFO and cost-benefit victims, with GC data apart from host
data or mixed with it, one host write frontier or one per workload zone, give one WAF curve
(greedy and FIFO alike as blocks grow: P. Desnoyers, "Analytic modeling of SSD write
performance", SYSTOR 2012; docs/calibrate-model.md), so uniform figures cannot tell them apart;
under a skewed workload they part by up to 5.6× (docs/calibrate-validation.md, "SSD-iq's other
drives and workloads"). One figure under a skewed workload can.

Each **victim-selection reading** (:data:`VICTIM_SELECTIONS`) is a uniform reading of
``spare_readings.read_all`` (its spare and timing fitted to the uniform figures: the greedy
reading for the selections whose uniform curve is greedy's, each d-choices reading for itself)
whose twin runs that selection (its ``config.ftl`` keys over the twin's). Each is simulated at
the skewed figure's level under its workload (``twin_runs.simulate_levels``, a warm-up of
:data:`WARMUP_DRIVE_WRITES`: a skewed workload's cold data leave the fill's blocks slowly) and
weighed by ``evidence.weights`` of::

    χ² = χ²_uniform (its uniform reading's evidence) + (ln(predicted/figure) / σ)²

σ = hypot(the figure's relative sd, the model-form relative sd): the skewed figure is predicted
from the uniform fit, not fitted, as a held-out figure is in ``evidence.assess``. A reading whose
uniform reading does not reproduce its fitted figures is set aside as ``evidence.weights`` sets
it aside. A figure under another skewed workload, or at another level, is the weighted geometric
mean of the readings that keep ``evidence.SPAN_MIN_WEIGHT`` of the largest weight, its
interval the span of their figures each widened by its uniform reading's relative interval.

Only effective-spare readings are read: the raw spare's ``k`` is fitted to uniform WAF figures
and says nothing of the selection.

A **static wear-levelling reading** (:func:`with_static_wl`) is a reading whose twin also moves
the data of its least-worn closed block whenever the blocks' erase counts spread by more than a
threshold (the core's ``[wear] static_threshold``, checked every :data:`STATIC_WL_CHECK_ERASES`
erases: Chang, Hsieh & Kuo's static wear levelling, crates/overprov-sim/src/ftl/wear.rs);
:func:`read_threshold` reads the threshold of :data:`STATIC_WL_THRESHOLDS` whose twin is nearest
one skewed figure (its rule: bench/corpus/RULE-skewed-wl.md; bench/corpus_static_wl.py).

Not adopted: calibrate's own path does not call this module. Its pre-registered rule
(bench/corpus/RULE-skewed-figure.md; bench/corpus_workload_victim.py) was not met: one skewed
figure identified the selection for its own kind of skew but not for others
(docs/calibrate-validation.md, "One skewed figure beside the uniform ones"); nor was the static
wear-levelling rule (bench/corpus/RULE-skewed-wl.md): a hot/cold figure does not identify the
threshold (docs/calibrate-validation.md, "Greedy with static wear levelling").
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from overprov.calibrate import (
    combined_prediction,
    evidence,
    gc_designs,
    twin_runs,
    uncertainty,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate.prediction import EFFECTIVE, Prediction
from overprov.errors import ConfigError

#: The warm-up of every victim-selection simulation (drive writes before the measured part).
WARMUP_DRIVE_WRITES = 8.0
_SINGLE = {"host_streams": "single"}
#: Whether the skew path also weighs "greedy-per-write": greedy with one victim after each host
#: write under the trigger, its survivors through the host's frontier (``ftl.gc_trigger =
#: "per-write"``, ``gc_frontier = "shared"``: SSDsim's collector, docs/simulate.md). Off until a
#: rule judges it on fresh drives.
PER_WRITE_READING = False
PER_WRITE_SELECTION: tuple[str, dict[str, Any]] = (
    "greedy",
    {"policy": "greedy", "gc_trigger": "per-write", "gc_frontier": "shared", **_SINGLE},
)
#: Reading name → (the uniform design whose reading's twin it runs, its ``config.ftl`` keys).
VICTIM_SELECTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "greedy": ("greedy", {"policy": "greedy", **_SINGLE}),
    "greedy-gc-mixed": ("greedy", {"policy": "greedy", "gc_frontier": "shared", **_SINGLE}),
    "fifo": ("greedy", {"policy": "fifo", **_SINGLE}),
    "cost-benefit": ("greedy", {"policy": "cost-benefit", **_SINGLE}),
    "greedy-zones": ("greedy", {"policy": "greedy", "host_streams": "workload"}),
    **{f"d-choices-{d}": (f"d-choices-{d}", gc_designs.UNIFORM_DESIGNS[f"d-choices-{d}"])
       for d in gc_designs.D_GRID},
    **({"greedy-per-write": PER_WRITE_SELECTION} if PER_WRITE_READING else {}),
}  # fmt: skip


@dataclass(frozen=True)
class SkewedFigure:
    """A drive's steady figure under a skewed workload: ``kind`` "iops" or "waf"."""

    workload: dict[str, Any]
    extra_op_percent: float
    value: float
    kind: str = "iops"
    rel_sd: float = 0.05


@dataclass
class VictimReading:
    """One victim-selection reading: its twin and its uniform reading's evidence."""

    name: str
    twin: Any
    uniform_chi2: float
    reproduces: bool
    uniform_levels: dict[float, Any]
    #: The core's ``[wear]`` keys over the twin's (None: the twin's own, no static levelling).
    wear: dict[str, Any] | None = None


def readings_of(pred: Prediction) -> list[VictimReading]:
    """The victim-selection readings of a uniform prediction (``spare_readings.read_all``):
    each selection of :data:`VICTIM_SELECTIONS` whose uniform design's effective-spare reading
    had its twin simulated."""
    uniform: dict[str, Any] = {}
    for r in pred.readings or []:
        if r.spare == EFFECTIVE and r.twin in pred.twins:
            uniform[r.design] = r
    out = []
    for name, (design, ftl) in VICTIM_SELECTIONS.items():
        if pred.readings:
            r = uniform.get(design)
            if r is None:
                continue
            ev, twin, levels = r.evidence or {}, pred.twins[r.twin], r.levels
        elif design == "greedy":  # one reading: the prediction's own
            ev, twin, levels = {}, pred.twins[pred.twin], pred.levels
        else:
            continue
        reproduces = evidence.reproduced(ev, untested=True)
        twin = dataclasses.replace(twin, ftl={**(twin.ftl or {}), **ftl})
        at = {lv.extra_op_percent: lv for lv in levels}
        out.append(VictimReading(name, twin, float(ev.get("chi2", 0.0)), reproduces, at))
    if not out:
        raise ConfigError("no uniform reading's twin to read a victim selection with")
    return out


def simulate(
    r: VictimReading,
    workload: dict[str, Any],
    levels: list[float],
    kind: str,
    jobs: int | None = None,
    memo: twin_runs.Runs | None = None,
) -> list[float]:
    """The reading's figure (``kind``) at each level under ``workload``."""
    m = twin_runs.simulate_levels(
        r.twin, levels, workload, timed=kind == "iops", jobs=jobs, memo=memo,
        warmup_drive_writes=WARMUP_DRIVE_WRITES,
        overrides={"wear": r.wear} if r.wear else None,
    )  # fmt: skip
    return [float(lv.steady_iops if kind == "iops" else lv.waf) for lv in m.levels]


def weigh(
    readings: list[VictimReading],
    figure: SkewedFigure,
    model_rel_sd: float = 0.0,
    jobs: int | None = None,
    memo: twin_runs.Runs | None = None,
) -> dict[str, dict[str, Any]]:
    """Each reading's figure at ``figure``'s level under its workload, its χ² and its weight
    (the module's doc), by reading name."""
    sd = math.hypot(max(figure.rel_sd, fitmod.MIN_REL_SD), model_rel_sd)
    got: dict[str, dict[str, Any]] = {}
    for r in readings:
        (v,) = simulate(r, figure.workload, [figure.extra_op_percent], figure.kind, jobs, memo)
        e = math.log(v / figure.value)
        term = (e / sd) ** 2
        got[r.name] = {"predicted": v, "log_error": e, "skewed_chi2": term,
                       "chi2": r.uniform_chi2 + term, "reproduces": r.reproduces}  # fmt: skip
    w = evidence.weights(
        {k: g["chi2"] for k, g in got.items()}, {k: g["reproduces"] for k, g in got.items()}
    )
    for k, g in got.items():
        g["weight"] = w[k]
    return got


def uniform_weights(readings: list[VictimReading]) -> dict[str, float]:
    """The weights the uniform figures alone give (no skewed figure): the readings of
    ``spare_readings.read_all``'s uniform designs, each with its twin's own greedy GC or
    d-choices, weighed by their uniform evidence — calibrate's prediction without the figure."""
    own = {r.name: r for r in readings if r.name == VICTIM_SELECTIONS[r.name][0]}
    w = evidence.weights(
        {k: r.uniform_chi2 for k, r in own.items()}, {k: r.reproduces for k, r in own.items()}
    )
    return {r.name: w.get(r.name, 0.0) for r in readings}


def predict(
    readings: list[VictimReading],
    weights: dict[str, float],
    workload: dict[str, Any],
    levels: list[float],
    kind: str = "iops",
    jobs: int | None = None,
    memo: twin_runs.Runs | None = None,
    model_rel_sd: dict[float, float | None] | None = None,
) -> list[dict[str, Any]]:
    """The figure (``kind``) at each level under ``workload``: the weighted geometric mean of
    the readings keeping ``evidence.SPAN_MIN_WEIGHT`` of the largest weight, with the span
    of their figures, each widened by its uniform reading's relative interval at that level
    (and, with :data:`SKEWED_FORM_ERROR` on, by ``model_rel_sd`` at that level:
    ``uncertainty.model_sd_at`` of the uniform figures)."""
    top = max(weights.values())
    kept = [r for r in readings if weights[r.name] >= evidence.SPAN_MIN_WEIGHT * top]
    values = {r.name: simulate(r, workload, levels, kind, jobs, memo) for r in kept}
    out = []
    for i, x in enumerate(levels):
        mean = combined_prediction.weighted_geomean(
            [values[r.name][i] for r in kept], [weights[r.name] for r in kept]
        )
        lows, highs = [], []
        for r in kept:
            v = values[r.name][i]
            lo, hi = _relative_interval(r.uniform_levels.get(x), kind, (model_rel_sd or {}).get(x))
            lows.append(v * lo)
            highs.append(v * hi)
        out.append({
            "extra_op_percent": x, "value": mean, "low": min(lows), "high": max(highs),
            "readings": {r.name: {"value": values[r.name][i], "weight": weights[r.name]}
                         for r in kept},
        })  # fmt: skip
    return out


#: The static wear-levelling thresholds read (erase counts; None: no static levelling). The core
#: starts every block at 0 erases, so a threshold sets when, within the twin's run (the fill, then
#: ``WARMUP_DRIVE_WRITES`` and 2 measured drive writes), levelling starts moving static data.
STATIC_WL_THRESHOLDS: tuple[int | None, ...] = (None, 2, 4, 8, 16, 32)
#: Checked after every erase: the core's default (every 256 erases, one block a check) caps the
#: levelling at 1/256 of the erases, which leaves a greedy twin's figures as they are.
STATIC_WL_CHECK_ERASES = 1


def with_static_wl(r: VictimReading, threshold: int | None) -> VictimReading:
    """The reading with static wear levelling at ``threshold`` (None: the reading unchanged)."""
    if threshold is None:
        return r
    wear = {"static_threshold": threshold, "static_check_erases": STATIC_WL_CHECK_ERASES}
    return dataclasses.replace(r, name=f"{r.name}-static-wl-{threshold}", wear=wear)


def read_threshold(
    readings: dict[int | None, VictimReading],
    figure: SkewedFigure,
    jobs: int | None = None,
    memo: twin_runs.Runs | None = None,
) -> tuple[int | None, dict[int | None, float]]:
    """The threshold whose reading's figure is nearest ``figure`` (least |ln(predicted/figure)|,
    the first of ``readings``' order on a tie), and each threshold's figure."""
    got = {t: simulate(r, figure.workload, [figure.extra_op_percent], figure.kind, jobs, memo)[0]
           for t, r in readings.items()}  # fmt: skip
    best = min(got, key=lambda t: abs(math.log(got[t] / figure.value)))
    return best, got


#: Off by default (its rule: bench/intervals/RULE-skew.md). On: :func:`_relative_interval`
#: widens a uniform level's interval in quadrature by the model-form relative sd it is given
#: (``uncertainty.band``), the term calibrate's uniform path adds; off: the interval as read.
SKEWED_FORM_ERROR = False


def _relative_interval(
    level: Any, kind: str, model_rel_sd: float | None = None
) -> tuple[float, float]:
    """A uniform level's interval over its figure (1, 1 when it has none), widened by
    ``model_rel_sd`` when :data:`SKEWED_FORM_ERROR` is on."""
    if level is None:
        return 1.0, 1.0
    v, lo, hi = (
        (level.steady_iops, level.steady_iops_low, level.steady_iops_high)
        if kind == "iops"
        else (level.waf, level.waf_low, level.waf_high)
    )
    if not v or lo is None or hi is None:
        return 1.0, 1.0
    if SKEWED_FORM_ERROR and model_rel_sd:
        low, high = uncertainty.band(1.0, [lo / v, hi / v], model_rel_sd)
        return low, high
    return lo / v, hi / v
