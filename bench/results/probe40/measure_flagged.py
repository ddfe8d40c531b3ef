"""``bench/foreign/femu_end_to_end.py`` with ``plan.PROBE_WHOLE_CYCLES`` set in its process
first (bench/results/probe40/RULE.md): the plan its ``measure`` designs has the probe's window
over whole collector cycles (``--whole-cycles``) or the default one (``--no-whole-cycles``).

    PYTHONPATH=python python bench/results/probe40/measure_flagged.py --whole-cycles \
        measure --binary HARNESS --out DIR ...
"""

from __future__ import annotations

import sys
from pathlib import Path

from overprov.calibrate import plan

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "foreign"))

FLAGS = {"--whole-cycles": True, "--no-whole-cycles": False}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in FLAGS:
        print("first argument: --whole-cycles or --no-whole-cycles", file=sys.stderr)
        return 2
    plan.PROBE_WHOLE_CYCLES = FLAGS[argv[0]]
    import femu_end_to_end

    return femu_end_to_end.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
