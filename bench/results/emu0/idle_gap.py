"""Whether the idle gap between a real target's rounds, alone, raises the IOPS a 1 s round
reads (bench/results/emu0/DIAGNOSIS.md): the test drive (tests/emulate/small-drive.toml with
the 32 KiB buffer of tests/emulate/test_real_path.py) run by the simulated target alone, no
FUSE, no fio, no host. Purge, one sequential fill, WARMUP 1 s random-write rounds at QD32 over
the whole span, then ROUNDS of each variant, alternated round by round so that all see the
same drive state: the host idle ``gap`` seconds before each 1 s round (the drive finishes its
queued work then: ``RoundRequest.idle_seconds``), and, after a gap, a ``ramp`` round not
counted before the counted one (what fio's ``ramp_time`` would do). Then the same at 40% extra
OP (the tail discarded, as calibrate makes a level). Prints each variant's mean IOPS, against
the no-gap rounds', its WAF, and the CPU seconds.

``PYTHONPATH=python /work/main/.venv/bin/python bench/results/emu0/idle_gap.py DRIVE.toml``
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2]))

from cpu_clock import cpu_s  # noqa: E402
from overprov.profile.sim_target import SimTarget  # noqa: E402
from overprov.profile.targets import RoundSpec  # noqa: E402

WARMUP = 25
ROUNDS = 20
#: (gap before the round, uncounted ramp after the gap), seconds
VARIANTS = ((0.0, 0.0), (0.02, 0.0), (0.1, 0.0), (0.35, 0.0), (1.0, 0.0), (0.35, 0.1), (0.35, 0.25))


def main() -> None:
    before = cpu_s()
    t = SimTarget(f"sim:{sys.argv[1]}@1")
    t.open()
    cap = t.capacity_bytes
    t.purge()
    t.run(RoundSpec("fill", "write", 4096, 32, 1, cap))
    n = 0

    def one(span: int, seconds: float, idle_s: float) -> tuple[float, float]:
        nonlocal n
        n += 1
        c0 = t.write_counters()
        spec = RoundSpec(f"r{n}", "randwrite", 4096, 32, 1, span, seconds=seconds,  # type: ignore[arg-type]
                         idle_seconds=idle_s)  # fmt: skip
        r = t.run(spec)
        c1 = t.write_counters()
        waf = (c1["nand_bytes"] - c0["nand_bytes"]) / (c1["host_bytes"] - c0["host_bytes"])
        return r.combined.iops, waf

    for op in (0, 40):
        span = cap * (100 - op) // 100 // 4096 * 4096
        if op:
            t.discard_tail(span)
        for _ in range(WARMUP):
            one(span, 1.0, 0.0)
        seen: dict[tuple[float, float], list[tuple[float, float]]] = {v: [] for v in VARIANTS}
        for _ in range(ROUNDS):
            for gap, ramp in VARIANTS:
                if ramp:
                    one(span, ramp, gap)
                seen[(gap, ramp)].append(one(span, 1.0, 0.0 if ramp else gap))
        base = statistics.mean(i for i, _ in seen[(0.0, 0.0)])
        for (gap, ramp), rows in seen.items():
            iops = statistics.mean(i for i, _ in rows)
            sd = statistics.stdev(i for i, _ in rows) / iops
            waf = statistics.mean(w for _, w in rows)
            print(f"{op}% extra OP, idle {gap:4.2f} s, ramp {ramp:4.2f} s, then a 1 s round: "
                  f"{iops:6.1f} IOPS ({iops / base - 1:+.1%}, round sd {sd:.1%}), WAF {waf:.3f}, "
                  f"{len(rows)} rounds")  # fmt: skip
    print(f"{cpu_s() - before:.2f} CPU s")


if __name__ == "__main__":
    main()
