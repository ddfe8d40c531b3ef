"""A pytest plugin (``-p flags_on``, this folder on PYTHONPATH) that turns
``plausibility.RESERVE_READING_GATE`` and ``femu_target.ROUND_RATE`` on in every pytest process,
workers included: conditions G4 and R4 of bench/foreign/results/femularge/RULE.md."""

import sys
from pathlib import Path

from overprov.calibrate import plausibility

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import femu_target  # noqa: E402

plausibility.RESERVE_READING_GATE = True
femu_target.ROUND_RATE = True
