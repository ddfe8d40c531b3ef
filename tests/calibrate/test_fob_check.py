"""IOPS figures only from a drive whose IOPS still scale with queue depth: with
``fob_check.ENABLED``, ``fob_check.gc_cost_unidentified`` refuses, naming the figures; a WAF
figure anywhere, an elasticity below the bound, no second queue depth, or the flag off: no
refusal. On by default since bench/results/fobcheck/RULE.md was met."""

from __future__ import annotations

import math

import pytest
from overprov.calibrate import fob_check
from overprov.calibrate import plausibility as pl
from test_plausibility_spare_side import _pred, _pt


@pytest.fixture
def check_on(monkeypatch):
    monkeypatch.setattr(fob_check, "ENABLED", True)


# FlashSim's drive A (bench/foreign/results/flashsim/flashsim-a.json): 0% and 40% at QD32 with
# FOB, 40% at QD4: IOPS 7.7 times higher at QD32
LATENCY_BOUND = [_pt(0, 5556), _pt(40, 58388), _pt(0, 84990, fresh=True)]
LATENCY_QD4 = [_pt(40, 7589, qd=4)]
# DiskSim, 12 packages (bench/foreign/results/tcmd-bound/runs/unseen-disksim-12pkg--*.json):
# 2.88 times, the largest gain on a stored case whose WAF was within 25%
NEAR = [_pt(0, 7840), _pt(40, 21445), _pt(0, 32535, fresh=True)]
NEAR_QD4 = [_pt(40, 7452, qd=4)]
# generated drives without a write buffer (bench/results/fobmany/drives/gen-d32.json, gen-d16.json):
# 32 dies gain 4.3 times from QD4 to QD32 by parallelism alone, 16 dies 2.7 times
MANY_UNITS = [_pt(0, 12575), _pt(40, 75590), _pt(0, 158302, fresh=True)]
MANY_UNITS_QD4 = [_pt(40, 17569, qd=4)]
SIXTEEN_DIES = [_pt(0, 7409), _pt(40, 45701), _pt(0, 79978, fresh=True)]
SIXTEEN_DIES_QD4 = [_pt(40, 16824, qd=4)]


def test_elasticity_is_the_log_ratio_at_the_highest_shared_level():
    e, hi, lo = fob_check.queue_depth_elasticity(LATENCY_BOUND + [_pt(0, 701, qd=4)] + LATENCY_QD4)
    assert (hi["iops"], lo["iops"]) == (58388, 7589)  # 40%, not 0%
    assert e == pytest.approx(math.log(58388 / 7589) / math.log(8))
    assert fob_check.queue_depth_elasticity(LATENCY_BOUND) is None  # one queue depth
    # a saturated drive: the same IOPS at both depths
    assert fob_check.queue_depth_elasticity([_pt(40, 9663), _pt(40, 9663, qd=4)])[0] == 0.0


def test_iops_only_still_scaling_with_queue_depth_is_refused_naming_the_figures(check_on):
    why = fob_check.gc_cost_unidentified(_pred(LATENCY_BOUND, LATENCY_QD4))
    assert why is not None
    assert "58,388 at QD32" in why and "7,589 at QD4" in why and "elasticity 0.98" in why
    assert "--waf-points" in why
    assert fob_check.gc_cost_unidentified in pl.PREDICTION_RULES
    assert pl.prediction_problems(_pred(LATENCY_BOUND, LATENCY_QD4)) == [why]


def test_many_units_without_a_buffer_are_refused_naming_both_kinds(check_on):
    """The 32-die drive reads e 0.70: refused (its IOPS-only prediction missed QD32 IOPS by 36%
    at the median, bench/results/fobmany/verdict.md), the reason naming parallel units too; the
    16-die drive reads e 0.48 and is answered."""
    why = fob_check.gc_cost_unidentified(_pred(MANY_UNITS, MANY_UNITS_QD4))
    assert why is not None and "elasticity 0.70" in why
    assert "more parallel units than the lower depth keeps busy" in why
    assert "bench/results/fobmany/verdict.md" in why
    e = fob_check.queue_depth_elasticity(SIXTEEN_DIES + SIXTEEN_DIES_QD4)[0]
    assert e == pytest.approx(math.log(45701 / 16824) / math.log(8))
    assert fob_check.gc_cost_unidentified(_pred(SIXTEEN_DIES, SIXTEEN_DIES_QD4)) is None


def test_a_waf_figure_a_small_gain_or_the_flag_off_is_answered(check_on, monkeypatch):
    with_waf = [_pt(0, 5556, waf=8.49), *LATENCY_BOUND[1:]]
    assert fob_check.gc_cost_unidentified(_pred(with_waf, LATENCY_QD4)) is None
    assert fob_check.gc_cost_unidentified(_pred(NEAR, NEAR_QD4)) is None  # 2.88x: e 0.51
    assert fob_check.gc_cost_unidentified(_pred(LATENCY_BOUND)) is None  # no QD4 figure
    monkeypatch.setattr(fob_check, "ENABLED", False)
    assert fob_check.gc_cost_unidentified(_pred(LATENCY_BOUND, LATENCY_QD4)) is None


def test_on_by_default_as_its_rule_was_met():
    assert fob_check.ENABLED is True and fob_check.ELASTICITY_MIN == 0.59
