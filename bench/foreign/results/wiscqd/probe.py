"""WiscSim's collections at any queue depth, one JSON line each: runs
bench/foreign/wiscsee/harness.py unchanged (Python 2, WiscSim's tree and packages on the path, as
build.sh's wrapper sets them) on a spec, with WiscSim's `Cleaner.clean` (dftldes.py lines
1500-1526) replaced at run time by the same steps with counters read between them, and
`DataBlockCleaner.clean` and `Ftl.write_ext` wrapped.

    PYTHONPATH=/work/foreign-build/wiscsee/src:/work/foreign-build/wiscsee/deps \\
      python2.7 bench/foreign/results/wiscqd/probe.py SPEC.json REPORT [--recheck-high] > probe.log

--recheck-high, a what-if that changes WiscSim (at run time, nothing on disk): a collection
given the slot collects only if more than GC_high of the blocks are still in use then (as
ssdframework.py's `_cleaner_process` checks before it queues), so a worker that queued while
another collection ran does not collect after it unless the trigger holds again.

REPORT gets harness.py's own report (G and R lines). Each collection's line ("ask_*": when a
NCQ worker, having found more than GC_high of the blocks in use, asks for WiscSim's one cleaner
slot `_cleaner_res`; "grant_*": when it gets the slot and lists its victims; "end_*": when it
releases it):

- ask_waiting, ask_running: collections already queued for the slot / holding it when asked
- ask_free, grant_free, end_free: free blocks; grant_free_per_channel
- grant_open_data: open (current) data blocks per channel, grant_open_pages_left: their
  unwritten pages summed; grant_in_flight: host writes started and not completed
- grant_cleaning: victims of another collection still being cleaned (WiscSim allows none)
- checks: the free blocks at each stop check (before each batch); batches run
- victims, listed_share and cleaned_share: the victims' mean valid share when listed and when
  their cleaning starts; moved_pages: WiscSim's own count (recorder "gc", "user.page.moves")
- host_during: host writes completed while it held the slot; host_wait: while it waited
- ask_host, grant_host, end_host: host writes completed; ask_t, grant_t, end_t: simulated ns
- free_sum, gc_writes, gc_free_sum: the "host" line's counters at the grant

A collection that collected nothing (its first stop check met) is not printed: the next
printed one counts them (noops_before) and gives the fewest free blocks at their grants
(noops_min_grant_free); a line "trailing" those after the last. Then a line "host" with the
free blocks summed over every host write's completion (free_sum: the free count then), those
completed while a collection held the slot (gc_writes, gc_free_sum), and the GC moves the race
fix dropped (bench/foreign/wiscsee/harness.py).
"""

from __future__ import print_function  # noqa: UP010  (Python 2)

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "wiscsee"))
import harness  # noqa: E402
import wiscsim.blkpool as bp  # noqa: E402
import wiscsim.dftldes as d  # noqa: E402
from utilities import utils  # noqa: E402  (WiscSee's, as dftldes.py imports it)

rows = []
state = {"started": 0, "done": 0, "free_sum": 0, "gc_writes": 0, "gc_free_sum": 0,
         "cleaning": 0, "episode": None, "dropped": None, "recheck_high": False}  # fmt: skip
orig_block, orig_write, orig_fix = d.DataBlockCleaner.clean, d.Ftl.write_ext, harness.fix_move_race


def free_of(cleaner):
    return cleaner.block_pool.num_freeblocks()


def clean(self):
    """WiscSim's Cleaner.clean (dftldes.py lines 1500-1526), step for step, with counters."""
    slot = self._cleaner_res
    ep = {"ask_t": int(self.env.now), "ask_host": state["done"], "ask_free": free_of(self),
          "ask_waiting": len(slot.queue), "ask_running": slot.count}  # fmt: skip
    req = self._cleaner_res.request()
    yield req
    chans = self.block_pool.pool._channel_pool
    open_data = [p.get_cur_block_obj(bp.TDATA) for p in chans]
    ep.update({
        "grant_t": int(self.env.now), "grant_host": state["done"], "grant_free": free_of(self),
        "grant_free_per_channel": [p.count_blocks(bp.TFREE) for p in chans],
        "grant_open_data": [len(o) for o in open_data],
        "grant_open_pages_left": sum(b.num_free_pages() for o in open_data for b in o),
        "grant_in_flight": state["started"] - state["done"],
        "grant_cleaning": state["cleaning"], "listed": [], "cleaned": [], "checks": [],
        "free_sum": state["free_sum"], "gc_writes": state["gc_writes"],
        "gc_free_sum": state["gc_free_sum"],
    })  # fmt: skip
    if state["recheck_high"] and not self.is_cleaning_needed():  # the what-if: not WiscSim
        ep.update({"end_t": ep["grant_t"], "end_host": state["done"], "end_free": ep["grant_free"],
                   "batches": 0, "victims": 0, "checks": [], "recheck_skipped": True})  # fmt: skip
        rows.append(ep)
        self._cleaner_res.release(req)
        return
    state["episode"] = ep
    moves0 = self.recorder.get_count_me("gc", "user.page.moves")

    victim_blocks = d.VictimBlocks(self.conf, self.block_pool, self.oob)
    ratios = victim_blocks.get_valid_ratio_counter_of_used_blocks()
    self.recorder.append_to_value_list("clean_func_valid_ratio_snapshot", ratios)
    if self.gc_time_recorded is False:
        self.recorder.set_result_by_one_key("gc_trigger_timestamp", self.env.now / float(d.SEC))
        self.gc_time_recorded = True
    all_victim_tuples = list(victim_blocks.iterator_verbose())
    ep["candidates"] = len(all_victim_tuples)
    batches = utils.group_to_batches(all_victim_tuples, self.n_victim_per_batch)
    for batch in batches:
        ep["checks"].append(free_of(self))
        if self.is_stopping_needed():
            break
        ep["listed"] += [t[0] for t in batch]
        yield self.env.process(self._clean_batch(batch, purpose=d.PURPOSE_GC))

    state["episode"] = None
    listed, cleaned = ep.pop("listed"), ep.pop("cleaned")
    ep.update({
        "end_t": int(self.env.now), "end_host": state["done"], "end_free": free_of(self),
        "batches": len(listed) // self.n_victim_per_batch
        + (len(listed) % self.n_victim_per_batch > 0),
        "victims": len(cleaned),
        "listed_share": round(sum(listed) / max(1, len(listed)), 4),
        "cleaned_share": round(sum(cleaned) / max(1, len(cleaned)), 4),
        "moved_pages": self.recorder.get_count_me("gc", "user.page.moves") - moves0,
        "host_during": state["done"] - ep["grant_host"],
        "host_wait": ep["grant_host"] - ep["ask_host"],
    })  # fmt: skip
    rows.append(ep)
    self._cleaner_res.release(req)


def block(self, blocknum, purpose=d.PURPOSE_GC):
    ep = state["episode"]
    if ep is not None:
        ep["cleaned"].append(self.oob.states.block_valid_ratio(blocknum))
    state["cleaning"] += 1
    for x in orig_block(self, blocknum, purpose):  # noqa: UP028  (Python 2: no yield from)
        yield x
    state["cleaning"] -= 1


def write_ext(self, extent):
    state["started"] += 1
    yield self.env.process(orig_write(self, extent))
    state["done"] += 1
    free = self.block_pool.num_freeblocks()
    state["free_sum"] += free
    if state["episode"] is not None:
        state["gc_writes"] += 1
        state["gc_free_sum"] += free


def fix(ftl):
    state["dropped"] = orig_fix(ftl)
    return state["dropped"]


def main(argv):
    d.Cleaner.clean, d.DataBlockCleaner.clean, d.Ftl.write_ext = clean, block, write_ext
    harness.fix_move_race = fix
    state["recheck_high"] = argv[3:] == ["--recheck-high"]
    if argv[3:] and not state["recheck_high"]:
        raise SystemExit("probe.py SPEC REPORT [--recheck-high]")
    with open(argv[1]) as f:
        spec = json.load(f)
    with open(argv[2], "w") as out, open(os.devnull, "w") as quiet:
        stdout, sys.stdout = sys.stdout, quiet  # WiscSim prints as it runs
        harness.run(spec, out)
        sys.stdout = stdout
    print("spec:", json.dumps(spec, sort_keys=True))
    noops = {"noops_before": 0, "noops_min_grant_free": None}
    for r in rows:  # collections that collected nothing folded into the next one's line
        if r["victims"] == 0:
            noops["noops_before"] += 1
            low = noops["noops_min_grant_free"]
            noops["noops_min_grant_free"] = min(r["grant_free"], low if low is not None else 99)
            continue
        r.update(noops)
        print(json.dumps(r, sort_keys=True))
        noops = {"noops_before": 0, "noops_min_grant_free": None}
    print("trailing", json.dumps(noops, sort_keys=True))
    dropped = state["dropped"]["moves"] if state["dropped"] else None
    print("host", json.dumps({"writes": state["done"], "free_sum": state["free_sum"],
                              "gc_writes": state["gc_writes"],
                              "gc_free_sum": state["gc_free_sum"],
                              "dropped_moves": dropped}, sort_keys=True))  # fmt: skip


if __name__ == "__main__":
    main(sys.argv)
