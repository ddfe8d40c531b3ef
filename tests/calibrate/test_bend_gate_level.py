"""The line's gate read at one level the typed figures fix (calibrate/bend_between.py,
``GATE_AT_ONE_LEVEL``, on: bench/foreign/results/mqfixed/RULE.md met): the decision the same
whichever levels are asked."""

from __future__ import annotations

import dataclasses

import pytest
from overprov.calibrate import answer, bend_between
from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError
from overprov.prediction_file import PredictedLevel
from test_bend_between import MQSIM_320, _fig, _levels_at_line, _points, cli_320_at_0_20_40

HIGH_320 = fitmod.Point(40.0, 1143.0, waf=1.464)


def _asked(levels, at):
    return [lv for lv in levels if lv.extra_op_percent in at]


def _never(x):
    raise AssertionError(f"predicted {x:g}% apart though it was asked")


def test_on_by_default_and_a_quarter_of_the_way_between_the_typed_levels():
    assert bend_between.GATE_AT_ONE_LEVEL and bend_between.LINE_GATE
    assert bend_between.gate_level_percent(_points(*MQSIM_320)) == 10.0
    typed_10_30 = _points("10:300,30:900", "10:5.0,30:1.8", 2380.0)
    assert bend_between.gate_level_percent(typed_10_30) == 15.0
    with pytest.raises(ValueError, match="two levels"):
        bend_between.gate_level_percent(_points("0:69", "0:24.897", 2380.0))


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


def test_a_level_asked_is_matched_within_float_rounding():
    """Typed 0.1% and 0.9% put the gate at 0.30000000000000004%: an asked 0.3% is that level
    (read there, not predicted apart, and the source does not say apart)."""
    figures = ("0.1:69,0.9:1143", "0.1:24.897,0.9:1.464", 2380.0)
    x = bend_between.gate_level_percent(_points(*figures))
    assert x != 0.3 and bend_between.same_level(x, 0.3)
    high = fitmod.Point(0.9, 1143.0, waf=1.464)
    line = bend_between.line_iops(2380.0, high, 4.5)
    levels = [
        PredictedLevel(0.1, 600.0, 570.0, 630.0, 24.9),
        PredictedLevel(0.3, 1.48 * line, 1.4 * line, 1.56 * line, 4.5),
        PredictedLevel(0.9, 600.0, 570.0, 630.0, 1.46),
    ]
    said = bend_between.gate_source(levels, _fig(figures), _never)
    assert "read at 0.3% extra OP alone:" in said and "apart" not in said
    assert "1.480 there, so open" in said
    assert bend_between.line_between(levels, _fig(figures), _never) == [0.3]


def test_a_level_no_reading_can_run_alone_keeps_the_gate_closed_and_says_why():
    """Where the level predicted apart cannot be simulated (``answer._level_alone`` gives
    ``NotPredicted``), nothing moves and the source names the core's reason."""
    few = _asked(_levels_at_line((1.48, 1.31, 1.16)), (0.0, 20.0, 40.0))
    why = bend_between.NotPredicted("the twin at 10% extra OP: too few blocks")
    said = bend_between.gate_source(few, _fig(MQSIM_320), lambda x: why)
    assert "read at 10% extra OP alone, predicted there apart: no reading of the figures" in said
    assert "(the twin at 10% extra OP: too few blocks), so closed" in said
    assert bend_between.line_between(few, _fig(MQSIM_320), lambda x: why) == []
    assert few[1].steady_iops == pytest.approx(_levels_at_line((1.48, 1.31, 1.16))[2].steady_iops)


def test_level_alone_turns_the_cores_refusal_into_a_closed_gate(monkeypatch, capsys):
    """``answer._level_alone`` where read_all raises for the level alone: ``NotPredicted``
    without read_all's advice to leave out a level the user never asked; with ``progress`` it
    says the level is predicted apart first."""
    refusal = (
        "the twin at 10% extra OP cannot be simulated; no reading of the figures can be "
        "simulated at 10% extra OP: leave that level out of --extra-op"
    )

    def refuse(fig):
        assert fig.levels == [10.0]
        raise ConfigError(refusal)

    monkeypatch.setattr(answer, "_predict", refuse)
    fig = dataclasses.replace(_fig(MQSIM_320), progress=True)
    got = answer._level_alone(fig, 10.0)
    assert got == bend_between.NotPredicted("the twin at 10% extra OP cannot be simulated")
    assert "calibrate: the line's gate: 10% extra OP predicted apart" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("between", "gate", "one_level", "said"),
    [
        (True, True, True, "1.41 times or more above the line a quarter of the way between"),
        (True, True, False, "1.41 times or more above the line at a level asked between"),
        (True, False, True, "; the IOPS at the levels asked between them are read from the line"),
        (False, True, True, None),
    ],
)
def test_the_warning_says_what_the_line_does_as_the_flags_stand(
    monkeypatch, between, gate, one_level, said
):
    monkeypatch.setattr(bend_between, "LINE_BETWEEN", between)
    monkeypatch.setattr(bend_between, "LINE_GATE", gate)
    monkeypatch.setattr(bend_between, "GATE_AT_ONE_LEVEL", one_level)
    text = bend_between.warning(_fig(MQSIM_320))
    assert text.startswith("; warning:") and "9%" in text
    if said is None:
        assert "read from the line" not in text
    else:
        assert said in text and "levels asked between them are read from the line" in text
