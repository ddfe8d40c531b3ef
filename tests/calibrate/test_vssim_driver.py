"""bench/foreign/vssim.py's reading of VSSIM's page-mapping FTL under this repository's harness
(a small stored output: the lines parsed, VSSIM's ERROR lines and an unfinished run refused,
rounds of four quarter-span reports after the fill, the FOB; the ssd.conf it writes, in the
harness's 100 ns units; GC_VICTIM_NB as VSSIM sets it) and, where the harness is built
(bench/foreign/vssim/build.sh; `VSSIM_HARNESS` or /work/foreign-build/vssim/vssim-harness), the
harness itself on a tiny drive: the same output for the same seed, a span past the drive
refused."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import common  # noqa: E402
import vssim  # noqa: E402

# the harness on a tiny drive (4 chips on 2 channels x 16 blocks x 32 pages, native spare 0.10,
# VSSIM's shipped delays), 40% extra OP: a span of 1,104 pages, a report every 276 writes, the
# fill in the first four; its first 12 reports (2026-11-29, bench/foreign/results/newftl/PLAN.md's
# driver check (3))
OUTPUT = """[FTL_INIT] start
[SSD_IO_INIT] SSD Version: 1.2 ver. (17.11.10)
[FTL_INIT] complete
R 276 71958600 276 0 0
R 552 144822600 552 0 0
R 828 217686600 828 0 0
R 1104 290550600 1104 0 0
R 1380 363414600 1380 0 0
R 1656 436278600 1656 0 0
R 1932 837947700 2187 20 255
R 2208 912991900 2463 20 255
R 2484 1298916900 2972 40 488
R 2760 1373020100 3248 40 488
R 3036 1725268000 3745 60 709
R 3312 1798672900 4021 60 709
DONE
"""
BINARY = Path(os.environ.get("VSSIM_HARNESS", "/work/foreign-build/vssim/vssim-harness"))
needs_binary = pytest.mark.skipif(
    not BINARY.exists(), reason=f"VSSIM's harness is not built here ({BINARY})"
)


def test_output_parsed_into_rows():
    rows = vssim.parse_output(OUTPUT)
    assert [r["requests"] for r in rows] == [276 * k for k in range(1, 13)]
    seventh = {"requests": 1932, "t_ns": 837947700, "programs": 2187, "erases": 20}
    assert rows[6] == seventh | {"gc_copies": 255}


@pytest.mark.parametrize(
    ("text", "error", "says"),
    [
        (OUTPUT.replace("R 276 71958600 276 0 0", "R 276 71958600 276"), ValueError,
         "expected 6 fields"),
        (OUTPUT.replace("DONE", ""), ValueError, "no DONE"),
        (OUTPUT + "ERROR[GET_EMPTY_BLOCK] There is no empty block\n", RuntimeError,
         "There is no empty block"),
    ],
)  # fmt: skip
def test_output_refused(text, error, says):
    with pytest.raises(error, match=says):
        vssim.parse_output(text)


def test_rounds_and_fob_from_the_reports():
    rows = vssim.parse_output(OUTPUT)
    series = common.report_rounds(rows, 1104, 4, 4)
    assert len(series) == 2  # the fill's four reports, then two rounds of four
    assert series[0]["span_writes"] == pytest.approx(1.0)
    assert series[0]["iops"] == pytest.approx(1104 / ((912991900 - 290550600) / 1e9))
    assert series[0]["waf"] == pytest.approx((2463 - 1104) / 1104)
    assert series[0]["gc_runs"] == 20 and series[1]["gc_runs"] == 40
    fob = common.fob_of(rows, 1104)
    assert fob["gc_runs"] == 0 and fob["iops"] == pytest.approx(276 / 71.9586e-3)


def test_ssd_conf_in_harness_units_and_victims():
    conf = vssim.ssd_conf(4, 2, 16, 32, 0, vssim.SAMPLE_TIMINGS_US)
    lines = dict(line.split("\t") for line in conf.splitlines())
    assert lines["CELL_PROGRAM_DELAY"] == "9400" and lines["REG_WRITE_DELAY"] == "820"
    assert lines["PLANES_PER_FLASH"] == "1" and lines["FLASH_NB"] == "4"
    assert vssim.victims_per_collection(4, 128, 0) == 20  # OVP 0: VSSIM's fixed 20
    assert vssim.victims_per_collection(4, 128, 5) == 12  # chips x blocks x OVP / 100 / 2
    assert vssim.span_pages(40, vssim.user_pages(2048, 0.10)) == 1104
    with pytest.raises(ValueError, match="integers"):
        vssim.timings_of("1,2,3")


@needs_binary
def test_harness_repeats_itself_and_refuses_a_span_past_the_drive(tmp_path):
    conf = vssim.ssd_conf(2, 1, 8, 16, 0, (1, 10, 1, 2, 20, 0, 0))
    runs = [vssim.run_harness(BINARY, tmp_path / f"r{k}", conf, 200, 600, 7)[0] for k in (1, 2)]
    assert runs[0] == runs[1]
    rows = vssim.parse_output(runs[0])
    assert rows[-1]["requests"] == 800 and rows[-1]["programs"] >= 800
    with pytest.raises(RuntimeError, match="exited 2"):
        vssim.run_harness(BINARY, tmp_path / "past", conf, 257, 0, 7)
