"""A reference greedy collector, written from the textbook, on SSDsim's drive j.

    python bench/foreign/results/hotcold/reference_greedy.py [--planes 1|8]
        [--pattern zones|uniform|zipf] [--ties index|recent] [--trigger write|block] [--extra-op X]

An independent check of both simulators' greedy under hot/cold writes (no overprov or SSDsim
code): NAND of ``--planes`` planes x (1280 / planes) blocks x 64 pages, a sequential fill of
the span ((100 - X)% of SSDsim's 69,632 user pages, as bench/foreign/ssdsim.py lays it), then 16
span writes of 4 KiB writes, uniform, zones 0.9/0.1 scattered (90% of writes to a random 10%
of the span) or Zipf 0.8 over the span's pages in a random order, as
bench/foreign/skewed_addresses.py draws them. Host writes go to the planes in
turn (SSDsim's dynamic allocation); each plane fills one active block with its host writes and
its own GC's moves. ``--trigger write`` (SSDsim, pagemap.c): a host write that leaves its plane
with fewer than 512 free pages (`gc hard threshold` 0.05 of 160 x 64) collects that plane's
block with the fewest valid pages (the active block excepted), as uninterrupt_gc() does;
``--trigger block``: only when a host write fills the active block, victims one after another
until the plane is back above the threshold. WAF: NAND programs / host writes over the last 8
span writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import skewed_addresses  # noqa: E402  (bench/foreign/)

PAGES = 64
BLOCKS = 1280
USER_PAGES = 69632  # SSDsim's user space on drive j (overprovide 0.15)
THRESHOLD_PAGES_8 = 512  # a plane of 160 blocks: 0.05 x 160 x 64
ROUNDS, MEASURED = 16, 8


def run(planes: int, pattern: str, seed: int, ties: str = "index", trigger: str = "write",
        extra_op: int = 20) -> dict:  # fmt: skip
    span = int(USER_PAGES * (100 - extra_op) / 100) // 4 * 4  # bench/foreign/ssdsim.py's span
    per_plane = BLOCKS // planes
    threshold = THRESHOLD_PAGES_8 * per_plane // 160
    valid = np.zeros(BLOCKS, np.int64)
    full = np.zeros(BLOCKS, bool)
    slots = np.full((BLOCKS, PAGES), -1, np.int64)
    where = np.full(span, -1, np.int64)  # lpn -> block * PAGES + page
    free = [list(range(p * per_plane, (p + 1) * per_plane)) for p in range(planes)]
    active = [f.pop() for f in free]
    fill = [0] * planes
    free_pages = [per_plane * PAGES] * planes
    programs = 0
    victims_valid: list[int] = []
    changed = np.zeros(BLOCKS, np.int64)  # when a block's valid count last changed (a clock)
    clock = 0

    def program(plane: int, lpn: int) -> None:
        nonlocal programs
        b = active[plane]
        if fill[plane] == PAGES:
            full[b] = True
            b = active[plane] = free[plane].pop()
            fill[plane] = 0
        slots[b, fill[plane]] = lpn
        where[lpn] = b * PAGES + fill[plane]
        valid[b] += 1
        fill[plane] += 1
        free_pages[plane] -= 1
        programs += 1

    def collect(plane: int) -> None:
        lo, hi = plane * per_plane, (plane + 1) * per_plane
        if ties == "index":  # the lowest-numbered block (SSDsim's strict > over its blocks)
            cand = np.where(full[lo:hi], valid[lo:hi], PAGES + 1)
        else:  # the block whose valid count changed last (a bucket list's head)
            cand = np.where(full[lo:hi], valid[lo:hi] * (1 << 40) - changed[lo:hi], 1 << 50)
        v = lo + int(np.argmin(cand))
        victims_valid.append(int(valid[v]))
        for lpn in slots[v][slots[v] >= 0].tolist():
            if where[lpn] // PAGES == v:
                program(plane, lpn)
        slots[v] = -1
        valid[v] = 0
        full[v] = False
        free[plane].append(v)
        free_pages[plane] += PAGES

    turn = 0

    def write(lpn: int) -> None:
        nonlocal turn, clock
        old = where[lpn]
        clock += 1
        if old >= 0:
            ob = old // PAGES
            valid[ob] -= 1
            changed[ob] = clock
            slots[ob, old % PAGES] = -1
        plane = turn % planes
        turn += 1
        program(plane, lpn)
        if trigger == "write":  # SSDsim: one collection per host write under the threshold
            if free_pages[plane] < threshold:
                collect(plane)
        elif fill[plane] == PAGES:  # when a host write fills the active block: until above it
            while free_pages[plane] < threshold:
                collect(plane)

    for lpn in range(span):
        write(lpn)
    zones = [{"access_percent": 10.0, "space_percent": 90.0},
             {"access_percent": 90.0, "space_percent": 10.0}]  # fmt: skip
    workload = {"uniform": {"pattern": "uniform"}, "zones": {"pattern": "zoned", "zones": zones},
                "zipf": {"pattern": "zipf", "zipf_theta": 0.8}}[pattern]  # fmt: skip
    draw = skewed_addresses.sampler(workload, span, seed, True)
    marks = []
    for _ in range(ROUNDS):
        marks.append((programs, len(victims_valid)))
        for lpn in draw(span).tolist():
            write(lpn)
    p0, v0 = marks[ROUNDS - MEASURED]
    vv = victims_valid[v0:]
    waf = (programs - p0) / (MEASURED * span)
    return {"extra_op": extra_op, "planes": planes, "pattern": pattern, "ties": ties,
            "trigger": trigger, "waf": waf, "victim_valid_mean": sum(vv) / len(vv),
            "collections": len(vv)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--planes", type=int, default=1, choices=(1, 8))
    ap.add_argument("--pattern", default="zones", choices=("zones", "uniform", "zipf"))
    ap.add_argument("--seed", type=int, default=3303)
    ap.add_argument("--ties", default="index", choices=("index", "recent"),
                    help="among the blocks with fewest valid pages: the lowest-numbered "
                    "(SSDsim) or the one whose valid count changed last")  # fmt: skip
    ap.add_argument("--trigger", default="write", choices=("write", "block"),
                    help="one victim per host write under the threshold (SSDsim), or when a "
                    "host write fills the active block, until above the threshold")  # fmt: skip
    ap.add_argument(
        "--extra-op", type=int, default=20, help="the host's span: (100 - X)%% of the user space"
    )
    args = ap.parse_args()
    r = run(args.planes, args.pattern, args.seed, args.ties, args.trigger, args.extra_op)
    print(f"{r['extra_op']}% planes {r['planes']} {r['pattern']} ties {r['ties']} "
          f"trigger {r['trigger']}: "
          f"WAF {r['waf']:.3f}, victims' valid pages {r['victim_valid_mean']:.2f} of {PAGES} "
          f"over {r['collections']} collections")  # fmt: skip


if __name__ == "__main__":
    main()
