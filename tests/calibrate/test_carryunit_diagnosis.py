"""bench/foreign/results/carryunit/'s diagnosis helpers: a reading's own residual sd on its
fitted figures, Spearman's ρ with ties, and the units built from the carrying readings."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[2] / "bench/foreign/results/carryunit"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"carryunit_{name}", FOLDER / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


readings = _load("readings")
units = _load("units")


def _ev(errors: list[tuple[str, float]], p: int, other_qd: float | None = None) -> dict:
    res = [{"figure": f, "log_error": e} for f, e in errors]
    if other_qd is not None:
        res.append({"figure": "iops", "log_error": other_qd, "queue_depth": 4})
    return {"residuals": res, "n_parameters": p}


def test_own_residual_is_sqrt_of_sum_over_dof_at_the_workload_queue_depth():
    ev = _ev([("iops", 0.03), ("iops", -0.04), ("waf", 0.0), ("waf", 0.0), ("iops", 0.0)], 3, 9.0)
    got = readings.own_residuals(ev)
    assert got["n"] == 5 and got["p"] == 3  # the QD4 figure is not the workload's: left out
    assert got["all"] == pytest.approx(math.sqrt((0.03**2 + 0.04**2) / 2))
    assert got["iops"] == pytest.approx(math.sqrt((0.03**2 + 0.04**2) / 3) * math.sqrt(5 / 2))
    assert got["waf"] == pytest.approx(0.0)


def test_own_residual_is_none_when_the_figures_leave_nothing_to_miss():
    got = readings.own_residuals(_ev([("iops", 0.1), ("waf", 0.1)], 2))
    assert got["all"] is None and got["iops"] is None and got["waf"] is None


def test_spearman_with_ties_and_without_spread():
    assert units.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert units.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert units.ranks([5.0, 1.0, 5.0]) == [1.5, 0.0, 1.5]
    assert units.spearman([1, 1, 1], [1, 2, 3]) is None


def test_units_weigh_the_carrying_readings_only():
    case = {
        "greedy_R": 0.20,
        "readings": [
            {"kind": "erase", "weight": 0.75, "all": 0.01, "iops": 0.0, "waf": 0.02, "n": 5,
             "p": 4},
            {"kind": "plain", "weight": 0.25, "all": 0.05, "iops": 0.06, "waf": 0.03, "n": 5,
             "p": 3},
            {"kind": "plain", "weight": 0.0, "all": 0.30, "iops": 0.3, "waf": 0.3, "n": 5,
             "p": 3},
        ],
    }  # fmt: skip
    floors = {"erase": 0.02, "plain": 0.06}
    u = units.units_of(case, "iops", 0.4, floors)
    assert u["greedy"] == pytest.approx(math.hypot(0.02, 0.20))
    assert u["weighted"] == pytest.approx(math.hypot(0.02, math.sqrt(0.75e-4 + 0.25 * 0.0025)))
    assert u["kindfloor"] == pytest.approx(
        math.sqrt(0.75 * (0.02**2 + 0.01**2) + 0.25 * (0.06**2 + 0.05**2))
    )
    assert u["figkind"] == pytest.approx(math.hypot(0.02, math.sqrt(0.25 * 0.06**2)))
    assert u["dof"] == pytest.approx(1 / math.sqrt(0.75 * 1 + 0.25 * 2))
    assert u["constant"] == 1.0 and u["distance"] == 0.4
