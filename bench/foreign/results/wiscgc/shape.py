"""Does collecting to a low mark bend the WAF curve, or does a fitted spare absorb it?

    PYTHONPATH=python python bench/foreign/results/wiscgc/shape.py > shape.log  (in that folder)

For each form, WAF at 0% and 40% extra OP on one drive, then a plain greedy core twin (trigger 2
blocks) whose NAND is bisected until its 0% WAF matches, and that twin's 40% WAF: a twin within
a fraction of a percent at 40% means the form is absorbed by a fitted spare.

1. The core's low mark (``ftl.gc_until_free_fraction``) on WiscSim drive C's geometry ×8 (960
   blocks of 32 pages, 19,200 user pages, trigger 12% of the blocks), gaps 0.04, 0.12, 0.20.
2. WiscSim's form as GC.md reads it (bench/foreign/wiscsee/gc_reference.py ``form="wiscsim"``:
   snapshot victims, batches of 2 × channels, one open block a channel, QD1) on drives C, D, E
   (bench/foreign/results/wiscsee3), the twin at 8× their size.
"""

from __future__ import annotations

import sys
from pathlib import Path

from overprov import engine

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "wiscsee"))
sys.path.insert(0, str(HERE.parents[2]))
import gc_reference  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402  (bench/)

PPB = 32


def core_waf(blocks: int, user: int, trigger: int, fraction: float | None = None) -> float:
    ftl = {"gc_free_blocks": trigger}
    if fraction is not None:
        ftl["gc_until_free_fraction"] = fraction
    cfg = {"geometry": {"user_pages": user, "physical_blocks": blocks, "pages_per_block": PPB,
                        "op_ratio": None},
           "ftl": ftl, "run": {"drive_writes": 40.0, "warmup_drive_writes": 8.0}}  # fmt: skip
    return engine.run(engine.merge(engine.default_config(), cfg))["measured"]["waf"]


def greedy_twin_40(user: int, waf0: float, lo: int, hi: int) -> tuple[int, float]:
    """The blocks of a plain greedy twin (trigger 2) whose 0% WAF is ``waf0``, its 40% WAF."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if core_waf(mid, user, 2) > waf0 else (lo, mid)
    return hi, core_waf(hi, int(user * 0.6), 2)


def main() -> None:
    t0 = cpu_s()
    n, u = 960, 19200
    print("1. the core's low mark, C x8 (960 blocks, 19,200 user pages, trigger 115 blocks)")
    for fraction in (0.16, 0.24, 0.32):
        w0 = core_waf(n, u, int(0.12 * n), fraction)
        w40 = core_waf(n, int(u * 0.6), int(0.12 * n), fraction)
        blocks, g40 = greedy_twin_40(u, w0, u // PPB + 3, n)
        print(f"gap {fraction - 0.12:.2f}: mark 0% {w0:.3f} 40% {w40:.3f}; greedy twin "
              f"{blocks} blocks: 40% {g40:.3f} ({100 * (g40 / w40 - 1):+.1f}%)")  # fmt: skip
    print("2. WiscSim's form (gc_reference.py form=wiscsim, QD1), twin at 8x")
    drives = (("C", 120, 1.6, 0.88, 0.76, 6), ("D", 90, 1.35, 0.93, 0.89, 3),
              ("E", 96, 1.45, 0.90, 0.82, 4))  # fmt: skip
    for name, blocks, osr, high, low, channels in drives:
        user = int(blocks * PPB / osr)
        w = {x: gc_reference.run(blocks, PPB, int(user * (100 - x) / 100), 24, 8, "wiscsim",
                                 high=high, low=low, channels=channels).waf
             for x in (0, 40)}  # fmt: skip
        b8, g40 = greedy_twin_40(8 * user, w[0], 8 * (user // PPB + 3), 16 * blocks)
        print(f"{name}: form 0% {w[0]:.3f} 40% {w[40]:.3f}; greedy twin {b8} blocks: 40% "
              f"{g40:.3f} ({100 * (g40 / w[40] - 1):+.1f}%)")  # fmt: skip
    print(f"CPU {cpu_s() - t0:.1f} s")


if __name__ == "__main__":
    main()
