"""bench/foreign/skewed_addresses.py: the pages a foreign FTL's trace writes under SSD-iq's skewed
workloads (zones with their write shares, a zone never written after the fill, Zipf θ over the
span's pages in a random order), and bench/foreign/ssdsim.py's trace written from them."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH / "foreign"))
sys.path.insert(1, str(BENCH))

import skewed_addresses as sa  # noqa: E402
import ssdsim  # noqa: E402
from corpus_workload_runs import overprov_workload  # noqa: E402

SPAN = 1000


def test_zones_take_their_write_shares_and_a_read_only_zone_none():
    zones = overprov_workload("zones-shuffle", "s0.9 f0.1 s0.1 f0.9")
    bounds = sa.zone_bounds(SPAN, zones["zones"])
    assert [(a, b) for a, b, _ in bounds] == [(0, 900), (900, 1000)]
    pages = sa.sampler(zones, SPAN, 7)(40_000)
    assert pages.min() >= 0 and pages.max() < SPAN
    # the hot zone's 100 pages, wherever the shuffle put them, take ~90% of the writes
    counts = np.bincount(pages, minlength=SPAN)
    hot_share = np.sort(counts)[-100:].sum() / len(pages)
    assert 0.88 < hot_share < 0.92
    ro = sa.sampler(overprov_workload("zones-shuffle", "s0.5 f0 s0.5 f1"), SPAN, 7)(20_000)
    assert len(np.unique(ro)) == 500  # half the span is never written after the fill
    # iob's `zones` (not shuffled), as the core lays them: the static zone is the span's first half
    in_order = overprov_workload("zones", "s0.5 f0 s0.5 f1")
    assert sa.sampler(in_order, SPAN, 7, shuffle=False)(5_000).min() >= 500
    with pytest.raises(ValueError, match="holds no page"):
        sa.zone_bounds(10, [{"access_percent": 50, "space_percent": 1},
                            {"access_percent": 50, "space_percent": 99}])  # fmt: skip


def test_zipf_ranks_follow_the_power_law_over_scattered_pages():
    theta = 0.8
    pages = sa.sampler({"pattern": "zipf", "zipf_theta": theta}, SPAN, 3)(100_000)
    counts = np.sort(np.bincount(pages, minlength=SPAN))[::-1]
    norm = (np.arange(1, SPAN + 1) ** -theta).sum()
    for k in (1, 2, 10):
        assert abs(counts[k - 1] / 100_000 - k**-theta / norm) < 0.1 * k**-theta / norm
    # the most written pages are scattered, not the span's first ones
    top = np.argsort(np.bincount(pages, minlength=SPAN))[::-1][:10]
    assert not set(top.tolist()) <= set(range(20))


def test_uniform_pages_are_the_drivers_python_random_draws():
    got = sa.sampler({"pattern": "uniform"}, SPAN, 42)(5).tolist()
    r = random.Random(42)
    assert got == [r.randrange(SPAN) for _ in range(5)]


def test_ssdsim_trace_is_the_fill_then_the_drawn_pages(tmp_path):
    draw = sa.sampler(overprov_workload("zipf-shuffle", "1.0"), 8, 1)
    n = ssdsim.write_trace(tmp_path / "t", 8, 16, 2, draw)
    lines = (tmp_path / "t").read_text().split("\n")
    assert n == 24 and len(lines) == 8 + 16 + 4
    assert lines[:2] == ["0 0 0 8 0", "0 0 8 8 0"]
    assert all(int(x.split()[2]) % 8 == 0 and int(x.split()[2]) < 64 for x in lines[8:])
