"""The line's gate read at one level the typed figures fix (calibrate/bend_between.py,
``GATE_AT_ONE_LEVEL``, on: bench/foreign/results/mqfixed/RULE.md met): the decision the same
whichever levels are asked."""

from __future__ import annotations

import pytest
from overprov.calibrate import bend_between
from overprov.calibrate import fit as fitmod
from test_bend_between import MQSIM_320, _fig, _levels_at_line, _points, cli_320_at_0_20_40

HIGH_320 = fitmod.Point(40.0, 1143.0, waf=1.464)


def _asked(levels, at):
    return [lv for lv in levels if lv.extra_op_percent in at]


def _never(x):
    raise AssertionError(f"predicted {x:g}% apart though it was asked")


def test_on_by_default_and_a_quarter_of_the_way_between_the_typed_levels():
    assert bend_between.GATE_AT_ONE_LEVEL and bend_between.LINE_GATE
    assert bend_between.gate_level(_points(*MQSIM_320)) == 10.0
    typed_10_30 = _points("10:300,30:900", "10:5.0,30:1.8", 2380.0)
    assert bend_between.gate_level(typed_10_30) == 15.0
    with pytest.raises(ValueError, match="two levels"):
        bend_between.gate_level(_points("0:69", "0:24.897", 2380.0))


@pytest.mark.parametrize(
    ("ratios", "moves"),
    [((1.48, 1.31, 1.16), True), ((1.35, 1.18, 1.06), False), ((1.34, 1.45, 1.2), False)],
)
def test_the_decision_is_the_same_asked_0_20_40_or_0_10_20_30_40(ratios, moves):
    """Twins 1.48/1.31/1.16 times the line at 10/20/30% (u320x32, seen-ratios.txt) are moved
    whether 0, 20, 40% or the plan's five levels are asked; 1.35/1.18/1.06 (u288x32) and a twin
    far above the line at 20% alone (1.45) are left either way: the 10% level decides."""
    full = _levels_at_line(ratios)
    at_10 = next(lv for lv in _levels_at_line(ratios) if lv.extra_op_percent == 10.0)
    plan = bend_between.line_between(full, _fig(MQSIM_320), _never)
    few = _asked(_levels_at_line(ratios), (0.0, 20.0, 40.0))
    asked = []
    got = bend_between.line_between(few, _fig(MQSIM_320), lambda x: asked.append(x) or at_10)
    assert asked == [10.0]
    assert (plan, got) == (([10.0, 20.0, 30.0], [20.0]) if moves else ([], []))
    if moves:
        line = bend_between.line_iops(2380.0, HIGH_320, few[1].waf)
        assert few[1].steady_iops == pytest.approx(line)


def test_off_the_gate_reads_the_levels_asked(monkeypatch):
    """mqgate's gate (mqgate/verdict.md): u320x32's twin, 1.31 times the line at 20%, is left
    when 0, 20, 40% are asked though the plan's levels move it; nothing predicted apart."""
    monkeypatch.setattr(bend_between, "GATE_AT_ONE_LEVEL", False)
    ratios = (1.48, 1.31, 1.16)
    assert bend_between.line_between(_levels_at_line(ratios), _fig(MQSIM_320), _never)
    few = _asked(_levels_at_line(ratios), (0.0, 20.0, 40.0))
    assert bend_between.line_between(few, _fig(MQSIM_320), _never) == []


def test_on_a_level_not_asked_with_nothing_to_predict_it_raises():
    few = _asked(_levels_at_line((1.48, 1.31, 1.16)), (0.0, 20.0, 40.0))
    with pytest.raises(ValueError, match="10% is not asked"):
        bend_between.line_between(few, _fig(MQSIM_320))


def test_by_default_the_real_cli_asked_0_20_40_reads_the_gate_at_10(tmp_path, capsys):
    """u320x32's typed figures asked at 0, 20, 40% by default (≈ 10 CPU s): the gate
    predicts 10% apart (the twin 1.48 times the line there) and puts 20% on the line, which
    the gate at the levels asked left (1.31 there); the JSON has the three levels asked."""
    doc = cli_320_at_0_20_40(tmp_path, capsys)
    assert [lv["extra_op_percent"] for lv in doc["levels"]] == [0.0, 20.0, 40.0]
    mid = doc["levels"][1]
    assert mid["steady_iops"] == pytest.approx(bend_between.line_iops(2380.0, HIGH_320, mid["waf"]))
    said = doc["prediction_source"]
    assert "IOPS at 20% extra OP from the line" in said
    assert "gate read at 10% extra OP alone, predicted there apart: the twin's IOPS" in said
    assert "over the line's 1.476 there, so open" in said  # mqgate/seen-ratios.txt: 1.476


def test_the_source_says_where_the_gate_read_and_what_it_found(monkeypatch):
    """Off: nothing said. On: the level, whether it was predicted apart, the ratio and the
    decision; nothing where the warning does not fire or no level between is asked."""
    few = _asked(_levels_at_line((1.35, 1.18, 1.06)), (0.0, 20.0, 40.0))
    at_10 = _levels_at_line((1.35, 1.18, 1.06))[1]
    ends = _asked(_levels_at_line((1.48, 1.31, 1.16)), (0.0, 40.0))
    assert bend_between.gate_source(ends, _fig(MQSIM_320), _never) == ""
    assert bend_between.line_between(ends, _fig(MQSIM_320), _never) == []
    monkeypatch.setattr(bend_between, "GATE_AT_ONE_LEVEL", False)
    assert bend_between.gate_source(few, _fig(MQSIM_320), _never) == ""
    monkeypatch.setattr(bend_between, "GATE_AT_ONE_LEVEL", True)
    said = bend_between.gate_source(few, _fig(MQSIM_320), lambda x: at_10)
    assert "read at 10% extra OP alone, predicted there apart" in said
    assert "1.350 there, so closed" in said
    full = _levels_at_line((1.48, 1.31, 1.16))
    said = bend_between.gate_source(full, _fig(MQSIM_320), _never)
    assert "alone:" in said and "apart" not in said and "1.480 there, so open" in said
    assert bend_between.gate_source(full, _fig(MQSIM_320, typed=False), _never) == ""
