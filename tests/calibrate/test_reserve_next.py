"""The next reserve reading by weight where the heaviest reserve twins are set aside
(calibrate/reserve_next.py, ``NEXT_READING`` off, read only with ``steep_pair.READ_AS_FLOOR``):
the order the readings are tried in, on the typed figures of a fresh FEMU drive whose heaviest
reserve twin was set aside (bench/foreign/results/femutyped/after_verdict.txt), with the twins
stubbed (milliseconds; the real twins run in bench/foreign/results/femunext/seen-on/). Each test
pins femucarry's six flags off (``femucarry_off``) and sets ``READ_AS_FLOOR`` as it names it: on
by default since bench/foreign/results/femumedian/verdict.md, the six weigh the three selective
designs' reserve readings alike on these figures, so no reading is set below the span."""

from __future__ import annotations

import pytest
from overprov.calibrate import (
    cli,
    reserve_hull,
    reserve_next,
    spare_readings,
    steep_pair,
    uncertainty,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod

pytestmark = pytest.mark.usefixtures("femucarry_off")

#: FEMU 45 LUNs × 36 blocks, threshold 71 (femutyped/fresh): the floor holds through 10%
FEMU_45LUN = cli.user_points("0:22203,40:103714,40:18742@qd4", "0:8.004,40:1.580")
FEMU_45LUN = [*FEMU_45LUN, fitmod.Point(0.0, 160068, cli.USER_POINT_REL_SD, fresh=True)]


def _fig() -> predmod.PredictionInput:
    return predmod.PredictionInput(
        list(FEMU_45LUN), [0.0, 10.0, 20.0, 30.0, 40.0], typed=True, fob_iops=160068,
        model_form=uncertainty.model_form_for(FEMU_45LUN, False),
    )  # fmt: skip


class _Twin:
    """A stand-in prediction: its design, and whether its twin misses a WAF figure."""

    def __init__(self, design: str, misses: bool) -> None:
        self.design, self.misses, self.prediction_source = design, misses, ""


def _stub_twins(monkeypatch, missing: set[str]) -> list[str]:
    """predict's prepare and read stubbed (no simulation); the designs in ``missing`` have twins
    that miss a WAF figure. Returns the designs read, in order."""
    tried: list[str] = []

    def read(fig, r, curve, ready):
        tried.append(r.design)
        return _Twin(r.design, r.design in missing)

    monkeypatch.setattr(predmod, "prepare", lambda fig, r, curve: None)
    monkeypatch.setattr(predmod, "read", read)
    monkeypatch.setattr(reserve_hull, "twin_miss", lambda p: "misses" if p.misses else None)
    return tried


def _weighed(monkeypatch):
    """The figures weighed with READ_AS_FLOOR on, as ``spare_readings.read_all`` weighs them:
    the evidences, every reading's weight and those below the span (none simulated yet)."""
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", True)
    fig = _fig()
    evidences, curves = spare_readings.weigh(fig)
    within = spare_readings.class_weights(evidences)
    w_all = spare_readings.shared_weights(within, spare_readings.raw_share(evidences, within)[0])
    top = max(within.values())
    low = {r for r in evidences if within[r] < spare_readings.SPAN_MIN_WEIGHT * top}
    heaviest = max(evidences, key=lambda r: within[r])
    return fig, evidences, curves, w_all, low, heaviest


def test_the_heaviest_reserve_reading_is_the_gentlest_design_the_next_greedy(monkeypatch):
    _, evidences, _, w_all, low, heaviest = _weighed(monkeypatch)
    assert {r.spare for r in evidences} == {predmod.RESERVE}
    assert heaviest.design == "d-choices-4"  # its twin missed the 0% floor (after_verdict.txt)
    assert low == set(evidences) - {heaviest}
    after = sorted(low, key=lambda r: -w_all[r])
    assert [r.design for r in after] == ["greedy", "d-choices-8"]


def _go_on(monkeypatch, on: bool, missing: set[str]):
    """``reserve_next.go_on`` after the heaviest reserve twin was set aside, the twins stubbed
    (``missing``: the designs whose twins miss): what it returns, the designs read in order,
    and the readings, set-aside twins and low readings it leaves."""
    fig, evidences, curves, w_all, low, heaviest = _weighed(monkeypatch)
    tried = _stub_twins(monkeypatch, missing)
    monkeypatch.setattr(reserve_next, "NEXT_READING", on)
    readings: dict = {}
    missed = {heaviest: "its twin misses"}
    out = reserve_next.go_on(fig, evidences, w_all, low, {}, missed, readings, curves)
    return out, w_all, tried, readings, missed, low


def test_off_tries_nothing_more(monkeypatch):
    out, w_all, tried, readings, _, _ = _go_on(monkeypatch, False, set())
    assert out is w_all and readings == {} and tried == []


def test_without_read_as_floor_tries_nothing_more(monkeypatch):
    fig, _, _, _, _, heaviest = _weighed(monkeypatch)
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", False)
    monkeypatch.setattr(reserve_next, "NEXT_READING", True)
    assert not reserve_next.applies(fig, {}, {heaviest: "its twin misses"})


def test_on_the_next_reading_whose_twin_passes_answers_with_the_class_weight(monkeypatch):
    out, w_all, tried, readings, missed, low = _go_on(monkeypatch, True, set())
    assert tried == ["greedy"]  # the next by weight; d-choices-8 is not simulated
    (answer,) = readings
    assert answer.design == "greedy" and answer not in low
    assert out[answer] == pytest.approx(sum(w_all.values()))  # the class's whole share
    assert [r.design for r in low] == ["d-choices-8"]
    assert [r.design for r in missed] == ["d-choices-4"]


def test_on_a_twin_that_misses_too_is_set_aside_and_the_next_one_tried(monkeypatch):
    _, _, tried, readings, missed, low = _go_on(monkeypatch, True, {"greedy"})
    assert tried == ["greedy", "d-choices-8"]
    assert [r.design for r in readings] == ["d-choices-8"]
    assert {r.design for r in missed} == {"d-choices-4", "greedy"} and low == set()


def test_on_where_every_twin_misses_nothing_answers(monkeypatch):
    out, w_all, _, readings, missed, _ = _go_on(monkeypatch, True, {"greedy", "d-choices-8"})
    assert readings == {} and out is w_all and len(missed) == 3  # calibrate refuses, as before


def test_the_warning_changes_where_the_reserve_readings_answer(monkeypatch):
    """Plain readings: WARNING_ALONE; read as a floor (READ_AS_FLOOR): WARNING_AS_FLOOR, the
    other reading still fits (was silent before steep_pair.WARNING_AS_FLOOR)."""
    monkeypatch.setattr(steep_pair, "WARN_WHERE_AMBIGUOUS", True)
    fig = _fig()
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", False)
    plain, _ = spare_readings.weigh(fig)
    assert reserve_hull.ambiguity_warning(fig, plain) == f"; {steep_pair.WARNING_ALONE}"
    monkeypatch.setattr(steep_pair, "READ_AS_FLOOR", True)
    reserve, _ = spare_readings.weigh(fig)
    assert reserve_hull.ambiguity_warning(fig, reserve) == f"; {steep_pair.WARNING_AS_FLOOR}"
