"""The figures of one MQSim command trace (the trace build's ``MQSIM_DIAG_TRACE`` file,
``bench/foreign/mqsim_patches/trace/05-diag-trace.patch``).

Lines: ``C t_us kind n (src plane page)*n | pool0 pool1 ong0 ong1 uq0 uq1 gw0 gw1 gr0 gr1 e0 e1
parked over0 over1`` a command (kind ``r``/``p``/``e``; src ``g`` a GC transaction, ``u`` a host
write, ``m`` a mapping transaction; the state after the command left the queues: free blocks,
collections in flight, host writes, GC writes, GC reads and erases queued a plane, host writes
parked behind the LPA barrier, held for an overfull plane); ``G t_us plane pool pool_other ong
ong_other valid`` a collection started; ``A t_us plane why`` a check below the threshold that
started none (why 0: the RGA pick is a free block, 1: a written block with no invalid page).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path


def summarise(path: Path, threshold: int) -> dict:
    """Shares of the window's commands, its time per NAND page, who partners a relocation, the
    other plane's queue at a lone relocation, and the planes' pools at collection starts."""
    progs: Counter = Counter()
    kinds: Counter = Counter()
    paired: Counter = Counter()
    host = pages = 0
    lone_gc = lone_gc_other_host = lone_gc_other_gc = lone_gc_other_collecting = 0
    lone_gc_other_host_sum = 0
    t_first = t_prev = None
    both = below_both = below_one = overfull_any = 0.0
    state = None
    starts = starts_other_below = starts_other_collecting = 0
    starts_gap_sum = 0
    valid_sum = 0
    aborts: Counter = Counter()
    # while both planes collect (the state after the previous command): programs by kind,
    # collections started, their valid pages, host pages programmed
    both_progs: Counter = Counter()
    both_starts = both_valid = both_host = 0
    with open(path) as f:
        for line in f:
            parts = line.split()
            tag, t = parts[0], float(parts[1])
            if tag == "G":
                plane, pool, other, ong, ong_other, valid = map(int, parts[2:8])
                starts += 1
                valid_sum += valid
                if state is not None and state[2] and state[3]:
                    both_starts += 1
                    both_valid += valid
                starts_gap_sum += other - threshold
                starts_other_below += other < threshold
                starts_other_collecting += ong_other > 0
                continue
            if tag == "A":
                aborts[int(parts[3])] += 1
                continue
            kind, n = parts[2], int(parts[3])
            txs = [
                (parts[4 + 3 * i], int(parts[5 + 3 * i]), int(parts[6 + 3 * i])) for i in range(n)
            ]
            st = list(map(int, parts[5 + 3 * n :]))
            if t_first is None:
                t_first = t
            if state is not None:
                dt = t - t_prev
                pool0, pool1, ong0, ong1 = state[:4]
                both += dt if ong0 and ong1 else 0.0
                below_both += dt if pool0 < threshold and pool1 < threshold else 0.0
                below_one += dt if (pool0 < threshold) != (pool1 < threshold) else 0.0
                overfull_any += dt if min(pool0, pool1) < 10 else 0.0
            prev_both = state is not None and state[2] > 0 and state[3] > 0
            state, t_prev = st, t
            kinds[kind] += 1
            paired[kind] += n == 2
            if kind != "p":
                continue
            pages += n
            srcs = "".join(sorted(s for s, _p, _o in txs))
            host += srcs.count("u")
            kind_name = {"gg": "gc+gc", "gu": "gc+host", "uu": "host+host", "g": "gc alone",
                         "u": "host alone"}.get(srcs, "with mapping")  # fmt: skip
            progs[kind_name] += 1
            if prev_both:
                both_progs[kind_name] += 1
                both_host += srcs.count("u")
            if srcs == "g":
                other = 1 - txs[0][1]
                lone_gc += 1
                q_host, q_gc, ong_other = st[4 + other], st[6 + other], st[2 + other]
                lone_gc_other_host += q_host > 0
                lone_gc_other_host_sum += q_host
                lone_gc_other_gc += q_gc > 0
                lone_gc_other_collecting += ong_other > 0
    span_us = (t_prev or 0.0) - (t_first or 0.0)
    n_p = max(1, kinds["p"])
    return {
        "window_us": span_us,
        "host_writes": host,
        "nand_pages": pages,
        "iops": host / span_us * 1e6 if span_us else 0.0,
        "waf": pages / max(1, host),
        "us_per_nand_page": span_us / max(1, pages),
        "paired": {k: paired[k] / max(1, kinds[k]) for k in ("p", "r", "e")},
        "programs": {
            k: progs[k] / n_p
            for k in ("gc+gc", "gc+host", "host+host", "gc alone", "host alone", "with mapping")
        },  # fmt: skip
        "lone_relocations": {
            "share_of_programs": lone_gc / n_p,
            "other_plane_host_writes_queued": lone_gc_other_host / max(1, lone_gc),
            "other_plane_host_writes_queued_mean": lone_gc_other_host_sum / max(1, lone_gc),
            "other_plane_gc_writes_queued": lone_gc_other_gc / max(1, lone_gc),
            "other_plane_collecting": lone_gc_other_collecting / max(1, lone_gc),
        },
        "time_share": {
            "both_collecting": both / span_us if span_us else 0.0,
            "both_pools_below_threshold": below_both / span_us if span_us else 0.0,
            "one_pool_below_threshold": below_one / span_us if span_us else 0.0,
            "a_pool_below_10": overfull_any / span_us if span_us else 0.0,
        },
        "starts": {
            "count": starts,
            "other_free_minus_threshold_mean": starts_gap_sum / max(1, starts),
            "other_below_threshold": starts_other_below / max(1, starts),
            "other_collecting": starts_other_collecting / max(1, starts),
        },
        "checks_without_collection": {"free_block_pick": aborts[0], "no_invalid_pick": aborts[1]},
        "per_start": {
            "valid_pages": valid_sum / max(1, starts),
            "host_pages": host / max(1, starts),
        },
        "while_both_collecting": {
            "programs": {
                k: both_progs[k] / max(1, sum(both_progs.values()))
                for k in ("gc+gc", "gc+host", "gc alone")
            },  # fmt: skip
            "starts": both_starts,
            "valid_pages_per_start": both_valid / max(1, both_starts),
            "host_pages_per_start": both_host / max(1, both_starts),
        },
    }


def course(lines, chunk_host: int) -> list[dict]:
    """A whole run's course, a row each ``chunk_host`` host writes programmed: programs paired,
    the share of commands with both planes collecting, collections started, checks below the
    threshold that started none (RGA picks without an invalid page), the pools at its end."""
    rows: list[dict] = []
    host = n = n_p = paired = both = starts = aborts = 0
    for line in lines:
        tag = line[0]
        if tag == "G":
            starts += 1
            continue
        if tag == "A":
            aborts += 1
            continue
        parts = line.split()
        k = int(parts[3])
        st = parts[5 + 3 * k :]
        n += 1
        both += st[2] != "0" and st[3] != "0"
        if parts[2] == "p":
            n_p += 1
            paired += k == 2
            host += sum(parts[4 + 3 * i] == "u" for i in range(k))
        if host >= chunk_host:
            rows.append({"host_writes": (rows[-1]["host_writes"] if rows else 0) + host,
                         "t_us": float(parts[1]), "paired": paired / max(1, n_p),
                         "both_collecting": both / n, "starts": starts,
                         "no_collection_checks": aborts,
                         "pools": [int(st[0]), int(st[1])]})  # fmt: skip
            host = n = n_p = paired = both = starts = aborts = 0
    return rows
