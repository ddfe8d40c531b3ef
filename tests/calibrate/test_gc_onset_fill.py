"""The onset of garbage collection from empty dated inside the plan's graded fill
(``precondition.graded_fill_steps``, ``graded_run.graded_fill``, ``gc_onset.date_in_rounds``):
the fill interleaved with random writes over its filled part, no separate step, no second purge."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from overprov import measurement_file
from overprov.calibrate import gc_onset, plan, validation
from overprov.calibrate.graded_run import SPARE_IN_FILL, SPARE_ONSET
from overprov.calibrate.measure import measure, write_counters
from overprov.calibrate.plan import Budget, design, parse_budget
from overprov.calibrate.precondition import graded_fill_drive_writes, graded_fill_steps
from overprov.profile.sim_target import SimTarget

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gc_onset_plan_bench import first_copy_from_empty  # noqa: E402  (bench/: the simulator's count)


def test_the_fill_leaves_the_graded_profile():
    """Each step's random writes over the filled part ``[0, y)`` overwrite a point at ``u < y``
    at hazard (its share ÷ y): summed over the steps after it, ``c · (1 − u)`` (to a step),
    for ``c · (K + 1) / (2K)`` drive writes."""
    c, k = 0.3, 40
    steps = graded_fill_steps(c, k)
    assert [s.end_fraction for s in steps][-1] == 1.0 and len(steps) == k
    for u in (0.0, 0.2, 0.5, 0.9):
        hazard = sum(s.random_drive_writes / s.end_fraction for s in steps if s.end_fraction > u)
        assert hazard == pytest.approx(c * (1 - u), abs=c / k)
    assert graded_fill_drive_writes(c, k) == pytest.approx(c * (k + 1) / (2 * k))
    assert graded_fill_drive_writes(0.0) == 0.0


def test_the_graded_plan_holds_the_fill_within_two_drive_writes():
    p = design([0, 40], parse_budget("2dw"), onset_from_empty=True)
    assert p.fill_hazard == plan.FILL_HAZARD and not p.onset_from_empty
    assert p.segments[0].precondition_drive_writes == 0.0
    assert p.minimum_drive_writes() <= p.planned_drive_writes() <= 2.0
    assert "random writes over its filled part" in p.text()
    without = design([0, 40], parse_budget("2dw"), onset_from_empty=False)
    assert without.fill_hazard == 0.0 and "filled part" not in without.text()


def _fill(spec: str):
    p = design([0, 40], parse_budget("2dw"), onset_from_empty=True)
    said: list[str] = []
    with SimTarget(spec) as t:
        m = measure(t, p, said.append)
    return m, said


def test_an_onset_inside_the_fill_is_the_simulators_first_copy():
    """A drive whose collector starts before the fill ends (1.066 drive writes from the purge,
    the fill ends at 1.17): dated within one round of the simulator's first copy from empty,
    with no step rounds, no sweeps and one purge; the plan measures both levels and the probe
    within 2 drive writes."""
    drive = "sim:older-mlc-sata@1GiB"
    m, said = _fill(drive)
    truth, resolution = first_copy_from_empty(drive)
    assert m.onset_source == gc_onset.ONSET_FROM_EMPTY and m.spare_source == SPARE_IN_FILL
    assert abs(m.onset_spare_factor - truth) <= gc_onset.ONSET_ROUND_DRIVE_WRITES + resolution
    assert m.spare_drive_writes == pytest.approx(m.onset_spare_factor - 1)
    labels = [r.label for r in m.rounds]
    assert not any(x.startswith(("onset-", "op0-s", "op0-g")) for x in labels)
    assert sum(1 for s in said if s.startswith("purge:")) == 1
    fill = [r for r in m.rounds if r.label.startswith("fill-")]
    random_dw = sum(r.bytes_written for r in fill if "r-" in r.label) / m.capacity_bytes
    assert random_dw == pytest.approx(graded_fill_drive_writes(plan.FILL_HAZARD), abs=0.01)
    assert (
        m.drive_writes <= 2.0
        and len(m.levels) == 3
        and m.stop_reason is None
        or ("cut" in (m.stop_reason or ""))
    )


def test_an_onset_after_the_fill_is_dated_in_the_first_levels_sweeps(tmp_path):
    """Generated drive 23 (cost-benefit, 25% NAND beyond the user capacity): its collector
    starts after the fill, so the first level's sweeps run on to the first copy and the onset
    is dated from the purge across both, within the FOB's share of the simulator's count (the
    FOB's data, all overwritten by the fill, is reclaimed without a copy: 0.02 late here)."""
    path = validation.write_drive(23, tmp_path)
    drive = f"sim:{path}@{validation.scale_for(validation.drive(23), 2 * 2**30)}"
    m, _ = _fill(drive)
    truth, resolution = first_copy_from_empty(drive)
    assert m.onset_source == gc_onset.ONSET_FROM_EMPTY and m.spare_source == SPARE_ONSET
    assert any(r.label.startswith("op0-s") for r in m.rounds)
    fob = sum(r.bytes_written for r in m.rounds if r.label.startswith("fob")) / m.capacity_bytes
    assert m.onset_spare_factor > 1 + graded_fill_drive_writes(plan.FILL_HAZARD)
    assert abs(m.onset_spare_factor - truth) <= fob + gc_onset.ONSET_ROUND_DRIVE_WRITES + resolution
    assert m.drive_writes <= 2.0 and len(m.levels) == 3


def test_a_fill_cut_by_the_budget_resumes_without_an_onset():
    """The onset counts host writes from the purge: a run resumed after the budget stopped the
    graded fill (its FOB kept, no purge) grades its fill again but records no onset, and says
    why."""
    p = design([0, 40], parse_budget("2dw"), onset_from_empty=True)
    with SimTarget("sim:older-mlc-sata@1GiB") as t:
        m = measure(t, replace(p, budget=Budget(drive_writes=0.5)))
    assert "graded fill" in (m.stop_reason or "") and not m.fill_done
    assert m.onset_source is None and m.drive_writes <= 0.5
    with SimTarget("sim:older-mlc-sata@1GiB") as t:
        m = measure(t, p, resume=m)
    assert m.onset_source == gc_onset.ONSET_RESUMED and m.onset_spare_factor is None
    assert m.fill_done and len(m.levels) == 3


def test_the_default_plan_with_the_flag_on_runs_end_to_end(monkeypatch, tmp_path):
    """``plan.ONSET_FROM_EMPTY`` switched on (in process, as the lead would switch it): the plan
    calibrate designs without ``--budget`` for a 1 GiB consumer drive (``cli.py``'s
    ``default_budget`` and ``design``) is the graded plan with its fill graded, and it measures
    both levels and the probe within 2 drive writes, with the onset from empty recorded and kept
    in the measurement file. (The full ``overprov calibrate`` on it, fit included: 1.99 drive
    writes, 16 CPU s; docs/calibrate.md.)"""
    monkeypatch.setattr(plan, "ONSET_FROM_EMPTY", True)
    drive = "sim:consumer-tlc-sata@1GiB"
    with SimTarget(drive) as t:
        counters = write_counters(t) is not None
        budget, why = plan.default_budget(
            write_counters=counters, buffer_bytes=t.buffer_bytes, capacity_bytes=t.capacity_bytes
        )
        p = design([0, 40], budget, write_counters=counters)
        m = measure(t, p)
    assert why is None and budget.drive_writes == 2.0
    assert p.fill_hazard == plan.FILL_HAZARD and p.planned_drive_writes() <= 2.0
    assert m.status == "complete" and m.drive_writes <= 2.0
    assert [(lv.extra_op_percent, lv.queue_depth) for lv in m.levels] == [
        (0, None), (40, None), (40, 4)
    ]  # fmt: skip
    assert all(lv.steady_iops > 0 and lv.waf for lv in m.levels)
    truth, resolution = first_copy_from_empty(drive)
    assert m.onset_source == gc_onset.ONSET_FROM_EMPTY
    assert abs(m.onset_spare_factor - truth) <= gc_onset.ONSET_ROUND_DRIVE_WRITES + resolution
    path = tmp_path / "measurement.json"
    measurement_file.save(m, path)
    back = measurement_file.load(path)
    assert back.onset_spare_factor == m.onset_spare_factor
    assert plan.plan_of(back).fill_hazard == plan.FILL_HAZARD
