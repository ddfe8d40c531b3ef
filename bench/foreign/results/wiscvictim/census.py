"""WiscSim's blocks at the start of each GC episode, by what holds them: runs
bench/foreign/wiscsee/harness.py unchanged (Python 2, WiscSim's tree and packages on the path, as
build.sh's wrapper sets them) on a spec, wrapping WiscSim's `Cleaner.clean` to count, when an
episode starts, the host writes done, the free blocks (per channel), the current (open) blocks
by tag (data, translation), the used translation blocks and their valid pages, the closed data
blocks, their valid pages, how many are candidates (WiscSim's own `VictimBlocks`) and the valid
pages of all data blocks; `DataBlockCleaner.clean` for the victims' valid shares (and so the
pages moved); `Ftl.write_ext` to count host writes and sum the free blocks after each.

    PYTHONPATH=/work/foreign-build/wiscsee/src:/work/foreign-build/wiscsee/deps \\
      python2.7 bench/foreign/results/wiscvictim/census.py SPEC.json > census.log

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

rows, cleaned, host = [], [], {"writes": 0, "free_sum": 0}
orig_clean, orig_block, orig_write = d.Cleaner.clean, d.DataBlockCleaner.clean, d.Ftl.write_ext


def valid_pages(self, block):
    return int(round(self.oob.states.block_valid_ratio(block) * self.conf.n_pages_per_block))


def census(self):
    pool = self.block_pool.pool
    chans = pool._channel_pool
    cur_data = [b for p in chans for b in p.get_cur_block_obj(bp.TDATA)]
    cur_trans = [b for p in chans for b in p.get_cur_block_obj(bp.TTRANS)]
    trans = self.block_pool.trans_usedblocks
    data = self.block_pool.data_usedblocks
    cands = list(d.VictimBlocks(self.conf, self.block_pool, self.oob).iterator_verbose())
    return {
        "free": self.block_pool.num_freeblocks(),
        "free_per_channel": [p.count_blocks(bp.TFREE) for p in chans],
        "open_data": len(cur_data),
        "open_trans": len(cur_trans),
        "trans_blocks": len(trans),
        "trans_valid_pages": sum(valid_pages(self, b) for b in trans),
        "data_blocks": len(data),
        "data_valid_pages": sum(valid_pages(self, b) for b in data),
        "candidates": len(cands),
        "candidate_types": sorted(set(c[1] for c in cands)),
    }


def write_ext(self, extent):
    yield self.env.process(orig_write(self, extent))
    host["writes"] += 1
    host["free_sum"] += self.block_pool.num_freeblocks()


def clean(self):
    row = census(self)
    row["host_writes"] = host["writes"]
    row["free_sum"] = host["free_sum"]
    k = len(cleaned)
    for x in orig_clean(self):  # noqa: UP028  (Python 2: no yield from)
        yield x
    got = cleaned[k:]
    row["victims"] = len(got)
    row["victim_valid_share"] = round(sum(got) / max(1, len(got)), 3)
    row["moved_pages"] = int(round(sum(got) * self.conf.n_pages_per_block))
    row["free_after"] = self.block_pool.num_freeblocks()
    rows.append(row)


def block(self, blocknum, purpose=d.PURPOSE_GC):
    cleaned.append(self.oob.states.block_valid_ratio(blocknum))
    for x in orig_block(self, blocknum, purpose):  # noqa: UP028
        yield x


def run_qd1(argv, name, random_writes=None):
    """Load the spec argv[1] (QD1 only: at a deeper queue several workers enter clean() at once,
    WiscSim serialising them inside it on _cleaner_res, so a wrapper's slices would overlap),
    optionally cut its random writes, run it with WiscSim's printing silenced, print it; return
    it."""
    with open(argv[1]) as f:
        spec = json.load(f)
    if spec["ncq_depth"] != 1:
        raise SystemExit(name + ": QD1 only")
    if random_writes is not None:
        spec["random_writes"] = random_writes
    with open(os.devnull, "w") as out, open(os.devnull, "w") as quiet:
        stdout, sys.stdout = sys.stdout, quiet  # WiscSim prints as it runs
        harness.run(spec, out)
        sys.stdout = stdout
    print("spec:", json.dumps(spec, sort_keys=True))
    return spec


def main(argv):
    d.Cleaner.clean, d.DataBlockCleaner.clean, d.Ftl.write_ext = clean, block, write_ext
    run_qd1(argv, "census.py")
    for r in rows:
        print(json.dumps(r, sort_keys=True))
    print("episodes", len(rows), "victims", len(cleaned),
          "mean valid share", round(sum(cleaned) / max(1, len(cleaned)), 3))  # fmt: skip


if __name__ == "__main__":
    main(sys.argv)
