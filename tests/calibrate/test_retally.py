"""bench/foreign/retally.py's arithmetic: a case's figures read from evaluate.py's summary, the
targets judged at their bounds, the old → now rows matched by results file and case, and the
GC-reserve bench's held-out WAF median over 10–30% only."""

from __future__ import annotations

import sys
from pathlib import Path

FOREIGN = Path(__file__).resolve().parents[2] / "bench" / "foreign"
sys.path.insert(0, str(FOREIGN))

import retally  # noqa: E402


def _case(name, iops, waf, held=((2, 3), (4, 5)), other=None, weight=None):
    s = {
        "iops": {"median_abs_err": iops[0], "worst_abs_err": iops[1]} if iops else None,
        "waf": {"median_abs_err": waf[0], "worst_abs_err": waf[1]},
        "iops_held_out": {"in_80": held[0][0], "n_interval": held[0][1]},
        "waf_held_out": {"in_80": held[1][0], "n_interval": held[1][1]},
        "iops_other_qd": {"median_abs_err": other[0], "worst_abs_err": other[1]} if other else None,
    }
    mech = {"weight": weight} if weight is not None else None
    return {"case": name, "summary": s, "gc_mechanism": mech}


def test_figures_pool_the_held_out_figures_and_read_the_blocking_weight():
    f = retally.figures(_case("a", (0.01, 0.33), (0.25, 0.45), other=(0.1, 0.2), weight=1.0))
    assert f["held_out_inside"] == (6, 8)
    assert (f["iops_median"], f["waf_worst"], f["other_worst"]) == (0.01, 0.45, 0.2)
    assert f["blocking_weight"] == 1.0


def test_targets_at_their_bounds():
    inside = ((4, 5), (3, 4))  # 7 of 9: 78%
    assert retally.met(retally.figures(_case("a", (0.10, 0.20), (0.01, 0.05), held=inside)))
    assert not retally.met(retally.figures(_case("a", (0.101, 0.2), (0.01, 0.05), held=inside)))
    assert not retally.met(retally.figures(_case("a", (0.1, 0.2), (0.01, 0.051), held=inside)))
    assert not retally.met(
        retally.figures(_case("a", (0.1, 0.2), (0.01, 0.05), held=((5, 5),) * 2))
    )
    assert not retally.met(
        retally.figures(_case("a", (0.1, 0.2), (0.01, 0.05), held=inside, other=(0.05, 0.21)))
    )
    # a WAF-only case is judged on its WAF and interval alone
    assert retally.met(retally.figures(_case("w", None, (0.02, 0.04), held=((0, 0), (4, 5)))))


def test_rows_match_old_and_new_by_results_file_and_case():
    old = [{"results": "femu.json", "cases": [_case("a", (0.01, 0.33), (0.25, 0.45))]}]
    new = [
        {
            "results": "femu.json",
            "cases": [_case("a", (0.05, 0.15), (0.02, 0.04)), _case("b", (0, 0), (0, 0))],
        },
        {"results": "other.json", "cases": [_case("a", (0, 0), (0, 0))]},
    ]
    rows = retally.evaluate_rows(old, new)
    assert rows == [
        "| femu.json: a | 1.0 / 33.0% → 5.0 / 15.0% | 25.0 / 45.0% → 2.0 / 4.0% | "
        "6/8 → 6/8 | – → – | – → – | not met → met |"
    ]


def test_reserve_rows_take_the_held_out_levels_only():
    def plan(errs):
        rows = [{"figure": "waf", "extra_op_percent": x, "baseline_error": e} for x, e in errs]
        rows.append({"figure": "iops", "extra_op_percent": 10.0, "baseline_error": 0.9})
        return {"cases": [{"drive": "d", "raw_nand_given": False, "rows": rows}]}

    old = plan([(0.0, 0.9), (10.0, -0.5), (20.0, -0.66), (30.0, -0.52), (40.0, 0.9)])
    new = plan([(0.0, 0.0), (10.0, 0.01), (20.0, -0.04), (30.0, 0.02), (40.0, 0.0)])
    assert retally.held_out_waf(old["cases"][0]) == (0.52, 0.66)
    assert retally.reserve_rows(old, new) == ["| d | 52.0 / 66.0% → 2.0 / 4.0% | not met → met |"]
