"""The measurement plan and its budget."""

from __future__ import annotations

import pytest
from overprov.calibrate import plan as planmod
from overprov.calibrate.plan import (
    Budget,
    default_budget,
    design,
    parse_budget,
    segments_for,
)
from overprov.errors import ConfigError
from overprov.units import parse_duration_seconds

LEVELS = [float(x) for x in range(0, 65, 5)]


def test_budget_units():
    assert parse_budget("2dw") == Budget(drive_writes=2.0)
    assert parse_budget("2h") == Budget(io_seconds=7200.0)
    assert parse_budget("90m") == Budget(io_seconds=5400.0)
    assert parse_budget(None).drive_writes > 0
    for bad in ("2", "two hours", "-1dw", "0dw"):
        with pytest.raises(ConfigError, match="--budget"):
            parse_budget(bad)


def test_budget_time_is_read_by_the_one_duration_parser():
    """--budget's I/O time goes through units.parse_duration_seconds (90m, 1.5h, 600s as
    before, and 1d as every duration option reads it); drive writes (2dw) are the budget's own;
    a bare number stays refused (seconds or drive writes?), and so does 0 of either."""
    assert parse_budget("90m") == Budget(io_seconds=5400.0) == parse_budget("1.5h")
    assert parse_budget("90m").io_seconds == parse_duration_seconds("90m", "--d")
    assert parse_budget(" 600 S ") == Budget(io_seconds=600.0) == parse_budget("10min")
    assert parse_budget("1d") == Budget(io_seconds=86400.0)
    assert parse_budget("2dw") == Budget(drive_writes=2.0) == parse_budget("2 DW")
    for bad in ("2", "1.5", "90mo", "1.5 hours"):
        with pytest.raises(ConfigError, match="neither drive writes .* nor I/O time"):
            parse_budget(bad)
    for zero in ("0h", "0dw", "0.0m"):
        with pytest.raises(ConfigError, match="--budget: must be positive"):
            parse_budget(zero)


def test_levels_depend_on_write_counters():
    with_waf = design(LEVELS, parse_budget(None), write_counters=True)
    without = design(LEVELS, parse_budget(None), write_counters=False)
    assert [s.extra_op_percent for s in with_waf.segments] == [0, 40]
    assert [s.extra_op_percent for s in without.segments] == [0, 20, 40]


def test_segment_minimum_covers_the_freed_space():
    segs = segments_for([0, 20, 40], settle_span_writes=0.8)
    assert segs[0].min_drive_writes == pytest.approx(0.8)
    # 20% freed by the discard, then 0.8 writes of the 80% span
    assert segs[1].min_drive_writes == pytest.approx(0.2 + 0.8 * 0.8)
    assert segs[2].min_drive_writes == pytest.approx(0.2 + 0.8 * 0.6)


def test_small_budget_drops_levels_then_refuses():
    plan = design(LEVELS, parse_budget("2.5dw"), write_counters=False, precondition="random")
    assert len(plan.segments) < 3
    assert plan.minimum_drive_writes() <= 2.5
    # the graded plan (chosen for such a budget) needs about 1.87 dw for three levels
    graded = design(LEVELS, parse_budget("1.8dw"), write_counters=False)
    assert graded.precondition == "graded" and len(graded.segments) == 2
    with pytest.raises(ConfigError, match="too little"):
        design(LEVELS, parse_budget("1dw"))


def test_an_io_time_budget_is_a_cap():
    """Device I/O time is a cap as drive writes are: a round starts only when it fits in what
    is left, so the measurement ends inside the budget (it used to run each segment to a full
    window past it: 11.6 s of I/O for a 4 s budget)."""
    from overprov.calibrate.measure import measure
    from overprov.profile.sim_target import SimTarget

    plan = design([0, 40], parse_budget("9s"))  # nine simulated seconds of I/O
    with SimTarget("sim:older-mlc-sata@1GiB") as t:
        m = measure(t, plan)
    assert m.levels  # the fill takes 4.8 s: the 0% segment got rounds
    assert m.io_seconds <= 9.0
    assert not m.levels[0].settled
    assert m.status == "complete" and "budget" in (m.stop_reason or "")


@pytest.mark.parametrize("onset_from_empty", [False, True])
def test_the_plan_fits_its_budget(monkeypatch, onset_from_empty):
    """The worst case printed before measuring is within the budget: each segment's maximum
    is lowered to share what the minimum leaves (a 6 dw budget planned 6.3 dw for a drive
    without write counters). Both ways of ``plan.ONSET_FROM_EMPTY`` (the graded plan's fill); the
    random plan at 6 drive writes holds the onset step (about a drive write) when asked for it,
    and then plans the whole budget."""
    monkeypatch.setattr(planmod, "ONSET_FROM_EMPTY", onset_from_empty)
    for budget, counters in (("6dw", False), ("4dw", True), ("3.4dw", True), ("2.2dw", True)):
        plan = design(LEVELS, parse_budget(budget), write_counters=counters)
        assert plan.planned_drive_writes() <= parse_budget(budget).drive_writes + 1e-9
        for s in plan.segments:  # never below the minimum and one window
            assert s.max_drive_writes >= s.min_drive_writes + plan.window_drive_writes(s) - 1e-9
    # the random plan is unchanged where it fits (4.7 and the 0.08-dw second-QD probe); with
    # the step, its maxima lowered to share the rest of the 6 drive writes
    six = design(LEVELS, parse_budget("6dw"))
    assert not six.onset_from_empty and six.planned_drive_writes() == pytest.approx(4.78, abs=0.01)
    asked = design(LEVELS, parse_budget("6dw"), onset_from_empty=True)
    assert asked.onset_from_empty and asked.planned_drive_writes() == pytest.approx(6.0, abs=0.01)
    # the default budget, 2 drive writes, plans the graded plan within it
    default = design(LEVELS, parse_budget(None))
    assert default.precondition == "graded" and default.planned_drive_writes() <= 2.0 + 1e-9


def test_the_default_budget_is_the_graded_plans_only_where_it_was_checked():
    """The graded plan was adopted on drives that report NAND write counters with a write buffer
    of at most 5% of their capacity: elsewhere the default stays the random plan, saying why."""
    gib = 1 << 30
    budget, why = default_budget(write_counters=True, buffer_bytes=16 << 20, capacity_bytes=2 * gib)
    assert budget == Budget(drive_writes=2.0) and why is None
    assert design([0, 40], budget).precondition == "graded"
    budget, why = default_budget(write_counters=False, capacity_bytes=2 * gib)
    assert budget == Budget(drive_writes=6.0) and "no NAND write counters" in why
    assert design([0, 40], budget, write_counters=False).precondition == "random"
    budget, why = default_budget(
        write_counters=True, buffer_bytes=256 << 20, capacity_bytes=1_677_721_600
    )
    assert budget == Budget(drive_writes=6.0) and "16.0% of its capacity" in why


def test_the_dry_run_shows_the_default_plan_and_why(overprov_cli):
    rc, out, _ = overprov_cli("calibrate", "sim:enterprise-tlc-nvme@2GiB", "--dry-run")
    plan_line = next(line for line in out.splitlines() if line.startswith("plan:"))
    assert rc == 0 and "budget 6 drive writes" in plan_line and "graded" not in plan_line
    assert "write buffer (268,435,456 bytes) is 16.0% of its capacity" in out
    rc, out, _ = overprov_cli("calibrate", "sim:consumer-tlc-sata@2GiB", "--dry-run")
    assert rc == 0 and "graded preconditioning" in out and "budget 2 drive writes" in out
    rc, out, _ = overprov_cli(
        "calibrate", "sim:enterprise-tlc-nvme@2GiB", "--dry-run", "--budget", "2dw"
    )
    assert rc == 0 and "graded preconditioning" in out and "not the graded" not in out
