"""The QD4 probe's window over whole collector cycles (``plan.PROBE_WHOLE_CYCLES``, off by
default): bench/results/probe40/DIAGNOSIS.md and RULE.md."""

from __future__ import annotations

import pytest
from overprov.calibrate import plan as planmod
from overprov.calibrate.plan import Budget, MeasurementPlan, design, segments_for, with_probe


def _plan() -> MeasurementPlan:
    return MeasurementPlan(budget=Budget(), round_drive_writes=0.0125, window_rounds=8,
                           segments=segments_for([0.0, 40.0]))  # fmt: skip


def test_default_probe_window_is_four_half_rounds() -> None:
    assert planmod.PROBE_WHOLE_CYCLES is False
    probe = with_probe(_plan(), 4).probe
    assert probe is not None
    assert probe.window_rounds == 4
    assert probe.round_drive_writes == pytest.approx(0.00625)
    assert probe.max_drive_writes == pytest.approx(0.025)
    assert probe.queue_depth == 4 and probe.extra_op_percent == 40.0


def test_whole_cycles_probe_takes_the_plans_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(planmod, "PROBE_WHOLE_CYCLES", True)
    p = _plan()
    probe = with_probe(p, 4).probe
    assert probe is not None
    assert probe.window_rounds == p.window_rounds == 8
    assert probe.round_drive_writes == pytest.approx(p.round_drive_writes)
    assert probe.max_drive_writes == pytest.approx(0.1)
    # the plan's window for the probe (round share as its own) is four times the default's
    assert with_probe(p, 4).window_drive_writes(probe) == pytest.approx(0.1)


def test_whole_cycles_graded_design_keeps_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    off = design([0, 10, 20, 30, 40], Budget(drive_writes=2.0))
    monkeypatch.setattr(planmod, "PROBE_WHOLE_CYCLES", True)
    on = design([0, 10, 20, 30, 40], Budget(drive_writes=2.0))
    assert off.probe is not None and on.probe is not None
    assert on.window_drive_writes(on.probe) == pytest.approx(4 * off.window_drive_writes(off.probe))
    assert on.planned_drive_writes() <= 2.0 + 1e-9
    # the levels are the same; only the probe's window (and the levels' share of what is left)
    assert [s.extra_op_percent for s in on.segments] == [s.extra_op_percent for s in off.segments]
