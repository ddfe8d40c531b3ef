"""bench/foreign/flashsim.py's reading of FlashSim's DFTL harness (a small stored output: the
lines parsed, rounds of four quarter-span reports after the fill, the FOB, the drive's pages from
a FlashSim config) and, where the harness is built (bench/foreign/flashsim/build.sh;
`FLASHSIM_HARNESS` or /work/foreign-build/flashsim/dftl), the harness itself on a tiny drive: the
same output for the same seed, a span past the drive refused, a level record from a run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import common  # noqa: E402
import flashsim  # noqa: E402

# the harness on a tiny drive (drive A's values with 1 die a package and 32 blocks a plane: 4,096
# pages), a span of 3,000 pages, QD32: a quarter span write (750 writes) a report, the fill in
# the first four (2026-11-29)
OUTPUT = """G pages 4096 blocks 64 block_pages 64 packages 1 cmt_entries 1048576 span_pages 3000
R 750 9150040 782 0 0 13
R 1500 17961040 1532 0 0 24
R 2250 26763040 2282 0 0 36
R 3000 35562040 3032 0 0 48
R 3750 45057089 4005 5 0 68
R 4500 58452359 5772 30 0 3
R 5250 71431589 7655 60 0 4
R 6000 87507039 9554 90 0 4
R 6750 109952179 11263 115 0 3
R 7500 157974759 13144 145 0 3
R 8250 200236789 14987 175 0 4
R 9000 376971340 16639 200 0 4
"""
CONF_A = Path(flashsim.DRIVE_A)
BINARY = Path(
    os.environ.get("FLASHSIM_HARNESS", "/work/foreign-build/flashsim/dftl/flashsim-dftl-harness")
)
needs_binary = pytest.mark.skipif(
    not BINARY.exists(), reason=f"FlashSim's DFTL harness is not built here ({BINARY})"
)


def tiny_conf(folder: Path) -> Path:
    text = CONF_A.read_text().replace("DIE_SIZE 2", "DIE_SIZE 1")
    path = folder / "tiny.conf"
    path.write_text(text.replace("PLANE_SIZE 256", "PLANE_SIZE 32"))
    return path


def test_output_parsed_into_geometry_and_rows():
    geometry, rows = flashsim.parse_output(OUTPUT)
    assert geometry["pages"] == 4096 and geometry["block_pages"] == 64
    assert len(rows) == 12
    assert rows[5] == {"requests": 4500, "t_ns": 58452359, "programs": 5772, "erases": 30,
                       "translation_writes": 0, "free_blocks": 3}  # fmt: skip
    with pytest.raises(ValueError, match="expected 7 fields"):
        flashsim.parse_output(OUTPUT.replace("R 750 9150040 782 0 0 13", "R 750 9150040 782"))
    with pytest.raises(ValueError, match="no G line"):
        flashsim.parse_output("R 1 2 3 4 5 6\n")


def test_rounds_and_fob_from_the_reports():
    _, rows = flashsim.parse_output(OUTPUT)
    series = common.report_rounds(rows, 3000, 4, 4)
    assert len(series) == 2
    # the first round after the fill: reports 4 -> 8
    assert series[0]["span_writes"] == pytest.approx(1.0)
    assert series[0]["iops"] == pytest.approx(3000 / ((87507039 - 35562040) / 1e9))
    assert series[0]["waf"] == pytest.approx((9554 - 3032) / 3000)
    fob = common.fob_of(rows, 3000)
    assert fob["gc_runs"] == 0 and fob["iops"] == pytest.approx(750 / 9.150040e-3)


def test_drive_pages_from_a_flashsim_config(tmp_path):
    assert flashsim.drive_pages(CONF_A) == 2 * 2 * 256 * 64
    assert flashsim.drive_pages(CONF_A.parent / "drive-b.conf") == 2 * 2 * 2 * 128 * 128
    assert flashsim.drive_pages(tiny_conf(tmp_path)) == 4096


@needs_binary
def test_same_seed_same_output_and_span_past_the_drive_refused(tmp_path):
    (tmp_path / "ssd.conf").write_bytes(tiny_conf(tmp_path).read_bytes())
    cmd = [str(BINARY), "--span-pages", "3000", "--fill", "--host-pages", "6000", "--qd", "32",
           "--report-every", "750", "--seed", "1"]  # fmt: skip
    runs = [subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, check=True)
            for _ in range(2)]  # fmt: skip
    assert runs[0].stdout == runs[1].stdout
    _, rows = flashsim.parse_output(runs[0].stdout)
    assert rows[-1]["requests"] == 9000 and rows[3]["erases"] == 0 and rows[-1]["erases"] > 0
    bad = [str(BINARY), "--span-pages", "5000", "--host-pages", "1", "--report-every", "1"]
    res = subprocess.run(bad, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert res.returncode == 2 and "span 5000 of 4096 pages" in res.stderr


@needs_binary
def test_a_level_record_from_a_run(tmp_path):
    logical = int(4096 * flashsim.NAMESPACE_SHARE)
    row = flashsim.measure(BINARY, tiny_conf(tmp_path), tmp_path / "work", 20, 32, 8, logical)
    assert row["extra_op_percent"] == 20 and row["queue_depth"] == 32
    assert row["span_pages"] == 4 * (int(logical * 0.8) // 4)
    assert row["fob"]["gc_runs"] == 0 and row["steady_waf"] > 1.0
    assert len(row["series"]) == 8 and row["runs"]["translation_writes_per_write"] == 0.0
