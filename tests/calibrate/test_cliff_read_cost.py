"""What a read costs the host queue, as bench/foreign/py_ssd_sim_read_cost.py measures it in the
twin of py_ssd_sim's drive and bench/foreign/py_ssd_sim_cliff.py sums it up for the simulator:
the queue-time summary, the twin's closed loop against the core's own, and the core's booking
of the host link that makes a write wait for an earlier read of a written page
(docs/calibrate-cliff.md, "What a read costs the queue"). None needs the simulator's clone."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))

import py_ssd_sim_cliff  # noqa: E402
import py_ssd_sim_cliff_eval  # noqa: E402
import py_ssd_sim_read_cost  # noqa: E402
from overprov import engine  # noqa: E402
from overprov.calibrate import cliff, read_slot  # noqa: E402
from overprov.errors import ConfigError  # noqa: E402

FIT = ROOT / "bench/results/cliff-foreign3/evaluation-a-qd8-70-30.json"


@pytest.fixture(scope="module")
def drive() -> dict:
    return py_ssd_sim_read_cost.fitted_twin(FIT)


def test_queue_time_summary_past_the_first_interval_instant_reads_apart():
    # (time ns, 1 if a write, latency ns or None: a read answered at once by the host)
    events = [
        [5_000_000, 1, 9_000_000],  # in the first 10 ms interval: left out
        [12_000_000, 1, 2_000],
        [14_000_000, 0, 100_000],
        [16_000_000, 0, None],
        [18_000_000, 1, 4_000],
        [20_000_000, 0, 300_000],
    ]
    q = py_ssd_sim_cliff.latency(events, 10.0)
    assert q["from_s"] == pytest.approx(0.01)
    assert q["span_s"] == pytest.approx(0.01)
    assert q["write_latency_us_mean"] == pytest.approx(3.0)
    assert q["read_latency_us_mean"] == pytest.approx(200.0)
    assert q["write_iops"] == pytest.approx(200.0)
    assert q["read_iops"] == pytest.approx(200.0)
    assert q["instant_read_iops"] == pytest.approx(100.0)


def test_twin_closed_loop_reproduces_the_cores_own_for_writes(drive):
    events, report = py_ssd_sim_read_cost.closed_loop(
        drive, qd=8, read_percent=0, read_pages="any", seconds=0.04, seed=1
    )
    own = py_ssd_sim_cliff.series([e for e in events if e[0] < 4e7], 10.0)
    core = cliff.simulate_series(
        drive, 1.0, qd=8, seconds=0.04, interval_s=0.01, precondition="none"
    )
    assert report["slc_folded_bytes"] == 0
    for mine, theirs in zip(own["write_iops"][1:], core.write_iops[1:3], strict=False):
        assert mine == pytest.approx(theirs, rel=0.01)


def test_twin_write_waits_on_the_link_for_an_earlier_read_of_a_written_page(drive):
    cfg = cliff._config(  # noqa: SLF001 - the cliff twin's configuration of a run
        drive, 1.0, qd=8, read_percent=0, seconds=1, interval_s=1, precondition="none"
    )
    dev = engine.device(cfg)
    for lpn in range(600):  # more than the 2 MiB write buffer: the dies' queues full
        t = dev.submit("write", lpn, 1, 0)
    free = dev.submit("write", 1000, 1, t)  # a write with buffer room: a few us
    assert free - t < 10_000
    unwritten = dev.submit("read", 200_000, 1, t + 1_000)  # no NAND: a few us
    assert unwritten - (t + 1_000) < 10_000
    read = dev.submit("read", 5, 1, t + 2_000)  # behind the programs queued on its die
    assert read - (t + 2_000) > 1_000_000
    write = dev.submit("write", 1001, 1, t + 3_000)
    assert write >= read  # its transfer booked after the read's on the one link timeline


def test_read_slot_what_if_holds_the_slot_and_books_nothing(drive):
    events, _ = py_ssd_sim_read_cost.closed_loop(
        drive, qd=8, read_percent=30, read_pages="written", seconds=0.01, seed=3,
        read_slot_us=195.0,
    )  # fmt: skip
    reads = [e for e in events if e[1] == 0]
    assert reads and all(e[2] == 195_000 for e in reads)


def test_a_truth_refused_on_wrong_reads_not_on_reads_overlapping_a_write():
    overlapped = {"pending_commands": 0, "verify_errors": 3, "verify_overlapped": 3}
    assert py_ssd_sim_cliff_eval.truth_refused({**overlapped, "verify_wrong": 0}) is None
    assert "1 reads" in py_ssd_sim_cliff_eval.truth_refused({**overlapped, "verify_wrong": 1})
    # a run from before the failures were sorted: every failure refuses it, as before
    assert py_ssd_sim_cliff_eval.truth_refused({"verify_errors": 3}) is not None


def test_read_slot_series_binned_at_scale_as_full_size():
    # a drive simulated at half size: 10 ms intervals there are 20 ms of the full-size drive
    events = [(2_000_000, 1, 5), (4_000_000, 0, 5), (12_000_000, 1, 5), (25_000_000, 1, 5)]
    report = {"intervals": [{"state": "fob"}, {"state": "transition"}]}
    s = read_slot.binned(events, report, interval_ns=10_000_000, scale=0.5)
    assert s.times_s == pytest.approx([0.02, 0.04])
    assert s.iops == pytest.approx([200.0, 100.0])
    assert s.write_iops == pytest.approx([100.0, 100.0])
    assert s.gc_started == [False, True]


def test_read_slot_off_by_default_and_only_from_purged(drive):
    assert cliff.READ_SLOT_US is None
    fit = cliff.CacheFit(198.7e6, 102.8, None, tlc_program_us=707.6)
    with pytest.raises(ConfigError, match="purged"):
        cliff.predict(
            drive, fit, 1.0, qd=8, read_percent=30, seconds=0.02, interval_s=0.005,
            precondition="sequential", read_slot_us=195.0,
        )  # fmt: skip
    with pytest.raises(ValueError, match="read_pages"):
        read_slot.request_loop({}, qd=8, read_percent=30, end_ns=1, read_pages="some")


def test_reads_of_unwritten_pages_logged_apart_when_asked(drive):
    kw = {"qd": 8, "read_percent": 50, "read_pages": "any", "seconds": 0.01, "seed": 3}
    events, _ = py_ssd_sim_read_cost.closed_loop(drive, **kw, unwritten_apart=True)
    same, _ = py_ssd_sim_read_cost.closed_loop(drive, **kw)
    reads = [e for e in events if e[1] == 0]
    # early in a fresh drive nearly every read is of a never-written page: logged with no
    # queue time; the run itself is unchanged (same completions, in the same order)
    assert sum(e[2] is None for e in reads) > len(reads) // 2
    assert [e[:2] for e in events] == [e[:2] for e in same]
    assert all(a[2] == b[2] for a, b in zip(events, same, strict=True) if a[2] is not None)
    late = py_ssd_sim_cliff.late(events, 2.0, 4.0)["queue_time_late"]
    assert late["from_s"] == pytest.approx(0.004) and late["instant_read_iops"] > 0
    assert py_ssd_sim_cliff.late(events, 2.0, None) == {}
