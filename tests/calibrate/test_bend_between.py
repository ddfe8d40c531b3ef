"""The warning where typed figures' lowest level is deep in garbage collection and faster than
the FOB–highest line (calibrate/bend_between.py, ``WARN_WHERE_BENT`` on by its rule): checks on
figures the scoreboard typed (bench/foreign/results/scoreboard/cases-mix/, the commands of its
MQSim, NVMeVirt and SSDsim cases; bench/foreign/results/mqbend/DIAGNOSIS.md), and one real CLI
run."""

from __future__ import annotations

import json

import pytest
from overprov.calibrate import bend_between, cli, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.prediction_file import PredictedLevel


def _points(iops: str, waf: str, fob: float) -> list[fitmod.Point]:
    pts = cli.user_points(iops, waf)
    return [*pts, fitmod.Point(0.0, fob, cli.USER_POINT_REL_SD, fresh=True)]


#: MQSim u320x32 (mqsim-retry/unseen): IOPS at 10% predicted +44% from these figures
MQSIM_320 = ("0:69,40:1143", "0:24.897,40:1.464", 2380.0)
#: MQSim u640x16 (mqsim-retry/unseen): the shallowest deep 0% of the seen drives (WAF 10.2)
MQSIM_640 = ("0:175,40:1143", "0:10.185,40:1.418", 2380.0)
#: NVMeVirt q (erasegreedy): as far above the line, not deep (WAF 8.1), met both targets
NVMEVIRT_Q = ("0:8380,40:51255,40:51255@qd4", "0:8.056,40:1.379", 114581.0)
#: SSDsim a (ssdsim): the line nearly passes through the 0% figure
SSDSIM_A = ("0:2449,40:7947,40:7947@qd4", "0:2.495,40:1.200", 13221.0)
#: MQSim u1024x32-op12 (mqsim-retry/unseen): not deep (WAF 6.5), met both targets
MQSIM_1024_OP12 = ("0:183,40:1251", "0:6.544,40:1.361", 2403.0)


def _fig(figures: tuple[str, str, float], typed: bool = True) -> predmod.PredictionInput:
    points = _points(*figures)
    return predmod.PredictionInput(
        points, [0.0, 10.0, 20.0, 30.0, 40.0], typed=typed, fob_iops=figures[2],
        model_form=uncertainty.model_form_for(points, False),
    )  # fmt: skip


def test_the_line_passes_through_the_fob_and_the_highest_figure():
    high = fitmod.Point(40.0, 1143.0, waf=1.464)
    assert bend_between.line_iops(2380.0, high, 1.0) == pytest.approx(2380.0)
    assert bend_between.line_iops(2380.0, high, 1.464) == pytest.approx(1143.0)
    with pytest.raises(ValueError, match="not above 1"):
        bend_between.line_iops(2380.0, fitmod.Point(40.0, 1143.0, waf=1.0), 5.0)


def test_the_seen_mqsim_drive_is_deep_and_far_above_the_line():
    """u320x32: 0% WAF 24.9 and its IOPS 1.64 times the line's (DIAGNOSIS.md's table)."""
    waf, ratio = bend_between.above_line(_points(*MQSIM_320), 2380.0)
    assert waf == pytest.approx(24.897)
    assert ratio == pytest.approx(1.645, abs=0.002)


@pytest.mark.parametrize(
    ("figures", "fired"),
    [(MQSIM_320, True), (MQSIM_640, True), (NVMEVIRT_Q, False), (SSDSIM_A, False),
     (MQSIM_1024_OP12, False)],
)  # fmt: skip
def test_fires_on_the_deep_fast_lowest_level_only(figures, fired):
    assert bend_between.fires(_points(*figures), figures[2]) is fired


def test_the_nvmevirt_drive_is_as_far_above_the_line_and_not_deep():
    """What the shape alone cannot tell: NVMeVirt q's 0% IOPS lies further above the line than
    MQSim u320x32's, and calibrate met both targets on it."""
    waf, ratio = bend_between.above_line(_points(*NVMEVIRT_Q), NVMEVIRT_Q[2])
    assert ratio > bend_between.ABOVE_LINE and waf < bend_between.DEEP_WAF


def test_no_fob_or_one_level_is_not_judged():
    assert bend_between.above_line(cli.user_points(*MQSIM_320[:2]), None) is None
    one = _points("0:69", "0:24.897", 2380.0)
    assert bend_between.above_line(one, 2380.0) is None
    assert not bend_between.fires(one, 2380.0)


def test_off_says_nothing(monkeypatch):
    monkeypatch.setattr(bend_between, "WARN_WHERE_BENT", False)
    assert bend_between.warning(_fig(MQSIM_320)) == ""


def test_on_says_it_where_it_fires_and_only_on_typed_figures(monkeypatch):
    monkeypatch.setattr(bend_between, "WARN_WHERE_BENT", True)
    said = bend_between.warning(_fig(MQSIM_320))
    assert said.startswith("; warning: the lowest level's figures are deep")
    assert "WAF 24.9" in said and "1.6 times faster" in said and "40% figure" in said
    assert bend_between.warning(_fig(NVMEVIRT_Q)) == ""
    assert bend_between.warning(_fig(MQSIM_320, typed=False)) == ""


def test_on_by_default():
    """bench/foreign/results/mqbend/RULE.md met (verdict.md)."""
    assert bend_between.WARN_WHERE_BENT


def test_by_default_the_real_cli_prints_the_warning_on_typed_mqsim_figures(tmp_path, capsys):
    """MQSim u320x32's typed figures (the scoreboard's command, only the fitted levels asked
    for to keep it short; ≈ 6 CPU s): calibrate answers with the defaults, prints the warning
    and puts it in the JSON's prediction_source (that it changes no figure: RULE.md's R4, on
    three fresh drives' plan cases)."""
    from overprov.cli import main

    rc = main(["calibrate", "--points", MQSIM_320[0], "--waf-points", MQSIM_320[1],
               "--fob-iops", "2380", "--extra-op", "0,40", "--jobs", "1", "--json", "-",
               "--out", str(tmp_path)])  # fmt: skip
    assert rc == 0
    got = capsys.readouterr()
    assert "the curve may bend between the levels" in json.loads(got.out)["prediction_source"]
    said = " ".join(got.err.split())  # the summary wraps long lines
    assert "the curve may bend between the levels and the figures cannot show it" in said


def _levels(centre_iops: float, waf: float) -> list[PredictedLevel]:
    """Five levels with a ±5% IOPS interval around ``centre_iops`` and WAF ``waf`` each."""
    return [
        PredictedLevel(x, centre_iops, 0.95 * centre_iops, 1.05 * centre_iops, waf)
        for x in (0.0, 10.0, 20.0, 30.0, 40.0)
    ]


def test_the_span_is_off_by_default_and_off_leaves_the_levels():
    """bench/foreign/results/jointband/RULE.md not met (verdict.md): off."""
    assert not bend_between.SPAN_TO_LINE
    levels = _levels(400.0, 3.0)
    assert bend_between.span_to_line(levels, _fig(MQSIM_320)) == 0
    assert levels == _levels(400.0, 3.0)


def test_on_the_span_reaches_the_line_between_the_typed_levels_only(monkeypatch):
    """u320x32's figures: the line at WAF 3 lies far below a centre of 600 IOPS, so the low end
    at 10-30% moves to it; 0% and 40% (the typed levels) and every centre stay."""
    monkeypatch.setattr(bend_between, "SPAN_TO_LINE", True)
    levels = _levels(600.0, 3.0)
    assert bend_between.span_to_line(levels, _fig(MQSIM_320)) == 3
    high = fitmod.Point(40.0, 1143.0, waf=1.464)
    line = bend_between.line_iops(2380.0, high, 3.0)
    assert line < 0.95 * 600.0
    for lv, was in zip(levels, _levels(600.0, 3.0), strict=True):
        assert lv.steady_iops == was.steady_iops and lv.steady_iops_high == was.steady_iops_high
        inner = 0.0 < lv.extra_op_percent < 40.0
        assert lv.steady_iops_low == (pytest.approx(line) if inner else was.steady_iops_low)


def test_on_the_span_reaches_up_to_a_line_above_the_interval(monkeypatch):
    monkeypatch.setattr(bend_between, "SPAN_TO_LINE", True)
    levels = _levels(100.0, 3.0)
    line = bend_between.line_iops(2380.0, fitmod.Point(40.0, 1143.0, waf=1.464), 3.0)
    assert bend_between.span_to_line(levels, _fig(MQSIM_320)) == 3
    assert [lv.steady_iops_high for lv in levels[1:4]] == [pytest.approx(line)] * 3
    assert [lv.steady_iops_low for lv in levels[1:4]] == [95.0] * 3


def test_on_the_span_leaves_figures_where_it_does_not_fire(monkeypatch):
    monkeypatch.setattr(bend_between, "SPAN_TO_LINE", True)
    for figures, typed in ((NVMEVIRT_Q, True), (MQSIM_1024_OP12, True), (MQSIM_320, False)):
        levels = _levels(400.0, 3.0)
        assert bend_between.span_to_line(levels, _fig(figures, typed=typed)) == 0
        assert levels == _levels(400.0, 3.0)


def test_on_the_real_cli_widens_the_middle_level_to_the_line(tmp_path, capsys, monkeypatch):
    """u320x32's typed figures with the span on and the line off, as jointband judged the span
    (≈ 7 CPU s): the 20% IOPS interval of the JSON reaches the line's IOPS at the 20% WAF
    calibrate predicts; the typed levels' do not move to it."""
    monkeypatch.setattr(bend_between, "SPAN_TO_LINE", True)
    monkeypatch.setattr(bend_between, "LINE_BETWEEN", False)
    by = {lv["extra_op_percent"]: lv for lv in cli_320_at_0_20_40(tmp_path, capsys)["levels"]}
    mid = by[20.0]
    line = bend_between.line_iops(2380.0, fitmod.Point(40.0, 1143.0, waf=1.464), mid["waf"])
    assert mid["steady_iops_low"] <= line <= mid["steady_iops_high"]
    assert line in (pytest.approx(mid["steady_iops_low"]), pytest.approx(mid["steady_iops_high"]))


def test_a_figure_between_the_levels_shows_the_curve_so_it_does_not_fire():
    """With a steady figure at 20% typed beside 0% and 40% (review2), the curve between the
    levels is shown: no warning that asks for the figure already given."""
    three = _points("0:69,20:700,40:1143", "0:24.897,20:2.5,40:1.464", 2380.0)
    assert bend_between.above_line(three, 2380.0)[1] > bend_between.ABOVE_LINE
    assert not bend_between.fires(three, 2380.0)


def test_the_warning_asks_for_the_level_halfway_between_those_typed():
    fig = _fig(("0:69,20:1143", "0:24.897,20:1.464", 2380.0))
    said = bend_between.warning(fig)
    assert "figures at 10% extra OP would show it" in said
    assert "figures at 20% extra OP would show it" in bend_between.warning(_fig(MQSIM_320))


def test_a_fob_or_an_iops_not_positive_is_a_value_error():
    high = fitmod.Point(40.0, 1143.0, waf=1.464)
    with pytest.raises(ValueError, match="must be positive"):
        bend_between.line_iops(0.0, high, 5.0)
    with pytest.raises(ValueError, match="must be positive"):
        bend_between.line_iops(2380.0, fitmod.Point(40.0, 0.0, waf=1.464), 5.0)
    assert bend_between.above_line(_points(*MQSIM_320), -2380.0) is None


def test_the_line_between_is_on_by_default_and_off_leaves_the_levels(monkeypatch):
    """Alone not met (bench/foreign/results/mqline/verdict.md); with the gate met
    (bench/foreign/results/mqgate/verdict.md): on, and off leaves the levels."""
    assert bend_between.LINE_BETWEEN and bend_between.LINE_GATE
    monkeypatch.setattr(bend_between, "LINE_BETWEEN", False)
    levels = _levels(600.0, 3.0)
    assert bend_between.line_between(levels, _fig(MQSIM_320)) == []
    assert levels == _levels(600.0, 3.0)
    assert bend_between.line_source([], _fig(MQSIM_320)) == ""


def test_on_the_line_between_moves_the_centre_and_scales_the_interval(monkeypatch):
    """u320x32's figures: at 10-30% the IOPS become the line's at each level's WAF and the
    interval keeps its ±5%; the typed levels (0%, 40%) and the WAF stay."""
    monkeypatch.setattr(bend_between, "LINE_BETWEEN", True)
    levels = _levels(600.0, 3.0)
    for lv, waf in zip(levels, (24.9, 4.5, 2.6, 1.8, 1.46), strict=True):
        lv.waf = waf
    assert bend_between.line_between(levels, _fig(MQSIM_320)) == [10.0, 20.0, 30.0]
    high = fitmod.Point(40.0, 1143.0, waf=1.464)
    for lv in levels:
        if lv.extra_op_percent in (0.0, 40.0):
            assert (lv.steady_iops, lv.steady_iops_low, lv.steady_iops_high) == (600, 570, 630)
            continue
        line = bend_between.line_iops(2380.0, high, lv.waf)
        assert lv.steady_iops == pytest.approx(line)
        assert lv.steady_iops_low == pytest.approx(0.95 * line)
        assert lv.steady_iops_high == pytest.approx(1.05 * line)
    said = bend_between.line_source([10.0, 20.0, 30.0], _fig(MQSIM_320))
    assert "IOPS at 10%, 20%, 30% extra OP from the line through the FOB and the 40%" in said


def test_on_the_line_between_leaves_figures_where_it_does_not_fire(monkeypatch):
    """Where the warning is silent (NVMeVirt q, MQSim u1024x32-op12, figures not typed) the
    levels are left as they are: on the 72 the flag can act on the six drives it fires on."""
    monkeypatch.setattr(bend_between, "LINE_BETWEEN", True)
    for figures, typed in ((NVMEVIRT_Q, True), (MQSIM_1024_OP12, True), (MQSIM_320, False)):
        levels = _levels(400.0, 3.0)
        assert bend_between.line_between(levels, _fig(figures, typed=typed)) == []
        assert levels == _levels(400.0, 3.0)


def cli_320_at_0_20_40(tmp_path, capsys) -> dict:
    """calibrate's JSON on u320x32's typed figures asked at 0, 20, 40% (≈ 7 CPU s)."""
    from overprov.cli import main

    rc = main(["calibrate", "--points", MQSIM_320[0], "--waf-points", MQSIM_320[1],
               "--fob-iops", "2380", "--extra-op", "0,20,40", "--jobs", "1", "--json", "-",
               "--out", str(tmp_path)])  # fmt: skip
    assert rc == 0
    return json.loads(capsys.readouterr().out)


def test_on_the_real_cli_puts_the_middle_level_on_the_line(tmp_path, capsys, monkeypatch):
    """u320x32's typed figures with the flag on (≈ 7 CPU s): the JSON's 20% IOPS is the line's
    at the 20% WAF calibrate predicts, inside its interval, and the prediction's source names
    the level; the typed levels keep the twin's IOPS."""
    monkeypatch.setattr(bend_between, "LINE_BETWEEN", True)
    # the gate off: asked at 0, 20, 40% alone, u320x32's twin is 1.31 times the line at 20%
    monkeypatch.setattr(bend_between, "LINE_GATE", False)
    doc = cli_320_at_0_20_40(tmp_path, capsys)
    by = {lv["extra_op_percent"]: lv for lv in doc["levels"]}
    mid = by[20.0]
    line = bend_between.line_iops(2380.0, fitmod.Point(40.0, 1143.0, waf=1.464), mid["waf"])
    assert mid["steady_iops"] == pytest.approx(line)
    assert mid["steady_iops_low"] < line < mid["steady_iops_high"]
    assert mid["twin_iops"] != pytest.approx(line, rel=0.05)
    assert "IOPS at 20% extra OP from the line" in doc["prediction_source"]
    assert by[40.0]["steady_iops"] == pytest.approx(1143.0, rel=0.1)


@pytest.mark.parametrize(
    ("iops", "waf"),
    [("0:69,20:700,40:1143", "0:24.897,40:1.464"), ("0:69,40:1143", "0:24.897,20:2.5,40:1.464")],
)
def test_an_iops_or_a_waf_figure_alone_between_the_levels_keeps_it_silent(iops, waf):
    """review3: one figure at 20%, IOPS or WAF, already shows the curve there."""
    assert not bend_between.fires(_points(iops, waf, 2380.0), 2380.0)


def _levels_at_line(ratios: tuple[float, float, float]) -> list[PredictedLevel]:
    """u320x32's levels (WAF 24.9, 4.5, 2.6, 1.8, 1.46) whose IOPS at 10, 20, 30% are
    ``ratios`` times the line's there, ±5% intervals; 600 at 0% and 40%."""
    high = fitmod.Point(40.0, 1143.0, waf=1.464)
    levels = _levels(600.0, 3.0)
    for lv, waf in zip(levels, (24.9, 4.5, 2.6, 1.8, 1.46), strict=True):
        lv.waf = waf
    for lv, ratio in zip(levels[1:4], ratios, strict=True):
        centre = ratio * bend_between.line_iops(2380.0, high, lv.waf)
        lv.steady_iops, lv.steady_iops_low, lv.steady_iops_high = (
            centre,
            0.95 * centre,
            1.05 * centre,
        )
    return levels


def test_the_gate_off_lets_the_line_move_a_twin_near_it(monkeypatch):
    """mqgate: the gate off, LINE_BETWEEN behaves as before (a twin 1.3 times the line moved)."""
    monkeypatch.setattr(bend_between, "LINE_BETWEEN", True)
    monkeypatch.setattr(bend_between, "LINE_GATE", False)
    levels = _levels_at_line((1.3, 1.2, 1.1))
    assert bend_between.line_between(levels, _fig(MQSIM_320)) == [10.0, 20.0, 30.0]


def test_on_the_gate_leaves_a_twin_near_the_line_and_moves_one_far_above(monkeypatch):
    """The gate on: twin IOPS 1.3/1.2/1.1 times the line's (below GATE_ABOVE_LINE everywhere,
    as u288x32's 1.35 at 10%) leave every level; 1.45 at 10% alone (as the bent drives'
    1.48-1.79) moves all three middle levels onto the line."""
    monkeypatch.setattr(bend_between, "LINE_BETWEEN", True)
    monkeypatch.setattr(bend_between, "LINE_GATE", True)
    assert abs(bend_between.GATE_ABOVE_LINE - 1.41) < 1e-12
    near = _levels_at_line((1.3, 1.2, 1.1))
    assert bend_between.line_between(near, _fig(MQSIM_320)) == []
    assert near == _levels_at_line((1.3, 1.2, 1.1))
    far = _levels_at_line((1.45, 1.2, 1.1))
    assert bend_between.line_between(far, _fig(MQSIM_320)) == [10.0, 20.0, 30.0]
    high = fitmod.Point(40.0, 1143.0, waf=1.464)
    for lv in far[1:4]:
        line = bend_between.line_iops(2380.0, high, lv.waf)
        assert lv.steady_iops == pytest.approx(line)
        assert lv.steady_iops_low == pytest.approx(0.95 * line)
    assert not bend_between.gate_passes([])
