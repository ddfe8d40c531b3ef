"""Where typed figures are read as a GC reserve (``steep_pair.READ_AS_FLOOR``) and every reserve
reading whose twin was simulated is set aside, the next reserve reading by weight whose twin
reproduces its figures answers (:data:`NEXT_READING`, off).

**Why.** With ``steep_pair.READ_AS_FLOOR`` the reserve readings of the uniform designs replace
the effective-spare ones and are weighed among themselves by χ², still the leave-one-out's, which
two levels leave blind to the floor (``steep_pair.py``). On two fresh FEMU drives
(bench/foreign/results/femutyped/verdict.md: 45 LUNs × 36 blocks, 49 × 34) it gave the weight to
the gentlest design called for (d-choices-4, d-choices-2), whose surrogate holds the 0% floor
only by its cap; their twins missed the 0% WAF (5.26 and 3.99 for 8.00) and were set aside by
``reserve_twin_check.twin_misses_its_waf``, and the readings below ``evidence.SPAN_MIN_WEIGHT``
of the largest had never been simulated, so calibrate refused.

**What** (:func:`go_on`). With :data:`NEXT_READING` and ``steep_pair.READ_AS_FLOOR`` firing on
the figures (``reserve_hull.replaces_plain``), where no reserve reading's twin is left after
the twin check: the reserve readings not simulated for their weight are simulated one at a
time, heaviest first, and the first whose twin reproduces its WAF figures answers, with the
weight its class had (the others stay set aside with their reasons). If none does, calibrate
refuses as before. Nothing else changes: where a reserve twin passes, or the flag is off, no
reading more is simulated. Judged with ``READ_AS_FLOOR`` under
bench/foreign/results/femunext/RULE.md: **not met**, so both off
(bench/foreign/results/femunext/verdict.md): of four fresh FEMU drives none meets both targets;
on the three ``READ_AS_FLOOR`` reads, greedy's reserve reading answers (on one through this
fallback) and misses WAF at 20% by +9.3 to +18.1%."""

from __future__ import annotations

from typing import Any

from overprov.calibrate import erase_reading, evidence, reserve_hull, twin_runs, uncertainty
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import Prediction
from overprov.errors import ConfigError

#: Where every simulated reserve twin of ``steep_pair.READ_AS_FLOOR``'s reading is set aside, go
#: on to the next reserve reading by weight whose twin reproduces its figures (module doc). Off:
#: calibrate refuses there, as before.
NEXT_READING = False


def applies(fig: predmod.PredictionInput, readings: dict[predmod.TwinReading, Prediction],
            missed: dict[predmod.TwinReading, str]) -> bool:  # fmt: skip
    """:data:`NEXT_READING` on, a reserve twin set aside (``missed``) and none left among the
    twins that ran (``readings``), and ``steep_pair.READ_AS_FLOOR`` reading the figures."""
    return (
        NEXT_READING
        and bool(missed)
        and not any(r.spare == predmod.RESERVE for r in readings)
        and reserve_hull.replaces_plain(fig, uncertainty.weighing_rel_sd(fig.model_form))
    )


def go_on(
    fig: predmod.PredictionInput,
    evidences: dict[predmod.TwinReading, dict[str, Any]],
    w_all: dict[predmod.TwinReading, float],
    low: set[predmod.TwinReading],
    rejected: dict[predmod.TwinReading, Any],
    missed: dict[predmod.TwinReading, str],
    readings: dict[predmod.TwinReading, Prediction],
    design_curve: dict[str, Any],
) -> dict[predmod.TwinReading, float]:
    """Where :func:`applies`, the reserve readings left out by weight (``low``: below
    ``evidence.SPAN_MIN_WEIGHT`` of the largest) simulated heaviest first until one's twin
    reproduces its WAF figures (ties by χ²); each one tried leaves ``low`` for ``rejected``
    (the simulator cannot run it), ``missed`` (its twin misses a WAF figure) or ``readings``
    (it answers). Returns the weights with the answering reading given its class's share
    (``w_all`` unchanged where nothing answers or :func:`applies` does not)."""
    if not applies(fig, readings, missed):
        return w_all
    nxt = [r for r in low if r.spare == predmod.RESERVE]
    nxt.sort(key=lambda r: (-w_all[r], evidences[r]["chi2"], r.design))
    for i, r in enumerate(nxt):
        low.discard(r)
        say = f"the next GC-reserve reading ({i + 1} of {len(nxt)}, {r.design}): its twin"
        twin_runs.say(fig.progress, f"{say} simulated at {len(set(fig.levels))} levels")
        curve = reserve_hull.curve_of(r, design_curve[r.design])
        try:
            with erase_reading.fitting(r.erase):
                pred = predmod.read(fig, r, curve, predmod.prepare(fig, r, curve))
        except predmod.TwinConfigError as exc:
            rejected[r] = exc
            continue
        except ConfigError as exc:
            missed[r] = f"its twin could not be simulated: {exc}"
            continue
        if (why := reserve_hull.twin_miss(pred)) is not None:
            missed[r] = why
            continue
        readings[r] = pred
        ours = predmod.EFFECTIVE  # the class the reserve readings are weighed in
        share = sum(w for k, w in w_all.items() if reserve_hull.class_of(k.spare) == ours)
        kept = [k for k in readings if k.spare == predmod.RESERVE]
        w = evidence.weights_of({k: evidences[k] for k in kept})
        return {**w_all, **{k: share * w[k] for k in kept}}
    return w_all
