"""The held-out drives of bench/results/cliffbuffer/RULE.md, chosen from their drive files alone
(no simulation): generated drives drawn as ``bench/cliffplan_eval.py`` draws them (its
``written_truth``: ``validation.drive(seed)``, its SLC cache at 3% of the advertised capacity,
its SLC program time from ``random.Random(seed * 7919)``), seeds from 9611 up, the first
``COUNT`` whose ceilings (bench/results/cliffseries/truth_series.py's ``ceilings``: 4 KiB
commands a second) let a write buffer's step show before the cache's:

- the host side (the link's and the controller's ceiling, the lower) at least ``FEED_OVER_SLC``
  times the dies' SLC rate: a buffer fed at it and drained by the dies fills, a step of at
  least 1 − 1/1.15 = 13%;
- the dies' TLC rate at most ``TLC_UNDER_SLC`` times the lower of the host side and the SLC
  rate: the cache's own end a step of at least 15% (found at the 10% threshold);
- each drive's buffer then sized (bytes, in the drive file, a multiple of 4 KiB) so that, fed
  at the host side and drained at the SLC rate, it fills after ``FILL_SHARE`` of the cache's
  bytes (full size: buffer ÷ scale × host ÷ (host − SLC)), and that fill at least
  ``MIN_ROUNDS`` of calibrate's series' rounds in (``cliff_step``: rounds of
  max(``SIM_ROUND_MIN_S``, ``INTERVAL_DRIVE_WRITES`` × capacity ÷ 4 KiB ÷ ``SIZING_IOPS``)
  seconds at the scale, at the host side's rate), else the seed is passed over.

Seeds a rule of another worktree names (``TAKEN``) are skipped.

    PYTHONPATH=python:bench:bench/results/cliffseries python \
        bench/results/cliffbuffer/select_drives.py > bench/results/cliffbuffer/drives.json
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from cliffplan_eval import written_truth
from overprov.calibrate import cliff_step
from truth_series import ceilings

FIRST_SEED, COUNT, SHARE = 9611, 6, 0.03
#: seeds another worktree's rule names (burstplain's RULE.md: validation.compare on 9623, 9624)
TAKEN = {9623, 9624}
FEED_OVER_SLC, TLC_UNDER_SLC, FILL_SHARE, MIN_ROUNDS = 1.15, 0.85, 0.25, 5


def main() -> int:
    chosen, passed = [], []
    seed = FIRST_SEED
    with tempfile.TemporaryDirectory() as tmp:
        while len(chosen) < COUNT:
            if seed in TAKEN:
                seed += 1
                continue
            truth, scale, _ = written_truth(seed, SHARE, Path(tmp))
            c = ceilings(truth)
            feed = min(c["link"], c["controller"])
            cache = truth["config"]["timing"]["slc"]["max_bytes"]
            x = float(scale)
            cap = truth["advertised_bytes"] * x
            round_s = max(
                cliff_step.SIM_ROUND_MIN_S,
                cliff_step.INTERVAL_DRIVE_WRITES * cap / 4096 / cliff_step.SIZING_IOPS,
            )
            round_bytes = feed * 4096 * round_s / x  # full size
            row = {"seed": seed, "share": SHARE, "scale": scale, "cache_bytes": cache,
                   "feed_iops": feed, **c, "round_bytes_full_size": round_bytes}  # fmt: skip
            why = None
            if feed < FEED_OVER_SLC * c["dies_slc"]:
                why = "host side under 1.15 × the dies' SLC rate"
            elif c["dies_tlc"] > TLC_UNDER_SLC * min(feed, c["dies_slc"]):
                why = "TLC rate over 0.85 × the SLC level"
            else:
                fill = FILL_SHARE * cache
                buffer_full = fill * (feed - c["dies_slc"]) / feed
                row["buffer_bytes"] = int(buffer_full * x) // 4096 * 4096
                row["fill_bytes_full_size"] = fill
                if fill < MIN_ROUNDS * round_bytes:
                    why = f"the fill under {MIN_ROUNDS} rounds in"
            if why is None:
                chosen.append(row)
            else:
                passed.append({**row, "passed_over": why})
            seed += 1
    print(json.dumps({"chosen": chosen, "passed_over": passed}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
