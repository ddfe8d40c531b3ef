"""One case of sssl-ftlsim (pjd-nu/sssl-ftlsim), run inside the simulator's own interpreter.

    python2 bench/foreign/sssl_ftlsim_run.py BUILD_DIR POLICY U NP SPARE MINFREE SPAN ROUNDS \
        ROUND_PAGES

Run by bench/foreign/sssl_ftlsim.py, not by hand. BUILD_DIR holds the simulator's SWIG
modules as its own `setup.py build` made them (`ftlsim.py`, `_ftlsim.so`, `getaddr.py`,
`_getaddr.so`); this file is the simulator's example `greedy-high.py` / `lru-high.py` set-up
(one pool of POLICY "greedy" or "lru", cleaned segments' valid pages written back into the same
pool, `ftl.minfree` = `ftl.maxfree` = MINFREE) with two changes of workload: the drive starts
empty (no `getaddr.fill` pre-fill) and the addresses are `getaddr.uniform(SPAN)`, the first
SPAN pages of the U * NP user pages. It writes ROUNDS rounds of ROUND_PAGES host pages and
prints one JSON line per round with the simulator's own counters: host writes
(`ftl.ext_writes`), NAND page writes (`ftl.int_writes`: host and GC copies) and segments
cleaned (the sum of `segment.erasures`). It runs under Python 2.7 (the simulator's scripts are
Python 2) and Python 3.
"""

from __future__ import division, print_function  # noqa: UP010 (Python 2.7 too)

import json
import sys


def main(argv):
    build, policy = argv[0], argv[1]
    u_blocks, np_pages = int(argv[2]), int(argv[3])
    spare, minfree = float(argv[4]), int(argv[5])
    span, rounds, round_pages = int(argv[6]), int(argv[7]), int(argv[8])
    sys.path.insert(0, build)
    import ftlsim
    import getaddr

    # as greedy-high.py: T = int(U * alpha) + minfree segments, alpha = 1 / (1 - S_f)
    t_blocks = int(u_blocks / (1 - spare)) + minfree
    assert span <= u_blocks * np_pages
    ftl = ftlsim.ftl(t_blocks, np_pages)
    ftl.minfree = minfree
    ftl.maxfree = minfree
    ftl.get_input_pool = ftlsim.cvar.write_select_first
    ftl.get_pool_to_clean = ftlsim.cvar.clean_select_first
    pool = ftlsim.pool(ftl, policy, np_pages)
    pool.next_pool = pool
    segments = [ftlsim.segment(np_pages) for _ in range(t_blocks)]
    for s in segments:
        s.thisown = False
    pool.add_segment(segments.pop())
    for s in segments:
        ftl.put_blk(s)
    segments = [ftlsim.get_segment(i) for i in range(t_blocks)]
    print(json.dumps({"physical_blocks": t_blocks, "user_pages": u_blocks * np_pages}))
    src = getaddr.uniform(span)
    for k in range(rounds):
        ftl.ext_writes, ftl.int_writes = 0, 0
        ftl.run(src.handle, round_pages)
        row = {
            "round": k + 1,
            "host_pages": ftl.ext_writes,
            "nand_pages": ftl.int_writes,
            "segments_cleaned": sum(s.erasures for s in segments),
            "free_segments": ftl.nfree,
        }
        print(json.dumps(row))
        sys.stdout.flush()
        if ftl.ext_writes != round_pages:
            msg = "sssl-ftlsim stopped after %d of %d writes"  # noqa: UP031 (Python 2.7 too)
            sys.exit(msg % (ftl.ext_writes, round_pages))


if __name__ == "__main__":
    main(sys.argv[1:])
