"""bench/foreign/eagletree.py's own arithmetic on a small stored output of its harness: the
drive's spans, the harness's lines parsed, rounds of four quarter-span reports and the FOB.
EagleTree itself is built and run outside the repository; these need none of it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import eagletree  # noqa: E402

# the first eight reports of the harness at 0% extra OP, QD32 (a quarter span write each;
# 2026-11-28, the run behind bench/foreign/results/eagletree.json), with EagleTree's progress
# line between them as it prints it
OUTPUT = """G 4 2 64 128 65536 45875 32
finished 0.000000%.\t\tNum writes completed:  4
R 11468 45888.000 11472 0
R 22936 91724.000 22932 0
R 34404 137568.000 34392 0
R 45872 183404.000 45852 0
R 57340 229260.000 57316 0
R 68808 289542.000 68780 1968
R 80276 366504.000 80244 6215
R 91744 448318.000 91706 11145
"""


def test_spans_are_shares_of_the_user_space_of_70_percent_of_the_nand():
    assert eagletree.physical_pages() == 4 * 2 * 64 * 128
    assert eagletree.user_pages() == 45875  # int(0.7 x 65,536)
    assert [eagletree.span_pages(x) for x in (0, 10, 20, 30, 40)] == [
        45875, 41287, 36700, 32112, 27525]  # fmt: skip


def test_output_parsed_with_a_zero_row_first_and_bad_lines_refused():
    geometry, rows = eagletree.parse_output(OUTPUT)
    assert geometry == {"packages": 4, "dies_per_package": 2, "blocks_per_plane": 64,
                        "pages_per_block": 128, "nand_pages": 65536, "span_pages": 45875,
                        "queue_depth": 32}  # fmt: skip
    assert len(rows) == 9 and rows[0]["host_writes"] == 0
    assert rows[6] == {"host_writes": 68808, "t_us": 289542.0, "host_programs": 68780,
                       "gc_programs": 1968}  # fmt: skip
    with pytest.raises(ValueError, match="5 fields"):
        eagletree.parse_output(OUTPUT + "R 1 2.0 3\n")
    with pytest.raises(ValueError, match="no G line"):
        eagletree.parse_output(OUTPUT.split("\n", 1)[1])


def test_rounds_of_four_reports_and_the_fob_before_any_gc():
    _, rows = eagletree.parse_output(OUTPUT)
    r1, r2 = eagletree.rounds_of(rows, span=45875)
    assert r1["iops"] == pytest.approx(45872 / 0.183404) and r1["gc_programs"] == 0
    assert r1["waf"] == pytest.approx(45852 / 45872)  # a pending write replaced: no program
    assert r2["iops"] == pytest.approx((91744 - 45872) / ((448318 - 183404) / 1e6))
    assert r2["waf"] == pytest.approx((91706 - 45852 + 11145) / (91744 - 45872))
    assert r2["span_writes"] == pytest.approx(91744 / 45875)
    fob = eagletree.fob_of(rows, span=45875)
    assert fob["iops"] == pytest.approx(11468 / 0.045888) and fob["gc_runs"] == 0
    assert fob["span_writes"] == pytest.approx(0.25, abs=1e-3)


def test_another_drive_of_the_same_ftl_by_geometry_and_flash_times():
    g = eagletree.geometry_of("2,4,32,64")
    assert eagletree.physical_pages(g) == 2 * 4 * 32 * 64
    assert eagletree.span_pages(40, g) == int(int(0.7 * 16384) * 0.6)
    t = eagletree.timings_of("10,40,100,1,10")
    cmd = eagletree.command(Path("h"), 6881, 32, 1720, 64, g, t)
    assert cmd[1:5] == ["2", "4", "32", "64"] and cmd[-5:] == ["10", "40", "100", "1", "10"]
    assert len(eagletree.command(Path("h"), 6881, 32, 1720, 64)) == 10  # the harness's defaults
    for bad in ("2,4,32", "2,0,32,64"):
        with pytest.raises(ValueError, match="four positive"):
            eagletree.geometry_of(bad)
    with pytest.raises(ValueError, match="five positive"):
        eagletree.timings_of("10,40,100,1")
    # the harness's T line: the times EagleTree was set to, kept beside the geometry
    lines = OUTPUT.splitlines()
    geometry, _ = eagletree.parse_output("\n".join([lines[0], "T 10 40 100 1 10", *lines[1:]]))
    assert geometry["timings_us"] == dict(
        zip(eagletree.TIMING_KEYS, (10.0, 40.0, 100.0, 1.0, 10.0), strict=True)
    )
