"""A pytest plugin (``-p gate_on``, this folder on PYTHONPATH) that turns
``plausibility.RESERVE_READING_GATE`` on in every pytest process, workers included: condition 4
of bench/foreign/results/gate14/RULE.md."""

from overprov.calibrate import plausibility

plausibility.RESERVE_READING_GATE = True
