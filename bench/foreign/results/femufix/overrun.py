"""How long the fixed harness's timed rounds ran against the seconds calibrate asked, on every
re-measured drive (run.json's ``timed_rounds``, kept by bench/foreign/femu_target.py), and on
the four drives overrun_arms.sh measured again with the older sizings (overrun/).

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
    every: dict[str, list[float]] = {}
    same: dict[tuple[str, str], list[float]] = {}  # (sizing, fill or level): overrun/'s drives
    arms = {p.stem.rsplit("-", 2)[0] for p in (R / "overrun").glob("*.json")}
    runs = sorted(R.glob("femu-*/run.json")) + sorted((R / "overrun").glob("*.json"))
    for run in runs:
        doc = json.loads(run.read_text())
        rounds, sizing = doc.get("timed_rounds") or [], doc.get("chunk_sizing", "?")
        name = run.parent.name if run.name == "run.json" else run.stem
        ratios = [(ran / asked, label, asked, ran) for label, asked, ran in rounds]
        if not ratios:
            continue
        every.setdefault(sizing, []).extend(r[0] for r in ratios)
        if name.removesuffix("-" + sizing) in arms:
            for x, label, *_ in ratios:
                kind = "fill" if label.startswith("fill") else "levels"
                same.setdefault((sizing, kind), []).append(x)
        worst = max(ratios)
        print(f"| {name} ({sizing}) | {len(ratios)} | "
              f"{statistics.median(r[0] for r in ratios):.3f} | {worst[0]:.2f} | "
              f"{sum(r[0] > 1.25 for r in ratios)} | {worst[1]}: {worst[2]:g} s asked, "
              f"{worst[3]:.1f} s run |")  # fmt: skip
    for sizing, x in every.items():
        print(f"# {sizing}: {len(x)} timed rounds, run ÷ asked median {statistics.median(x):.3f}, "
              f"worst {max(x):.2f}, over 1.25x: {sum(v > 1.25 for v in x)}, over 2x: "
              f"{sum(v > 2 for v in x)}")  # fmt: skip
    for (sizing, kind), x in sorted(same.items()):
        over = [sum(v > k for v in x) / len(x) for k in (1.25, 2)]
        print(f"# the {len(arms)} drives of overrun/, {kind} rounds, {sizing}: {len(x)}, run ÷ "
              f"asked median {statistics.median(x):.3f}, worst {max(x):.2f}, over 1.25x "
              f"{over[0]:.0%}, over 2x {over[1]:.0%}")  # fmt: skip


if __name__ == "__main__":
    main()
