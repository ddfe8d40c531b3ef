"""Drive py_ssd_sim's SSD (an FTL with an SLC cache that folds into TLC) with 4 KiB random I/O
and log its IOPS per interval, for the write-cliff check on an FTL overprov did not write.

    PYTHONPATH=python python bench/foreign/py_ssd_sim_cliff.py \
        --checkout DIR --python PY --work DIR [--channels 8] [--slc-superblocks 2] \
        [--qd 32] [--read-percent 0] \
        [--amount-mib 448] [--span-mib 1024] [--interval-ms 20] [--seed 1] \
        [--unmapped-reads host|simulator] [--read-pages any|written|unwritten] \
        [--late-from-ms 400] [--reads-after-mib 0] [--out FILE.json]

The simulator: GitHub baramjin92/py_ssd_sim (a discrete-event model of a host, its link, a
controller, NAND channels and firmware: HIL, FTL, FIL), commit a9f9c73. Its repository has no
licence file, so none of its code is in this repository: ``--checkout`` is a clone of it, and
``--python`` an interpreter with what it imports (numpy, pandas, matplotlib, tabulate,
progress). Its FTL (its ``model.ftl`` module) opens each host super block (one block of every
die) in its ``slc_cache`` block group while that group has free blocks and is not exhausted
(fewer free blocks than its low threshold), else in the ``user`` group (TLC); garbage
collection picks a victim in ``slc_cache`` while it is exhausted and moves its valid data to a
``user`` super block: a static SLC cache that folds into TLC (so its code intends; its
collection never writes what it reads: the seventh fix below). Its drive (config/ssd_config.xml):
PCIe Gen3 x4, 8 channels x 1 die, the "256gb_g3" TLC NAND of config/nand_config.xml (8 KiB
pages x 4 planes), a 2 MB write buffer; an SLC super block holds 96 MB, a TLC one 288 MB.

What this driver sets (in a copy of the checkout under ``--work``; the simulator's files are not
changed, one method is replaced at run time: below): the host queue depth; the number of NAND
channels (``--channels``, one die each); the ``slc_cache`` group to ``--slc-superblocks`` super
blocks (blocks 10 onward, low threshold 1, high 2) and the ``user`` group after it; one workload
of 4 KiB random requests aligned to 4 KiB over the first ``--span-mib`` MiB, ``--amount-mib``
MiB in all. Its workload generator has no mixed random workload (``WL_RAND_RW`` is declared, not
generated), so for ``--read-percent`` > 0 the host here draws each request a read with that
probability (Python's ``random``, seeded), the simulator's own random-write generator giving the
address. A read of a page never written is answered by this host at once, logged as a completed
read at that instant, and the next request drawn: the simulator's read path fails on an unmapped
page (``do_read`` of its ``model.ftl`` module), and overprov's core, like a drive, answers one
without NAND (``--unmapped-reads host``, the default). With ``--unmapped-reads simulator`` such
a read goes to the simulator too, and its FTL answers it, when its read cache does not hold the
page, with a zeroed read buffer sent through its host interface, as a drive does: a wrapper of
``do_read`` takes that one case (it has no path for it) and leaves every other read to it. Reads
of written pages go to the simulator. ``--read-pages``: a read's address is the drawn one
(``any``, the default), or one drawn among the pages the FTL has mapped (``written``: among the
pages this host wrote, redrawn until mapped; a read with none found in 64 draws is not issued,
counted in ``reads_not_drawn``), or among the pages never written (``unwritten``) — a probe of
what one read of each kind costs the queue. ``--reads-after-mib M``: writes only until the host
has written M MiB, reads drawn after (a probe past the cliff: ``overprov.calibrate.read_probes``;
``queue_time_late`` then from the first read's issue, ``reads_from_ns``). Completions are
logged by wrapping the host's statistics (``update_read``, ``update_write``: called once per
completed command, with its latency) with the simulator's clock (ns); ``queue_time`` sums up
each command's latency, the slot time it holds at a fixed queue depth (``latency``).

**Three fixes of the simulator's read path.** Unfixed, a mixed run stalls
(bench/results/cliff-foreign/RULE.md: "no event and pending command"). What was wrong: the FTL's
``do_read`` (``model.ftl``), on a hit of its read cache (``buffer_cache.get_buffer_id``,
``model.buffer_cache``; the cache is on by default, ``ENABLE_BUFFER_CACHE``), hands the cached
read buffer to the host interface as it is, still tagged with the command that first read it
into the cache; the host interface (``end_read_transfer`` of ``model.hic``) credits each
transferred buffer to the command its tag names. So the data went to an old tag: the read now
served never completes, and the tag's present command, often a write, is counted done before its
data arrived; the host reuses the tag, a second buffer is allocated under it, and the host
interface later asks the host for zero sectors, whose transfer time comes out negative
(``calculate_xfer_time`` of ``model.pcie_if``: one packet's delay subtracted), so its event is
put before the one being handled and deleted in its place: a write transfer's event lost, the
link held, no event left. Traced on the stalled run's state (its host waiting on a write of 8
sectors with no event; four reads fetched, none transferred) and on a smoke run (seed 99, 96
MiB, QD8 70:30): unfixed it stalls with 2 commands pending and one read returning other data
than written; fixed it ends, 1 hit re-tagged, no such read. The first fix: the cache lookup, on
a hit, re-tags the buffer with the read now being served (``read_queue_id``, ``read_cmd_tag`` of
the FTL) before returning it. It is the smallest because the tag is the one wrong value, set
where it goes wrong; the cache, the read path and the host interface keep their code; a
write-only run never looks the cache up, so its series are unchanged (checked: the stored series
of bench/results/cliff-foreign/ reproduce exactly). What it leaves: a cached buffer evicted by a
write to its page while its transfer is pending is still released early (not seen here). The
second: with the first alone, the registered QD8 70:30 run stalled at 0.089 s
(bench/results/cliff-foreign2/RULE.md), its 8 pending commands all reads and one die's 119
commands queued behind a mode change waiting for its channel, which that die itself held. What
was wrong: after a read's data is out, the controller keeps the channel if the die's next queued
command is a read (``release_channel_condition`` of ``model.nfc``), and a read then starts on
the channel it holds; but the test compares the next command's *index* in the command table with
the read opcode (``NFC_CMD_READ``, 1), so whatever command sits in slot 1 keeps the channel, and
one that is not a read asks for the channel again: it is granted only when the channel has no
owner, so never. The fix: in that one case (slot 1 next, not a read) the channel is released, as
it is for every other command; everywhere else the simulator's own test runs. It is the smallest
because it changes only the outcome that deadlocks: testing the opcode instead, as intended,
would keep the channel before every read, garbage collection's included, and so change the
write-only runs past their cliff; this changes nothing in a run that did not stall (checked as
for the first).

The third: with the first two, the same run crashed in the controller (``begin_io`` of
``model.nfc``: no read buffer left to take, ``IndexError``). What was wrong: the read cache may
hold half the read buffers (``SSD_BUFFER_CACHE_NUM`` of ``config.ssd_param``), but its size is
computed from the module's default read buffer (32 MiB: 8,192 buffers, a cache of 4,096) when
the module is imported, not from the configured one (config/ssd_config.xml's ``<read>4MB``:
1,024 buffers; the simulator's own settings table prints both, 1,024 and 4,096), so after about
a thousand reads of distinct pages the cache holds every read buffer and the next read from NAND
finds none. The fix: when the buffers are configured (``buffer_manager.config`` of
``model.buffer``), the cache's length is set to half the read buffers configured, the value its
parameter computes from the default. It is the smallest because the cache, its policy and the
buffers keep their code and the intended ratio; a write-only run never fills the cache (only a
host read's transfer adds to it), so its series are unchanged. The driver counts the host's
data-check failures (``verify_errors``) and sorts them: the check (``end_read_transfer`` of
``model.host``) expects the page's version when the read's data arrives, but a read may
return any version from the one of the last write to its page completed before the read was
issued on (commands outstanding together are in no order); such a failure is counted in
``verify_overlapped``, any other in ``verify_wrong`` (traced on a QD8 70:30 run, seed 4: its 3
failures were all reads issued before the write whose version they missed sent its data, each
returning the version of its issue); and it counts the
re-tagged hits, the channels released, what fixes 4-6 below did and the commands still pending
at the end; a run with any pending has no series to trust.

**Three more fixes: stale and lost reads.** With the first three, runs still returned a few
wrong reads (bench/results/cliff-foreign6/RULE.md: 1 at seed 7, QD8 70:30; 2 at seed 8, 50:50).

4. *A read of data still in the write buffer.* A write completes to the host once its data is in
   the write buffer and the FTL has fetched it (``handle_incoming_data`` and
   ``set_cmd_fetch_flag`` of ``model.hic``), but the FTL maps its page only when it programs
   it, once a program unit's chunks are buffered (``do_write`` of ``model.ftl``: 8 chunks in
   SLC, 24 in TLC, whose one-shot program writes three pages); ``do_read`` looks up only the
   map and the read cache, never the write buffer (``hic.rx_buffer_done``), so a read issued in
   that window gets the page's previous version from NAND. Traced on the two refused runs,
   re-run with each read of such a page logged (they reproduce the stored series exactly):
   each of the three wrong reads had its page's newer data in the write buffer at its lookup,
   that write completed 9, 25 and 150 µs before the read's issue, and the read returned the
   version before; no other read met such a page. Fix: a single-chunk read whose page the
   write buffer holds is served from the newest such buffer (copied into a read buffer sent
   through the host interface, as for a read-cache hit), as a drive does.
5. *A read's NAND data cached after its page was rewritten.* When a read's transfer ends the
   host interface puts its buffer in the read cache (``end_read_transfer`` of ``model.hic``);
   a write evicts its page from the cache when it maps it (``do_write``), so a read looked up
   before that mapping and transferred after it leaves the old version cached, and later reads
   hit it. Traced on a 1 MiB-span smoke run (seed 99, 16 MiB, QD8 70:30): 16 wrong reads with
   the fourth fix (33 without), each a hit of such a buffer (page 51: version 2 mapped at 0.11
   ms, version 1 read from its old place and cached at 20.18 ms, hit at 23.37 ms). Fix: the
   FTL's map entry of the page is noted at the read's lookup and the buffer is kept in the
   cache only if the entry is unchanged when the transfer ends; else it is released, as a
   buffer not cached is.
6. *A cache hit on a buffer still on its way to another read.* With the first fix a hit hands
   the cached buffer to the read being served; if that buffer is still queued for transfer to
   an earlier read of the same page, the host interface credits both transfers to the later
   read and the earlier never completes (a smoke run, seed 97, 50:50, stalled with one read
   pending once the fifth fix changed what the cache held). Fix: such a hit is taken as a miss
   (the read goes to NAND). With it, the simulator's host interface would keep the NAND
   buffer of a page the cache already holds neither cached nor released (lost: the read
   buffers run out); it is released.

Each fix wraps one function and changes only the reads it names (counted: ``write_buffer_hits``,
``stale_cache_fills``, ``cache_hits_in_transfer``, ``uncached_buffers_released``); a
write-only run never reads, so its series are unchanged. With them, five 1 MiB-span smoke runs
(16 MiB, seeds 96-99, 30-70% reads, one with ``--unmapped-reads simulator``) end with nothing
pending and no wrong read (unfixed: 33 and 72 wrong reads at seeds 99 and 97). A mixed run
in which none of them acts reproduces its series exactly (bench/results/cliff-foreign7/RULE.md).

**A seventh fix: garbage collection's command ids.** Drive A3 (3 SLC super blocks;
bench/results/cliff-foreign8/verdict.md) crashed in ``gc_gather_write_data`` of ``model.ftl``,
drive B (4 channels; bench/results/cliff-foreign2/RULE.md) in its ``do_gc_read``: both pop an
empty pool of the collection's 32 command ids (``gc_id_context`` of ``model.ftl_common``). What
is wrong, traced with each id's taking and release logged (A3, QD8 70:30, seed 11; drive A's
QD8 70:30 seed-11 run for comparison): (a) ``do_gc_read`` issues reads only while 8 ids are
free, but then up to 4 victim pages, each taking an id per run of valid chunks (up to 4 in a
page of 8 chunks), so up to 16; (b) ``gc_gather_write_data`` takes one more id for the command
it gathers the read data into, unchecked; (c) the ids of the reads come back only as their data
is gathered and written, and the collection never writes: the FTL's ``handler`` calls
``do_gc_write`` only if ``gc_gather_write_data() > True``, and the function returns True or
False, so never (logged: 2,243,362 gathers returned True in drive A's run, ``do_gc_write`` was
called 0 times). So the first victim's reads drain the pool: on drive A they took 27 ids at
0.165 s (5 left, below 8: no read issued after; the gathering takes an id and gives one back
each time); on A3 four calls took all 32 at 0.327 s (8, 9, 7 and 8 ids, the last with 8
free), and the first gathering, at 0.337 s with 8 chunks read, found none; on drive B a read
found none (its traceback; not re-traced). A simulator bug, not a
configuration it cannot hold: which victim pages it meets decides whether the pool ends at 0,
below, or above. The fix: ``do_gc_read`` stops before a victim page it has not an id for each
command of (the reads already issued stand; it tries again at its next call), and
``gc_gather_write_data`` waits while no id is free (returns False, as with too few chunks):
the guard ``do_gc_read`` has, kept for every id. It is the smallest because each wrapper acts
only where the simulator would pop an empty pool and crash (counted: ``gc_reads_deferred``,
``gc_gathers_deferred``); in every run that ended it never acts, so every stored series
reproduces (checked: bench/results/cliff-foreign8/gate3.json). The dead write is not
fixed: fixing it would change every series past the cliff (py_ssd_sim's cliff here is the host's
writes going to TLC, with the collection halted after its first reads, its data held in read
buffers), so the stored results would no longer be this simulator's.

Prints one JSON object: the interval series (``times_s``: interval ends; ``iops``,
``write_iops``), the run's totals, ``queue_time`` (from the first interval's end) and
``queue_time_late`` (from ``--late-from-ms`` on: past the cliff); ``--out`` writes it too.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys

from overprov.calibrate import read_slot

#: run inside the simulator's copy by ``--python``: wraps the host's statistics, answers the
#: simulator's end-of-run prompt, and mixes reads into the random-write workload
RUNNER = r"""
import builtins, json, random, sys
sys.path.insert(0, ".")
random.seed(int(sys.argv[1]))
read_percent = int(sys.argv[2])
out_path = sys.argv[3]
unmapped_by_simulator = sys.argv[4] == "simulator"
read_pages = sys.argv[5]
span_chunks = int(sys.argv[6]) * 256
reads_after_chunks = int(sys.argv[7]) * 256
import sim_event
import model.host as host
import model.workload as wl
import model.buffer as buffer
import model.buffer_cache as buffer_cache
import model.nfc as nfc
from model.buffer import bm
from model.nandcmd import NFC_CMD_READ, nandcmd_table
from sim_system import get_ctrl, get_fw
from config.ssd_param import HOST_CMD_READ, HOST_CMD_WRITE
events = []
checks = {
    "verify_errors": 0, "cache_hits_retagged": 0, "channels_released": 0,
    "unmapped_reads_served": 0, "reads_not_drawn": 0, "verify_overlapped": 0, "verify_wrong": 0,
    "write_buffer_hits": 0, "stale_cache_fills": 0, "cache_hits_in_transfer": 0,
    "uncached_buffers_released": 0, "reads_from_ns": None,
    "gc_reads_deferred": 0, "gc_gathers_deferred": 0,
}
def wrap(name, kind):
    original = getattr(host.host_stat_param, name)
    def logged(self, num_sectors, latency):
        events.append((sim_event.event_mgr.timetick, kind, latency))
        return original(self, num_sectors, latency)
    setattr(host.host_stat_param, name, logged)
wrap("update_read", 0)
wrap("update_write", 1)
cached_buffer_id = buffer_cache.buffer_cache.get_buffer_id
def in_transfer(buffer_id):
    hic_ = get_ctrl("hic")
    return buffer_id in hic_.tx_buffer_list or buffer_id in hic_.tx_buffer_req
def get_buffer_id(self, lba):
    # a hit of the read cache, handed to the read now being served (the module docstring
    # of bench/foreign/py_ssd_sim_cliff.py says what was wrong and why this is the fix);
    # a hit on a buffer still on its way to the host for another read is taken as a miss
    index, hit = self.check_hit(lba)
    if hit and in_transfer(self.buffer_id[index]):
        checks["cache_hits_in_transfer"] += 1
        return -1, False
    buffer_id, hit = cached_buffer_id(self, lba)
    if hit:
        ftl = get_fw("ftl")
        slot = bm.bm_slots[buffer_id]
        if (slot.queue_id, slot.cmd_tag) != (ftl.read_queue_id, ftl.read_cmd_tag):
            checks["cache_hits_retagged"] += 1
        slot.queue_id, slot.cmd_tag = ftl.read_queue_id, ftl.read_cmd_tag
    return buffer_id, hit
buffer_cache.buffer_cache.get_buffer_id = get_buffer_id
kept_channel_for = nfc.nfc.release_channel_condition
def release_channel_condition(self, channel, way):
    # the channel released where the simulator would keep it for a command that is not a read
    # (the module docstring of bench/foreign/py_ssd_sim_cliff.py says why)
    queued = self.fil2nfc_queue[way].array
    if queued and queued[0] == NFC_CMD_READ and nandcmd_table.table[queued[0]].code != NFC_CMD_READ:
        checks["channels_released"] += 1
        return self.release_channel(channel, way)
    return kept_channel_for(self, channel, way)
nfc.nfc.release_channel_condition = release_channel_condition
configure_buffers = buffer.buffer_manager.config
def config(self, write_buffer_num, read_buffer_num):
    # the read cache sized to half the read buffers configured, as its parameter intends
    # (the module docstring of bench/foreign/py_ssd_sim_cliff.py says why)
    configure_buffers(self, write_buffer_num, read_buffer_num)
    buffer_cache.bm_cache.length = read_buffer_num // 2
buffer.buffer_manager.config = config
def serve(ftl_manager, data, lba, counted):
    # the FTL's read now being served (one chunk) answered with ``data`` in a read buffer sent
    # through the host interface, as a read-cache hit is; while no read buffer is free it
    # stays to serve (the FTL asks again)
    from model.buffer import BM_READ
    ids, ok = bm.get_buffer(BM_READ, ftl_manager.read_queue_id, ftl_manager.read_cmd_tag, 1)
    if ok:
        bm.set_data(ids[0], data, lba)
        get_ctrl("hic").add_tx_buffer(ftl_manager.read_queue_id, ids[0])
        ready = sim_event.event_mgr.alloc_new_event(0)
        ready.code = sim_event.event_id.EVENT_USER_DATA_READY
        ready.dest = sim_event.event_dst.MODEL_HIC
        ftl_manager.num_chunks_to_read = 0
        checks[counted] += 1
import copy
import model.ftl as gc_ftl
from model.ftl_meta import meta as gc_meta
def gc_read_runs(ftl_manager, way, block, page):
    # whether do_gc_read issues one page (it has valid chunks), and the commands
    # (garbage-collection ids) it issues for it: one per run of valid chunks
    bmp = gc_meta.check_valid_bitmap(way, block, gc_ftl.build_chunk_index(page))
    bits = [bmp >> i & 1 for i in range(ftl_manager.min_chunks_for_page)]
    return bmp > 0, sum(1 for i, b in enumerate(bits) if b and (i == 0 or not bits[i - 1]))
class pages_until:
    # the victim super block as do_gc_read sees it, closed (is_open False) once ``pages`` of
    # its pages have been stepped over
    def __init__(self, sb, pages):
        self.sb, self.pages = sb, pages
    def is_open(self):
        return self.pages > 0 and self.sb.is_open()
    def get_physical_addr(self):
        return self.sb.get_physical_addr()
    def update_page(self):
        self.pages -= 1
        return self.sb.update_page()
read_victim = gc_ftl.ftl_manager.do_gc_read
def do_gc_read(self, src_sb):
    # garbage collection reads only the victim's pages it has an id for each command of; the
    # simulator checks for 8 free ids, then issues up to 4 pages of up to 4 commands each and
    # pops an id from an empty pool (the module docstring of bench/foreign/py_ssd_sim_cliff.py)
    if not src_sb.is_open() or self.gc_cmd_id.get_num_free_slot() < 8:
        return read_victim(self, src_sb)
    peek = copy.copy(src_sb)
    peek.block, peek.page = list(src_sb.block), list(src_sb.page)
    free, issued, stepped = self.gc_cmd_id.get_num_free_slot(), 0, 0
    while issued < 4 and peek.is_open():
        valid, runs = gc_read_runs(self, *peek.get_physical_addr())
        if runs > free:
            checks["gc_reads_deferred"] += 1
            return read_victim(self, pages_until(src_sb, stepped)) if stepped else None
        free -= runs
        issued += valid
        peek.update_page()
        stepped += 1
    return read_victim(self, src_sb)
gc_ftl.ftl_manager.do_gc_read = do_gc_read
gather_victim_data = gc_ftl.ftl_manager.gc_gather_write_data
def gc_gather_write_data(self):
    # the collection's read data gathered only while an id is free for the command it
    # gathers into (the simulator takes one unchecked: the module docstring)
    if (self.num_chunks_to_gc_write >= self.min_chunks_for_page
            and self.gc_cmd_id.get_num_free_slot() == 0):
        checks["gc_gathers_deferred"] += 1
        return False
    return gather_victim_data(self)
gc_ftl.ftl_manager.gc_gather_write_data = gc_gather_write_data
if read_percent > 0 and unmapped_by_simulator:
    import model.ftl as ftl
    from model.ftl_meta import meta, UNMAP_ENTRY
    read_from_nand = ftl.ftl_manager.do_read
    def do_read(self):
        # a read of a never-written page, not in the read cache, answered by the FTL with a
        # zeroed read buffer through the host interface, as a drive does (the simulator's
        # do_read has no path for it: the module docstring)
        lba = int(self.read_cur_chunk)
        if (self.num_chunks_to_read == 1 and meta.map_table[lba] == UNMAP_ENTRY
                and not buffer_cache.bm_cache.check_hit(lba)[1]):
            serve(self, 0, lba, "unmapped_reads_served")
            return
        return read_from_nand(self)
    ftl.ftl_manager.do_read = do_read
if read_percent > 0:
    import model.ftl as ftl
    read_past_write_buffer = ftl.ftl_manager.do_read
    from model.ftl_meta import meta
    import model.hic as hic
    read_map = {}  # (queue id, command tag) -> the map entry of its page at its lookup
    def do_read(self):
        # a read of a page whose data the write buffer holds, received from the host but not
        # yet mapped (its write may have completed), served from that buffer, as a drive does
        # (the simulator's do_read looks only at its map and its read cache: the module
        # docstring of bench/foreign/py_ssd_sim_cliff.py says what went wrong); installed
        # last, so it is asked first
        if self.num_chunks_to_read == 1:
            lba = int(self.read_cur_chunk)
            read_map[(self.read_queue_id, self.read_cmd_tag)] = meta.map_table[lba]
            held = [b for b in get_ctrl("hic").rx_buffer_done if bm.get_meta_data(b) == lba]
            if held:
                serve(self, bm.bm_slots[held[-1]].main_data, lba, "write_buffer_hits")
                return
        return read_past_write_buffer(self)
    ftl.ftl_manager.do_read = do_read
    fill_read_cache = hic.hic_manager.end_read_transfer
    def end_read_transfer_to_host(self):
        # a read's buffer kept in the read cache only if its page was not remapped (written)
        # since the read looked its map up; else released, as a buffer not cached is (the
        # module docstring of bench/foreign/py_ssd_sim_cliff.py says what went wrong)
        buffer_id = self.tx_buffer_req[0]
        lba = int(bm.get_meta_data(buffer_id))
        looked_up = read_map.pop(bm.get_cmd_id(buffer_id), None)
        index, cached_before = buffer_cache.bm_cache.check_hit(lba)
        other = cached_before and buffer_cache.bm_cache.buffer_id[index] != buffer_id
        done = fill_read_cache(self)
        if other:  # the page cached meanwhile by another read: this buffer released, not lost
            bm.release_buffer(buffer_id)
            checks["uncached_buffers_released"] += 1
        elif not cached_before and looked_up is not None and meta.map_table[lba] != looked_up:
            buffer_cache.bm_cache.evict(lba)
            checks["stale_cache_fills"] += 1
        return done
    hic.hic_manager.end_read_transfer = end_read_transfer_to_host
if read_percent > 0:
    from model.ftl_meta import meta, UNMAP_ENTRY
    original_generate = wl.workload.generate
    written, written_set = [], set()  # the 4 KiB chunks the host has written, and as a set
    def read_address(lba):
        # the read's address: the drawn one ("any"), or one drawn among the pages the FTL has
        # mapped ("written") or among the pages never written ("unwritten"); None: no
        # written page found in 64 draws (the read is not issued; counted)
        if read_pages == "written":
            for _ in range(64):
                if not written:
                    break
                chunk = written[random.randrange(len(written))]
                if meta.map_table[chunk] != UNMAP_ENTRY:
                    return chunk * 8
            checks["reads_not_drawn"] += 1
            return None
        if read_pages == "unwritten":
            chunk = int(lba // 8)
            while chunk in written_set or meta.map_table[chunk] != UNMAP_ENTRY:
                chunk = random.randrange(span_chunks - 1)
            return chunk * 8
        return lba
    host_writes = [0]  # the writes issued (reads are drawn once reads_after_chunks are)
    def generate(self, submit_time):
        while True:
            op, lba, sectors = original_generate(self, submit_time)
            if (op != HOST_CMD_WRITE or random.random() * 100 >= read_percent
                    or host_writes[0] < reads_after_chunks):
                if op == HOST_CMD_WRITE:
                    host_writes[0] += 1
                if op == HOST_CMD_WRITE and int(lba // 8) not in written_set:
                    written_set.add(int(lba // 8))
                    written.append(int(lba // 8))
                return op, lba, sectors
            lba = read_address(lba)
            if lba is None:
                continue
            if checks["reads_from_ns"] is None:
                checks["reads_from_ns"] = sim_event.event_mgr.timetick
            if unmapped_by_simulator or meta.map_table[int(lba // 8)] != UNMAP_ENTRY:
                return HOST_CMD_READ, lba, sectors
            # a read of a never-written page: answered here at once (the simulator's read
            # path fails on one; overprov's core, like a drive, answers one without NAND);
            # it holds no queue slot (latency None)
            events.append((sim_event.event_mgr.timetick, 0, None))
    wl.workload.generate = generate
def answer(*prompt):
    # the host's data check calls input() with no prompt on a read returning other data
    # than it wrote; the end of the run asks with one
    if not prompt:
        checks["verify_errors"] += 1
        return ""
    return "q"
builtins.input = answer
sent = {}  # the versions a write command sent: (queue id, command id) -> [(page, version)]
completed = {}  # a page's versions as its writes completed: page -> [(time ns, version)]
send_write_data = host.host_manager.generate_write_data
def generate_write_data(self, queue_id, lba, num_sectors):
    send_write_data(self, queue_id, lba, num_sectors)
    table = self.data_table[self.get_nsid(queue_id)]
    pages = range(int(lba // 8), int((lba + num_sectors) // 8))
    sent.setdefault((queue_id, self.tx_cid), []).extend((p, int(table[p])) for p in pages)
host.host_manager.generate_write_data = generate_write_data
complete_command = host.host_manager.command_done
def command_done(self, event):
    if self.host_cmd_queue[event.queue_id].get_host_cmd(event.host_id).code == HOST_CMD_WRITE:
        for page, version in sent.pop((event.queue_id, event.host_id), []):
            completed.setdefault(page, []).append((sim_event.event_mgr.timetick, version))
    return complete_command(self, event)
host.host_manager.command_done = command_done
check_read_data = host.host_manager.end_read_transfer
def end_read_transfer(self, event):
    # the host's data check expects the page's version when the read's data arrives; a read
    # may return any version from the one of the last write completed before its issue on
    # (commands outstanding together are in no order): such a failure is counted apart
    # (verify_overlapped), any other is a wrong read (verify_wrong)
    page = int(event.host_lba // 8)
    data = event.main_data[0]
    expected = self.data_table[self.get_nsid(event.queue_id)][page]
    if data != expected:
        issued = self.host_cmd_queue[event.queue_id].get_host_cmd(event.host_id).submit_time
        floor = max((v for t, v in completed.get(page, []) if t <= issued), default=0)
        if floor <= data <= expected:
            checks["verify_overlapped"] += 1
        else:
            checks["verify_wrong"] += 1
    return check_read_data(self, event)
host.host_manager.end_read_transfer = end_read_transfer
import sim_main
sim_main.sim_main()
checks["pending_commands"] = get_ctrl("host").get_pending_cmd_num()
with open(out_path, "w") as f:
    json.dump({"events": events, **checks}, f)
"""


def configure(copy: pathlib.Path, args: argparse.Namespace) -> None:
    """Write the drive and workload this run uses into the simulator's copy."""
    ssd = (copy / "config/ssd_config.xml").read_text()
    ssd = re.sub(r"<depth_of_host_queue>\d+<", f"<depth_of_host_queue>{args.qd}<", ssd)
    ssd = re.sub(r"<channel>\d+<", f"<channel>{args.channels}<", ssd)
    slc_end = 10 + args.slc_superblocks - 1
    ssd = re.sub(
        r"(<name>slc_cache</name>.*?<start_block_no>)\d+(</start_block_no>\s*<end_block_no>)\d+"
        r"(</end_block_no>\s*<threshold_low>)\d+(</threshold_low>\s*<threshold_high>)\d+",
        rf"\g<1>10\g<2>{slc_end}\g<3>1\g<4>2", ssd, flags=re.S,
    )  # fmt: skip
    ssd = re.sub(
        r"(<name>user</name>.*?<start_block_no>)\d+", rf"\g<1>{slc_end + 1}", ssd, flags=re.S
    )
    ssd = re.sub(r"(<workload>\s*<file>workload.xml</file>\s*<name>)\w+", r"\g<1>cliff", ssd)
    (copy / "config/ssd_config.xml").write_text(ssd)
    (copy / "config/workload.xml").write_text(
        "<workload_types>\n\t<workload_grp name='cliff'>\n\t\t<workload>\n"
        "\t\t\t<group>0</group>\n\t\t\t<type>WL_RAND_WRITE</type>\n"
        f"\t\t\t<start_lba>0</start_lba>\n\t\t\t<range>{args.span_mib}MiB</range>\n"
        "\t\t\t<min_size>4KiB</min_size>\n\t\t\t<max_size>4KiB</max_size>\n"
        f"\t\t\t<amount>{args.amount_mib}MiB</amount>\n"
        "\t\t\t<amount_type>capacity</amount_type>\n\t\t\t<read_ratio>0</read_ratio>\n"
        "\t\t\t<align>TRUE</align>\n\t\t</workload>\n\t</workload_grp>\n</workload_types>\n"
    )


def series(events: list[list], interval_ms: float) -> dict:
    """IOPS per interval of the completions ``events`` ((time ns, 1 if a write, latency)), the
    last, partial interval left out (``overprov.calibrate.read_slot.binned``)."""
    s = read_slot.binned(events, {}, interval_ns=interval_ms * 1e6)
    return {"times_s": s.times_s, "iops": s.iops, "write_iops": s.write_iops}


def emit(result: dict, out: pathlib.Path | None) -> None:
    """Print ``result`` as one JSON line, and write it to ``out`` too."""
    text = json.dumps(result)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n")
    print(text)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def latency(events: list[list], interval_ms: float, start_ms: float | None = None) -> dict:
    """The queue time of the commands completed from ``start_ms`` on (default: past the first
    interval, whose writes wait on the first super block's erase): each one's latency as the
    simulator's host measures it (submission to completion, ns), which at a fixed queue depth
    is the slot time it holds; reads answered by this host at once hold none (counted apart).
    Means in µs, with the reads' 50th and 90th percentiles; the rates are of the same span
    (Little's law: queue depth = write IOPS x write latency + read IOPS x read latency)."""
    start_ns = (interval_ms if start_ms is None else start_ms) * 1e6
    kept = [e for e in events if e[0] >= start_ns]
    span_s = (max(e[0] for e in kept) - start_ns) / 1e9 if kept else 0.0
    reads = sorted(e[2] / 1e3 for e in kept if e[1] == 0 and e[2] is not None)
    writes = [e[2] / 1e3 for e in kept if e[1] == 1]
    instant = sum(1 for e in kept if e[1] == 0 and e[2] is None)

    def pct(q: float) -> float | None:
        return reads[min(len(reads) - 1, int(q * len(reads)))] if reads else None

    return {
        "from_s": start_ns / 1e9,
        "span_s": span_s,
        "write_iops": len(writes) / span_s if span_s else None,
        "read_iops": len(reads) / span_s if span_s else None,
        "instant_read_iops": instant / span_s if span_s else None,
        "write_latency_us_mean": _mean(writes),
        "read_latency_us_mean": _mean(reads),
        "read_latency_us_p50": pct(0.5),
        "read_latency_us_p90": pct(0.9),
    }


def late(events: list[list], interval_ms: float, from_ms: float | None) -> dict:
    """``queue_time_late``: :func:`latency` from ``from_ms`` on (past the cliff), if asked."""
    if from_ms is None:
        return {}
    return {"queue_time_late": latency(events, interval_ms, start_ms=from_ms)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--checkout", required=True, type=pathlib.Path)
    p.add_argument("--python", required=True)
    p.add_argument("--work", required=True, type=pathlib.Path)
    p.add_argument("--channels", type=int, default=8)
    p.add_argument("--slc-superblocks", type=int, default=2)
    p.add_argument("--qd", type=int, default=32)
    p.add_argument("--read-percent", type=int, default=0)
    p.add_argument("--amount-mib", type=int, default=448)
    p.add_argument("--span-mib", type=int, default=1024)
    p.add_argument("--interval-ms", type=float, default=20.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--unmapped-reads", choices=("host", "simulator"), default="host")
    p.add_argument("--read-pages", choices=("any", "written", "unwritten"), default="any")
    p.add_argument("--late-from-ms", type=float, default=400.0)
    p.add_argument("--reads-after-mib", type=int, default=0)
    p.add_argument("--out", type=pathlib.Path)
    args = p.parse_args(argv)
    copy = args.work / "py_ssd_sim"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(args.checkout, copy, ignore=shutil.ignore_patterns(".git"))
    configure(copy, args)
    (copy / "cliff_runner.py").write_text(RUNNER)
    events_path = args.work / "events.json"
    run = [args.python, "cliff_runner.py", str(args.seed), str(args.read_percent)]
    run += [str(events_path), args.unmapped_reads, args.read_pages, str(args.span_mib)]
    run += [str(args.reads_after_mib)]
    subprocess.run(run, cwd=copy, check=True, stdout=subprocess.DEVNULL)
    run_log = json.loads(events_path.read_text())
    events = run_log["events"]
    late_from_ms = args.late_from_ms
    if args.reads_after_mib and run_log["reads_from_ns"] is not None:
        late_from_ms = run_log["reads_from_ns"] / 1e6
    result = {
        "simulator": "github.com/baramjin92/py_ssd_sim a9f9c73 (run from a clone; its read "
        "cache's hit re-tagged, a held channel released, its read cache sized to the "
        "configured read buffers, reads of data in the write buffer served from it and stale "
        "read-cache fills dropped, the collection's command ids guarded at run time: "
        "bench/foreign/py_ssd_sim_cliff.py)",
        "channels": args.channels,
        "slc_superblocks": args.slc_superblocks,
        "qd": args.qd,
        "read_percent": args.read_percent,
        "amount_mib": args.amount_mib,
        "span_mib": args.span_mib,
        "seed": args.seed,
        "interval_ms": args.interval_ms,
        "completed": len(events),
        "writes": sum(e[1] for e in events),
        "pending_commands": run_log["pending_commands"],
        "verify_errors": run_log["verify_errors"],
        "verify_overlapped": run_log["verify_overlapped"],
        "verify_wrong": run_log["verify_wrong"],
        "cache_hits_retagged": run_log["cache_hits_retagged"],
        "write_buffer_hits": run_log["write_buffer_hits"],
        "stale_cache_fills": run_log["stale_cache_fills"],
        "cache_hits_in_transfer": run_log["cache_hits_in_transfer"],
        "uncached_buffers_released": run_log["uncached_buffers_released"],
        "channels_released": run_log["channels_released"],
        "gc_reads_deferred": run_log["gc_reads_deferred"],
        "gc_gathers_deferred": run_log["gc_gathers_deferred"],
        "unmapped_reads": args.unmapped_reads,
        "unmapped_reads_served": run_log["unmapped_reads_served"],
        "read_pages": args.read_pages,
        "reads_not_drawn": run_log["reads_not_drawn"],
        **({"reads_after_mib": args.reads_after_mib} if args.reads_after_mib else {}),
        "queue_time": latency(events, args.interval_ms),
        **late(events, args.interval_ms, late_from_ms),
        **series(events, args.interval_ms),
    }
    emit(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
