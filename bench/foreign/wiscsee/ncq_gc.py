"""WiscSim's collector under its NCQ: the model of bench/foreign/wiscsee/gc_reference.py
``form="wiscsim"`` (with ``held_blocks`` and ``channel_pools``) run in simulated time by
``workers`` NCQ workers, as WiscSim's queue runs it (bench/foreign/results/wiscqd/DIAGNOSIS.md).

Each worker takes the next host page, takes its physical page (the channels' open blocks in
turn) and maps it at once, then programs it on its channel; when done it counts the
completion, steps the shared 10-request GC sleep down, and if awake and more than ``high`` of
the blocks are in use it queues for the one cleaner slot (WiscSim's ``Cleaner._cleaner_res``,
capacity 1) holding its place in the queue. A worker given the slot lists its victims
(``remove_full_cur_blocks`` then the closed blocks by valid count, none all valid or more than
``max_valid_ratio`` valid) and cleans them in batches of ``2 * channels``, the stop (fewer than
``low`` of the blocks in use) checked before each batch, the first included, and nothing else
checked: a worker that queued while another collection ran collects as soon as that one
releases the slot if the free blocks are below the low mark then (dftldes.py ``Cleaner.clean``).
A batch's victims are cleaned ``gc_procs`` at a time; a victim's valid pages (checked when
reached) one after another: read on its channel, a page taken, programmed on that page's
channel, remapped only if the host has not rewritten it meanwhile (the harness's
``--fix-move-race``), then the victim erased and its block freed. Then the worker sets the
sleep to 10 and goes on. Channels serve reads (``t_read_ns``), programs and erases in the order
asked, one at a time. At ``workers=1`` this is gc_reference's collector with time added.

When a collection releases the slot, the next queued worker checks the stop before the
released one takes its next page (WiscSim: the k-th queued worker's check sees k - 1 new host
writes started, bench/foreign/results/wiscqd/probe.py's grant_in_flight).

    python bench/foreign/wiscsee/ncq_gc.py --channels 5 --blocks-per-channel 22 \\
        --user-pages 2268 --high 0.87 --low 0.77 --gc-procs 5 --t-prog-ns 320000 --workers 32
"""

from __future__ import annotations

import argparse
import heapq
from collections import deque
from dataclasses import dataclass, field

from gc_reference import _Nand, _OpenBlocks, hold, host_writes

GC_SLEEP_REQUESTS = 10  # ssdframework.py gc_sleep_duration
T_READ_NS, T_ERASE_NS = 20000, 1500000  # WiscSim's defaults, as bench/foreign/wiscsee.py


@dataclass
class Drive:
    """A WiscSim drive as bench/foreign/wiscsee.py runs it (0% extra OP: user_pages the span)."""

    channels: int
    blocks_per_channel: int
    pages: int
    user_pages: int
    high: float
    low: float
    gc_procs: int
    t_prog_ns: int
    held_blocks: int = 0
    max_valid_ratio: float = 0.9


@dataclass
class Counts:
    """Completions and page programs (host and GC, wasted copies included) at window marks."""

    completions: int = 0
    programs: int = 0
    collections: int = 0
    chained: int = 0  # collections by a worker that queued while another held the slot
    marks: dict = field(default_factory=dict)  # completions -> programs then


class _Lock:
    def __init__(self, capacity: int) -> None:
        self.free, self.queue = capacity, deque()


class _Sim:
    """Processes are generators yielding ("hold", channel, ns), ("acquire", lock), ("step",)
    or ("join", counter); events at the same time run in the order scheduled."""

    def __init__(self, channels: int) -> None:
        self.now, self.heap, self.seq = 0, [], 0
        self.channel_free_at = [0] * channels

    def at(self, t: int, proc) -> None:
        heapq.heappush(self.heap, (t, self.seq, proc))
        self.seq += 1

    def release(self, lock: _Lock) -> None:
        if lock.queue:
            self.at(self.now, lock.queue.popleft())
        else:
            lock.free += 1

    def run(self) -> None:
        while self.heap:
            self.now, _, proc = heapq.heappop(self.heap)
            try:
                cmd = next(proc)
            except StopIteration:
                continue
            if cmd[0] == "hold":
                start = max(self.now, self.channel_free_at[cmd[1]])
                self.channel_free_at[cmd[1]] = start + cmd[2]
                self.at(start + cmd[2], proc)
            elif cmd[0] == "acquire":
                if cmd[1].free:
                    cmd[1].free -= 1
                    self.at(self.now, proc)
                else:
                    cmd[1].queue.append(proc)
            elif cmd[0] == "join":  # wait until the counter's processes are done
                cmd[1]["waiter"] = proc
                if cmd[1]["left"] == 0:
                    self.at(self.now, proc)
            else:  # "step": after what is already scheduled now
                self.at(self.now, proc)


def simulate(d: Drive, writes: list[int], workers: int, marks: list[int],
             recheck_high: bool = False) -> Counts:  # fmt: skip
    """Run `writes` (logical pages, the fill first) through `workers` NCQ workers on drive `d`;
    the programs are read at each completion count in `marks`. `recheck_high` (a what-if, not
    WiscSim): a worker given the slot collects only if more than `high` of the blocks are
    still in use."""
    blocks = d.channels * d.blocks_per_channel
    nand = _Nand(blocks, d.pages, max(writes) + 1)
    hold(nand, blocks, d.channels, d.held_blocks, True)
    alloc = _OpenBlocks(nand, blocks, d.channels, True)
    sim, counts = _Sim(d.channels), Counts()
    slot, movers = _Lock(1), _Lock(d.gc_procs)
    state = {"next": 0, "sleep": 0}
    wanted = set(marks)

    def channel(ppn: int) -> int:
        return ppn // d.pages // d.blocks_per_channel

    def used() -> float:
        return (blocks - len(nand.free)) / blocks

    def clean_victim(block: int, batch: dict):
        yield ("acquire", movers)
        for ppn in range(block * d.pages, (block + 1) * d.pages):
            lpn = nand.owner[ppn]
            if lpn < 0:
                continue
            yield ("hold", channel(ppn), T_READ_NS)
            new = alloc.next_page()
            counts.programs += 1
            yield ("hold", channel(new), d.t_prog_ns)
            if nand.where[lpn] == ppn:  # else the host rewrote it: the copy stays invalid
                nand.program(lpn, new)
        yield ("hold", channel(block * d.pages), T_ERASE_NS)
        nand.erase(block)
        sim.release(movers)
        batch["left"] -= 1
        if batch["left"] == 0 and batch["waiter"] is not None:
            sim.at(sim.now, batch["waiter"])

    def collect(queued: bool):
        yield ("acquire", slot)
        if recheck_high and used() <= d.high:
            sim.release(slot)
            yield ("step",)
            return
        alloc.close_full()
        victims = sorted(
            (nand.valid[b], b)
            for b in nand.closed
            if nand.valid[b] < d.pages and nand.valid[b] / d.pages <= d.max_valid_ratio
        )
        size = 2 * d.channels
        ran = False
        for start in range(0, len(victims), size):
            if used() < d.low:
                break
            ran = True
            batch = {"left": 0, "waiter": None}
            for _, b in victims[start : start + size]:
                nand.closed.discard(b)
                batch["left"] += 1
                sim.at(sim.now, clean_victim(b, batch))
            yield ("join", batch)
        counts.collections += ran
        counts.chained += ran and queued
        sim.release(slot)
        yield ("step",)

    def worker():
        while state["next"] < len(writes):
            lpn = writes[state["next"]]
            state["next"] += 1
            ppn = alloc.next_page()
            nand.program(lpn, ppn)
            counts.programs += 1
            yield ("hold", channel(ppn), d.t_prog_ns)
            counts.completions += 1
            if counts.completions in wanted:
                counts.marks[counts.completions] = counts.programs
            if state["sleep"] > 0:
                state["sleep"] -= 1
            if state["sleep"] == 0 and used() > d.high:
                yield from collect(slot.free == 0)
                state["sleep"] = GC_SLEEP_REQUESTS

    for _ in range(workers):
        sim.at(0, worker())
    sim.run()
    return counts


def window_waf(
    d: Drive, workers: int, seed: int, window: tuple[float, float],
    random_pages: list[int] | None = None, recheck_high: bool = False,
) -> float:  # fmt: skip
    """WAF (page programs / host writes) between two points counted in span writes, the fill
    the first (bench/foreign/wiscsee.py's report rows): e.g. (3, 9) is span writes 2 to 8 of
    the random writes."""
    writes, _ = host_writes(d.user_pages, window[1] - 1, 0, seed, random_pages)
    a, b = (round(w * d.user_pages) for w in window)
    c = simulate(d, writes, workers, [a, b], recheck_high)
    return (c.marks[b] - c.marks[a]) / (b - a)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--channels", type=int, required=True)
    ap.add_argument("--blocks-per-channel", type=int, required=True)
    ap.add_argument("--pages", type=int, default=32, help="pages a block")
    ap.add_argument("--user-pages", type=int, required=True)
    ap.add_argument("--high", type=float, required=True)
    ap.add_argument("--low", type=float, required=True)
    ap.add_argument("--gc-procs", type=int, required=True)
    ap.add_argument("--t-prog-ns", type=int, required=True)
    ap.add_argument("--held-blocks", type=int, default=4)
    ap.add_argument("--workers", type=int, default=1, help="NCQ depth")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--window", default="3,9", help="span writes from,to (the fill the first)")
    ap.add_argument("--recheck-high", action="store_true", help="a what-if: see simulate()")
    a = ap.parse_args()
    d = Drive(a.channels, a.blocks_per_channel, a.pages, a.user_pages, a.high, a.low,
              a.gc_procs, a.t_prog_ns, a.held_blocks)  # fmt: skip
    w = tuple(float(x) for x in a.window.split(","))
    print(f"WAF {window_waf(d, a.workers, a.seed, w, recheck_high=a.recheck_high):.4f}")


if __name__ == "__main__":
    main()
