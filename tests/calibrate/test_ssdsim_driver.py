"""bench/foreign/ssdsim.py's own arithmetic on a small stored output of its harness: the drive's
spans as SSDsim computes them, its parameter file, the harness's lines parsed, rounds of four
quarter-span reports after the fill and the FOB; and bench/foreign/ssdsim_rule.py's judgement of
a case. SSDsim itself is built and run outside the repository; these need none of it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import ssdsim  # noqa: E402
import ssdsim_rule  # noqa: E402

# the harness at 40% extra OP, QD32, on 2 channels x 2 chips x 1 die x 2 planes x 64 blocks x 64
# pages, overprovide 0.25 (2026-11-28, a trial drive of ssdsim.py): a quarter span write (3,686
# requests) a report, the fill of the 14,744-page span in the first four
OUTPUT = """input trace file name:
initiation is completed!
G 2 4 1 2 64 64 32 0.2500 0.0500
R 3686 278774150 3688 0 0
R 7372 557548300 7372 0 0
R 11058 836419875 11060 0 0
R 14744 1115194025 14744 0 0
R 18430 1394065600 18432 0 0
R 22116 1672839750 22116 0 0
R 25802 1951711325 25804 0 0
R 29488 2230485475 29488 0 0
R 33174 2674838175 33882 48 0
R 36860 3196862175 38574 120 0
R 40546 3695274000 43155 192 0
R 44232 4165556225 47603 260 0
"""
TRIAL = ssdsim.geometry_of("2,2,1,2,64,64")

# the sample page.parameters' lines the driver replaces, in its own spelling
SAMPLE = (
    """#parameter file
dram capacity = 131074;     #the unit is B
chip number[0] = 2;
chip number[1] = 2;
"""
    + "".join(f"chip number[{i}] = 0;\n" for i in range(2, 19))
    + """channel number = 2;
chip number = 4;
die number = 2;
plane number = 2;
block number = 2048;
page number = 64;
subpage page = 4;
page capacity = 2048;
subpage capacity = 512;
t_PROG = 200000;             #the unit is ns
advanced command=31;             #advanced command indicator
overprovide=0.10;                     #reserved area percentage, unavailable to users
gc hard threshold=0.30;          #
aged ratio=0.7;                #If we need to make SSD aged"""
)


def test_spans_are_shares_of_the_user_space_ssdsim_computes():
    assert ssdsim.physical_pages(TRIAL) == 2 * 2 * 1 * 2 * 64 * 64
    assert ssdsim.user_pages(TRIAL, 0.25) == 24576
    # 0.15 held as a C float: 1,048,576 sectors x 0.85f = 891,289.6 -> 111,411 whole pages
    b = ssdsim.geometry_of("4,1,2,2,128,64")
    assert ssdsim.user_pages(b, 0.15) == 111411
    assert [ssdsim.span_pages(x, TRIAL, 0.25) for x in (0, 10, 20, 30, 40)] == [
        24576, 22118, 19660, 17203, 14745]  # fmt: skip
    with pytest.raises(ValueError, match="six positive integers"):
        ssdsim.geometry_of("2,2,1,2,64")


def test_parameter_file_sets_the_drive_and_the_queue_depth():
    text = ssdsim.parameters(SAMPLE, TRIAL, 0.25, 0.05, 500000, 4)
    lines = text.splitlines()
    wanted = ("dram capacity = 0;", "chip number = 4;", "die number = 1;", "block number = 64;",
              "subpage page = 8;", "page capacity = 4096;", "t_PROG = 500000;",
              "overprovide = 0.25;", "gc hard threshold = 0.05;", "advanced command = 0;",
              "chip number[1] = 2;", "chip number[2] = 0;")  # fmt: skip
    for want in wanted:
        assert want in lines
    assert lines[-1] == "queue_length = 4;" and "aged ratio=0.7;" in lines[-2]
    with pytest.raises(ValueError, match="no line for"):
        ssdsim.parameters(SAMPLE.replace("t_PROG", "t_PRG"), TRIAL, 0.25, 0.05, 1, 4)


def test_output_parsed_and_bad_lines_refused():
    drive, rows = ssdsim.parse_output(OUTPUT)
    assert drive == {"channels": 2, "chips": 4, "dies_per_chip": 1, "planes_per_die": 2,
                     "blocks_per_plane": 64, "pages_per_block": 64, "queue_length": 32,
                     "overprovide": 0.25, "gc_hard_threshold": 0.05}  # fmt: skip
    assert len(rows) == 12
    assert rows[8] == {"requests": 33174, "t_ns": 2674838175, "programs": 33882, "erases": 48,
                       "copy_backs": 0}  # fmt: skip
    with pytest.raises(ValueError, match="6 fields"):
        ssdsim.parse_output(OUTPUT + "R 1 2 3\n")
    with pytest.raises(ValueError, match="no G line"):
        ssdsim.parse_output(OUTPUT.replace("G 2", "X 2"))


def test_rounds_start_after_the_fill_and_the_fob_is_its_first_quarter():
    _, rows = ssdsim.parse_output(OUTPUT)
    r1, r2 = ssdsim.rounds_of(rows, span=14744)
    assert r1["span_writes"] == pytest.approx(1.0) and r1["gc_runs"] == 0
    assert r1["iops"] == pytest.approx(14744 / ((2230485475 - 1115194025) / 1e9))
    assert r1["waf"] == pytest.approx((29488 - 14744) / 14744)
    assert r2["waf"] == pytest.approx((47603 - 29488) / (44232 - 29488))
    assert r2["gc_runs"] == 260 and r2["t_s"] == pytest.approx(4.165556225)
    fob = ssdsim.fob_of(rows, span=14744)
    assert fob == {"iops": pytest.approx(3686 / 0.27877415), "span_writes": 0.25, "gc_runs": 0}


def _case(name: str, errs: list[tuple[float, float]]) -> dict:
    levels = []
    for x, (ie, we) in zip((0, 10, 20, 30, 40), errs, strict=True):
        levels.append({"extra_op_percent": x, "iops_err": ie, "waf_err": we,
                       "iops_in_80": abs(ie) < 0.1, "iops_low": 90.0, "iops_high": 110.0,
                       "iops_pred": 100.0, "waf_in_80": True, "waf_low": 1.0,
                       "waf_high": 1.5, "waf_pred": 1.25})  # fmt: skip
    return {"case": name, "levels": levels}


def test_rule_judges_the_plan_case_on_every_drive():
    good = _case(ssdsim_rule.PLAN_CASE, [(0.01, 0.01), (0.05, -0.02), (-0.12, 0.04),
                                         (0.08, 0.0), (0.0, 0.01)])  # fmt: skip
    bad_waf = _case(ssdsim_rule.PLAN_CASE, [(0.01, 0.01), (0.05, -0.06), (0.02, 0.0),
                                            (0.0, 0.0), (0.0, 0.0)])  # fmt: skip
    j = ssdsim_rule.judge_case(good)
    assert j["iops_median"] == pytest.approx(0.05) and j["iops_worst"] == pytest.approx(0.12)
    assert j["iops_ok"] and j["waf_ok"] and j["waf_worst_at"] == 20
    j = ssdsim_rule.judge_case(bad_waf)
    assert j["iops_ok"] and not j["waf_ok"] and j["waf_worst_at"] == 10
    res, _ = ssdsim_rule.verdict([{"results": "a.json", "cases": [good]},
                                  {"results": "b.json", "cases": [good]}])  # fmt: skip
    assert res["passes"] is True
    # held out 10-30%: IOPS inside at 10 and 30%, not at 20%; WAF inside at all three
    assert res["coverage"]["n"] == 12 and res["coverage"]["inside"] == 10
    res, text = ssdsim_rule.verdict([{"results": "a.json", "cases": [good]},
                                     {"results": "b.json", "cases": [bad_waf]}])  # fmt: skip
    assert res["passes"] is False and "fails" in text
    res, text = ssdsim_rule.verdict([{"results": "a.json", "cases": [good]},
                                     {"results": "b.json", "cases": []}])  # fmt: skip
    assert res["passes"] is None and "not decided" in text


def test_a_refused_plan_case_meets_no_target():
    good = _case(ssdsim_rule.PLAN_CASE, [(0.0, 0.0)] * 5)
    refused = {"case": ssdsim_rule.PLAN_CASE, "error": ["overprov calibrate: no twin is written"]}
    assert ssdsim_rule.judge_case(refused)["iops_ok"] is False
    res, text = ssdsim_rule.verdict([{"results": "a.json", "cases": [refused]},
                                     {"results": "b.json", "cases": [good]}])  # fmt: skip
    assert res["passes"] is False and "refused: overprov calibrate" in text
    assert res["coverage"]["n"] == 6  # the refused case has no held-out figure
