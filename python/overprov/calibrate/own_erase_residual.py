"""An erase-cost reading's model-form error from its own residual (off by default).

calibrate's interval for typed figures widens each reading's bootstrap band by a model-form
relative sd ``scale · hypot(floor, R)``, R the residual sd of the *greedy* surrogate on the
fitted figures (``uncertainty.model_form_for``). An erase-cost reading (``erase_reading.py``) is
offered only where no plain reading reproduces the figures, and there the greedy residual is
mostly the erase cost itself: FOB lies far above the steady line the greedy form draws through
it. On the scoreboard's NVMeVirt cases that residual is 0.11-0.39, the model-form term 37% of a
40% median width, and the truths use a median 0.04 of the half-width on their side
(bench/foreign/results/scorenarrow/widths.md).

With :data:`ON`, an erase-cost reading's residual is instead its own on the same figures
(``uncertainty.surrogate_residual_sd`` of the reading's surrogate, t_erase counted as a fitted
parameter as ``erase_reading.assess`` counts it), the scale unchanged: a reading that the
evidence weighs as reproducing the figures the plain ones miss is widened by what it misses.
Calibrate computes it from its readings: no family label. Plain readings, reserve readings and
figures that leave nothing to miss keep their form. The rule that judges it:
bench/foreign/results/formterm/RULE.md.
"""

from __future__ import annotations

from overprov.calibrate import fit as fitmod
from overprov.calibrate import own_residual, uncertainty

#: Off: an erase-cost reading is widened by the greedy surrogate's residual, as every reading.
ON = False


def erase_reading_form(
    form: uncertainty.ModelForm | None,
    central: fitmod.Surrogate,
    points: list[fitmod.Point],
    n_parameters: int,
) -> uncertainty.ModelForm | None:
    """With :data:`ON`, ``form`` (set by the greedy fit's residual) with its residual that of the
    erase-cost reading's surrogate ``central`` on the figures it was fitted to
    (``uncertainty.surrogate_residual_sd`` over ``points`` at the workload's queue depth,
    ``n_parameters`` t_erase included), the scale unchanged. ``form`` itself when the flag is
    off, when it is not set by a residual (the distance rule) or when the reading's figures
    leave it nothing to miss."""
    if not ON:
        return form
    return own_residual.with_own_residual(
        form, central, points, n_parameters, "the erase-cost reading"
    )
