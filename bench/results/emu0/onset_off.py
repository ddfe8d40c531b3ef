"""``overprov ARGV`` with the plan's onset step off (``plan.ONSET_FROM_EMPTY`` and
``discard_transient.SPARE_FROM_ONSET`` False, as before bench/foreign/results/onset-tolerant/),
for bench/results/emu0/DIAGNOSIS.md's comparison of the two settings.

``PYTHONPATH=python /work/main/.venv/bin/python bench/results/emu0/onset_off.py calibrate ...``
"""

from __future__ import annotations

import sys

from overprov import cli
from overprov.calibrate import discard_transient, plan

plan.ONSET_FROM_EMPTY = False
discard_transient.SPARE_FROM_ONSET = False

if __name__ == "__main__":
    sys.exit(cli.main(sys.argv[1:]))
