"""WiscSim's collections batch by batch (a diagnostic): runs bench/foreign/wiscsee/harness.py
unchanged (Python 2, WiscSim's tree and packages on the path) on a spec, the random writes cut to
RANDOM_WRITES, wrapping WiscSim's `Cleaner._clean_batch` to log, per batch: the free blocks before
and after, the victims' valid pages when cleaned, whether they equal those of the episode's
snapshot, and the free blocks per channel before and after.

    PYTHONPATH=/work/foreign-build/wiscsee/src:/work/foreign-build/wiscsee/deps \\
      python2.7 bench/foreign/results/wiscvictim/batches.py SPEC.json RANDOM_WRITES > batches.log

QD1 only (SPEC's ncq_depth 1).
"""

from __future__ import print_function  # noqa: UP010  (Python 2)

import json
import sys

import census  # this folder's (puts bench/foreign/wiscsee on the path)
import wiscsim.blkpool as bp
import wiscsim.dftldes as d

log = []
orig_batch = d.Cleaner._clean_batch


def per_channel(self):
    return [p.count_blocks(bp.TFREE) for p in self.block_pool.pool._channel_pool]


def clean_batch(self, victim_tuples, purpose):
    pages = self.conf.n_pages_per_block
    free0, channels0 = self.block_pool.num_freeblocks(), per_channel(self)
    listed = [int(round(v * pages)) for v, _, _ in victim_tuples]
    now = [int(round(self.oob.states.block_valid_ratio(b) * pages)) for _, _, b in victim_tuples]
    for x in orig_batch(self, victim_tuples, purpose):  # noqa: UP028  (Python 2: no yield from)
        yield x
    log.append({"free": free0, "free_after": self.block_pool.num_freeblocks(),
                "valid_pages": sum(now), "as_listed": now == listed,
                "free_per_channel": channels0,
                "free_per_channel_after": per_channel(self)})  # fmt: skip


d.Cleaner._clean_batch = clean_batch
census.run_qd1(sys.argv, "batches.py", int(sys.argv[2]))
for row in log:
    print(json.dumps(row, sort_keys=True))
print("batches", len(log), "all as listed:", all(r["as_listed"] for r in log))
