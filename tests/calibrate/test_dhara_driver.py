"""bench/foreign/dhara.py's reading of Dhara's FTL under this repository's harness (a small
stored output: the drive line and quarter-span steps parsed, rows of one span write, the steady
WAF the last 8 rows' mean, the FOB's "no page copied" check, an ERROR line refused) and, where
the harness is built (bench/foreign/dhara/build.sh; `DHARA_HARNESS` or
/work/foreign-build/dhara/dhara-harness), the harness itself on a tiny drive: the same output for
the same seed, a span past the map's capacity refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import dhara  # noqa: E402

# the harness on a tiny drive (32 blocks x 32 pages, gc_ratio 4: capacity 488 sectors), 40%
# extra OP: a span of 292 sectors in steps of 73 writes, seed 7 (2026-11-29,
# `dhara-harness 5 32 4 292 36 73 7`)
STEPS = [  # nand_pages, copies, segments_cleaned, journal_pages, sectors; 73 host pages each
    (77, 0, 3, 73, 66), (78, 0, 5, 146, 118), (78, 0, 8, 219, 156), (78, 0, 10, 292, 184),
    (78, 0, 13, 365, 213), (78, 0, 15, 438, 229), (85, 7, 18, 493, 243), (99, 20, 21, 496, 254),
    (101, 21, 24, 485, 262), (100, 21, 27, 484, 267), (108, 28, 30, 480, 273),
    (109, 30, 34, 488, 276), (122, 41, 38, 482, 280), (102, 23, 41, 483, 283),
    (106, 26, 44, 492, 286), (126, 45, 48, 480, 287), (103, 24, 51, 487, 287),
    (123, 42, 55, 486, 289), (123, 42, 59, 478, 290), (124, 44, 63, 485, 290),
    (121, 40, 67, 487, 290), (113, 33, 70, 483, 290), (102, 23, 73, 484, 290),
    (118, 37, 77, 479, 290), (112, 32, 81, 484, 290), (125, 44, 85, 476, 291),
    (113, 33, 88, 483, 291), (119, 39, 92, 489, 291), (112, 32, 95, 484, 291),
    (120, 39, 99, 481, 291), (118, 38, 103, 477, 292), (110, 30, 106, 490, 292),
    (121, 41, 110, 491, 292), (114, 33, 113, 485, 292), (124, 44, 117, 487, 292),
    (109, 29, 121, 494, 292),
]  # fmt: skip
DRIVE = (
    '{"physical_pages": 1024, "journal_capacity": 930, "map_capacity": 488, '
    '"log2_ppc": 4, "gc_ratio": 4}'
)
OUTPUT = "".join(
    [DRIVE + "\n"]
    + [f'{{"host_pages": 73, "nand_pages": {n}, "copies": {c}, "segments_cleaned": {e}, '
       f'"journal_pages": {j}, "sectors": {k}}}\n' for n, c, e, j, k in STEPS]
)  # fmt: skip
SPAN = 292
HARNESS = Path(os.environ.get("DHARA_HARNESS", "/work/foreign-build/dhara/dhara-harness"))


def test_parse_reads_the_drive_line_and_the_steps():
    drive, steps = dhara.parse(OUTPUT, "in the test")
    assert drive["map_capacity"] == 488
    assert drive["journal_capacity"] == 930
    assert drive["log2_ppc"] == 4
    assert len(steps) == 36
    assert steps[0] == {"host_pages": 73, "nand_pages": 77, "copies": 0,
                        "segments_cleaned": 3, "journal_pages": 73, "sectors": 66}  # fmt: skip


def test_level_rows_steady_waf_and_fob():
    _, steps = dhara.parse(OUTPUT, "in the test")
    rec = dhara.level(40, SPAN, steps)
    rows = rec["series"]
    assert len(rows) == 9
    assert [r["span_writes"] for r in rows] == [float(k) for k in range(1, 10)]
    nand = [sum(s["nand_pages"] for s in steps[k : k + 4]) for k in range(0, 36, 4)]
    assert rows[0]["waf"] == pytest.approx(nand[0] / SPAN)
    assert rec["steady_waf"] == pytest.approx(sum(nand[1:]) / 8 / SPAN)
    assert rec["steady_window"]["span_writes"] == [1.0, 9.0]
    assert rec["fob"] == {"span_writes": 0.25, "gc_copies": 0, "waf": 77 / 73}
    assert rec["steady_iops"] is None and rec["fob_iops"] is None
    assert rec["queue_depth"] == 1


def test_copies_in_the_fob_part_and_error_lines_refused():
    _, steps = dhara.parse(OUTPUT, "in the test")
    with pytest.raises(RuntimeError, match="FOB"):
        dhara.level(40, SPAN, [steps[0] | {"copies": 1}, *steps[1:]])
    with pytest.raises(RuntimeError, match="span 999"):
        dhara.parse(OUTPUT.splitlines()[0] + "\nERROR span 999 outside 1..488\n", "here")
    with pytest.raises(RuntimeError, match="no drive line"):
        dhara.parse(OUTPUT.splitlines()[1] + "\n", "here")


def test_span_pages_of_the_capacity():
    assert dhara.span_pages(488, 40) == 292
    assert dhara.span_pages(488, 0) == 488


@pytest.mark.skipif(not HARNESS.exists(), reason=f"Dhara's harness is not built here ({HARNESS})")
def test_the_harness_itself_on_a_tiny_drive():
    cmd = [str(HARNESS), "5", "32", "4", "292", "36", "73", "7"]
    got = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    assert got == OUTPUT
    past = subprocess.run([*cmd[:4], "489", "1", "1", "7"], capture_output=True, text=True)
    assert past.returncode == 1
    assert "ERROR span 489 outside 1..488" in past.stdout
