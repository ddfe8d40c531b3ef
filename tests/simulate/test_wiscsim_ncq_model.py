"""The model of WiscSim's collector under its NCQ (bench/foreign/wiscsee/ncq_gc.py): N workers in
simulated time, the one cleaner slot, batches cleaned gc_procs at a time on FIFO channels
(bench/foreign/results/wiscqd/DIAGNOSIS.md)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign" / "wiscsee"))
import gc_reference  # noqa: E402
import ncq_gc  # noqa: E402

# WiscSim drive F at 0% extra OP with its 4 translation blocks (bench/foreign/results/wiscqd)
DRIVE_F = ncq_gc.Drive(5, 22, 32, 2268, 0.87, 0.77, 5, 320000, 4)
SEEDS = (1, 2, 3)


def run(workers: int, seed: int, recheck_high: bool = False) -> ncq_gc.Counts:
    writes, _ = gc_reference.host_writes(DRIVE_F.user_pages, 4, 0, seed)
    marks = [2 * DRIVE_F.user_pages, 5 * DRIVE_F.user_pages]
    return ncq_gc.simulate(DRIVE_F, writes, workers, marks, recheck_high)


def waf(c: ncq_gc.Counts) -> float:
    (a, pa), (b, pb) = sorted(c.marks.items())
    return (pb - pa) / (b - a)


def mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs)


def test_channels_serve_holds_in_the_order_asked_and_the_slot_passes_in_queue_order():
    sim, order = ncq_gc._Sim(2), []
    slot = ncq_gc._Lock(1)

    def proc(name: str, channel: int):
        yield ("acquire", slot)
        order.append((name, "slot", sim.now))
        yield ("hold", channel, 10)
        sim.release(slot)
        order.append((name, "done", sim.now))

    def other():
        yield ("hold", 0, 5)  # asked at 0 before "a" (which waits a step for the slot): first
        order.append(("c", "done", sim.now))

    for p in (proc("a", 0), proc("b", 1), other()):
        sim.at(0, p)
    sim.run()
    assert order == [("a", "slot", 0), ("c", "done", 5), ("a", "done", 15), ("b", "slot", 15),
                     ("b", "done", 25)]  # fmt: skip


def test_one_worker_queues_nothing_and_keeps_every_page():
    for seed in SEEDS:
        c = run(1, seed)
        assert c.collections > 0 and c.chained == 0
        assert c.completions == DRIVE_F.user_pages * 5


def test_one_worker_collects_as_the_untimed_model_does():
    # the same collector, but a batch's victims cleaned 5 at a time interleave their pages: the
    # WAF the same within 3% over 3 seeds (4 span writes, the last 3 counted)
    timed = mean(waf(run(1, s)) for s in SEEDS)
    untimed = mean(
        gc_reference.run(110, 32, 2268, 3, 1, "wiscsim", high=0.87, low=0.77, channels=5,
                         seed=s, held_blocks=4, channel_pools=True).waf
        for s in SEEDS
    )  # fmt: skip
    assert abs(timed / untimed - 1) < 0.03


def test_at_qd32_workers_queued_behind_a_collection_collect_and_raise_the_waf():
    deep = [run(32, s) for s in SEEDS]
    shallow = mean(waf(run(1, s)) for s in SEEDS)
    assert all(c.chained > c.collections / 3 for c in deep)
    assert mean(waf(c) for c in deep) > 1.03 * shallow
    # the what-if: a worker given the slot collects only if the trigger still holds
    rechecked = [run(32, s, recheck_high=True) for s in SEEDS]
    assert all(c.chained == 0 for c in rechecked)
    assert abs(mean(waf(c) for c in rechecked) / shallow - 1) < 0.03
