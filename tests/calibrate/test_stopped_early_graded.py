"""A graded plan stopped by its budget (calibrate/stopped_early.py, review7's item 5): only the
level whose segment the budget cut short counts as unsettled; graded levels that ended at their
window as designed, and a stop before a segment started ("the budget is spent before the X%
segment"), make no level unsettled, and no twin is refused for them."""

from __future__ import annotations

from overprov.calibrate import stopped_early
from overprov.measurement_file import Level, Measurement


def level(x: float, settled: bool = False, qd: int | None = None) -> Level:
    return Level(x, 1000.0, 0.01, 2.0, None, settled, 3, 0.5, 1.0, queue_depth=qd)


def graded(levels: list[Level], stop_reason: str | None) -> Measurement:
    return Measurement(target="sim:test", capacity_bytes=2**30, scale_factor=1.0, bs_bytes=4096,
                       qd=32, levels=levels, plan={"precondition": "graded"},
                       stop_reason=stop_reason)  # fmt: skip


def test_only_the_segment_the_budget_cut_short_is_unsettled():
    cut = graded([level(0), level(20), level(40)], "the budget cut the 40% segment short (2dw)")
    assert [lv.extra_op_percent for lv in stopped_early.unsettled(cut)] == [40.0]
    said = stopped_early.warning(cut)
    assert "did not settle: 40%" in said and "0%, " not in said
    at_20 = graded([level(0), level(20)], "the budget cut the 20% segment short (2dw)")
    assert [lv.extra_op_percent for lv in stopped_early.unsettled(at_20)] == [20.0]
    settled = graded([level(0), level(20, settled=True)], at_20.stop_reason)
    assert stopped_early.unsettled(settled) == []


def test_a_stop_before_a_segment_cut_no_level():
    before = graded([level(0), level(20)], "the budget is spent before the 40% segment (2dw)")
    assert stopped_early.unsettled(before) == []
    said = stopped_early.warning(before)
    assert said.startswith("WARNING: measuring stopped early (the budget is spent before")
    assert "no level it measured was cut short" in said and "did not settle" not in said


def test_one_graded_level_ended_as_designed_is_not_refused():
    """The budget spent before the 40% segment: the 0% level ended at its graded window."""
    alone = graded([level(0), level(40, qd=4)], "the budget is spent before the 40% segment")
    assert stopped_early.refusal(alone) is None
    cut = graded([level(0)], "the budget cut the 0% segment short (2dw)")
    assert "0%, did not settle (the budget cut the 0% segment short" in stopped_early.refusal(cut)


def test_a_random_plan_still_lists_every_level_not_settled():
    m = graded([level(0), level(20, settled=True)], "the budget is spent before the 40% segment")
    m.plan = {"precondition": "random"}
    assert [lv.extra_op_percent for lv in stopped_early.unsettled(m)] == [0.0]


def cut(x: float, qd: int | None = None) -> dict:
    return {"extra_op_percent": x, "queue_depth": qd}


def test_a_later_stop_does_not_forget_the_cut_level():
    """The 20% segment cut short, then the budget spent before the 40% one: the second stop
    reason overwrote the first, and the cut level read as settled-by-design (review8)."""
    m = graded([level(0), level(20)], "the budget is spent before the 40% segment (2dw)")
    assert stopped_early.unsettled(m) == []  # an old file: only the stop reason's words
    m.cut_levels = [cut(20.0)]
    assert [lv.extra_op_percent for lv in stopped_early.unsettled(m)] == [20.0]
    assert "did not settle: 20%" in stopped_early.warning(m)


def test_two_cut_levels_are_both_kept():
    m = graded([level(0), level(20), level(40, qd=4)], "the budget cut the 40% segment short")
    m.cut_levels = [cut(20.0), cut(40.0, 4)]
    said = [stopped_early.level_text(lv) for lv in stopped_early.unsettled(m)]
    assert said == ["20%", "40% at QD4"]
    m.cut_levels = []  # recorded: none cut, whatever the stop reason says
    assert stopped_early.unsettled(m) == []


def test_measure_records_the_cut_levels_and_they_load(tmp_path):
    """A real graded measurement on a small simulated drive stopped by a 9 s budget: the
    levels it cut are recorded as measure.py cut them, and survive measurement.json."""
    from overprov import measurement_file
    from overprov.calibrate.measure import measure
    from overprov.calibrate.plan import design, parse_budget
    from overprov.profile.sim_target import SimTarget

    plan = design([0, 40], parse_budget("9s"), precondition="graded")
    with SimTarget("sim:older-mlc-sata@1GiB") as t:
        m = measure(t, plan)
    # measured here: the 0% segment cut short, then "the budget is spent in the 40% graded
    # rounds" took the stop reason's place; the cut level is still read as not settled
    assert m.cut_levels == [cut(0.0)] and "cut the" not in (m.stop_reason or "cut the")
    assert [lv.extra_op_percent for lv in stopped_early.unsettled(m)] == [0.0]
    measurement_file.save(m, tmp_path / "measurement.json")
    back = measurement_file.load(tmp_path / "measurement.json")
    assert back.cut_levels == m.cut_levels
    doc = m.to_dict()
    del doc["cut_levels"]  # a file written before the field still loads, as None
    assert measurement_file.check(doc, "old").cut_levels is None
