"""calibrate's one way from points to its answer, whatever the points' source.

A target measured now (TARGET, ``--resume``), a folder measured before (``--from``) and figures
typed in (``--points``, ``--waf-points``) all become one ``predict.PredictionInput`` and go
through :func:`predict`: a measured target's points are read once (the spare fitted, or
held at the raw NAND's with ``--physical``; the twin swept as the target was; when the core
cannot run its blocking-GC twin at a level, its IOPS go unweighed by that reading and the
prediction's source says why), typed figures every way they cannot tell apart
(``spare_readings.read_all``: there a reading the core cannot run is set aside). A measured
target whose plan dated the onset of garbage collection from empty is offered the GC-reserve
reading beside its one reading (``reserve_reading.py``). With ``distance_term.ON`` (off by
default), a prediction one reading carries has its IOPS interval widened with the distance from
the fitted levels (``distance_term.py``). Where typed figures' lowest level is deep and faster
than the FOB–highest line, the prediction's source carries ``bend_between``'s warning (on), and
with ``bend_between.SPAN_TO_LINE`` (off) the IOPS interval between the levels reaches the line;
with ``bend_between.LINE_BETWEEN`` and its gate (on) the IOPS there are the line's where the twin
lies 1.41 times or more above it, read at one level the typed figures fix (10% between 0% and
40%; ``bend_between.GATE_AT_ONE_LEVEL``, on), predicted alone where it is not asked, so the
answer does not depend on which levels are asked. Where typed WAF figures at two levels are
linked alike by d-choices victims with d = 4 and by a GC reserve with a victim floor, the source
carries ``floor_or_choices``' warning (on; a message, figures unchanged), and where the answer
misses a WAF figure it was fitted to by more than its stated error,
``plausibility.fitted_waf_missed``'s (on; a message).
"""

from __future__ import annotations

import dataclasses
import functools
import re

from overprov.calibrate import (
    bend_between,
    distance_term,
    floor_or_choices,
    plausibility,
    reserve_reading,
    spare_readings,
    twin_runs,
)
from overprov.calibrate import predict as predmod
from overprov.calibrate.prediction import PredictedLevel, Prediction
from overprov.errors import ConfigError


def predict(fig: predmod.PredictionInput) -> Prediction:
    """The prediction of ``fig``, its twins held in memory (``Prediction.write`` writes them)."""
    pred = distance_term.apply(_predict(fig), fig.points)
    pred.prediction_source += bend_between.warning(fig)  # WARN_WHERE_BENT: on (mqbend's rule)
    pred.prediction_source += floor_or_choices.warning(fig, pred)  # WARN: on (a message)
    if fig.metadata_factor == 1.0:  # else calibrate's CLI says it × m, of the figures typed
        pred.prediction_source += plausibility.fitted_waf_missed(fig.points, pred)  # on
    # LINE_BETWEEN, LINE_GATE: on (mqgate); GATE_AT_ONE_LEVEL: on (mqfixed)
    alone = functools.cache(lambda x: _level_alone(fig, x))
    gate = bend_between.gate_source(pred.levels, fig, alone)  # before any level moves
    moved = bend_between.line_between(pred.levels, fig, alone)
    pred.prediction_source += bend_between.line_source(moved, fig) + gate
    bend_between.span_to_line(pred.levels, fig)  # SPAN_TO_LINE: off
    return pred


#: The end of ``spare_readings.read_all``'s error where no reading runs at a level asked: not
#: said of the gate's level, which the user did not ask.
_LEAVE_OUT = re.compile(r"; no reading of the figures can be simulated at [^;]*extra OP: "
                        r"leave that level out of --extra-op$")  # fmt: skip


def _level_alone(
    fig: predmod.PredictionInput, x: float
) -> PredictedLevel | bend_between.NotPredicted:
    """The prediction at level ``x`` alone, where ``bend_between``'s gate reads a level not
    asked: ``fig``'s figures read again with ``x`` the only level (the twins' runs of ``fig``
    reused). It is what :func:`predict`
    gives at ``x`` among other levels where the same readings are simulated (on u320x32 to every
    digit, bench/foreign/results/mqfixed/RULE.md); it differs where the core rejects a
    reading's twin at an asked level (set aside there, ``spare_readings.read_all``, and kept
    here) or at ``x`` alone (the reverse), the weights then shared among other readings. Where
    no reading can be simulated at ``x``: :class:`bend_between.NotPredicted` with the core's
    reason, and the gate stays closed. Its cost: a second ``spare_readings.read_all``
    (weighing, fit, blocking-GC fits, bootstrap, refinement from the runs kept, the twins at
    ``x``), measured with bench/cpu_clock.py around this call (one job, 2-core x86_64 VM,
    2026-11-29): u320x32 asked 0, 20, 40%, 2.5 of 10.0 CPU s. Reusing the blocking-GC fits would
    take a store passed through ``fig`` as the twins' runs are (not built)."""
    alone = dataclasses.replace(fig, levels=[x])
    twin_runs.say(fig.progress, f"the line's gate: {x:g}% extra OP predicted apart")
    try:
        return distance_term.apply(_predict(alone), alone.points).levels[0]
    except ConfigError as exc:
        return bend_between.NotPredicted(_LEAVE_OUT.sub("", str(exc)))


def _predict(fig: predmod.PredictionInput) -> Prediction:
    if fig.typed:
        return spare_readings.read_all(fig)
    reading = predmod.TwinReading(native_op=fig.raw_native_op)
    # one reading: a blocking-GC twin the core cannot run leaves its IOPS unweighed, said why
    ready = predmod.prepare(fig, reading, blocking_optional=True)
    plain = predmod.read(fig, reading, ready.curve, ready)
    # with an onset of garbage collection from empty: the reserve reading weighed beside it
    return reserve_reading.predict(fig, reading, ready, plain)
