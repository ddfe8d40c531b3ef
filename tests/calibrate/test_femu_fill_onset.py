"""The graded plan's writes on FEMU (``bench/foreign/femu_onset.py --fill``): the harness's
``--workload`` phases made from calibrate's own fill and sweeps, and the onset dated from them
as the plan dates it. FEMU itself is built and run outside the repository; the output here is
a real one, recorded."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from overprov.calibrate.plan import FILL_HAZARD
from overprov.calibrate.precondition import SWEEP_DRIVE_WRITES, graded_fill_drive_writes

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import femu  # noqa: E402
import femu_onset  # noqa: E402

#: ``femu-bbssd-harness --span-pages 12288 --host-pages 1 --qd 4 --report-every 96 --seed 1
#: --nchs 2 --luns-per-ch 4 --blks-per-pl 64 --pgs-per-blk 32 --gc-thres-pcent 70 --workload W``
#: with W ``fill_workload(12288, 0.05)``: 64 lines of 256 pages, 48 of namespace, 19 held free
#: (FEMU's 30%), so its collector may start at (64 − 19 − 1) / 48 = 0.917 of the namespace.
FILL_OUT = Path(__file__).resolve().parents[1] / "data" / "foreign" / "femu-harness-fill.out"
SPAN = 12288


def _writes(phases: list[str]) -> list[tuple[str, int, int, int]]:
    out = []
    for p in phases:
        kind, *n = p.split()
        out.append((kind, n[0], n[1], n[1]) if kind == "seq" else (kind, *n))
    return [(k, int(a), int(b), int(c)) for k, a, b, c in out]


def test_the_workload_is_the_plans_fill_then_its_sweeps():
    phases, in_fill = femu_onset.fill_workload(SPAN, 0.05)
    writes = _writes(phases)
    assert writes[0] == ("rand", 0, SPAN, round(0.02 * SPAN))  # the FOB over the namespace
    fill, sweeps = writes[1:in_fill], writes[in_fill:]
    seq = [(a, c) for k, a, _, c in fill if k == "seq"]
    # the sequential steps cover the namespace once, in order, each on a 128 KiB boundary
    assert [a for a, _ in seq] == [sum(c for _, c in seq[:i]) for i in range(len(seq))]
    assert sum(c for _, c in seq) == SPAN and all(a % 32 == 0 for a, _ in seq)
    # each step's random writes over the part filled, as much as the fill's hazard asks
    end = 0
    for k, a, b, _ in fill:
        if k == "seq":
            end = a + b
        else:
            assert a == 0 and b == end
    rand = sum(c for k, _, _, c in fill if k == "rand")
    assert rand / SPAN == pytest.approx(graded_fill_drive_writes(FILL_HAZARD), abs=0.005)
    # then the 0% level's sweeps of prefix rounds, largest first
    assert all(k == "rand" and a == 0 for k, a, _, _ in sweeps)
    assert sweeps[0][2] == SPAN and sweeps[1][2] < SPAN
    # as many sweeps as reach the drive writes asked (a sweep past it where the sum of the
    # sweeps' floats falls just short)
    written = sum(c for *_, c in sweeps) / SPAN
    assert 0.05 <= written <= 0.05 + 2 * SWEEP_DRIVE_WRITES


def test_a_recorded_run_dates_the_onset_in_the_fill_at_femus_first_copy():
    phases, in_fill = femu_onset.fill_workload(SPAN, 0.05)
    got = femu_onset.date_fill(FILL_OUT.read_text(), SPAN, len(phases), in_fill)
    assert got["dated_in"] == "fill" and got["gc_thres_lines"] == 19
    assert got["fill_end_drive_writes"] == pytest.approx(1.17, abs=0.01)
    assert got["onset_spare_factor"] == pytest.approx((64 - 19 - 1) / 48, abs=0.005)
    assert abs(got["difference"]) <= 0.005
    # a run cut short has fewer phase reports than phases: refused
    with pytest.raises(ValueError, match="phase reports"):
        femu_onset.date_fill(FILL_OUT.read_text(), SPAN, len(phases) + 1, in_fill)


def test_the_fob_report_is_the_quarter_span_in_whole_pages():
    """A span 4 does not divide: the harness reports every ``span // 4`` pages, a little under a
    quarter; the FOB is that report, not the next (which had GC on a drive with a 68% reserve
    and stopped its run, bench/foreign/results/gc-onset-fill-femu/runs.log)."""
    span = 176947
    rows = [{"host_pages": k * (span // 4), "t_ns": k * 10**9, "nand_pages": k * (span // 4),
             "erases": 0 if k < 2 else 72, "free_lines": 100} for k in range(4)]  # fmt: skip
    fob = femu.fob_of(rows, span, blocks_per_line=8)
    assert fob["gc_runs"] == 0 and fob["span_writes"] == pytest.approx(0.25, abs=1e-4)
