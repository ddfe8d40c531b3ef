"""bench/onset_default_bench.py's judgement over simulator seeds
(bench/foreign/results/onset-default4/RULE.md): an arm's figure is allowed the base arm's own
spread over the seeds, and no less than 2 points, above the base arm's median."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def judge():
    """bench/onset_default_bench.py's ``judge_over_seeds``."""
    if str(ROOT / "bench") not in sys.path:
        sys.path.append(str(ROOT / "bench"))
    return importlib.import_module("onset_default_bench").judge_over_seeds


def _run(drive_writes: float = 1.99, refused: bool = False) -> dict[str, Any]:
    return {
        "drive_writes": drive_writes,
        "refused": ["a check"] if refused else [],
        "levels_measured": [[0.0, None], [40.0, None], [40.0, 4]],
    }


def _records(base: list[float], arm: list[float], **arm_run: Any) -> list[dict[str, Any]]:
    """One drive at seeds 1-3: |error| of iops@0 per seed in each arm (waf@0 equal, 1%)."""
    return [
        {
            "drive": "d",
            "seed": seed,
            "base": _run(),
            "carry": _run(**arm_run),
            "errors": {
                "base": {"iops@0": b / 100, "waf@0": 0.01},
                "carry": {"iops@0": -a / 100, "waf@0": 0.01},
            },
        }
        for seed, b, a in zip((1, 2, 3), base, arm, strict=True)
    ]


def test_a_figure_is_allowed_the_base_arms_spread_over_its_seeds(judge):
    # base median 5, spread 10: an arm's median 14 (9 above) is inside, 16 (11 above) is not
    inside = judge(_records([0.0, 5.0, 10.0], [14.0, 14.0, 14.0]))
    assert "3 (d)" not in inside[-1] and "iops@0" not in inside[0], inside
    worse = judge(_records([0.0, 5.0, 10.0], [16.0, 16.0, 16.0]))
    assert "fails 3 (d)" in worse[-1] and "'iops@0': (5.0, 16.0, 10.0)" in worse[0], worse
    # a base arm steady over its seeds still allows 2 points, and no more
    assert "3 (d)" not in judge(_records([5.0, 5.0, 5.0], [6.9, 6.9, 6.9]))[-1]
    assert "fails 3 (d)" in judge(_records([5.0, 5.0, 5.0], [7.5, 7.5, 7.5]))[-1]


def test_the_overall_median_may_rise_by_0_3_points(judge):
    # over 6 figures: base median (1 + 1) / 2 = 1, the arm's (1 + 1.2) / 2 = 1.1 and 1.5
    assert judge(_records([1.0, 1.0, 1.0], [1.2, 1.2, 1.2]))[-1].endswith("1-4 hold")
    assert judge(_records([1.0, 1.0, 1.0], [2.0, 2.0, 2.0]))[-1].endswith("fails 4")


def test_a_lost_calibration_or_level_fails_the_arm(judge):
    same = [1.0, 1.0, 1.0]
    assert "fails 1 (d)" in judge(_records(same, same, refused=True))[-1]
    assert "fails 2 (d)" in judge(_records(same, same, drive_writes=2.01))[-1]
