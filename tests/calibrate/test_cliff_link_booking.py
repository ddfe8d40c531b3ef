"""The core's host link booked in gaps (``timing.host.link_booking = "gaps"``, the core's
timing/link.rs) in the cliff twin of py_ssd_sim's drive: a write no longer waits for an earlier
read of a written page, write-only series are unchanged, and under a mix the writes keep their
rate (docs/calibrate-cliff.md, "The host link booked in gaps"). None needs the simulator's
clone."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))

import py_ssd_sim_read_cost  # noqa: E402
from overprov import engine  # noqa: E402
from overprov.calibrate import cliff  # noqa: E402

FIT = ROOT / "bench/results/cliff-foreign3/evaluation-a-qd8-70-30.json"


@pytest.fixture(scope="module")
def drives() -> dict[str, dict]:
    fitted = py_ssd_sim_read_cost.fitted_twin(FIT)
    out = {}
    for booking in ("in-order", "gaps"):
        d = copy.deepcopy(fitted)
        d["config"]["timing"]["host"]["link_booking"] = booking
        out[booking] = d
    return out


def _read_then_write(drive: dict, with_read: bool) -> tuple[int, int]:
    """The read's and the write's completion after the write's issue, the dies' queues full."""
    cfg = cliff._config(  # noqa: SLF001 - the cliff twin's configuration of a run
        drive, 1.0, qd=8, read_percent=0, seconds=1, interval_s=1, precondition="none"
    )
    dev = engine.device(cfg)
    for lpn in range(600):  # more than the 2 MiB write buffer
        t = dev.submit("write", lpn, 1, 0)
    read = dev.submit("read", 5, 1, t + 2_000) if with_read else t + 3_000
    write = dev.submit("write", 1001, 1, t + 3_000)
    return read - (t + 3_000), write - (t + 3_000)


def test_in_gaps_a_write_completes_as_if_the_read_before_it_had_not_been_issued(drives):
    read, write = _read_then_write(drives["in-order"], with_read=True)
    assert read > 1_000_000 and write >= read  # in order: behind the read's transfer
    read_gaps, write_gaps = _read_then_write(drives["gaps"], with_read=True)
    assert read_gaps == read
    _, alone = _read_then_write(drives["gaps"], with_read=False)
    assert write_gaps == alone < 10_000


def test_write_only_series_alike_and_mixed_writes_keep_their_rate(drives):
    def series(booking: str, read_percent: int) -> cliff.Series:
        return cliff.simulate_series(
            drives[booking], 1.0, qd=8, read_percent=read_percent, seconds=0.04,
            interval_s=0.01, precondition="none",
        )  # fmt: skip

    alone = series("gaps", 0)
    assert alone == series("in-order", 0)
    writes_alone = sum(alone.write_iops[1:]) / 3
    mixed = {b: series(b, 30) for b in ("in-order", "gaps")}
    reads_in_order = sum(mixed["in-order"].iops) - sum(mixed["in-order"].write_iops)
    assert reads_in_order > 0
    # past the first interval (empty dies): in gaps the writes keep nearly their rate alone
    # (the cache's programs now shared with reads); in order they wait behind the reads
    assert min(mixed["gaps"].write_iops[1:]) > 0.9 * writes_alone
    assert sum(mixed["in-order"].write_iops[1:]) < 0.9 * sum(mixed["gaps"].write_iops[1:])
