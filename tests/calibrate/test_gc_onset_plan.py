"""The plan's onset of garbage collection from empty (calibrate/gc_onset.py): the FOB's random
writes run on until the write counters show the first garbage-collection copy."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from overprov import measurement_file
from overprov.calibrate import gc_onset, plan
from overprov.calibrate.graded_run import SPARE_FROM_EMPTY, SPARE_ONSET
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import Budget, design, parse_budget, with_onset_step
from overprov.measurement_file import Round
from overprov.profile.sim_target import SimTarget

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gc_onset_plan_bench import first_copy_from_empty  # noqa: E402  (bench/: the simulator's count)

DRIVE = "sim:consumer-tlc-sata@1GiB"


def _step_plan() -> plan.MeasurementPlan:
    """The graded plan at 4 drive writes with the onset step (``plan.with_onset_step``; the
    graded plan's own way is the graded fill, ``test_gc_onset_fill.py``)."""
    graded = design([0, 40], parse_budget("4dw"), precondition="graded", onset_from_empty=False)
    return plan.fit_to_budget(with_onset_step(graded), 4.0)


def test_the_onset_the_plan_dates_is_the_simulators_first_copy(tmp_path):
    """Through the real pipeline (design, measure, a simulated drive seen only through its
    write counters), the onset from empty equals the host writes to the simulator's first
    garbage-collection copy within one of the step's rounds; the rest of the plan runs as
    before, and the measurement file keeps the figure."""
    p = _step_plan()
    assert p.onset_from_empty and "until garbage collection starts" in p.text()
    said: list[str] = []
    with SimTarget(DRIVE) as t:
        m = measure(t, p, said.append)
    truth, resolution = first_copy_from_empty(DRIVE)
    assert m.onset_source == gc_onset.ONSET_FROM_EMPTY
    assert abs(m.onset_spare_factor - truth) <= gc_onset.ONSET_ROUND_DRIVE_WRITES + resolution
    # the first level's graded rounds write the free space the onset gave (less the fill)
    # once, without sweeps; about what the sweeps find after a fill without the step
    assert m.spare_source == SPARE_FROM_EMPTY
    assert m.spare_drive_writes == pytest.approx(m.onset_spare_factor - 1)
    graded = sum(r.bytes_written for r in m.rounds if r.label.startswith("op0-g1"))
    assert graded / m.capacity_bytes == pytest.approx(m.spare_drive_writes, abs=0.005)
    assert not any(r.label.startswith("op0-s") for r in m.rounds)
    with SimTarget(DRIVE) as t:
        without = measure(t, replace(p, onset_from_empty=False))
    assert without.spare_source == SPARE_ONSET
    assert m.spare_drive_writes == pytest.approx(without.spare_drive_writes, abs=0.01)
    onset_rounds = [r for r in m.rounds if r.label.startswith("onset-")]
    written = sum(r.bytes_written for r in onset_rounds) / m.capacity_bytes
    assert written == pytest.approx(m.onset_spare_factor - p.fob_drive_writes, abs=0.02)
    assert m.drive_writes <= 4.0 and m.fill_done and len(m.levels) == 3
    assert any("onset of garbage collection from empty: after" in s for s in said)
    path = tmp_path / "measurement.json"
    measurement_file.save(m, path)
    back = measurement_file.load(path)
    assert back.onset_spare_factor == m.onset_spare_factor
    assert back.onset_source == m.onset_source
    assert plan.plan_of(back).onset_from_empty


def test_the_step_ends_at_its_cap_with_a_lower_bound():
    p = replace(
        _step_plan(),
        onset_max_drive_writes=0.5,
    )
    with SimTarget(DRIVE) as t:
        m = measure(t, p)
    assert m.onset_source == gc_onset.ONSET_LOWER_BOUND
    assert 0.5 <= m.onset_spare_factor < 0.5 + 2 * gc_onset.ONSET_ROUND_DRIVE_WRITES


class _NoCounters(SimTarget):
    def write_counters(self):  # type: ignore[override]
        return None


def test_without_write_counters_there_is_no_step():
    p = _step_plan()
    assert not design([0, 40], parse_budget("4dw"), write_counters=False,
                      onset_from_empty=True).onset_from_empty  # fmt: skip
    with _NoCounters(DRIVE) as t:
        m = measure(t, p)
    assert m.onset_source == gc_onset.ONSET_NO_COUNTERS and m.onset_spare_factor is None
    assert not any(r.label.startswith("onset-") for r in m.rounds)


@pytest.mark.parametrize("flag", [False, True])
def test_the_plan_takes_the_step_only_where_the_budget_holds_it(monkeypatch, flag):
    """About a drive write more: the random plan at 4 drive writes holds it (the graded plan
    dates the onset in its fill instead, ``test_gc_onset_fill.py``); without
    ``onset_from_empty`` the graded plan's fill follows ``plan.ONSET_FROM_EMPTY`` (either way
    here) and the random plan takes no step: it is asked for."""
    monkeypatch.setattr(plan, "ONSET_FROM_EMPTY", flag)
    assert not design([0, 40], parse_budget("6dw")).onset_from_empty
    assert design([0, 40], parse_budget("2dw")).fill_hazard == (plan.FILL_HAZARD if flag else 0)
    assert not design([0, 40], parse_budget("6dw"), onset_from_empty=False).onset_from_empty
    assert not design([0, 40], parse_budget("4dw"), precondition="graded").onset_from_empty
    assert not design([0, 40], parse_budget("4dw"), onset_from_empty=True).onset_from_empty
    assert design([0, 40], parse_budget("6dw"), onset_from_empty=True).onset_from_empty
    graded = design([0, 40], parse_budget("3.2dw"), onset_from_empty=True)
    assert not graded.onset_from_empty and graded.fill_hazard == plan.FILL_HAZARD
    four = _step_plan()
    step = four.onset_step_drive_writes(expected=True)
    assert step == pytest.approx(plan.ONSET_EXPECTED_DRIVE_WRITES - four.fob_drive_writes)
    without = replace(four, onset_from_empty=False)
    assert four.minimum_drive_writes() == pytest.approx(without.minimum_drive_writes() + step)
    assert four.planned_drive_writes() <= 4.0


def _rounds(deltas: list[tuple[int, int]]) -> gc_onset.OnsetDating:
    dating = gc_onset.OnsetDating(1000)
    host = nand = 0
    before = Round("r", 0.0, 1.0, 0, 1.0, None, host_bytes=0, nand_bytes=0)
    for dh, dn in deltas:
        host, nand = host + dh, nand + dn
        r = Round("r", 0.0, 1.0, dh, 1.0, None, host_bytes=host, nand_bytes=nand)
        dating.add(before, r)
        before = r
    return dating


def test_the_onset_is_read_at_the_middle_of_the_round_where_the_excess_began():
    # 1000-byte drive, rounds of 10 bytes: the excess begins in the 9th round (80 → 90)
    dating = _rounds([(10, 10)] * 8 + [(10, 13), (10, 12)])
    assert dating.spare_factor == pytest.approx(0.085)
    assert not dating.early
    assert _rounds([(10, 10)] * 8).spare_factor is None
    early = _rounds([(10, 15)] * 3)
    assert early.early and early.spare_factor is None


def test_a_budget_spent_in_the_step_stops_and_a_resumed_run_says_it_has_no_onset():
    """The step counts host writes from the purge: a run resumed after it (its FOB kept) is no
    longer from empty, so it records no onset and says why."""
    p = _step_plan()
    with SimTarget(DRIVE) as t:
        m = measure(t, replace(p, budget=Budget(drive_writes=0.5)))
    assert "before the onset of garbage collection" in (m.stop_reason or "")
    assert m.onset_source is None and m.drive_writes <= 0.5
    with SimTarget(DRIVE) as t:
        m = measure(t, p, resume=m)
    assert m.onset_source == gc_onset.ONSET_RESUMED and m.onset_spare_factor is None
    assert m.fill_done and len(m.levels) == 3


class _HostCountedHigh(SimTarget):
    """A drive whose counters put the onset before a drive write: its host counter reads 0.8 of
    the host writes (NAND: that plus the collector's pages), as a collector that starts with a
    fifth of the user capacity still free would."""

    def write_counters(self):  # type: ignore[override]
        c = super().write_counters()
        host = int(0.8 * c["host_bytes"])
        return {"host_bytes": host, "nand_bytes": host + c["nand_bytes"] - c["host_bytes"]}


def test_an_onset_before_a_drive_write_is_warned_of():
    p = _step_plan()
    said: list[str] = []
    with _HostCountedHigh(DRIVE) as t:
        m = measure(t, p, said.append)
    assert m.onset_spare_factor == pytest.approx(0.8 * 1.06, abs=0.02)
    assert any(s.startswith("WARNING: garbage collection began before") for s in said)
    with SimTarget(DRIVE) as t:  # above a drive write: no warning
        said = []
        measure(t, p, said.append)
    assert not any("garbage collection began before" in s for s in said)


def test_an_io_time_budget_caps_the_step_so_the_levels_are_measured():
    """Under an I/O-time budget the step ends with a lower bound at its share of the time
    (``gc_onset.step_io_seconds_cap``): the fill and the levels keep theirs. Before the cap
    the step ran to its onset (1.07 drive writes, most of a 9 s budget on this drive), the fill
    ran past the budget (10.3 s) and no level was measured."""
    p = design([0, 40], parse_budget("9s"), onset_from_empty=True)
    assert p.onset_from_empty and p.precondition == "random"
    said: list[str] = []
    with SimTarget("sim:older-mlc-sata@1GiB") as t:
        m = measure(t, p, said.append)
    assert m.onset_source == gc_onset.ONSET_LOWER_BOUND
    assert any("share of the I/O time is spent" in s for s in said)
    cap = gc_onset.step_io_seconds_cap(p, 0.0)
    step = [r for r in m.rounds if r.label.startswith(("fob-", "onset-"))]
    # within its cap to a round's queue draining past its seconds
    assert sum(r.duration_s for r in step) <= 1.02 * cap and cap < 0.3 * 9.0
    assert m.fill_done and m.levels and m.io_seconds <= 9.0
    assert gc_onset.step_io_seconds_cap(_step_plan(), 0.0) is None  # drive writes: its own cap
