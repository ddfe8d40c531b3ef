"""bench/foreign/nvmevirt.py's reading of its harness (a small stored output: the lines parsed,
rounds of four quarter-span reports after the fill, the FOB) and, where the harness is built
(bench/foreign/nvmevirt/build.sh; `NVMEVIRT_HARNESS` or /work/foreign-build/nvmevirt), the
harness itself on a tiny drive: its page-by-page check of the program count, the same output
for the same seed, a span past the namespace refused, a level record from a run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import common  # noqa: E402
import nvmevirt  # noqa: E402

# the harness on a tiny drive (--capacity-mb 16, one partition of 2 channels x 2 LUNs x 64
# blocks of 16 pages, the 970PRO model's other values), a span of 3,000 of its 3,828 pages, QD32:
# a quarter span write (750 writes) a report, the fill in the first four (2026-11-29)
G_LINE = (
    "G logical_pages 3828 physical_pages 4096 partitions 1 luns 4 pgs_per_blk 16 "
    "pgs_per_oneshotpg 8 lines 64 pgs_per_line 64 write_buffer_bytes 262144\n"
)
OUTPUT = (
    G_LINE
    + """R 750 4961288 750 0 51
R 1500 10147264 1500 0 39
R 2250 15477152 2250 0 27
R 3000 20667128 3000 0 16
R 3750 25997016 3750 0 4
R 4500 40564070 5501 100 2
R 5250 56975654 7279 212 2
R 6000 73335558 9067 324 3
R 6750 89600667 10807 432 2
R 7500 106126707 12547 540 2
R 8250 122077515 14261 648 3
R 9000 137999244 15979 756 2
E 0
"""
)
TINY = ["--partitions", "1", "--nchs", "2", "--luns-per-ch", "2", "--blks-per-pln", "64"]
BINARY = Path(
    os.environ.get("NVMEVIRT_HARNESS", "/work/foreign-build/nvmevirt/nvmevirt-conv-harness")
)
needs_binary = pytest.mark.skipif(
    not BINARY.exists(), reason=f"NVMeVirt's harness is not built here ({BINARY})"
)


def test_output_parsed_into_geometry_rows_and_errors():
    geometry, rows, errors = nvmevirt.parse_output(OUTPUT)
    assert geometry["logical_pages"] == 3828 and geometry["pgs_per_line"] == 64
    assert len(rows) == 12 and errors == 0
    assert rows[5] == {"requests": 4500, "t_ns": 40564070, "programs": 5501, "erases": 100,
                       "free_lines": 2}  # fmt: skip
    with pytest.raises(ValueError, match="no E line"):
        nvmevirt.parse_output(OUTPUT.replace("E 0\n", ""))
    with pytest.raises(ValueError, match="expected 6 fields"):
        nvmevirt.parse_output(OUTPUT.replace("R 750 4961288 750 0 51", "R 750 4961288 750 0"))


def test_rounds_after_the_fill_and_fob_from_its_first_report():
    _, rows, _ = nvmevirt.parse_output(OUTPUT)
    series = common.report_rounds(rows, 3000, nvmevirt.REPORTS_PER_ROUND,
                                  nvmevirt.REPORTS_PER_ROUND)  # fmt: skip
    assert len(series) == 2  # two span writes of random writes after the fill
    first = series[0]
    assert first["waf"] == pytest.approx((9067 - 3000) / 3000)
    assert first["iops"] == pytest.approx(3000 / ((73335558 - 20667128) / 1e9))
    assert first["gc_runs"] == 324 and first["span_writes"] == pytest.approx(1.0)
    fob = common.fob_of(rows, 3000)
    assert fob["iops"] == pytest.approx(750 / 4961288e-9) and fob["gc_runs"] == 0


@needs_binary
def test_harness_counts_pages_programmed_as_the_nand_holds_them_and_repeats_itself():
    cmd = [str(BINARY), "--capacity-mb", "16", *TINY, "--span-pages", "3000", "--fill",
           "--host-pages", "6000", "--report-every", "750", "--qd", "32", "--check"]  # fmt: skip
    first = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    assert first == subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    assert first == OUTPUT  # the stored output above, by the build it was taken from
    other = subprocess.run([*cmd, "--seed", "2"], check=True, capture_output=True, text=True)
    assert other.stdout != first


@needs_binary
def test_harness_refuses_a_span_past_the_namespace():
    res = subprocess.run(
        [str(BINARY), "--capacity-mb", "16", *TINY, "--span-pages", "3829", "--host-pages", "1",
         "--report-every", "1"], capture_output=True, text=True,
    )  # fmt: skip
    assert res.returncode == 2 and "span-pages <= 3828" in res.stderr


@needs_binary
def test_a_level_measured_on_a_tiny_drive(tmp_path):
    logical = nvmevirt.logical_pages(BINARY, 16, TINY)
    assert logical == 3828
    row = nvmevirt.measure(BINARY, tmp_path, 20, 32, 10, 16, TINY, logical)
    assert row["span_pages"] == 3060 and row["fob"]["gc_runs"] == 0
    assert len(row["series"]) == 10 and row["steady_waf"] > 1.0
    assert 0 < row["steady_iops"] < row["fob_iops"]
    assert (tmp_path / "op20-qd32" / "harness.out").exists()
