"""bench/foreign/disksim_ssd.py's own arithmetic: the drive at each extra-OP level, the parameter
file's closed-loop host, the counters read from DiskSim's statistics and the rounds made of
consecutive runs. DiskSim itself is built and run outside the repository; these need none of it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import disksim_ssd  # noqa: E402

# lines as DiskSim's statistics file prints them (a QD32 run of one span write at 0%), two of
# the eight packages kept
STATS = (
    "Overall I/O System Total Requests handled:\t161280\n"
    "Overall I/O System simtime:                 22364.363395\n"
    "ssd  #0 elem #0   Total reqs issued:\t20239\n"
    "ssd  #0 elem #0   Total cleaning reqs issued:\t923\n"
    "ssd  #0 elem #0   Number of cleans:\t923\n"
    "ssd  #0 elem #0   Pages moved:\t41438\n"
    "ssd  #0 elem #1   Total reqs issued:\t19965\n"
    "ssd  #0 elem #1   Total cleaning reqs issued:\t911\n"
    "ssd  #0 elem #1   Number of cleans:\t911\n"
    "ssd  #0 elem #1   Pages moved:\t40939\n"
)


def test_extra_op_is_a_reserve_of_whole_blocks_leaving_the_span_free():
    # 20% native reserve; at X% the reserve leaves free what a host writing (100 - X)% leaves
    assert [disksim_ssd.reserve_percent(x) for x in (0, 10, 20, 30, 40)] == [20, 28, 36, 44, 52]
    base = disksim_ssd.exported_pages(20)
    assert base == 8 * 8 * 40 * 63  # packages x planes x usable blocks x data pages
    for x in (10, 20, 30, 40):
        assert disksim_ssd.exported_pages(disksim_ssd.reserve_percent(x)) == base * (100 - x) // 100
    assert disksim_ssd.physical_pages() == 8 * 8 * 50 * 64
    with pytest.raises(ValueError, match="whole percent"):
        disksim_ssd.reserve_percent(3)


def test_parameter_file_is_a_closed_loop_at_the_queue_depth():
    text = disksim_ssd.parv(36, 4, 1000)
    assert text.count("disksim_synthgen {") == 4  # one generator per outstanding write
    assert text.count("Probability of time-critical request = 1.0") == 4
    assert "Reserve pages percentage = 36," in text
    assert "Never disconnect = 0," in text and "Max queue length = 20," in text
    assert f"Storage capacity per device = {disksim_ssd.exported_pages(36) * 8}," in text
    assert "Max queue length = 128," in disksim_ssd.parv(20, 128, 1000)


def test_counters_summed_over_packages_and_refused_when_missing():
    c = disksim_ssd.parse_stats(STATS)
    assert c == {"host_pages": 40204, "pages_moved": 82377, "blocks_cleaned": 1834,
                 "completed": 161280, "t_ms": pytest.approx(22364.363395)}  # fmt: skip
    with pytest.raises(RuntimeError, match="counters"):
        disksim_ssd.parse_stats(STATS.split("ssd  #0")[0])


def test_rounds_are_differences_of_consecutive_runs_with_the_summary_page():
    a = {"host_pages": 1000, "pages_moved": 0, "blocks_cleaned": 0, "completed": 1000,
         "t_ms": 100.0}  # fmt: skip
    b = {"host_pages": 3000, "pages_moved": 4000, "blocks_cleaned": 50, "completed": 3000,
         "t_ms": 500.0}  # fmt: skip
    r1, r2 = disksim_ssd.rounds_of([(0.5, a), (1.0, b)], span=2000)
    assert r1["iops"] == pytest.approx(10_000) and r1["waf"] == pytest.approx(64 / 63)
    assert r2["iops"] == pytest.approx(2000 / 0.4) and r2["gc_runs"] == 50
    assert r2["waf"] == pytest.approx((2000 + 4000) / 2000 * 64 / 63)
    assert r2["t_s"] == pytest.approx(0.5) and r2["span_writes"] == 1.0


def test_runs_end_at_each_round_of_the_window():
    assert disksim_ssd.run_points(6, 0.5) == [0.5, 1.0, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5,
                                              6.0]  # fmt: skip
    with pytest.raises(ValueError, match="run-in"):
        disksim_ssd.run_points(4, 0.5)


def test_other_package_and_plane_counts_change_the_span_and_refuse_what_ssd_init_refuses():
    """--packages and --planes-per-package (the unseen drives of results/qd4-by-figure/): the
    span scales with them; ssd_init.c stops on a package whose blocks are not a multiple of 8
    (planes × 50), so the driver refuses such a drive before changing anything."""
    twelve = disksim_ssd.DRIVE | {"elements": 12, "planes_per_package": 4}
    assert disksim_ssd.exported_pages(20, twelve) == 12 * 4 * 40 * 63
    assert "Flash chip elements = 12," in disksim_ssd.parv(20, 4, 100, twelve)
    kept = dict(disksim_ssd.DRIVE)
    with pytest.raises(SystemExit):
        disksim_ssd.main(["--binary", "x", "--work", "y", "--planes-per-package", "3"])
    assert kept == disksim_ssd.DRIVE
