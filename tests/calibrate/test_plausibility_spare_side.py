"""IOPS figures only whose lowest level runs far below the FOB: with
``plausibility.IOPS_ONLY_FOB_RATIO_MAX`` set (7.8 under bench/foreign/results/iops-only2/RULE.md),
``plausibility.spare_side_unidentified`` refuses; a WAF figure anywhere, a lowest level near the
FOB, or the rule off (None, the default: the rule failed on unseen truths): no refusal."""

from __future__ import annotations

import pytest
from overprov.calibrate import plausibility as pl
from overprov.calibrate.prediction import Prediction

#: the threshold the rule was judged with
RULE_RATIO = 7.8


@pytest.fixture
def guard_on(monkeypatch):
    monkeypatch.setattr(pl, "IOPS_ONLY_FOB_RATIO_MAX", RULE_RATIO)


def _pred(points, other=(), fob=None):
    fit = {"native_op": 0.07, "t_page_us": 8.0, "t_cmd_us": 1.0, "points": list(points),
           "points_other_queue_depth": list(other), "twin_check": [],
           "surrogate": {"fob_iops": fob}}  # fmt: skip
    return Prediction(
        interval="80%", prediction_source="the twin", workload="uniform random writes",
        workload_flags="", waf_curve=None, levels=[], recommendation=None, fit=fit,
        twin="twin.toml", measurement=None,
    )  # fmt: skip


def _pt(x, iops, waf=None, fresh=False, qd=None):
    return {"extra_op_percent": x, "iops": iops, "waf": waf, "fresh": fresh, "queue_depth": qd}


# a FEMU drive whose reserve binds
# (bench/foreign/results/byfig-reserve/unseen/femu-20lun-128blk-250us.json): 0% and 40% at
# QD32, 40% at QD4, the FOB 9.4 times the 0% IOPS
BINDING = [_pt(0, 8525), _pt(40, 48925), _pt(0, 80013, fresh=True)]
QD4 = [_pt(40, 14212, qd=4)]


def test_iops_only_far_below_the_fob_is_refused_with_the_figures_named(guard_on):
    why = pl.spare_side_unidentified(_pred(BINDING, QD4))
    assert why is not None
    assert "80,013" in why and "9.4 times" in why and "at 0% extra OP (8,525" in why
    assert "--waf-points" in why
    # the FOB read from the fit's surrogate where no fresh point is kept (a measurement's)
    assert pl.spare_side_unidentified(_pred(BINDING[:2], QD4, fob=80013.0)) is not None
    # it is one of the rules calibrate runs on every prediction
    assert pl.spare_side_unidentified in pl.PREDICTION_RULES


def test_a_waf_figure_anywhere_or_a_lowest_level_near_the_fob_is_answered(guard_on):
    with_waf = [_pt(0, 8525, waf=8.0), *BINDING[1:]]
    assert pl.spare_side_unidentified(_pred(with_waf, QD4)) is None
    assert pl.spare_side_unidentified(_pred(BINDING, [_pt(40, 14212, waf=1.5, qd=4)])) is None
    # DiskSim's figures (bench/foreign/results/disksim-ssd.json): the FOB 3.6 times its 0% IOPS
    assert pl.spare_side_unidentified(_pred([_pt(0, 10000), _pt(40, 25600),
                                             _pt(0, 36200, fresh=True)])) is None  # fmt: skip
    # the lowest level measured is what is read: 20% only, the FOB 2.1 times it
    assert pl.spare_side_unidentified(_pred([_pt(20, 75839), _pt(0, 160007, fresh=True)])) is None
    # no FOB: nothing to compare
    assert pl.spare_side_unidentified(_pred(BINDING[:2])) is None


def test_the_rule_is_off_by_default_and_off_refuses_nothing(monkeypatch):
    # off: its rule failed (bench/foreign/results/iops-only2/verdict.txt)
    assert pl.IOPS_ONLY_FOB_RATIO_MAX is None
    assert pl.spare_side_unidentified(_pred(BINDING, QD4)) is None
    monkeypatch.setattr(pl, "IOPS_ONLY_FOB_RATIO_MAX", 10.0)
    assert pl.spare_side_unidentified(_pred(BINDING, QD4)) is None
