"""Why the graded plan's 40% level reads a WAF above the truth's: its layout, step by step.

On a generated drive (``overprov.calibrate.validation.drive``), straight through the simulated
target: the sequential fill; the 0% level's graded prefix rounds writing the drive's free space
beyond the span (``precondition.graded_rounds``, sized here from the drive file: physical less
user capacity less the collector's reserve, what the graded plan's onset measures); then
``--zero-dw`` drive writes of plain random writes at 0% (the 0% level's own rounds: its window
and what the budget lets it run on); the discard of the 40% tail; the 40% level's graded
rounds (0.4 drive writes) over prefixes of its span (as ``graded_run.py`` runs them),
``suffix``es of it, or ``uniform`` random writes; then plain random writes at 40% in steps of
0.02 drive writes, each step's WAF (from the write counters) against the truth's settled 40%
WAF (``validation.truth``). "window" is the mean of the steps from 0.02 to 0.12 drive writes
after the rounds, where the graded plan's 40% window lies.

    PYTHONPATH=python python bench/graded_layout_bench.py [--seeds 24,26,28] [--physical 2GiB]
        [--zero-dw 0.12,0.3] [--at-40 prefix,suffix]

``--at-0 N`` instead: the 0% level alone — the fill, its prefix rounds in one pass, then N steps
of 0.02 drive writes of random writes at 0%, each step's WAF against the truth's settled 0% WAF
(how long the first level's swing after the onset lasts).

Prints a markdown table (for bench/README.md and docs/calibrate-graded-plan.md).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from calibrate_bench import seeds_arg  # bench/ is on the path when run as a script
from overprov.calibrate import validation
from overprov.calibrate.precondition import graded_rounds
from overprov.profile.sim_target import SimTarget
from overprov.profile.targets import RoundSpec
from overprov.units import parse_size_bytes

BS = 4096
STEP_DRIVE_WRITES = 0.02
STEPS = 50  # 1 drive write after the 40% rounds


class Writer:
    """Timed random-write rounds of at most 0.01 drive writes until a share is written."""

    def __init__(self, t: SimTarget) -> None:
        self.t, self.cap, self.iops, self.n = t, t.capacity_bytes, 20_000.0, 0

    def write(self, dw: float, size: int, offset: int = 0) -> None:
        done = 0.0
        while done < dw * 0.995:
            seconds = max(0.001, min(dw - done, 0.01) * self.cap / BS / self.iops)
            self.n += 1
            spec = RoundSpec(f"r{self.n}", "randwrite", BS, 32, 1, max(BS, size // BS * BS),
                             offset // BS * BS, seconds=seconds)  # type: ignore[arg-type]  # fmt: skip
            f = self.t.run(spec).combined
            self.iops = f.iops or self.iops
            done += f.bytes_written / self.cap

    def waf(self, dw: float, size: int) -> float:
        a = self.t.write_counters()
        self.write(dw, size)
        b = self.t.write_counters()
        return (b["nand_bytes"] - a["nand_bytes"]) / (b["host_bytes"] - a["host_bytes"])


def free_share(d: dict) -> float:
    """Physical capacity beyond the user capacity less the collector's reserve (of the user
    capacity): what the graded plan's first level measures as the onset."""
    cfg = d["config"]
    block = cfg["geometry"]["page_size_bytes"] * cfg["geometry"]["pages_per_block"]
    scale = d["physical_bytes"] / d["advertised_bytes"]
    return scale - 1 - cfg["ftl"]["gc_free_blocks"] * block / d["advertised_bytes"]


def trajectory(spec: str, free: float, zero_dw: float, at_40: str, truth_waf: float) -> list[float]:
    with SimTarget(spec) as t:
        w, cap = Writer(t), t.capacity_bytes
        t.run(RoundSpec("fill", "write", 131072, 32, 1, cap))
        for st in graded_rounds(0.0, free):
            w.write(st.drive_writes, int(cap * st.span_fraction))
        w.write(zero_dw, cap)
        span = int(cap * 0.6) // BS * BS
        t.discard_tail(span)
        if at_40 == "uniform":
            w.write(0.4, span)
        else:
            for st in graded_rounds(40.0, 0.4):
                size = int(span * st.span_fraction) // BS * BS
                w.write(st.drive_writes, size, span - size if at_40 == "suffix" else 0)
        return [w.waf(STEP_DRIVE_WRITES, span) / truth_waf - 1 for _ in range(STEPS)]


def zero_trajectory(spec: str, free: float, steps: int, truth_waf: float) -> list[float]:
    with SimTarget(spec) as t:
        w, cap = Writer(t), t.capacity_bytes
        t.run(RoundSpec("fill", "write", 131072, 32, 1, cap))
        for st in graded_rounds(0.0, free):
            w.write(st.drive_writes, int(cap * st.span_fraction))
        return [w.waf(STEP_DRIVE_WRITES, cap) / truth_waf - 1 for _ in range(steps)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds_arg, default=seeds_arg("24,26,28"))
    ap.add_argument("--physical", default="2GiB")
    ap.add_argument("--zero-dw", default="0.12,0.3")
    ap.add_argument("--at-40", default="prefix,suffix", help="prefix, suffix, uniform")
    ap.add_argument("--at-0", type=int, default=0, help="steps of the 0%% level alone")
    args = ap.parse_args()
    physical = parse_size_bytes(args.physical, "--physical")
    folder = Path(tempfile.mkdtemp(prefix="overprov-layout-"))
    if args.at_0:
        print("| drive | free space (dw) | WAF vs truth every 0.02 dw after the 0% rounds |\n"
              "|---|---|---|")  # fmt: skip
        for seed in args.seeds:
            d = validation.drive(seed)
            spec = f"sim:{validation.write_drive(seed, folder)}@{validation.scale_for(d, physical)}"
            truth = validation.truth(spec, [0.0]).levels[0].waf
            e = zero_trajectory(spec, free_share(d), args.at_0, truth)
            print(f"| generated {seed} | {free_share(d):.3f} | "
                  + " ".join(f"{100 * x:+.1f}" for x in e) + " |", flush=True)  # fmt: skip
        return 0
    print("| drive | 0% random writes (dw) | 40% rounds | window WAF vs truth | "
          "WAF vs truth every 0.1 dw after the rounds |\n|---|---|---|---|---|")  # fmt: skip
    for seed in args.seeds:
        d = validation.drive(seed)
        spec = f"sim:{validation.write_drive(seed, folder)}@{validation.scale_for(d, physical)}"
        truth = {lv.extra_op_percent: lv.waf for lv in validation.truth(spec, [0.0, 40.0]).levels}
        for zero_dw in (float(x) for x in args.zero_dw.split(",")):
            for at_40 in args.at_40.split(","):
                e = trajectory(spec, free_share(d), zero_dw, at_40, truth[40.0])
                window = sum(e[1:6]) / 5
                tens = [sum(e[i : i + 5]) / 5 for i in range(0, STEPS, 5)]
                print(f"| generated {seed} | {zero_dw:g} | {at_40} | {100 * window:+.1f}% | "
                      + " ".join(f"{100 * x:+.1f}" for x in tens) + " |", flush=True)  # fmt: skip
    print(f"(2-core x86_64 VM; {sys.argv[0]} {' '.join(sys.argv[1:])})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
