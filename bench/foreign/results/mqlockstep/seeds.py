"""Beside the verdict (not judged, run after it): the twin's 0% time per NAND page with other
seeds, base and the judged case, on the two fresh drives — how far the one-seed figures of
verdict.md move with the seed.

    PYTHONPATH=python python bench/foreign/results/mqlockstep/seeds.py \\
        --out bench/foreign/results/mqlockstep/seeds.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))
import twin  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402

DRIVES = ((832, 32), (1408, 16))
SEEDS = (1, 2, 3, 4, 5)


def main(argv: list[str] | None = None) -> int:
    from overprov import engine

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    cpu0 = cpu_s()
    out: dict = {}
    for blocks, pages in DRIVES:
        for spec in ("0", "2r"):
            times = []
            for seed in SEEDS:
                cfg = engine.merge(twin.config(blocks, pages, 0, spec), {"run": {"seed": seed}})
                times.append(twin.figures(engine.run(cfg))["page_time_us"])
            out[f"u{blocks}x{pages}, {twin.case_name(spec)}"] = times
            print(
                f"u{blocks}x{pages} {twin.case_name(spec)}: "
                + " / ".join(f"{t:.1f}" for t in times)
            )
    doc = {"level_percent": 0, "seeds": list(SEEDS), "page_time_us": out,
           "cpu_s": round(cpu_s() - cpu0, 1),
           "command": "python bench/foreign/results/mqlockstep/seeds.py"}  # fmt: skip
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
