"""bench/foreign/wiscsee.py's own arithmetic on a small stored report of its harness: the drive's
spans from WiscSee's over_provisioning, the run's specification, the harness's lines parsed,
rounds of two (or four) quarter-span reports after the fill and the FOB; and, where WiscSim is
set up (WISCSIM_HARNESS names its `wiscsim-harness`), the harness itself on a tiny drive. WiscSim
is set up and run outside the repository (bench/foreign/wiscsee/build.sh)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import wiscsee  # noqa: E402

# the harness at 0% extra OP, QD32, on 4 channels x 32 blocks x 32 pages, over_provisioning 1.28
# (2026-11-28, drive A of bench/foreign/results/wiscsee/RULE.md): a quarter span write (800
# requests) a report, the fill of the 3,200-page span in the first four
REPORT = """G 4 32 32 32 1.28 0.95 0.9 16
R 800 40020000 831 0 1
R 1600 80020000 1630 0 2
R 2400 120020000 2429 0 3
R 3200 160020000 3228 0 4
R 4000 327080000 5237 48 1210
R 4800 716840000 9019 168 4194
R 5600 1106220000 13001 296 7384
R 6400 1463140000 16809 416 10382
"""
A = wiscsee.geometry_of("4,32,32")


def test_spans_are_shares_of_the_user_space_wiscsee_sizes():
    assert wiscsee.physical_pages(A) == 4096
    assert wiscsee.user_pages(A, 1.28) == 3200  # NAND = logical space x over_provisioning
    assert wiscsee.user_pages(wiscsee.geometry_of("8,16,32"), 1.5) == 2730
    # whole quarter-span reports
    assert [wiscsee.span_pages(x, A, 1.28) for x in (0, 10, 20, 30, 40)] == [
        3200, 2880, 2560, 2240, 1920]  # fmt: skip
    with pytest.raises(ValueError, match="three positive integers"):
        wiscsee.geometry_of("4,32")
    assert wiscsee.gc_of("0.95,0.9") == (0.95, 0.9)
    with pytest.raises(ValueError, match="LOW < HIGH"):
        wiscsee.gc_of("0.8,0.9")


def test_spec_names_the_drive_the_queue_and_the_writes(tmp_path):
    args = argparse.Namespace(over_provisioning=1.5, gc=(0.9, 0.8), gc_procs=4,
                              t_prog_ns=500000, drive_writes=6.0, fix_move_race=False)  # fmt: skip
    spec = wiscsee.spec_of(A, args, 2400, 4, tmp_path)
    assert spec["ncq_depth"] == 4 and spec["span_pages"] == 2400
    assert spec["random_writes"] == 6 * 2400 and spec["report_every"] == 600
    assert (spec["gc_high"], spec["gc_low"], spec["n_gc_procs"]) == (0.9, 0.8, 4)
    assert spec["t_prog_ns"] == 500000 and spec["t_read_ns"] == 20000
    assert spec["channels"] == 4 and spec["result_dir"] == str(tmp_path)


def test_fix_move_race_reaches_the_spec_only_when_asked(tmp_path):
    # off (the default), the spec is the one the stored results were run from: no new key
    args = argparse.Namespace(over_provisioning=1.5, gc=(0.9, 0.8), gc_procs=4,
                              t_prog_ns=500000, drive_writes=1.0, fix_move_race=False)  # fmt: skip
    assert "fix_move_race" not in wiscsee.spec_of(A, args, 2400, 4, tmp_path)
    args.fix_move_race = True
    assert wiscsee.spec_of(A, args, 2400, 4, tmp_path)["fix_move_race"] is True


def test_fix_move_race_is_named_in_the_results_file(tmp_path, monkeypatch):
    seen = {}

    def run_cases(doc, cases, measure, out):
        seen["doc"] = doc

    monkeypatch.setattr(wiscsee.common, "run_cases", run_cases)
    base = ["--binary", str(tmp_path / "h"), "--work", str(tmp_path), "--out", str(tmp_path / "o")]
    wiscsee.main(base)
    assert seen["doc"]["patch"] == "none" and "--fix-move-race" not in seen["doc"]["repository"]
    wiscsee.main([*base, "--fix-move-race"])
    assert seen["doc"]["patch"] == wiscsee.MOVE_RACE_FIX
    assert "--fix-move-race" in seen["doc"]["repository"]
    with pytest.raises(SystemExit):
        wiscsee.main([*base, "--fix-move-race", "--patch", "other"])


def test_report_parsed_and_bad_lines_refused():
    drive, rows = wiscsee.parse_output(REPORT)
    assert drive == {"channels": 4, "blocks_per_channel": 32, "pages_per_block": 32,
                     "ncq_depth": 32, "over_provisioning": 1.28, "gc_high": 0.95,
                     "gc_low": 0.9, "n_gc_procs": 16}  # fmt: skip
    assert len(rows) == 8
    assert rows[5] == {"requests": 4800, "t_ns": 716840000, "programs": 9019, "erases": 168,
                       "reads": 4194}  # fmt: skip
    with pytest.raises(ValueError, match="6 fields"):
        wiscsee.parse_output(REPORT + "R 1 2 3\n")
    with pytest.raises(ValueError, match="no G line"):
        wiscsee.parse_output(REPORT.replace("G 4", "X 4"))


def test_rounds_are_half_span_writes_after_the_fill_and_the_fob_is_its_first_quarter():
    _, rows = wiscsee.parse_output(REPORT)
    r1, r2 = wiscsee.rounds_of(rows, span=3200)
    assert r1["span_writes"] == pytest.approx(0.5) and r1["gc_runs"] == 168
    assert r1["iops"] == pytest.approx(1600 / ((716840000 - 160020000) / 1e9))
    assert r1["waf"] == pytest.approx((9019 - 3228) / 1600)
    assert r2["waf"] == pytest.approx((16809 - 9019) / 1600)
    assert r2["span_writes"] == pytest.approx(1.0) and r2["t_s"] == pytest.approx(1.46314)
    fob = wiscsee.fob_of(rows, span=3200)
    # 4 channels, one 200 us program each at a time: 20,000 IOPS
    assert fob == {"iops": pytest.approx(800 / 0.04002), "span_writes": 0.25, "gc_runs": 0}


def test_rounds_of_one_span_write_take_four_reports():
    # --reports-per-round 4 (bench/foreign/results/wiscsee2/RULE.md): one round a span write
    _, rows = wiscsee.parse_output(REPORT)
    (r,) = wiscsee.rounds_of(rows, span=3200, per_round=4)
    assert r["span_writes"] == pytest.approx(1.0) and r["gc_runs"] == 416
    assert r["iops"] == pytest.approx(3200 / ((1463140000 - 160020000) / 1e9))
    assert r["waf"] == pytest.approx((16809 - 3228) / 3200)


needs_wiscsim = pytest.mark.skipif(
    not os.environ.get("WISCSIM_HARNESS"),
    reason="WiscSim is not set up here (bench/foreign/wiscsee/build.sh; WISCSIM_HARNESS names it)",
)


def run_harness(tmp_path, extra_op, qd, drive_writes, fix_move_race):
    """The harness on a tiny drive (2 channels x 32 blocks x 16 pages): its span and report."""
    args = argparse.Namespace(over_provisioning=1.28, gc=(0.95, 0.9), gc_procs=16,
                              t_prog_ns=200000, drive_writes=drive_writes,
                              fix_move_race=fix_move_race)  # fmt: skip
    g = wiscsee.geometry_of("2,32,16")
    span = wiscsee.span_pages(extra_op, g, 1.28)
    spec = wiscsee.spec_of(g, args, span, qd, tmp_path / "wiscsim")
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    subprocess.run([os.environ["WISCSIM_HARNESS"], "spec.json", "report.txt"], cwd=tmp_path,
                   check=True, capture_output=True, timeout=120)  # fmt: skip
    return span, wiscsee.parse_output((tmp_path / "report.txt").read_text())


@needs_wiscsim
def test_the_harness_runs_wiscsim_and_reports_its_counters(tmp_path):
    span, (drive, rows) = run_harness(tmp_path, 40, 4, 1.0, False)
    assert drive["channels"] == 2 and drive["ncq_depth"] == 4
    assert rows[-1]["requests"] == 2 * span
    # an empty drive: one program a host page, no erase, two channels at 200 us
    assert rows[0]["erases"] == 0 and rows[0]["programs"] >= rows[0]["requests"]
    assert wiscsee.fob_of(rows, span)["iops"] == pytest.approx(10000, rel=0.01)


@needs_wiscsim
def test_the_harness_runs_wiscsim_with_the_move_race_fixed(tmp_path):
    span, (_, rows) = run_harness(tmp_path, 0, 8, 2.0, True)
    assert rows[-1]["requests"] == 3 * span and rows[-1]["erases"] > 0  # GC ran, with the fix
