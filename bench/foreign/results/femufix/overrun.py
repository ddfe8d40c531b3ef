"""How long the fixed harness's timed rounds ran against the seconds calibrate asked, on every
re-measured drive (run.json's ``timed_rounds``, kept by bench/foreign/femu_target.py).

    PYTHONPATH=python python bench/foreign/results/femufix/overrun.py \
        > bench/foreign/results/femufix/overrun.txt
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

R = Path("bench/foreign/results/femufix")


def main() -> None:
    print("| drive | timed rounds | run ÷ asked: median | worst | over 1.25x | worst round |")
    print("|---|---|---|---|---|---|")
    every = []
    for run in sorted(R.glob("femu-*/run.json")):
        rounds = json.loads(run.read_text()).get("timed_rounds") or []
        ratios = [(ran / asked, label, asked, ran) for label, asked, ran in rounds]
        if not ratios:
            continue
        every += [r[0] for r in ratios]
        worst = max(ratios)
        print(f"| {run.parent.name} | {len(ratios)} | "
              f"{statistics.median(r[0] for r in ratios):.3f} | {worst[0]:.2f} | "
              f"{sum(r[0] > 1.25 for r in ratios)} | {worst[1]}: {worst[2]:g} s asked, "
              f"{worst[3]:.1f} s run |")  # fmt: skip
    if every:
        print(f"# {len(every)} timed rounds: run ÷ asked median {statistics.median(every):.3f}, "
              f"worst {max(every):.2f}, over 1.25x: {sum(x > 1.25 for x in every)}")  # fmt: skip


if __name__ == "__main__":
    main()
