"""bench/foreign/erase_cost_rule.py: the erase-cost rules' no-harm clause on made-up cases."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))
import erase_cost_rule as rule  # noqa: E402


def _case(iops_10: float, waf_10: float) -> dict:
    return {
        "levels": [
            {"extra_op_percent": 0, "fitted_iops": True, "fitted_waf": True, "iops_err": 0.5,
             "waf_err": 0.5},
            {"extra_op_percent": 10, "fitted_iops": False, "fitted_waf": False,
             "iops_err": iops_10, "waf_err": waf_10},
        ],
        "other_qd": [{"extra_op_percent": 0, "queue_depth": 4, "iops_err": -0.01, "fitted": False}],
    }  # fmt: skip


def test_held_out_leaves_the_fitted_figures_out() -> None:
    got = rule.held_out(_case(0.03, -0.04))
    assert got == {"IOPS 10%": 0.03, "WAF 10%": 0.04, "IOPS 0% QD4": 0.01}
    assert rule.held_out({"case": "x", "error": ["refused"]}) == {}


def test_worse_by_more_than_two_points_is_harm() -> None:
    off = {("t.json", "c"): _case(0.03, 0.01)}
    _, harmed = rule.compare(off, {("t.json", "c"): _case(0.049, -0.02)})
    assert not harmed  # +1.9 points at most
    rows, harmed = rule.compare(off, {("t.json", "c"): _case(0.01, 0.035)})
    assert harmed and "WAF 10%" in rows[0][2]


def test_a_new_refusal_is_harm_an_old_one_is_not() -> None:
    refused = {"case": "c", "error": ["refused"]}
    _, harmed = rule.compare({("t", "c"): _case(0.0, 0.0)}, {("t", "c"): refused})
    assert harmed
    _, harmed = rule.compare({("t", "c"): refused}, {("t", "c"): _case(0.5, 0.5)})
    assert not harmed
