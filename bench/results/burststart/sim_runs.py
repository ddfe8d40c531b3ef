"""Condition 3 of bench/results/burststart/RULE.md: ``validation.compare`` on generated drives
with ``burst_start.LATE_START`` off and on (calibrate's IOPS errors over 0-40% against the
drive's truth), one JSON line per run appended to ``--out``.

    PYTHONPATH=python python bench/results/burststart/sim_runs.py --seeds 9517,9518 \
        --out bench/results/burststart/sim.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import burst_start, validation  # noqa: E402
from overprov.units import parse_size_bytes  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="comma-separated")
    ap.add_argument("--physical", default="4GiB")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    physical = parse_size_bytes(args.physical, "--physical")
    for seed in (int(s) for s in args.seeds.split(",")):
        for on in (False, True):
            burst_start.LATE_START = on
            t0 = cpu_s()
            c = validation.compare(seed, physical)
            row = {"seed": seed, "late_start": on, "cpu_s": round(cpu_s() - t0, 2),
                   **c.as_dict()}  # fmt: skip
            with args.out.open("a") as f:
                f.write(json.dumps(row) + "\n")
            med, worst = 100 * c.median_abs_rel_error, 100 * c.worst_abs_rel_error
            print(f"seed {seed} late_start={on}: IOPS median {med:.1f}% worst {worst:.1f}%, "
                  f"{row['cpu_s']} CPU s", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
