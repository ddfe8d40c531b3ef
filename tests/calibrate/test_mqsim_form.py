"""bench/foreign/mqsim_form.py: MQSim's die time per host write read from its reports, and the
two-point line t_cmd + WAF·t_page it is checked against (no MQSim run)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))
import mqsim_form  # noqa: E402

RESULTS = ROOT / "bench" / "foreign" / "results" / "mqsim-form"


def steady(programs: float, multiplane_programs: float, iops: float) -> dict:
    per = {"programs": programs, "multiplane_programs": multiplane_programs, "reads": 1.0,
           "multiplane_reads": 0.0, "erases": 0.05, "multiplane_erases": 0.05}  # fmt: skip
    return {"iops": iops, "command_time_iops": iops * 1.04, "requests_in_device": 32.0,
            "per_host_write": per}  # fmt: skip


def test_a_multiplane_program_writes_a_page_on_each_plane():
    lv = mqsim_form.level_figures(steady(0.5, 1.0, 400.0), planes=2)
    assert lv["waf"] == pytest.approx(2.5)
    assert lv["multiplane_share"]["programs"] == pytest.approx(2 / 3)
    assert lv["multiplane_share"]["erases"] == pytest.approx(0.5)
    assert lv["page_time_us"] == pytest.approx(1e6 / (400.0 * 2.5))
    assert lv["under_command_time"] == pytest.approx(1 - 1 / 1.04)


def levels(t_cmd: float, t_page: float, wafs: dict[int, float]) -> dict[int, dict]:
    return {x: {"iops": 1e6 / (t_cmd + w * t_page), "waf": w, "under_command_time": 0.03,
                "page_time_us": (t_cmd + w * t_page) / w} for x, w in wafs.items()}  # fmt: skip


WAFS = {0: 19.3, 10: 4.4, 20: 2.5, 30: 1.8, 40: 1.45}


def test_a_drive_on_the_analytic_line_passes_the_plans_checks():
    # one plane's die time: WAF*(750 + 75 + 3800/32) - 75 us, the form P1-P3 predict
    form = mqsim_form.line_check(levels(-75.0, 943.75, WAFS))
    assert form["t_cmd_us"] == pytest.approx(-75.0)
    assert form["t_page_us"] == pytest.approx(943.75)
    assert all(abs(e) < 1e-9 for e in form["line_iops_error"].values())
    assert form["P1"] and form["P2"] and form["P3"]
    # a positive t_cmd is on the line too, but its time per page falls as WAF rises
    form = mqsim_form.line_check(levels(100.0, 500.0, WAFS))
    assert form["P2"] and not form["P3"]


def test_a_time_per_page_that_dips_at_the_highest_waf_is_off_the_line():
    lv = levels(-75.0, 943.75, WAFS)
    lv[0]["iops"] *= 1.5  # the 0% level paired: cheaper per page than 10%
    lv[0]["page_time_us"] /= 1.5
    form = mqsim_form.line_check(lv)
    assert not form["P2"] and not form["P3"]
    assert all(form["line_iops_error"][x] > 0.05 for x in (10, 20, 30))


def qd32_levels(d: dict) -> dict[int, dict]:
    return {int(x): lv for x, lv in d["levels"]["32"].items()}


def test_two_plane_mqsim_pays_least_per_page_at_0_percent_where_its_relocations_pair():
    # results/mqsim-form/stored.json, MQSim's own counters on the seven patched drives at
    # QD32: the die is busy (IOPS under the command time by less than P1's bound) and, where
    # the 0% level's programs are nearly all multi-plane, the time per NAND page is least at 0%
    # and greatest at 10-20%, which no t_cmd + WAF*t_page line has
    doc = json.loads((RESULTS / "stored.json").read_text())
    assert len(doc["drives"]) == 7
    for d in doc["drives"]:
        qd32 = qd32_levels(d)
        form = mqsim_form.line_check(qd32)
        for key in ("t_page_us", "t_cmd_us", "slope_0_40"):
            assert form[key] == pytest.approx(d["form"][key], rel=1e-9), (d["drive"], key)
        assert form["P1"], d["drive"]
        page = {x: lv["page_time_us"] for x, lv in qd32.items()}
        paired_at_0 = qd32[0]["multiplane_share"]["programs"] > 0.5
        assert (page[0] < page[40] < max(page[10], page[20])) == paired_at_0, d["drive"]
        assert form["P2"] == (not paired_at_0), d["drive"]
        if paired_at_0:
            assert all(form["line_iops_error"][x] > 0.10 for x in (10, 20, 30)), d["drive"]


def test_one_plane_mqsim_is_on_the_analytic_line():
    # results/mqsim-form/one-plane.json: no multi-plane command, so the die time per host
    # write is WAF*(750 + 75 + 3800/32) - 75 us and the plan's P1-P3 hold
    (d,) = json.loads((RESULTS / "one-plane.json").read_text())["drives"]
    qd32 = qd32_levels(d)
    assert all(lv["multiplane_share"]["programs"] == 0 for lv in qd32.values())
    form = mqsim_form.line_check(qd32)
    assert form["P1"] and form["P2"] and form["P3"]
    assert form["t_page_us"] == pytest.approx(943.75, rel=0.05)
