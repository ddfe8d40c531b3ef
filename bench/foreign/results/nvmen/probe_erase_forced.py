"""Diagnostic probe (not a rule, not adoption): drive N's plan case read with the erase-cost
twins offered although a plain reading reproduces its fitted figures (erase_reading's gate,
``called_for``, forced open for this process only), to see which reading would carry the weight
and its WAF at 10-30%. Run from the worktree root:
PYTHONPATH=python python bench/foreign/results/nvmen/probe_erase_forced.py OUT.json"""

import contextlib
import sys

from overprov import cli
from overprov.calibrate import erase_reading

ARGS = [
    "calibrate", "--json", "-", "--jobs", "1", "--extra-op", "0,10,20,30,40",
    "--points", "0:15203,40:65424,40:65422@qd4", "--waf-points", "0:5.330,40:1.334",
    "--fob-iops", "133734",
]  # fmt: skip


def main() -> int:
    erase_reading.OFFERED = True
    erase_reading.called_for = lambda evidences, points: (
        bool(evidences) and any(p.fresh and p.iops for p in points)
    )
    with open(sys.argv[1], "w") as out, contextlib.redirect_stdout(out):
        return cli.main(ARGS)


if __name__ == "__main__":
    sys.exit(main())
