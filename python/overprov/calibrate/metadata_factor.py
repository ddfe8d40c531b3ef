"""The FTL's own metadata writes as a constant WAF factor, read from a FOB WAF figure.

A drive programs pages of its own beside the host's and the ones garbage collection copies: map
flushes, journal checkpoints (Dhara writes one page in 16 for its checkpoints,
bench/foreign/results/fifogc/verdict.md). That cost is a factor m on every WAF the drive
writes, at every extra-OP level, and no spare space absorbs it. Before any garbage collection
(fresh out of box, nothing to copy) it is all there is: m is the FOB WAF, typed
(``--fob-waf W``); the FOB segment's measured WAF where the target has write counters
(``measure.py``, ``Measurement.fob_waf``) is noted, not applied (:data:`MEASURED_APPLIES`).
Read with m = 1 the spare fitted to a low WAF comes
out too small and the curve too steep below it.

With :data:`ENABLED` (on by default with ``paced_journal.ON`` since
bench/foreign/results/dhara10/verdict.md; alone not met, bench/foreign/results/metafactor/RULE.md) m
enters the fit in one place: every WAF figure is divided by m before any reading sees it (each
reading's spare is fitted to WAF/m; the reserve readings' cap is the 0% figure / m), and every WAF
the answer gives (the levels' and each reading's, central, interval ends and the surrogate's, and
the fitted points and twin checks it records) is multiplied by m. IOPS are not touched: a
measured IOPS figure already carries m and so does the FOB IOPS anchor (the time per write before
any GC), so m cancels from the IOPS curve. The twin files simulate the curve without m (their WAF
is the drive's / m); the prediction's source says so.

The guard (from the model, bench/foreign/results/metafactor/RULE.md): m is applied only in
[:data:`M_MIN`, :data:`M_MAX`]; a FOB WAF below 1 is a write buffer or compression (fewer
pages programmed than written), above 1.5 more than a page of its own per two host pages, a
transient such as an SLC cache folding rather than a steady per-write cost; outside the range
the figure is ignored with a note.
m = 1 or no figure: the points and the answer are not touched.

Where it applies (:func:`unjudged`): only where its rule judged it
(bench/foreign/results/dhara10/RULE.md): WAF figures typed (``--points``/``--waf-points``; not
a TARGET, ``--resume`` or ``--from``), a uniform workload, exactly two steady levels with a WAF
figure (three or more are read by ``three_levels.py``, which was not judged with the factor).
Elsewhere a typed ``--fob-waf`` is noted, not applied, saying why, as a measured one is
(:data:`MEASURED_APPLIES`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported by the CLI: nothing heavy at import
    from overprov.calibrate.fit import Point
    from overprov.calibrate.prediction import Prediction
    from overprov.measurement_file import Measurement

#: Read the FOB WAF as a constant metadata factor. Alone its rule was not met
#: (bench/foreign/results/metafactor/verdict.md); on with ``paced_journal.ON`` since
#: bench/foreign/results/dhara10/verdict.md (their rule met together).
ENABLED = True
#: Off: a FOB WAF the FOB segment measured is noted, not applied. The factor's rule was judged
#: on typed figures only (bench/foreign/results/dhara10/RULE.md), and a real drive's NAND
#: counter may move in units as coarse as a GiB, so over the FOB segment's 2% of a drive write a
#: measured FOB WAF can be off by several percent, which the factor would carry into every WAF.
MEASURED_APPLIES = False
#: The range of FOB WAF read as a metadata factor (module text): outside it, ignored.
M_MIN, M_MAX = 1.0, 1.5
#: The source of a typed figure (the option).
TYPED = "--fob-waf"
#: The rule that judged the factor, and on what (:func:`unjudged`).
JUDGED_ON = (
    "the factor was judged on typed WAF figures at two steady levels under uniform random "
    "writes only (bench/foreign/results/dhara10/RULE.md)"
)
#: The WAF fields of a predicted level that carry the factor.
WAF_FIELDS = ("waf", "waf_low", "waf_high", "surrogate_waf")
#: The WAF fields of a fit's ``twin_check`` entry (the figure fitted, the twin's): × m as well
#: (the report shows ``measured_waf`` as measured); ``rel_error`` is a ratio, m cancels.
TWIN_CHECK_WAF = ("measured_waf", "twin_waf")


@dataclass(frozen=True)
class Factor:
    """The factor read (``m``, 1 where none applies) and what the prediction's source says."""

    m: float = 1.0
    note: str = ""

    @property
    def applies(self) -> bool:
        return self.m != 1.0


def figure(typed: float | None, measurement: Measurement | None) -> tuple[float | None, str]:
    """The FOB WAF figure and where it comes from: ``--fob-waf`` where typed, else the
    measured FOB segment's (``measurement.json``'s ``fob_waf``), else none."""
    if typed is not None:
        return typed, TYPED
    measured = getattr(measurement, "fob_waf", None)
    return measured, "the measured FOB segment"


def unjudged(points: list[Point], typed: bool, workload: dict[str, Any] | None) -> str:
    """Why the factor's rule did not judge ``points`` (module text, :data:`JUDGED_ON`): figures
    not typed, a workload not uniform, or steady WAF figures at other than two levels; "" where
    it did. ``workload`` as ``workload_options`` gives it (None or {}: uniform random)."""
    if not typed:
        return "the figures are not typed (a TARGET, --resume or --from)"
    if (workload or {}).get("pattern", "uniform") != "uniform" or len(workload or {}) > 1:
        return "the workload is not uniform random"
    from overprov.calibrate.bend_between import at_workload_qd  # noqa: PLC0415 (light import)

    levels = {p.extra_op_percent for p in points if at_workload_qd(p) and p.has_steady_waf}
    if len(levels) != 2:
        return f"steady WAF figures at {len(levels)} levels, not two"
    return ""


def read(fob_waf: float | None, source: str, why_unjudged: str = "") -> Factor:
    """The factor from a FOB WAF figure (None: none given or measured); ``source`` names it
    ("--fob-waf", "the measured FOB segment"); ``why_unjudged`` (:func:`unjudged`), where not
    "", says why a figure that would apply is noted, not applied."""
    if fob_waf is None:
        return Factor()
    if not ENABLED:  # a measured figure unsaid: today's answer, byte for byte
        if source != TYPED:
            return Factor()
        return Factor(note=f"; FOB WAF {fob_waf:.4g} ({source}) not applied "
                           "(metadata_factor.ENABLED off)")  # fmt: skip
    if not M_MIN <= fob_waf <= M_MAX:
        why = "not a steady metadata factor (a write buffer or a cache's transient)"
        return Factor(note=f"; FOB WAF {fob_waf:.4g} ({source}) ignored: outside "
                           f"[{M_MIN:g}, {M_MAX:g}], {why}; docs/calibrate.md")  # fmt: skip
    if fob_waf == 1.0:
        return Factor()
    if source != TYPED and not MEASURED_APPLIES:
        return Factor(note=f"; FOB WAF {fob_waf:.4g} ({source}) not applied: the factor "
                           f"was judged on typed figures only (type it with {TYPED})")  # fmt: skip
    if why_unjudged:
        return Factor(note=f"; FOB WAF {fob_waf:.4g} ({source}) not applied: {JUDGED_ON}, "
                           f"and {why_unjudged}")  # fmt: skip
    return Factor(fob_waf, f"; every WAF carries the metadata factor {fob_waf:.4g} ({source}: "
                           "the FOB WAF): the spare is fitted to WAF ÷ it and the WAF given "
                           "times it; the twins' WAF is without it")  # fmt: skip


def divide(points: list[Point], factor: Factor) -> list[Point]:
    """The points the readings fit: each WAF figure ÷ m, never below 1 (a figure under m is a
    drive writing no more than its metadata there: WAF/m of 1, not a WAF the fit refuses); the
    list itself where m = 1."""
    if not factor.applies:
        return points
    return [
        p if p.waf is None else dataclasses.replace(p, waf=max(1.0, p.waf / factor.m))
        for p in points
    ]


def multiply(pred: Prediction, factor: Factor) -> Prediction:
    """``pred`` with every WAF it gives × m and its source saying so (in place, each level and
    fit once however the readings share them; untouched where m = 1 but for the note of a
    figure not applied). The fitted points are recorded anew (never the ``Point`` itself)."""
    pred.prediction_source += factor.note
    if not factor.applies:
        return pred
    m, seen = factor.m, set()
    rows = [*pred.levels, *(lv for r in pred.readings or [] for lv in r.levels)]
    for lv in rows:
        if id(lv) in seen:
            continue
        seen.add(id(lv))
        for name in WAF_FIELDS:
            value = getattr(lv, name)
            if value is not None:
                setattr(lv, name, value * m)
    for fit in (pred.fit, *(r.fit for r in pred.readings or [])):
        if id(fit) in seen:
            continue
        seen.add(id(fit))
        fit["points"] = [p if p.get("waf") is None else {**p, "waf": p["waf"] * m}
                         for p in fit.get("points", [])]  # fmt: skip
        fit["twin_check"] = [{**c, **{k: c[k] * m for k in TWIN_CHECK_WAF if c.get(k) is not None}}
                             for c in fit.get("twin_check", [])]  # fmt: skip
    pred.fit["metadata_factor"] = m
    return pred
