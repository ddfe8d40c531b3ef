"""The third level where two cannot tell (calibrate/middle_level.py): planned only where asked
and the budget holds it, measured only where the answer's own tests fire on the two measured
levels, and recorded (plan, drive writes, the reasons or the cost) where it is."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from overprov import measurement_file
from overprov.calibrate import fit as fitmod
from overprov.calibrate import middle_level
from overprov.calibrate import plan as planmod
from overprov.calibrate.measure import measure
from overprov.calibrate.middle_level import design, with_middle
from overprov.calibrate.plan import Budget, MeasurementPlan
from overprov.profile.sim_target import SimTarget

LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]
USER_BYTES = 2**28

DRIVE = """description = "a drive the core generates for the third-level tests"
source = "tests/calibrate/test_middle_level.py"
advertised_bytes = {user}
physical_bytes = {physical}
[config.geometry]
page_size_bytes = 4096
pages_per_block = 256
[config.ftl]
{ftl}
[config.timing]
enabled = true
[config.timing.host]
link_mb_s = 3500.0
command_overhead_us = 3.0
[config.timing.nand]
channels = 2
dies_per_channel = 1
flash_page_bytes = 16384
read_us = 60.0
program_us = 500.0
erase_us = 3000.0
die_block_bytes = 4194304
channel_mb_s = 800.0
"""
D_CHOICES_2 = 'policy = "d-choices"\nd_choices = 2\ngc_free_blocks = 2'
GREEDY = 'policy = "greedy"\ngc_free_blocks = 2'


def _reserve_ftl(spare_factor: float, waf_floor: float) -> tuple[str, float]:
    """A collector holding a GC reserve with a victim floor (``twin.reserve_collector``, as
    the reserve reading's twin is made): its ``[ftl]`` lines and the drive's native spare."""
    from overprov.calibrate import twin

    rho0, collector = twin.reserve_collector(spare_factor, waf_floor)
    keys = collector.ftl_keys(USER_BYTES)
    return "\n".join(['policy = "greedy"', *(f"{k} = {v}" for k, v in keys.items())]), rho0


def _drive(tmp_path, ftl: str, native_op: float) -> str:
    path = tmp_path / f"drive-{abs(hash((ftl, native_op)))}.toml"
    physical = int(USER_BYTES * (1 + native_op))
    path.write_text(DRIVE.format(user=USER_BYTES, physical=physical, ftl=ftl))
    return f"sim:{path}"


def _decide(on: bool):
    """The decision calibrate passes ``measure`` (``target_measurement``), asked ``on``."""
    return lambda plan, m: middle_level.decide(plan, m, on)


def _measure(tmp_path, ftl: str, native_op: float, middle: bool):
    plan = design(LEVELS, Budget(), middle=middle)
    kept = []
    with SimTarget(_drive(tmp_path, ftl, native_op)) as t:
        m = measure(t, plan, journal=lambda x: kept.append(x.to_dict()), middle=_decide(middle))
    return plan, m, kept[-1]


@pytest.fixture(scope="module")
def d2(tmp_path_factory):
    """The d-choices-2 drive measured once with the third level asked for."""
    return _measure(tmp_path_factory.mktemp("d2"), D_CHOICES_2, 0.07, True)


def test_off_the_plan_is_recorded_as_before():
    """Not asked (the flag's default here), a plan has no third level and records no field of
    it: a stored plan is byte for byte what it was."""
    for budget in (Budget(), Budget(drive_writes=6.0), Budget(drive_writes=2.0)):
        plan = design(LEVELS, budget, middle=False)
        assert plan.middle is None
        d = plan.to_dict()
        assert "middle" not in d
        assert all("refill_from_percent" not in s for s in d["segments"])
        assert MeasurementPlan.from_dict(d) == plan
        assert design(LEVELS, budget) == plan  # the default: not asked
        assert planmod.design(LEVELS, budget) == plan


def test_asked_the_random_plan_takes_it_where_the_budget_holds_it():
    """Unbounded (and within 6 drive writes) the random plan takes the 20% level after its QD4
    probe: the 40% level's freed tail refilled (0.2) and 0.8 span writes of settling at least,
    a window more; its cost is in the plan's text and its worst case. 4 drive writes cannot
    hold it beside the two levels; the graded plan (2 drive writes) takes none."""
    base = design(LEVELS, Budget(), middle=False)
    plan = design(LEVELS, Budget(), middle=True)
    seg = plan.middle
    assert seg is not None and seg.extra_op_percent == 20.0 and seg.refill_from_percent == 40.0
    assert seg.min_drive_writes == pytest.approx(0.2 + 0.8 * 0.8)
    assert plan.least_drive_writes(seg) == pytest.approx(0.84 + 8 * 0.04)
    assert plan.planned_drive_writes() == pytest.approx(base.planned_drive_writes() + 1.84)
    assert plan.minimum_drive_writes() == base.minimum_drive_writes()
    assert dataclasses.replace(plan, middle=None) == base  # the other segments as they were
    assert "then 20% where those levels cannot tell" in plan.text()
    assert "1.16 to 1.84 drive writes more" in plan.text()
    assert MeasurementPlan.from_dict(plan.to_dict()) == plan
    assert design(LEVELS, Budget(drive_writes=6.0), middle=True).middle is not None
    assert design(LEVELS, Budget(drive_writes=4.0), middle=True).middle is None
    graded = design(LEVELS, Budget(drive_writes=2.0), middle=True)
    assert graded.precondition == "graded" and graded.middle is None
    assert with_middle(design([0.0, 10.0], Budget(), middle=False)) is None  # not between


def test_the_typed_d2_drive_s_two_levels_fire_the_test():
    """The steep-pair test the answer warns with fires on a d-choices-2 drive's WAF at 0% and
    40% (tests/calibrate/test_gc_designs.py's figures, typed), and not once a third level is
    among them."""
    from test_gc_designs import D_CHOICES_2 as D2
    from test_gc_designs import truth, two_levels

    assert middle_level.reasons(two_levels(D2), None, None) == [middle_level.AMBIGUOUS]
    three = [*two_levels(D2), fitmod.Point(20.0, None, 0.02, truth(D2, 20.0), 0.02)]
    assert middle_level.reasons(three, None, None) == []


def test_a_d2_drive_measured_gets_its_third_level_and_says_why(d2):
    """End to end on a simulated d-choices-2 drive the core generates: after 0% and 40% the
    steep-pair test fires on the measured figures, so 20% is measured (its refill round, then
    settling), the measurement records why, and the prediction's source says so."""
    plan, m, stored = d2
    by = {(lv.extra_op_percent, lv.queue_depth): lv for lv in m.levels}
    assert set(by) == {(0.0, None), (40.0, None), (40.0, 4), (20.0, None)}
    assert [lv.extra_op_percent for lv in m.levels][-1] == 20.0  # after the probe
    rec = m.runs[-1]["middle_level"]
    assert rec["measured"] and middle_level.AMBIGUOUS in rec["reasons"]
    refill = [r for r in m.rounds if r.label == "refill-op20"]
    assert len(refill) == 1
    assert refill[0].bytes_written == pytest.approx(0.2 * m.capacity_bytes, rel=0.01)
    assert by[(20.0, None)].drive_writes >= plan.middle.min_drive_writes
    assert by[(20.0, None)].waf is not None
    assert by[(40.0, None)].waf < by[(20.0, None)].waf < by[(0.0, None)].waf
    back = measurement_file.check(stored, "stored")
    assert back.runs[-1]["middle_level"] == rec
    assert "a third level measured because" in middle_level.source(back)


def test_where_the_budget_cannot_hold_it_the_answer_says_what_it_costs(d2):
    """The same figures under a plan that holds no third level (the graded plan's 2 drive
    writes): no segment, and a note with its cost and the budget whose plan holds it."""
    two = [lv for lv in d2[1].levels if lv.extra_op_percent != 20.0]
    m = dataclasses.replace(d2[1], levels=two, runs=copy.deepcopy(d2[1].runs))
    graded = design(LEVELS, Budget(drive_writes=2.0), middle=True)
    got = middle_level.decide(graded, m, on=True)
    assert got.segment is None and middle_level.AMBIGUOUS in got.reasons
    assert "1.16 drive writes more" in got.note and "--budget 4.6dw" in got.note
    assert design(LEVELS, Budget(drive_writes=4.6), middle=True).middle is not None
    assert middle_level.decide(graded, m, on=False) == middle_level.Decision((), None)
    m.runs[-1]["middle_level"] = {"reasons": list(got.reasons), "measured": False,
                                  "note": got.note}  # fmt: skip
    assert middle_level.source(m) == f"; {got.note}"  # the prediction's source says it


def test_where_nothing_fires_the_measurement_is_the_one_without_it(tmp_path):
    """A greedy drive with 28% native spare (0% level not deep, a selective collector): the
    tests do not fire, so nothing is measured past the probe and nothing recorded; its levels
    are those the plan without the third level measures, to every digit."""
    _, m_on, _ = _measure(tmp_path, GREEDY, 0.28, True)
    _, m_off, _ = _measure(tmp_path, GREEDY, 0.28, False)
    assert "middle_level" not in m_on.runs[-1]
    assert [lv.extra_op_percent for lv in m_on.levels] == [0.0, 40.0, 40.0]
    assert m_on.levels == m_off.levels
    assert [r.label for r in m_on.rounds] == [r.label for r in m_off.rounds]


def test_the_dry_run_shows_its_cost_within_the_budget(overprov_cli):
    """``--middle-level on`` with a budget that holds it: the plan line names the third level
    and its drive writes, and the estimate stays within the budget (its maximum is what the
    budget leaves beside the other segments' maxima); off, the plan line is today's."""
    args = ("calibrate", "sim:consumer-tlc-sata@2GiB", "--dry-run", "--budget", "6dw")
    rc, out, _ = overprov_cli(*args, "--middle-level", "on")
    assert rc == 0
    assert "then 20% where those levels cannot tell the curve between them (1.16 to 1.22" in out
    assert "at most 6.00 drive writes" in out
    rc, off, _ = overprov_cli(*args, "--middle-level", "off")
    assert rc == 0 and "then 20%" not in off and "at most 4.78 drive writes" in off


@pytest.mark.parametrize(("spare_factor", "waf_floor"), [(0.88, 8.0), (0.85, 10.0)])
def test_a_reserve_drive_gets_the_level_only_where_a_test_fires(tmp_path, spare_factor, waf_floor):
    """Drives whose collector holds a GC reserve with a victim floor, made as the reserve
    reading's twin is (``twin.reserve_collector``): with IOPS beside the WAF figures the
    steep-pair test is silent on both (their 40% WAF, 1.46 and 1.54, is not steep enough
    below the floor); where the 0% level is deep and fast (floor 10) the bend test fires and
    the 20% level is measured, its WAF between the others; elsewhere nothing is measured past
    the probe."""
    ftl, rho0 = _reserve_ftl(spare_factor, waf_floor)
    _, m, _ = _measure(tmp_path, ftl, rho0, True)
    rec = m.runs[-1].get("middle_level")
    by = {(lv.extra_op_percent, lv.queue_depth): lv for lv in m.levels}
    if waf_floor < 9.0:
        assert rec is None and (20.0, None) not in by
        return
    assert rec["measured"] and rec["reasons"] == [middle_level.BENT]
    assert by[(40.0, None)].waf < by[(20.0, None)].waf < by[(0.0, None)].waf


def test_a_run_stopped_in_the_third_level_resumes_it(tmp_path):
    """Interrupted in the third level's rounds, ``--resume`` keeps the two levels and the probe
    (not run again), decides again on the same figures and measures the third level."""
    plan = design(LEVELS, Budget(), middle=True)
    spec = _drive(tmp_path, D_CHOICES_2, 0.07)
    kept: list[dict] = []

    def journal(m) -> None:
        kept.append(m.to_dict())
        if m.rounds and m.rounds[-1].label == "op20-r002":
            raise KeyboardInterrupt

    with SimTarget(spec) as t, pytest.raises(KeyboardInterrupt):
        measure(t, plan, journal=journal, middle=_decide(True))
    stored = measurement_file.check(kept[-1], "stored")
    assert stored.status == "interrupted" and len(stored.levels) == 3
    with SimTarget(spec) as t:
        m = measure(t, plan, resume=stored, middle=_decide(True))
    assert m.status == "complete"
    assert [lv.extra_op_percent for lv in m.levels] == [0.0, 40.0, 40.0, 20.0]
    assert m.runs[-1]["middle_level"]["measured"]


@pytest.mark.parametrize("drive_writes", [4.6, 5.0, 6.0])
def test_the_plan_s_at_most_stays_within_the_budget(drive_writes):
    """Under a drive-write budget that holds the third level, the other segments' maxima are
    trimmed to leave it its minimum and a window, so the plan's worst case (the "at most"
    printed) never exceeds the budget; below the plan's minimum and the level's, none."""
    plan = design(LEVELS, Budget(drive_writes=drive_writes), middle=True)
    assert plan.middle is not None
    assert plan.planned_drive_writes() <= drive_writes + 1e-9
    assert plan.middle.max_drive_writes >= plan.least_drive_writes(plan.middle) - 1e-9
    for seg in plan.segments:
        assert seg.max_drive_writes >= plan.least_drive_writes(seg) - 1e-9
    assert design(LEVELS, Budget(drive_writes=4.5), middle=True).middle is None


def test_the_dry_run_at_most_is_within_a_budget_it_trims_for(overprov_cli):
    """``--budget 5dw``: the third level planned, its maximum its minimum and a window (1.16),
    and the estimate at most 5.00 drive writes (it printed 5.94)."""
    args = ("calibrate", "sim:consumer-tlc-sata@2GiB", "--dry-run", "--budget", "5dw")
    rc, out, _ = overprov_cli(*args, "--middle-level", "on")
    assert rc == 0
    assert "cannot tell the curve between them (1.16 drive writes more)" in out
    assert "at most 5.00 drive writes" in out


def test_the_dry_run_says_what_it_costs_where_the_budget_cannot_hold_it(overprov_cli):
    """``--budget 4dw``: no third level, and a line with its cost and the budget that holds it
    (the least whose plan holds it within its "at most": 4.6dw, measured on the d-2 drive by
    :func:`test_a_planned_third_level_is_measured`); off, no such line."""
    args = ("calibrate", "sim:consumer-tlc-sata@2GiB", "--dry-run", "--budget", "4dw")
    rc, out, _ = overprov_cli(*args, "--middle-level", "on")
    assert rc == 0 and "then 20%" not in out
    assert "--middle-level on: a settled level at 20% extra OP" in out
    assert "costs 1.16 to 1.84 drive writes more" in out
    assert "the budget (4 drive writes) does not hold: --budget 4.6dw or more holds it" in out
    assert "(6.62 drive writes at most untrimmed)" in out
    rc, off, _ = overprov_cli(*args, "--middle-level", "off")
    assert rc == 0 and "--middle-level on" not in off


@pytest.mark.parametrize("drive_writes", [4.6, 5.0, 6.0])
def test_a_planned_third_level_is_measured(tmp_path, drive_writes):
    """On the d-choices-2 drive at 4.6 (the budget the cost note names), 5 and 6 drive writes
    the levels before the third leave it its minimum, a window and a round, so it is measured
    where the plan holds it (at 5 and 6 the first two levels, unsettled, spent what it needed),
    and the whole stays within the budget."""
    plan = design(LEVELS, Budget(drive_writes=drive_writes), middle=True)
    assert plan.middle is not None
    with SimTarget(_drive(tmp_path, D_CHOICES_2, 0.07)) as t:
        m = measure(t, plan, middle=_decide(True))
    rec = m.runs[-1]["middle_level"]
    assert rec["measured"] and rec["note"] == ""
    third = [lv for lv in m.levels if lv.extra_op_percent == 20.0]
    assert len(third) == 1 and third[0].drive_writes >= plan.least_drive_writes(plan.middle)
    assert m.drive_writes <= drive_writes


def test_the_note_where_the_levels_left_too_little_says_so(d2):
    """A plan that held the third level whose levels before it left less than its minimum and
    a window (a round past its share): no segment, and a note saying what was left, not a
    budget that would hold it."""
    two = [lv for lv in d2[1].levels if lv.extra_op_percent != 20.0]
    m = dataclasses.replace(d2[1], levels=two, runs=copy.deepcopy(d2[1].runs))
    m.bytes_written = int(4.2 * m.capacity_bytes)
    plan = design(LEVELS, Budget(drive_writes=5.0), middle=True)
    got = middle_level.decide(plan, m, on=True)
    assert got.segment is None and middle_level.AMBIGUOUS in got.reasons
    assert "the settled level at 20% extra OP the plan held was not measured" in got.note
    assert "left 0.80 drive writes of the budget (5 drive writes)" in got.note
    assert "--budget" not in got.note


def test_an_error_in_the_decision_keeps_the_levels_measured(tmp_path):
    """An unexpected error in the third level's decision measures no third level, keeps the
    levels measured before it (the measurement finishes) and says why in the run's record,
    which the prediction's source carries (middle_level.source)."""
    kept: list[dict] = []

    def broken(plan, m):
        raise ZeroDivisionError("a bug")

    with SimTarget(_drive(tmp_path, GREEDY, 0.28)) as t:
        m = measure(t, design(LEVELS, Budget()), journal=lambda x: kept.append(x.to_dict()),
                    middle=broken)  # fmt: skip
    assert kept[-1]["status"] != "failed"
    assert [lv.extra_op_percent for lv in m.levels if lv.queue_depth is None] == [0.0, 40.0]
    note = m.runs[-1]["middle_level"]["note"]
    assert "its decision (middle_level.py) failed (ZeroDivisionError('a bug'))" in note
    assert m.runs[-1]["middle_level"]["measured"] is False
    assert middle_level.source(m) == f"; {note}"


@pytest.mark.parametrize("given", ["on", "off"])
def test_resume_refuses_the_option(overprov_cli, tmp_path, given):
    """``--resume`` keeps the stored plan: ``--middle-level`` is refused, naming it, on or off
    (off was silently overridden by a stored third level; on, on a plan without one, blamed the
    budget)."""
    rc, _, err = overprov_cli("calibrate", "--resume", str(tmp_path), "--middle-level", given)
    assert rc == 2
    assert "--resume: a resumed calibration keeps its plan and its third level" in err
    assert "do not give --middle-level" in err


def test_the_source_reads_the_record_of_any_run_and_a_refit_carries_it(
    d2, tmp_path, overprov_cli, monkeypatch
):
    """The third level's record may sit in an earlier run than the last (a resumed run after
    it keeps none): the source still says it, and ``--from DIR``'s refit carries it too (the
    fit's input is caught as calibrate builds it: the twins' simulations are not run)."""
    from overprov.calibrate import predict as predmod
    from overprov.errors import ConfigError

    _, m, stored = d2
    runs = [*copy.deepcopy(m.runs), {"started": "x", "resumed": True, "ended": "complete"}]
    later = dataclasses.replace(m, runs=runs)
    assert "a third level measured because" in middle_level.source(later)
    folder = tmp_path / "measured"
    folder.mkdir()
    kept = dataclasses.replace(measurement_file.check(stored, "stored"), runs=runs)
    measurement_file.save(kept, folder / "measurement.json")

    built: list[str] = []

    def caught(*args, **kwargs):
        built.append(kwargs["source"])
        raise ConfigError("caught")

    monkeypatch.setattr(predmod, "PredictionInput", caught)
    assert overprov_cli("calibrate", "--from", str(folder))[0] == 2
    assert built[0].startswith(f"fitted to {folder}; a third level measured because")
