"""Set C of bench/corpus_workload_victim.py (SSDsim under skewed writes): its truths read from the
committed results files, and its verdict's arithmetic on made-up cases (no simulation)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import corpus_workload_victim as cwv  # noqa: E402


def test_truths_are_read_by_workload_with_their_qd32_levels():
    t = cwv.skewftl_truths("ssdsim-h")
    assert set(t) == {"uniform", "zones 0.9/0.1", "zones-ro 0.5", "zipf 0.8"}
    assert sorted(t["zones-ro 0.5"]["levels"]) == [0.0, 20.0, 40.0]
    assert sorted(t["uniform"]["levels"]) == [0.0, 10.0, 20.0, 30.0, 40.0]  # QD4 left out
    assert t["zones-ro 0.5"]["workload"]["zones"][0]["access_percent"] == 0.0


def _case(kind: str, err: float, uni: float, inside: bool) -> dict:
    return {"kind": kind, "rel_error": err, "uniform_only_rel_error": uni, "inside": inside}


def test_verdict_needs_iops_median_and_worst_and_every_waf_within_target():
    cases = [_case("iops", e, 0.3, True) for e in (0.02, -0.05, 0.19)]
    cases += [_case("waf", e, 0.3, False) for e in (0.01, -0.049)]
    v = cwv.verdict_c(cases)
    assert v["met"] and not v["uniform_only_met"]
    assert v["iops_median"] == 0.05 and v["waf_worst"] == 0.049 and v["inside"] == 0.6
    v = cwv.verdict_c([*cases, _case("waf", 0.051, 0.0, True)])
    assert not v["met"]  # one WAF figure 5.1% off fails the fit
    v = cwv.verdict_c([*cases, _case("iops", -0.21, 0.0, True)])
    assert not v["met"]  # an IOPS figure beyond 20%
