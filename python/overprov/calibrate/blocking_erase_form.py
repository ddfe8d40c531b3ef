"""The analytic reading weighed against the blocking-GC one with FOB read by the erase-cost
form: a steady write pays the erases (and a moved page's read) that a fresh drive does not.

**Why** (bench/foreign/results/wisctiming/diagnose.log, seen WiscSim drives). WiscSim's
flash (bench/foreign/wiscsee.py) holds a channel t_PROG for a program, t_R for a read and
t_BERS (1.5 ms) for an erase; its GC moves each valid page (read, program) and erases the
victim. So a steady host write costs WAF·(t_PROG + t_R + t_BERS/pages a block) − t_R of
channel time and a fresh-out-of-box one t_PROG alone: FOB lies below the steady line's WAF-1
value by the erase share (25–38% faster on the seen drives). The refined twin of the greedy
reading follows WiscSim's steady IOPS at every level within ~3% when greedy's WAF is right,
but ``blocking_reading.weigh`` scores the analytic reading by the plain surrogate
(``t_cmd + WAF·t_page`` with FOB a point of that line), which cannot hold FOB, 0% and 40%
together; its χ² (residuals and leave-one-out) then exceeds the blocking-GC reading's and
the blocking-GC reading takes the IOPS (weight ≈ 1), though it misses the held-out levels
by up to 15%.

**What.** With :data:`ON`, the analytic reading's evidence in that weighing
(``closed_loop.assess``) is that of its erase-cost form (``erase_reading.erase_form``:
FOB = t_cmd + t_page − t_erase, t_erase ≥ 0 the FOB figures' gap below the steady line),
t_erase counted as one more fitted parameter, where its fit reads a positive t_erase, the
reading is not an erase-cost twin already, and that form's χ² with :data:`PARAMETER_CHARGE`
added is lower than the plain one's: the analytic reading in the form its figures read
better, t_erase charged as Akaike charges a parameter. (With FOB spent on t_erase a steady
figure's leave-one-out has one steady IOPS figure fewer: on SSDsim's drives, FOB a few µs
below the line, the erase-cost form's χ² is the higher; on NVMeVirt's, FOB under 2 µs below
it, the lower by about what fitting FOB exactly gives.) Elsewhere (FOB on or above the
line, no FOB figure, :data:`ON` off) it is the plain form's, figure for figure. The twins,
the readings' own weights and their IOPS are not changed, only the weight the blocking-GC
reading takes from the analytic one — and the closed-loop record the prediction reports for
the analytic reading (its units and FOB time), which is the erase-cost form's where it is used
(as its rule judged it). A plain reading weighed in that form is charged t_erase as one more
parameter; an erase-cost twin's own form already fits it, and is charged as its reading is.

Chosen on seen cases (WiscSim E, G, A) and weighed with ``evidence.WAF_WEIGHTS`` under
bench/foreign/results/wisctiming/RULE.md, committed before its fresh truths and arms: met (on
the 72 scoreboard truths no target lost, 55 meeting both against 51; on fresh WiscSim O, P,
DiskSim and NVMeVirt no figure up by more than 1 point): on by default, with it.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any

from overprov.calibrate import closed_loop as loopmod
from overprov.calibrate import erase_reading, evidence
from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError

#: Weigh the analytic reading against the blocking-GC one in the erase-cost form where FOB
#: lies below its steady line (module doc). On by bench/foreign/results/wisctiming/RULE.md
#: (with ``evidence.WAF_WEIGHTS``); off: the plain form, as before.
ON = True
#: What the erase-cost form's χ² must beat the plain form's by to be used: 2, the charge of
#: one fitted parameter (t_erase) in Akaike's criterion (χ² + 2k).
PARAMETER_CHARGE = 2.0


@dataclasses.dataclass(frozen=True, eq=False, kw_only=True)
class FittedEraseForm(erase_reading.EraseForm):
    """The erase-cost form of a reading fitted once to its figures (:func:`erase_fit`): that fit
    is reused wherever the assessment fits the same figures again; fits of fewer (leave-one-out)
    are made as the form makes them."""

    points: tuple[fitmod.Point, ...]
    central: fitmod.Surrogate

    # equal only to itself: EraseForm's __eq__/__hash__ (eq=False leaves them inherited) would
    # compare only curve, native_op and fit_efficiency, so two fits of different figures would
    # be equal
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def fit(self, points: list[fitmod.Point]) -> fitmod.Surrogate:
        if len(points) == len(self.points) and all(map(operator.is_, points, self.points)):
            return self.central
        return super().fit(points)


def erase_fit(form: evidence.ReadingForm, points: list[fitmod.Point]) -> FittedEraseForm | None:
    """The erase-cost form of ``form`` with its one fit of ``points``: None where there is no
    FOB figure or the fit fails."""
    if not erase_reading.has_fob_figure(points):
        return None
    erased = erase_reading.erase_form(form)
    try:
        central = erased.fit(points)
    except ConfigError:
        return None
    return FittedEraseForm(
        erased.curve, erased.native_op, erased.fit_efficiency, points=tuple(points), central=central
    )


def erase_us_per_page(form: evidence.ReadingForm, points: list[fitmod.Point]) -> float:
    """The t_erase (µs a page) the erase-cost form of ``form`` reads from ``points``: 0 where
    there is no FOB figure, FOB lies on or above the steady line, or the fit fails."""
    fitted = erase_fit(form, points)
    return fitted.central.erase_us_per_page if fitted else 0.0


def _applied(form: evidence.ReadingForm, points: list[fitmod.Point]) -> FittedEraseForm | None:
    """The erase-cost form, fitted, where :func:`applies`; None elsewhere."""
    if not ON or isinstance(form, erase_reading.EraseForm):
        return None
    fitted = erase_fit(form, points)
    return fitted if fitted and fitted.central.erase_us_per_page > 0 else None


def applies(form: evidence.ReadingForm, points: list[fitmod.Point]) -> bool:
    """Whether the weighing reads the analytic reading in the erase-cost form: :data:`ON`,
    the reading not an erase-cost twin already, and a positive t_erase read."""
    return _applied(form, points) is not None


def assess(
    form: evidence.ReadingForm, points: list[fitmod.Point], *weighing: Any
) -> tuple[dict[str, Any], Any]:
    """``closed_loop.assess(form, points, *weighing)`` (``weighing``: its model-form sd, the
    figures at other queue depths and the workload's queue depth) of the analytic reading; in
    its erase-cost form where :func:`applies` and that form's χ² plus :data:`PARAMETER_CHARGE`
    is the lower (t_erase one more fitted parameter, ``erase_form`` noting it). The erase-cost
    form is fitted to ``points`` once: the fit that reads t_erase is the assessment's."""
    plain = loopmod.assess(form, points, *weighing)
    fitted = _applied(form, points)
    if fitted is None:
        return plain
    erased, queue = loopmod.assess(fitted, points, *weighing)
    if not erased["chi2"] + PARAMETER_CHARGE < plain[0]["chi2"]:
        return plain
    return {**erased, "n_parameters": erased["n_parameters"] + 1, "erase_form": True}, queue
