"""How bench/cliff_rule.py counts a run under the sixth rule (docs/calibrate-cliff.md,
"Declined cases: the sixth rule"): declined cases apart, a cliff where the truth has none a
failure, cases where neither has a cliff not counted."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import cliff_rule  # noqa: E402 - bench/ put on the path above

CLIFF = {"time_s": 100.0, "lost_iops": 1000.0}


def _case(true: bool, predicted: bool, time_error=None, lost_error=None, refused=None) -> dict:
    c = {
        "true": CLIFF if true else None,
        "predicted": CLIFF if predicted else None,
        "time_error": time_error,
        "lost_error": lost_error,
    }
    if refused:
        c["refused"] = refused
    return c


def test_declined_cases_are_apart_and_a_cliff_the_truth_has_not_is_a_failure():
    none = _case(False, False)
    rows = [
        {"none": _case(True, True, 0.1, -0.2), "sequential": none},  # within 25%
        {"none": _case(True, True, 0.3, 0.0), "sequential": _case(False, True)},  # 2 failures
        {"none": _case(True, False, refused="a cache they cannot see"), "sequential": none},
        {"error": "no SLC program time", "none": _case(True, False), "sequential": none},
    ]
    d = cliff_rule.declined_rule(rows)
    assert (d["counted"], d["predicted"], d["declined"]) == (5, 3, 2)
    assert (d["within"], d["outside"], d["truth_has_none"]) == (1, 1, 1)
    assert d["worst_error"] == 0.3
    assert d["declined_by_reason"] == {
        "not predicted: a cache the writes cannot see moves it": 1,
        "refused: the plateau is not an SLC cache's": 1,
    }
    assert not d["passed"]  # 1 of 3 predicted within 25%
    good = [{"none": _case(True, True, 0.1, 0.1), "sequential": none}] * 4
    assert cliff_rule.declined_rule(good + rows[2:3])["passed"]  # 4 of 4, 1 of 5 declined
    # 4 of 4 predicted within 25%, but 2 of 6 counted declined is a third: still a pass;
    # 3 of 7 is not
    assert cliff_rule.declined_rule(good + rows[2:4])["passed"]
    assert not cliff_rule.declined_rule(good + rows[2:4] + rows[2:3])["passed"]
    # a prediction off by more than 50% fails the run whatever the share
    far = {"none": _case(True, True, 0.6, 0.0), "sequential": none}
    assert not cliff_rule.declined_rule(good * 3 + [far])["passed"]
