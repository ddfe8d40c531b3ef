"""An independent page-level model of greedy garbage collection from a high mark to a low mark,
in two forms, WAF only, uniform random 4 KiB writes after a sequential fill.

``form="core"``: the policy of overprov's core with ``ftl.gc_until_free_fraction``
(docs/simulator.md): one host write frontier and one GC frontier; when the host frontier needs
a block and the free pool holds ``trigger`` blocks or fewer, victims (the closed block with the
fewest valid pages, looked up afresh for each) are collected until the pool holds more than
``until`` blocks. Written apart from the core (no code shared) to check it
(tests/simulate/test_gc_low_mark.py).

``form="wiscsim"``: WiscSim's collector as bench/foreign/results/wiscgc/GC.md reads it from
junhe/wiscsee: one open block a channel, host and GC pages written to the channels' open blocks
in turn; after each host page, unless asleep, a collection starts when the free blocks are fewer
than ``(1 - high) * blocks`` and then sleeps 10 pages; its victims are a snapshot, taken at its
start, of the closed blocks in increasing valid count, without blocks all valid or more than
``max_valid_ratio`` valid, collected in batches of ``2 * channels`` with the stop check
(free blocks more than ``(1 - low) * blocks``) before each batch. Its host requests are
serialised (QD1): the NCQ's concurrency is not modelled. ``held_blocks`` (default 0) blocks are
taken from the free list before the fill and never written, closed or collected, yet count as
used: WiscSim's DFTL translation blocks (dftldes.py ``GlobalTranslationDirectory._initialize``
writes its ``total_translation_pages()`` pages at start-up, stripe 1, so each opens a
translation block in its own channel; with the whole mapping table cached none is written
again, and current blocks are never victims: bench/foreign/results/wiscvictim/DIAGNOSIS.md).
``channel_pools`` (default off): each channel takes blocks only from its own free blocks (block
``b`` is in channel ``b // (blocks / channels)``, held blocks one in each of the first
channels), a channel with its open block full and no free block is skipped by the round-robin,
and a collection's snapshot first closes full open blocks (WiscSim's devblockpool.py
``next_ppns`` and ``remove_full_cur_blocks``). ``per_victim`` (default off): the stop check
before each victim and the victim chosen afresh each time (no snapshot, no batches), as the
core's low mark does: to see whether a twin needs WiscSim's batches too.

    python bench/foreign/wiscsee/gc_reference.py --blocks 120 --pages 32 --user-pages 2400 \\
        --form wiscsim --high 0.88 --low 0.76 --channels 6
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass


@dataclass
class Result:
    host_pages: int
    gc_pages: int
    victims: int

    @property
    def waf(self) -> float:
        return (self.host_pages + self.gc_pages) / self.host_pages


class _Nand:
    """Pages, blocks, valid counts and the free list (lowest block number first)."""

    def __init__(self, blocks: int, pages: int, user_pages: int) -> None:
        self.pages = pages
        self.where = [-1] * user_pages  # logical page -> physical page
        self.owner = [-1] * (blocks * pages)  # physical page -> logical page (-1: invalid)
        self.valid = [0] * blocks
        self.closed: set[int] = set()
        self.free = list(range(blocks - 1, -1, -1))  # pop() takes the lowest

    def program(self, lpn: int, ppn: int) -> None:
        old = self.where[lpn]
        if old >= 0:
            self.owner[old] = -1
            self.valid[old // self.pages] -= 1
        self.where[lpn] = ppn
        self.owner[ppn] = lpn
        self.valid[ppn // self.pages] += 1

    def survivors(self, block: int) -> list[int]:
        start = block * self.pages
        return [lpn for lpn in self.owner[start : start + self.pages] if lpn >= 0]

    def erase(self, block: int) -> None:
        self.closed.discard(block)
        self.free.append(block)


class _Frontier:
    def __init__(self) -> None:
        self.block, self.next = -1, 0


def _core(nand: _Nand, trigger: int, until: int, writes: list[int], warm: int) -> Result:
    host, gcf = _Frontier(), _Frontier()
    counts = [0, 0, 0]  # host pages, gc pages, victims (measured part)

    def place(f: _Frontier, lpn: int, measured: bool, is_host: bool) -> None:
        if f.block < 0 or f.next == nand.pages:
            if f.block >= 0:
                nand.closed.add(f.block)
            if is_host and len(nand.free) <= trigger:
                while len(nand.free) <= until and collect(measured):
                    pass
            f.block, f.next = nand.free.pop(), 0
        nand.program(lpn, f.block * nand.pages + f.next)
        f.next += 1

    def collect(measured: bool) -> bool:
        if not nand.closed:
            return False
        victim = min(nand.closed, key=lambda b: (nand.valid[b], b))
        nand.closed.discard(victim)
        for lpn in nand.survivors(victim):
            place(gcf, lpn, measured, False)
            counts[1] += measured
        counts[2] += measured
        nand.erase(victim)
        return True

    for i, lpn in enumerate(writes):
        place(host, lpn, i >= warm, True)
        counts[0] += i >= warm
    return Result(*counts)


@dataclass
class Episode:
    """One WiscSim-form collection: host writes done when it starts, victims, pages moved, free
    blocks at its start and end, and the free blocks summed over every host write before it (each
    sampled when the write is placed, before the collection check)."""

    host_writes: int
    victims: int
    moved_pages: int
    free: int = 0
    free_after: int = 0
    free_sum: int = 0


class _OpenBlocks:
    """WiscSim's open data blocks, one a channel, shared by host and GC pages: each page goes to
    the next channel in turn; a channel whose open block is full takes a free block (with
    ``channel_pools``, the lowest-numbered of its own, block ``b`` in channel
    ``b // (blocks / channels)``; else the lowest of one pool) and is skipped if it has none
    (devblockpool.py ``next_ppns``)."""

    def __init__(self, nand: _Nand, blocks: int, channels: int, channel_pools: bool) -> None:
        self.nand, self.channels, self.channel_pools = nand, channels, channel_pools
        self.per_channel = blocks // channels
        self.fronts = [_Frontier() for _ in range(channels)]
        self.turn = 0

    def _take(self, channel: int) -> int:
        """A free block of `channel` (the lowest numbered), or -1 if it has none."""
        mine = [b for b in self.nand.free if b // self.per_channel == channel]
        if not mine:
            return -1
        self.nand.free.remove(min(mine))
        return min(mine)

    def next_page(self) -> int:
        """The physical page the next page (host or GC) is programmed to."""
        nand = self.nand
        for _ in range(self.channels):
            f = self.fronts[self.turn]
            channel, self.turn = self.turn, (self.turn + 1) % self.channels
            if f.block >= 0 and f.next < nand.pages:
                break
            new = self._take(channel) if self.channel_pools else nand.free.pop()
            if new >= 0:
                if f.block >= 0:
                    nand.closed.add(f.block)
                f.block, f.next = new, 0
                break
        else:
            raise RuntimeError("out of space: no channel has a free block")
        f.next += 1
        return f.block * nand.pages + f.next - 1

    def close_full(self) -> None:
        """remove_full_cur_blocks: full open blocks become used blocks (victim candidates)."""
        for f in self.fronts:
            if f.block >= 0 and f.next == self.nand.pages:
                self.nand.closed.add(f.block)
                f.block = -1


def _wiscsim(
    nand: _Nand, blocks: int, high: float, low: float, channels: int, max_valid_ratio: float,
    writes: list[int], warm: int, trace: list[Episode] | None, channel_pools: bool,
    per_victim: bool = False, batch_victims: int | None = None,
) -> Result:  # fmt: skip
    alloc = _OpenBlocks(nand, blocks, channels, channel_pools)
    counts = [0, 0, 0]

    def place(lpn: int) -> None:
        nand.program(lpn, alloc.next_page())

    def used_ratio() -> float:
        return (blocks - len(nand.free)) / blocks

    def clean(measured: bool, done: int) -> None:
        episode = Episode(done, 0, 0, len(nand.free), 0, free_sum)
        if channel_pools:
            alloc.close_full()

        def eligible() -> list[tuple[int, int]]:
            return sorted(
                (nand.valid[b], b)
                for b in nand.closed
                if nand.valid[b] < nand.pages and nand.valid[b] / nand.pages <= max_valid_ratio
            )

        def collect(victim: int) -> None:
            nand.closed.discard(victim)
            for lpn in nand.survivors(victim):
                place(lpn)
                counts[1] += measured
                episode.moved_pages += 1
            counts[2] += measured
            episode.victims += 1
            nand.erase(victim)

        candidates = eligible()
        if per_victim:  # the core's form: the mark checked, and greedy chosen, at each victim
            while candidates and used_ratio() >= low:
                collect(candidates[0][1])
                candidates = eligible()
        batch = batch_victims or 2 * channels
        for start in range(0, 0 if per_victim else len(candidates), batch):
            if used_ratio() < low:
                break
            for _, victim in candidates[start : start + batch]:
                collect(victim)
        episode.free_after = len(nand.free)
        if trace is not None:
            trace.append(episode)

    asleep = free_sum = 0
    for i, lpn in enumerate(writes):
        place(lpn)
        free_sum += len(nand.free)
        counts[0] += i >= warm
        if asleep > 0:
            asleep -= 1
        if asleep == 0 and used_ratio() > high:
            clean(i >= warm, i + 1)
            asleep = 10
    return Result(*counts)


def host_writes(
    user_pages: int, span_writes: float, warm_span_writes: float, seed: int,
    random_pages: list[int] | None = None,
) -> tuple[list[int], int]:  # fmt: skip
    """The host's logical pages in order (a sequential fill of ``user_pages``, then
    ``warm_span_writes`` + ``span_writes`` span writes of uniform random pages drawn from
    ``seed``, or ``random_pages`` if given) and how many of them are the warm-up."""
    rng = random.Random(seed)
    n_random = round((warm_span_writes + span_writes) * user_pages)
    if random_pages is None:
        random_pages = [rng.randrange(user_pages) for _ in range(n_random)]
    writes = list(range(user_pages)) + list(random_pages)
    return writes, user_pages + round(warm_span_writes * user_pages)


def hold(nand: _Nand, blocks: int, channels: int, held_blocks: int, channel_pools: bool) -> None:
    """Take ``held_blocks`` blocks out of the free list for good (WiscSim's translation blocks):
    with ``channel_pools`` the highest-numbered block of each of the first channels, else the
    highest-numbered blocks."""
    if channel_pools:
        per = blocks // channels
        for c in range(held_blocks):
            nand.free.remove((c + 1) * per - 1)
    else:
        del nand.free[:held_blocks]


def run(
    blocks: int, pages: int, user_pages: int, span_writes: float, warm_span_writes: float,
    form: str = "core", trigger: int = 2, until: int | None = None, high: float = 0.95,
    low: float = 0.9, channels: int = 1, max_valid_ratio: float = 0.9, seed: int = 1,
    held_blocks: int = 0, channel_pools: bool = False, trace: list[Episode] | None = None,
    random_pages: list[int] | None = None, per_victim: bool = False,
    batch_victims: int | None = None,
) -> Result:  # fmt: skip
    """A sequential fill of ``user_pages``, then ``warm_span_writes`` + ``span_writes`` span
    writes of uniform random pages; the figures count the last ``span_writes``. ``held_blocks``,
    ``channel_pools``, ``per_victim``, ``batch_victims`` (the victims between stop checks on the
    fixed list; default 2 x channels) and ``trace`` (appended one ``Episode`` a collection) are
    for ``form="wiscsim"`` only. ``random_pages``: the random writes' pages, given (e.g. another
    simulator's own sequence) instead of drawn from ``seed``."""
    writes, warm = host_writes(user_pages, span_writes, warm_span_writes, seed, random_pages)
    nand = _Nand(blocks, pages, user_pages)
    if form != "wiscsim" and (
        held_blocks or channel_pools or per_victim or batch_victims or trace is not None
    ):
        raise ValueError("held_blocks, channel_pools, per_victim, batch_victims and trace are "
                         "for form wiscsim")  # fmt: skip
    hold(nand, blocks, channels, held_blocks, channel_pools)
    if form == "core":
        return _core(nand, trigger, trigger if until is None else until, writes, warm)
    if form == "wiscsim":
        return _wiscsim(nand, blocks, high, low, channels, max_valid_ratio, writes, warm, trace,
                        channel_pools, per_victim, batch_victims)  # fmt: skip
    raise ValueError(f"form: core or wiscsim, got {form!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--blocks", type=int, required=True)
    ap.add_argument("--pages", type=int, required=True, help="pages a block")
    ap.add_argument("--user-pages", type=int, required=True)
    ap.add_argument("--form", choices=("core", "wiscsim"), default="core")
    ap.add_argument("--trigger", type=int, default=2)
    ap.add_argument("--until", type=int)
    ap.add_argument("--high", type=float, default=0.95)
    ap.add_argument("--low", type=float, default=0.9)
    ap.add_argument("--channels", type=int, default=1)
    ap.add_argument("--span-writes", type=float, default=16.0)
    ap.add_argument("--warm-span-writes", type=float, default=8.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--held-blocks", type=int, default=0, help="form wiscsim: blocks held open")
    ap.add_argument("--channel-pools", action="store_true", help="form wiscsim: a pool a channel")
    a = ap.parse_args()
    r = run(a.blocks, a.pages, a.user_pages, a.span_writes, a.warm_span_writes, a.form,
            a.trigger, a.until, a.high, a.low, a.channels, seed=a.seed,
            held_blocks=a.held_blocks, channel_pools=a.channel_pools)  # fmt: skip
    print(f"WAF {r.waf:.4f} (host {r.host_pages}, GC {r.gc_pages}, victims {r.victims})")


if __name__ == "__main__":
    main()
