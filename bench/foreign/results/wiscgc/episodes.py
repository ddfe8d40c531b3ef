"""WiscSim's GC episodes as they run: runs bench/foreign/wiscsee/harness.py unchanged (Python 2,
WiscSim's tree and packages on the path, as build.sh's wrapper sets them) on a spec, wrapping
WiscSim's `Cleaner.clean` and `DataBlockCleaner.clean` to log, per episode, the victims cleaned,
their mean valid share in the episode's snapshot and when cleaned, the free blocks at its start
and end, the candidates and the three emptiest; then the snapshot's valid pages of the last one.

    PYTHONPATH=/work/foreign-build/wiscsee/src:/work/foreign-build/wiscsee/deps \\
      python2.7 bench/foreign/results/wiscgc/episodes.py SPEC.json > episodes.log
"""

from __future__ import print_function  # noqa: UP010  (Python 2)

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "wiscsee"))
import harness  # noqa: E402
import wiscsim.dftldes as d  # noqa: E402

log, cleaned, last = [], [], {}
orig_clean, orig_block = d.Cleaner.clean, d.DataBlockCleaner.clean


def clean(self):
    free0 = self.block_pool.num_freeblocks()
    cands = list(d.VictimBlocks(self.conf, self.block_pool, self.oob).iterator_verbose())
    k = len(cleaned)
    for x in orig_clean(self):  # noqa: UP028  (Python 2: no yield from)
        yield x
    got = cleaned[k:]
    snap = [c[0] for c in cands[: len(got)]]
    log.append((len(got), round(sum(snap) / max(1, len(snap)), 3),
                round(sum(got) / max(1, len(got)), 3), free0, self.block_pool.num_freeblocks(),
                len(cands), [round(c[0], 2) for c in cands[:3]]))  # fmt: skip
    last["valid_pages"] = sorted(int(round(c[0] * self.conf.n_pages_per_block)) for c in cands)


def block(self, blocknum, purpose=d.PURPOSE_GC):
    cleaned.append(self.oob.states.block_valid_ratio(blocknum))
    for x in orig_block(self, blocknum, purpose):  # noqa: UP028
        yield x


d.Cleaner.clean, d.DataBlockCleaner.clean = clean, block
with open(sys.argv[1]) as f:
    spec = json.load(f)
with open(os.devnull, "w") as out, open(os.devnull, "w") as quiet:
    stdout, sys.stdout = sys.stdout, quiet  # WiscSim prints as it runs
    harness.run(spec, out)
    sys.stdout = stdout
print("spec:", json.dumps(spec, sort_keys=True))
print(
    "episode: victims, mean valid share (snapshot), (cleaned), free at start, at end, "
    "candidates, the three emptiest"
)
for e in log:
    print(e)
print("episodes", len(log), "victims", len(cleaned),
      "mean valid share", round(sum(cleaned) / max(1, len(cleaned)), 3))  # fmt: skip
print("last snapshot's valid pages:", last.get("valid_pages"))
