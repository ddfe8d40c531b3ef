"""What the graded plan's first level wrote and read: its sweeps' shares by prefix against the
design, and its 0% level against the drive's truth.

On a generated drive (``overprov.calibrate.validation.drive``) at ``--physical`` of NAND, the
graded plan (``--budget 2dw``, the levels of ``bench/cheap_plan_bench.py``) through the
simulated target, then the truth at 0% (``validation.truth``). For the first level's sweeps
(``calibrate/graded_run.py``): each prefix's drive writes over what ``precondition.graded_rounds``
designs for the total the sweeps wrote (the smallest and largest of the 16 ratios, and the
smallest prefix's); then the 0% level: where its window ended (drive writes after the onset)
and its IOPS and WAF against the truth's.

    PYTHONPATH=python python bench/graded_sweeps_bench.py [--seeds 33,37] [--physical 2GiB]

Prints a markdown table (for bench/README.md and docs/calibrate-graded-plan.md).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from calibrate_bench import seeds_arg  # bench/ is on the path when run as a script
from overprov.calibrate import validation
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import design, parse_budget
from overprov.calibrate.precondition import graded_rounds
from overprov.profile.sim_target import SimTarget
from overprov.units import parse_size_bytes


def prefix_shares(m) -> dict[int, float]:
    """Drive writes of the first level's sweep rounds by prefix (1: the whole span)."""
    out: dict[int, float] = {}
    for r in m.rounds:
        if r.label.startswith("op0-s"):
            k = int(r.label.split(".")[-1].split("-")[0])
            out[k] = out.get(k, 0.0) + r.bytes_written / m.capacity_bytes
    return out


def row(seed: int, physical: int, folder: Path) -> str:
    d = validation.drive(seed)
    spec = f"sim:{validation.write_drive(seed, folder)}@{validation.scale_for(d, physical)}"
    truth = validation.truth(spec, [0.0]).levels[0]
    with SimTarget(spec) as t:
        m = measure(t, design(validation.TRUTH_LEVELS, parse_budget("2dw"), precondition="graded"))
    shares = prefix_shares(m)
    ideal = graded_rounds(0.0, sum(shares.values()))
    ratios = [shares.get(k + 1, 0.0) / s.drive_writes for k, s in enumerate(ideal)]
    zero = m.levels[0]
    return (
        f"| generated {seed} | {d['config']['ftl']['policy']} | {m.spare_drive_writes:.3f} | "
        f"{min(ratios):.2f}–{max(ratios):.2f} | {ratios[-1]:.2f} | {zero.drive_writes:.3f} | "
        f"{100 * (zero.steady_iops / truth.steady_iops - 1):+.1f}% | "
        f"{100 * (zero.waf / truth.waf - 1):+.1f}% |"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds_arg, default=seeds_arg("33,37"))
    ap.add_argument("--physical", default="2GiB")
    args = ap.parse_args()
    physical = parse_size_bytes(args.physical, "--physical")
    folder = Path(tempfile.mkdtemp(prefix="overprov-sweeps-"))
    print("| drive | victims | free space (dw) | prefix shares / design | smallest prefix's | "
          "0% level (dw after the onset) | 0% IOPS vs truth | 0% WAF vs truth |\n"
          "|---|---|---|---|---|---|---|---|")  # fmt: skip
    for seed in args.seeds:
        print(row(seed, physical, folder), flush=True)
    print(f"(2-core x86_64 VM; {sys.argv[0]} {' '.join(sys.argv[1:])})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
