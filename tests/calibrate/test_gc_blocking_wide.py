"""The blocking-GC reading's wide die grid (``gc_blocking.WIDE_DIE_GRID``, off by default): on a
32-die drive's plan figures it chooses more than 8 dies; on a 4-die drive's, and on figures 8
units explain, it keeps the 8-die grid's answer (bench/results/blockdies/RULE.md)."""

from __future__ import annotations

from overprov.calibrate import fit as fitmod
from overprov.calibrate import gc_blocking


def _plan(iops_0: float, iops_40: float, iops_40_qd4: float, fob: float) -> list[fitmod.Point]:
    """The IOPS-only plan case's figures: 0% and 40% at QD32, 40% at QD4, FOB."""
    return [
        fitmod.Point(0.0, iops_0, 0.02),
        fitmod.Point(40.0, iops_40, 0.02),
        fitmod.Point(40.0, iops_40_qd4, 0.02, queue_depth=4),
        fitmod.Point(0.0, fob, 0.02, fresh=True),
    ]


def _fits(monkeypatch, points, native_op):
    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 16)  # 256 MiB twins: seconds
    got = {}
    for on in (False, True):
        monkeypatch.setattr(gc_blocking, "WIDE_DIE_GRID", on)
        got[on] = gc_blocking.fit(points, native_op, jobs=1)
        assert got[on] is not None and got[on].dies_identified
    return got[False], got[True]


def test_a_32_die_drive_chooses_more_than_8_dies(monkeypatch):
    """gen-d32's stored IOPS-only figures (bench/results/fobmany/cases/gen-d32.json, its fitted
    native spare): the 8-die grid takes its top; the wide grid goes past it."""
    narrow, wide = _fits(monkeypatch, _plan(12575, 75590, 17569, 158302), 0.0894620283396507)
    assert narrow.dies == gc_blocking.MAX_PARALLEL_UNITS
    assert len(narrow.candidates) == len(gc_blocking.grid(True))
    assert wide.dies > gc_blocking.MAX_PARALLEL_UNITS, wide.candidates
    assert wide.chi2 < narrow.chi2
    assert len(wide.candidates) > len(narrow.candidates)


def test_a_4_die_drive_keeps_its_answer(monkeypatch):
    """DiskSim's stored IOPS-only figures (bench/foreign/results/disksim-ssd/evaluation.json):
    they gain 2.4× from QD4 to QD32 (the gate is open), but the fit does not take the 8-die
    top, so the grid does not grow and the reading is the 8-die grid's."""
    points = _plan(6382, 16352, 6756, 23112)
    assert gc_blocking.needs_wide_grid([(16352, 32, 6756, 4)])
    narrow, wide = _fits(monkeypatch, points, 0.19000837061058581)
    assert narrow.dies < gc_blocking.MAX_PARALLEL_UNITS
    assert wide.to_dict() == narrow.to_dict()


def test_the_gate_opens_only_past_what_8_units_give():
    # 8 units: at most 8 ÷ 4 = 2 times the QD4 figure at QD32 without GC
    assert not gc_blocking.needs_wide_grid([(20000.0, 32, 10000.0, 4)])
    assert gc_blocking.needs_wide_grid([(10000.0, 4, 20100.0, 32)])
    assert not gc_blocking.needs_wide_grid([(5000.0, 4, 5000.0, 4)])
    assert not gc_blocking.needs_wide_grid([])


def test_the_wide_cells():
    assert gc_blocking.WIDE_DIE_GRID is False  # off by default
    assert gc_blocking.wide_cells(16) == [(16, 1, d) for d in (1, 2, 3, 4, 6, 8, 16)]
    assert [c[2] for c in gc_blocking.wide_cells(64)][-3:] == [16, 32, 64]
    # the grid calibrate uses is the 8-die one
    assert max(n * pl for n, pl, _ in gc_blocking.grid(True)) == gc_blocking.MAX_PARALLEL_UNITS
