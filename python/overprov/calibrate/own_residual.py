"""A reading's model-form term from its own residual, not the greedy fit's.

calibrate widens each reading's bootstrap band by a model-form relative sd set by the residual
of the *greedy* surrogate on the fitted figures (``uncertainty.model_form_for``, rule 3 of
``uncertainty.py``). Here that residual is instead the reading's own on the same figures
(:func:`with_own_residual`): for the GC-reserve reading (:func:`reserve_reading_form`, with
``reserve_transition.TRANSITION_TERM`` on by default, and :data:`OWN_RESERVE_RESIDUAL`, off:
bench/intervals/RULE-widthfemu.md, not met) and for the erase-cost reading
(``own_erase_residual.py``, off).
"""

from __future__ import annotations

import math
from dataclasses import replace

from overprov.calibrate import evidence, reserve_transition
from overprov.calibrate import fit as fitmod
from overprov.calibrate.gc_reserve import ReserveForm, onset_spare_factor
from overprov.calibrate.uncertainty import ModelForm, surrogate_residual_sd

#: Off: a measured target's reserve reading (``gc_reserve.py``, ``reserve_reading.py``) is
#: widened by the model-form error of the greedy surrogate's residual, as every reading
#: (``uncertainty.model_form_for``). On: by that reading's own residual on the same figures as
#: measured (:func:`own_reserve_form`). The rule that judged it: bench/intervals/RULE-widthfemu.md
#: (not met). ``reserve_transition.TRANSITION_TERM`` (on by default) turns it on with its own
#: term.
OWN_RESERVE_RESIDUAL = False


def own_reserve_form(
    form: ModelForm | None,
    central: fitmod.Surrogate,
    points: list[fitmod.Point],
    n_parameters: int,
    onset_log_error: float | None,
) -> ModelForm | None:
    """With :data:`OWN_RESERVE_RESIDUAL` (or ``reserve_transition.TRANSITION_TERM``) on,
    ``form`` (set by the greedy fit's residual) with its residual that of the reserve
    reading's surrogate ``central`` on the figures it was fitted to
    (``uncertainty.surrogate_residual_sd`` over ``points`` at the workload's queue depth as
    measured, not as ``discard_transient`` tolerates them, and the onset of garbage collection
    from empty, ``onset_log_error``; ``n_parameters`` as ``evidence.n_parameters`` counts them),
    the scale unchanged. ``form`` itself when the flag is off, when it is not set by a
    residual (the distance rule) or when the reading's figures leave it nothing to miss."""
    if not (OWN_RESERVE_RESIDUAL or reserve_transition.TRANSITION_TERM):
        return form
    more = () if onset_log_error is None else (onset_log_error,)
    return with_own_residual(form, central, points, n_parameters, "the GC-reserve reading", more)


def with_own_residual(
    form: ModelForm | None,
    central: fitmod.Surrogate,
    points: list[fitmod.Point],
    n_parameters: int,
    reading: str,
    more_log_errors: tuple[float, ...] = (),
) -> ModelForm | None:
    """``form`` with its residual that of a reading's surrogate ``central`` (named ``reading``
    in its source) on the figures it was fitted to (``uncertainty.surrogate_residual_sd`` over
    ``points`` at the workload's queue depth and ``more_log_errors``), the scale unchanged;
    ``form`` itself when it is not set by a residual or the figures leave nothing to miss."""
    if form is None or form.residual_sd is None:
        return form
    pts = [p for p in points if p.queue_depth is None]
    own = surrogate_residual_sd(central, pts, n_parameters, more_log_errors)
    if own is None:
        return form
    return replace(
        form, residual_sd=own, source=form.source + f"; the residual that of {reading} itself"
    )


def reserve_reading_form(
    form: ModelForm | None,
    central: fitmod.Surrogate,
    points: list[fitmod.Point],
    reserve: ReserveForm,
) -> ModelForm | None:
    """:func:`own_reserve_form` for the GC-reserve reading ``reserve`` (its parameters as
    ``evidence.n_parameters`` counts them; the onset from empty it was fitted to, if any); with
    ``reserve_transition.TRANSITION_TERM`` on, its own residual and the term where it leaves
    its floor (bench/intervals/RULE-widthtrans.md)."""
    on = reserve.onset
    onset_log_error = math.log(onset_spare_factor(central) / on) if on else None
    n = evidence.n_parameters(central, reserve)
    own = own_reserve_form(form, central, points, n, onset_log_error)
    edge = reserve_transition.floor_edge(central)
    if not reserve_transition.TRANSITION_TERM or own is None or own.residual_sd is None or not edge:
        return own
    return replace(
        own, edge=edge, source=own.source + "; a term where the reading leaves its victim floor"
    )
