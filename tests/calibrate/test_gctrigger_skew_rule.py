"""The per-host-write trigger's rules (bench/foreign/results/gctrigger-skew/RULE.md and
gctrigger-skew2/RULE.md): set E's truths read from the committed results files, set C's with
its zones scattered, the weights without the reading, and the verdicts' arithmetic on made-up
cases (no simulation)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH / "foreign"))

import corpus_workload_victim as cwv  # noqa: E402
import gctrigger_skew_rule as rule  # noqa: E402
from overprov.calibrate import evidence  # noqa: E402
from overprov.calibrate import victim_selection as vs  # noqa: E402


def test_set_e_truths_have_their_zones_scattered_as_the_truth_wrote_them():
    for drive, (folder, _fits) in cwv.SET_E.items():
        t = cwv.skewftl_truths(drive, folder)
        assert {"uniform", "zones 0.9/0.1", "zones-ro 0.5"} <= set(t)
        assert sorted(t["uniform"]["levels"])[0 :: len(t["uniform"]["levels"]) - 1] == [0.0, 40.0]
        for label in ("zones 0.9/0.1", "zones-ro 0.5"):
            assert t[label]["workload"]["zones_scattered"] is True
    assert "zipf 0.8" in cwv.skewftl_truths("ssdsim-l", cwv.SET_E["ssdsim-l"][0])


def test_set_c_scattered_scatters_its_zones_and_nothing_else():
    for drive in cwv.SKEWFTL_DRIVES:
        stored, scattered = cwv.skewftl_truths(drive), cwv.skewftl_truths(drive, scattered=True)
        assert set(stored) == set(scattered)
        for label, t in stored.items():
            s = scattered[label]
            assert s["levels"] == t["levels"] and s["fob_iops"] == t["fob_iops"]
            assert not t["workload"].get("zones_scattered")  # set C as stored: LBA order
            if "zones" in t["workload"]:
                assert s["workload"] == {**t["workload"], "zones_scattered": True}
            else:
                assert s["workload"] == t["workload"]


def test_include_per_write_lists_the_reading_once(monkeypatch):
    selection = ("greedy", {"policy": "greedy", "host_streams": "single"})
    monkeypatch.setattr(vs, "PER_WRITE_SELECTION", selection, raising=False)
    monkeypatch.setattr(vs, "PER_WRITE_READING", False, raising=False)
    monkeypatch.setattr(vs, "VICTIM_SELECTIONS", dict(vs.VICTIM_SELECTIONS))
    cwv.include_per_write()
    cwv.include_per_write()
    assert vs.PER_WRITE_READING is True
    assert list(vs.VICTIM_SELECTIONS).count(cwv.PER_WRITE) == 1
    assert vs.VICTIM_SELECTIONS[cwv.PER_WRITE][0] == "greedy"


def test_weights_without_the_reading_are_the_rest_weighed_alone():
    w = {"greedy": {"chi2": 1.0, "reproduces": True},
         "fifo": {"chi2": 3.0, "reproduces": True},
         cwv.PER_WRITE: {"chi2": 0.5, "reproduces": True}}  # fmt: skip
    off = cwv.without_per_write(w)
    assert set(off) == {"greedy", "fifo"}
    assert off == evidence.weights({"greedy": 1.0, "fifo": 3.0}, {"greedy": True, "fifo": True})
    assert sum(off.values()) == pytest.approx(1.0)


def _case(set_, drive, workload, kind, err, off=None, top=cwv.PER_WRITE, fit="iops+waf"):
    c = {"set": set_, "drive": drive, "fit": fit, "workload": workload, "kind": kind,
         "extra_op_percent": 20.0, "measured": 1.0, "rel_error": err,
         "uniform_only_rel_error": 0.3, "inside": True,
         "figure_weights": {"fifo": {"predicted": 1.0, "weight": 0.1},
                            top: {"predicted": 1.0, "weight": 0.9}}}  # fmt: skip
    if off is not None:
        c["without_per_write_rel_error"] = off
    return c


def _all_cases(judged_err=0.05, waf_err=0.03, guard_err=0.05, top=cwv.PER_WRITE, r=rule.SKEW):
    cases = []
    for d in r.judged_drives:
        for wl in r.judged_workloads:
            n = 2 if wl == "zones 0.9/0.1" else 3
            for _ in range(n):
                cases.append(_case("E", f"{d} (iops+waf)", wl, "iops", judged_err, 0.15, top))
                cases.append(_case("E", f"{d} (iops+waf)", wl, "waf", waf_err, 0.08, top))
    for (s, d), n in r.guards.items():
        fit = "iops" if d.endswith("(iops)") else "iops+waf"
        judged_drive = fit == "iops+waf" and d.split(" (")[0] in r.judged_drives
        wl = "zones-ro 0.5" if judged_drive else "x"
        cases += [_case(s, d, wl, "iops", guard_err, 0.05, fit=fit) for _ in range(n)]
    return cases


def test_the_reading_is_adopted_when_all_three_conditions_hold():
    v = rule.check(_all_cases())
    assert v["complete"] and v["a"]["met"] and v["b_met"] and v["c_met"] and v["adopted"]
    assert "adopted" in rule.report(v, _all_cases())


def test_each_condition_alone_refuses_the_reading():
    assert not rule.check(_all_cases(judged_err=0.12))["adopted"]  # (a) IOPS median over 10%
    assert not rule.check(_all_cases(waf_err=0.06))["adopted"]  # (a) WAF median over 5%
    v = rule.check(_all_cases(guard_err=0.071))  # (b) 2.1 points worse than 5%
    assert not v["b_met"] and not v["adopted"]
    assert rule.check(_all_cases(guard_err=0.069))["b_met"]  # 1.9 points: within the margin
    v = rule.check(_all_cases(top="fifo"))  # (c) the weighing picks another reading
    assert v["a"]["met"] and not v["c_met"] and not v["adopted"]


def test_a_guard_not_run_leaves_the_reading_not_judged_in_full():
    cases = [c for c in _all_cases() if c["set"] != "A"]
    v = rule.check(cases)
    assert not v["complete"] and not v["adopted"]
    assert "not judged in full" in rule.report(v, cases)


def test_a_case_without_the_reading_read_is_its_own_without():
    c = _case("C", "ssdsim-h (iops)", "x", "iops", 0.4)
    assert rule.without(c) == 0.4 and not rule.worse([c])


def test_the_second_rule_judges_static_data_on_n_and_o_and_guards_216_cases():
    r = rule.SKEW2
    assert sum(r.guards.values()) == 216
    assert ("C", "ssdsim-h (iops+waf)") not in r.guards  # set C in LBA order: no guard
    cases = _all_cases(r=r)
    v = rule.check(cases, r)
    assert v["a"]["n"] == {"iops": 16, "waf": 16} and len(v["guards"]) == 216
    assert v["complete"] and v["adopted"]
    assert "judged n, o" in rule.report(v, cases)
    assert not rule.check(_all_cases(guard_err=0.071, r=r), r)["adopted"]
    assert not rule.check(_all_cases(top="fifo", r=r), r)["adopted"]
    no_c = [c for c in cases if c["set"] != "C-scattered"]
    assert not rule.check(no_c, r)["complete"]


def test_agreement_matches_cases_across_set_names_and_counts_equal_errors():
    ours = [_case("C-scattered", "ssdsim-h (iops+waf)", "x", "iops", 0.1, 0.2),
            _case("A", "micron-7450-pro-960", "x", "iops", 0.3)]  # fmt: skip
    stored = [{**ours[0], "set": "C, zones scattered"}, {**ours[1], "rel_error": 0.31}]
    assert rule.agreement(ours, stored) == {"cases": 2, "same_with": 1, "same_without": 1}


def test_the_third_rule_judges_each_fresh_drive_against_itself_without_the_reading():
    r = rule.PWRULE3
    assert sum(r.guards.values()) == 248 and r.judged_drives == ("ssdsim-p", "ssdsim-q")
    cases = _all_cases(r=r)
    ok = "FAILED tests/calibrate/test_x.py::test_old_default - AssertionError\n"
    v = rule.check(cases, r, ok, ("tests/calibrate/test_x.py::test_old_default",))
    assert v["complete"] and v["adopted"] and set(v["each"]) == set(r.judged_drives)
    assert "(a) ssdsim-p" in rule.report(v, cases)
    assert not rule.check(cases, r, None)["complete"]  # the suite not run: not judged in full
    assert not rule.check(cases, r, ok)["c_met"]  # a failure not of the old default
    v = rule.check(_all_cases(top="fifo", r=r), r, "")  # the weights are not judged
    assert v["adopted"] and v["c_tops"]["ssdsim-p"] != cwv.PER_WRITE
    assert not rule.check(_all_cases(waf_err=0.051, r=r), r, "")["adopted"]  # WAF worst > 5%
    # a median more than 1 point above the same drive's without the reading
    worse = [{**c, "without_per_write_rel_error": 0.03} if c.get("kind") == "iops"
             and c["drive"] == "ssdsim-q (iops+waf)" else c for c in cases]  # fmt: skip
    v = rule.check(worse, r, "")
    assert v["each"]["ssdsim-p"]["met"] and not v["each"]["ssdsim-q"]["met"]
    assert not v["adopted"]
    assert rule.failed_tests("ERROR a::b\nFAILED c::d - x\n.. 3 passed") == ["a::b", "c::d"]
