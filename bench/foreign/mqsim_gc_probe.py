"""MQSim's free-block reserve over a run's steady window, from a counting probe's output.

    python bench/foreign/mqsim_gc_probe.py [--back 2] RUN_DIR/op10-qd32 ...

The probe is a build of MQSim (commit 7ec40e3b, not held here) with counters added to
``GC_and_WL_Unit_Page_Level::Check_gc_required``, which changes no figure (the recorded WAFs
reproduce to every digit): each call adds one check and the plane's free blocks
(``free_block_pool_size``); a check below the threshold counts as ``below``; one that returns
because ``Ongoing_erase_operations`` holds ``max_ongoing_gc_reqs_per_plane`` (10) collections
as ``busy``; one whose candidate has no invalid page as ``noinv``; a collection started counts
its victim's valid pages (``Current_page_write_index - Invalid_page_count``) in a histogram of
0-32. At exit a static object appends one line of the counts since the run began to
``gcstats.txt`` in the working folder::

    calls N pool_mean P below B busy S started G valid_mean V noinv Z ongoing_mean O hist h0 .. h32

``mqsim.py`` runs each case from empty several times in one folder (FOB, then k/8 of D span
writes for k from ``--first-checkpoint`` to 8), so the folder's file holds one line per run in
that order; the steady window (the last quarter) is the difference of the last line and the one
``--back`` (2) lines before it. Printed per folder, as JSON: the checks in the window, the mean
free blocks of a plane at them, the checks skipped (``busy``) and the victims' mean valid pages
with the WAF they imply, b / (b - valid) for b pages a block.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

PAGES_PER_BLOCK = 32  # mqsim.GEOMETRY["Page_No_Per_Block"]
COUNTS = ("calls", "pool_mean", "below", "busy", "started", "valid_mean", "noinv", "ongoing_mean")


def parse_line(line: str) -> dict:
    """One run's counts (cumulative from the run's start)."""
    words = line.split()
    if len(words) < 2 * len(COUNTS) + 1 or words[2 * len(COUNTS)] != "hist":
        raise ValueError(f"not a probe line: {line[:60]!r}")
    out = {words[2 * i]: float(words[2 * i + 1]) for i in range(len(COUNTS))}
    if tuple(out) != COUNTS:
        raise ValueError(f"not a probe line: {line[:60]!r}")
    out["hist"] = [int(w) for w in words[2 * len(COUNTS) + 1 :]]
    return out


def window(a: dict, b: dict, pages_per_block: int = PAGES_PER_BLOCK) -> dict:
    """The figures between two runs' counts (b the longer run)."""
    checks = b["calls"] - a["calls"]
    free_sum = b["calls"] * b["pool_mean"] - a["calls"] * a["pool_mean"]
    started = b["started"] - a["started"]
    valid = sum(i * (hb - ha) for i, (ha, hb) in enumerate(zip(a["hist"], b["hist"], strict=True)))
    valid_mean = valid / started if started else 0.0
    return {
        "checks": checks,
        "free_blocks_at_checks": free_sum / checks if checks else None,
        "checks_skipped": b["busy"] - a["busy"],
        "collections": started,
        "victims_valid_pages": valid_mean,
        "waf_from_victims": pages_per_block / (pages_per_block - valid_mean) if started else None,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--back", type=int, default=2, help="runs between the window's ends")
    args = ap.parse_args(argv)
    for folder in args.folders:
        lines = [ln for ln in (folder / "gcstats.txt").read_text().splitlines() if ln.strip()]
        if len(lines) <= args.back:
            raise SystemExit(f"{folder}/gcstats.txt: {len(lines)} runs, fewer than --back + 1")
        row = window(parse_line(lines[-1 - args.back]), parse_line(lines[-1]))
        print(json.dumps({"folder": str(folder), **row}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
