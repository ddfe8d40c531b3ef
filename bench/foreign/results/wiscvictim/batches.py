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
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "wiscsee"))
import harness  # noqa: E402
import wiscsim.blkpool as bp  # noqa: E402
import wiscsim.dftldes as d  # noqa: E402

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
with open(sys.argv[1]) as f:
    spec = json.load(f)
if spec["ncq_depth"] != 1:
    raise SystemExit("batches.py: QD1 only")
spec["random_writes"] = int(sys.argv[2])
with open(os.devnull, "w") as out, open(os.devnull, "w") as quiet:
    stdout, sys.stdout = sys.stdout, quiet  # WiscSim prints as it runs
    harness.run(spec, out)
    sys.stdout = stdout
print("spec:", json.dumps(spec, sort_keys=True))
for row in log:
    print(json.dumps(row, sort_keys=True))
print("batches", len(log), "all as listed:", all(r["as_listed"] for r in log))
