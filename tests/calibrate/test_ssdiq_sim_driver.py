"""bench/foreign/ssdiq_sim.py's own arithmetic on a small stored output of SSD-iq's GC simulator
(the SSDFILL of each extra-OP level, its lines parsed, rounds of four quarter-span reports, the
skewed pattern as calibrate is told it), and the recorded curves in
bench/foreign/results/ssdiq-sim/. The simulator is built and run outside the repository; these
need none of it."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))

import ssdiq_sim  # noqa: E402

RESULTS = ROOT / "bench" / "foreign" / "results" / "ssdiq-sim"

# the head of its output at 0% extra OP, greedy, uniform (2026-11-28, the run behind
# results/ssdiq-sim/greedy.json): geometry, the preconditioning's WAF, the CSV header and the
# first eight quarter-span reports (time and hash columns as printed)
OUTPUT = """capacity: 2147483648 blocksize: 1048576 pageSize: 4096
blockCnt: 2048 pagesPerBlock: 256 logicalPages: 471859 ssdfill: 0.9
PatternGen: shuffle: 1 totalWrites: 7549744
Init WA: 6.284163
sim,hash,rep,time,capacity,erase,pagesize,pattern,skew,zones,alpha,beta,ssdFill,\
freePercentaftergc,gc,runningWAF,cumulativeWAF
bench,H,0,0.875403,2147483648,1048576,4096,uniform,1.000000,'',1.000000,1.000000,0.900000,\
0.196925,greedy,5.078083,5.078083
Greedy stats
bench,H,1,1.529500,2147483648,1048576,4096,uniform,1.000000,'',1.000000,1.000000,0.900000,\
0.196506,greedy,5.088892,5.083488
Greedy stats
bench,H,2,1.957772,2147483648,1048576,4096,uniform,1.000000,'',1.000000,1.000000,0.900000,\
0.196589,greedy,5.086747,5.084574
bench,H,3,2.569596,2147483648,1048576,4096,uniform,1.000000,'',1.000000,1.000000,0.900000,\
0.196154,greedy,5.098047,5.087942
bench,H,4,3.072977,2147483648,1048576,4096,uniform,1.000000,'',1.000000,1.000000,0.900000,\
0.196852,greedy,5.079948,5.086343
bench,H,5,3.764010,2147483648,1048576,4096,uniform,1.000000,'',1.000000,1.000000,0.900000,\
0.196669,greedy,5.084695,5.086069
bench,H,6,4.566119,2147483648,1048576,4096,uniform,1.000000,'',1.000000,1.000000,0.900000,\
0.196244,greedy,5.095690,5.087443
bench,H,7,5.217069,2147483648,1048576,4096,uniform,1.000000,'',1.000000,1.000000,0.900000,\
0.196830,greedy,5.080516,5.086577
"""


def test_extra_op_is_a_smaller_fill_of_the_same_nand():
    assert [ssdiq_sim.fill_for(0.9, x) for x in (0, 10, 20, 30, 40)] == pytest.approx(
        [0.9, 0.81, 0.72, 0.63, 0.54]
    )
    assert ssdiq_sim.size_bytes("2G") == 2 * 1024**3 and ssdiq_sim.size_bytes("1m") == 1024**2


def test_output_parsed_and_grouped_in_span_writes():
    out = ssdiq_sim.parse_output(OUTPUT)
    assert (out["blocks"], out["pages_per_block"], out["logical_pages"]) == (2048, 256, 471859)
    assert out["ssd_fill"] == 0.9 and out["init_waf"] == 6.284163
    assert [r["rep"] for r in out["reports"]] == list(range(8))
    assert out["reports"][3]["waf"] == 5.098047 and out["reports"][7]["cumulative_waf"] == 5.086577
    rows = ssdiq_sim.rows_of(out["reports"], out["logical_pages"])
    assert [r["span_writes"] for r in rows] == [1, 2]
    assert rows[0]["waf"] == pytest.approx((5.078083 + 5.088892 + 5.086747 + 5.098047) / 4)
    assert rows[0]["host_pages"] == 471859 // 4 * 4
    # the mean of the two rounds is the simulator's own cumulative WAF after them
    assert statistics.fmean(r["waf"] for r in rows) == pytest.approx(5.086577, abs=1e-6)
    with pytest.raises(ValueError, match="geometry"):
        ssdiq_sim.parse_output(OUTPUT.split("\n", 2)[2])


def test_the_zones_pattern_as_calibrate_is_told_it():
    assert ssdiq_sim.hot_flags(ssdiq_sim.DEFAULT_ZONES) == ["--hot", "90/10"]
    assert ssdiq_sim.hot_flags("s0.2 f0.8 uniform s0.8 f0.2 uniform") == ["--hot", "80/20"]
    with pytest.raises(ValueError, match="two uniform zones"):
        ssdiq_sim.hot_flags("s0.5 f0.2 uniform s0.3 f0.3 uniform s0.2 f0.5 uniform")


NOT_CURVES = ("evaluation", "published-check")
CURVES = sorted(p for p in RESULTS.glob("*.json") if p.stem not in NOT_CURVES)


@pytest.mark.parametrize("path", CURVES, ids=[p.stem for p in CURVES])
def test_each_recorded_curve_is_settled_with_its_provenance(path):
    doc = json.loads(path.read_text())
    assert doc["simulator"] == "ssdiq-sim" and doc["measures"] == ["waf"]
    assert doc["commit"] == "8a0a3f4336f4834a29aa5ceb46597293be2258b3"
    for field in ("repository", "date", "command", "hardware", "drive"):
        assert doc[field]
    fill = doc["config"]["native_fill"]
    assert doc["advertised_bytes"] == pytest.approx(fill * doc["physical_bytes"], rel=1e-5)
    assert [lv["extra_op_percent"] for lv in doc["levels"]] == [0, 10, 20, 30, 40]
    for lv in doc["levels"]:
        assert lv["ssd_fill"] == pytest.approx(ssdiq_sim.fill_for(fill, lv["extra_op_percent"]))
        assert lv["steady_iops"] is None and lv["queue_depth"] == 1
        window = lv["series"][-8:]
        assert lv["steady_waf"] == pytest.approx(statistics.fmean(r["waf"] for r in window))
        assert lv["steady_window"]["settled"] is True
    wafs = [lv["steady_waf"] for lv in doc["levels"]]
    assert wafs == sorted(wafs, reverse=True)  # more spare, less WAF


def test_greedy_uniform_truth_is_the_mean_field_greedy_curve():
    """The truth's own check, set in RULE.md before the runs: the greedy uniform curve within 2%
    at every level of the mean-field greedy model for its 256-page blocks (Bux & Iliadis 2010),
    ρ = NAND ÷ span − 1."""
    from overprov import models

    doc = json.loads((RESULTS / "greedy.json").read_text())
    for lv in doc["levels"]:
        rho = 1 / lv["ssd_fill"] - 1
        model = models.waf_greedy(rho, doc["config"]["pages_per_block"])
        assert lv["steady_waf"] == pytest.approx(model, rel=0.02), lv["extra_op_percent"]


def test_its_defaults_reproduce_the_greedy_waf_its_authors_publish():
    """RULE.md's second check: the simulator at its own defaults (16 GiB of NAND in 8 MiB
    blocks) reproduces within 1% the greedy WAF ssdiq-pub's paper/simop.csv gives for SSDFILL
    0.9 and 0.54 (its columns fillfactor, greedy)."""
    doc = json.loads((RESULTS / "published-check.json").read_text())
    assert (doc["config"]["capacity"], doc["config"]["erase"]) == ("16G", "8M")
    published = {0.9: 5.170586, 0.54: 1.330071}
    assert sorted(published) == sorted(lv["ssd_fill"] for lv in doc["levels"])
    for lv in doc["levels"]:
        assert lv["steady_waf"] == pytest.approx(published[lv["ssd_fill"]], rel=0.01)


def test_evaluate_tells_calibrate_the_skewed_workload_of_the_truth():
    """evaluate.py passes a results file's `calibrate_workload` (the zones drives: --hot 90/10)
    on to calibrate, and nothing for a uniform truth."""
    import evaluate

    for stem, flags in (("greedy-zones", ["--hot", "90/10"]), ("greedy", [])):
        doc = json.loads((RESULTS / f"{stem}.json").read_text())
        assert doc["calibrate_workload"] == flags
        curve = evaluate.truth_curve(doc, 1)
        cmd = evaluate.command(doc, curve, evaluate.WAF_CASES[0], jobs=1)
        at = cmd.index("--extra-op") + 2
        assert cmd[at : at + len(flags)] == flags
        assert cmd[at + len(flags)] == "--waf-points"
