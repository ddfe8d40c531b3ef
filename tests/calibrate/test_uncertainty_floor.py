"""The conditioned model-form error's floor as a parameter (bench/conditioned_intervals.py) and
the comparison of bench/intervals/RULE-2.md (bench/intervals/no_floor.py): which cases keep the
distance rule, and how the criteria read the two rules' intervals."""

from __future__ import annotations

import importlib
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rule(bench):
    """bench/conditioned_intervals.py (it imports the corpus bench, made a module by ``bench``)."""
    if str(ROOT / "bench") not in sys.path:
        sys.path.append(str(ROOT / "bench"))
    return importlib.import_module("conditioned_intervals")


@pytest.fixture(scope="module")
def no_floor(rule):
    if str(ROOT / "bench" / "intervals") not in sys.path:
        sys.path.append(str(ROOT / "bench" / "intervals"))
    return importlib.import_module("no_floor")


def test_without_the_floor_the_scale_is_the_error_over_the_residual(rule):
    """Errors of 2 residual sds where R (0.005) is under the 0.02 floor: with the floor the
    likelihood sees errors of half the floor (a ≈ 0.49), without it of twice R (a = 2)."""
    r = 0.005
    cases = [
        {"family": "A", "name": "A", "residual_sd": r, "noise_sd": 0.0, "log_error": s * 2 * r}
        for s in (1, -1)
    ]
    assert rule.fit_scale(cases, 0.0) == pytest.approx(2.0, abs=0.01)
    assert rule.fit_scale(cases, 0.02) == pytest.approx(2 * r / math.hypot(0.02, r), abs=0.01)


def test_a_skewed_workload_or_a_stored_residual_needs_no_figures(rule):
    """calibrate keeps the distance rule under another workload than uniform random writes, so
    its cases have no residual; a case made outside the corpus bench brings its own."""
    assert rule.residual_of({"workload": "zipf 0.2", "drive": "not-a-drive"}, {}) is None
    stored = {"workload": "uniform", "drive": "not-a-drive", "residual_sd": 0.0013}
    assert rule.residual_of(stored, {}) == 0.0013


def _case(drive: str, family: str, inside_current: bool, inside_new: bool, width: float) -> dict:
    held = 1.0
    cur = [0.9, 1.1] if inside_current else [1.2, 1.3]
    lo = 1.0 / math.sqrt(1 + width)
    new = [lo, lo * (1 + width)] if inside_new else [1.2, 1.3]
    return {"drive": drive, "family": family, "name": family, "held_out": {"value": held},
            "residual_sd": 0.01, "current": cur, "new": new}  # fmt: skip


def test_the_criteria_read_coverage_and_width_per_group(no_floor):
    """Ten cases of an over-covered family whose intervals narrow from 22% to 10% (7 of 10 left
    inside), ten of a reserve-holding FEMU drive brought from none to 8 inside: criteria 3 and 4
    met, criterion 2 not (the first family loses 30 points), so the rule is not met."""
    easy = [_case("d", "Easy", True, i < 7, 0.1) for i in range(10)]
    reserve = [_case("femu-thres60", "FEMU", False, i < 8, 1.0) for i in range(10)]
    v = no_floor.verdict(easy + reserve, set())
    assert v["over_covered_groups"] == ["Easy"]
    assert v["over_covered_median_width"]["new"] == pytest.approx(0.1)
    assert v["criteria"]["4 over-covered groups' median width -25%"]
    assert v["reserve_coverage_new"] == pytest.approx(0.8)
    assert v["criteria"]["3 reserve drives >= 70%"]
    assert v["worse_groups"] == ["Easy"]
    assert not v["criteria"]["2 no group >15 points worse"]
    assert not v["passed"]


def test_a_curve_from_another_folder_is_read_from_its_cases_figures(rule):
    """A drive corpus_bench.py read with ``--foreign DIR`` is not among the bench's own curves:
    its residual comes from the case's fitted figures at the foreign figures' relative sd."""
    from overprov.calibrate import fit as fitmod

    s = fitmod.Surrogate(0.10, 20.0, 5.0)
    fitted = [{"kind": "fob_iops", "extra_op_percent": 0, "value": s.iops(0.0, 1.0)}]
    for x in (0.0, 20.0, 40.0):
        fitted += [
            {"kind": "iops", "extra_op_percent": x, "value": s.iops(x)},
            {"kind": "waf", "extra_op_percent": x, "value": s.waf(x)},
        ]
    case = {"workload": "uniform", "drive": "from-elsewhere", "fitted": fitted}
    assert rule.residual_of(case, {}) == pytest.approx(0.0, abs=2e-3)
