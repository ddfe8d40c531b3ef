"""A resumed simulated drive's fill: a simulated drive keeps no state between runs, so
``calibrate --resume`` on a ``sim:`` target fills it again before its next segment
(``measure.measure``). That fill restores the state the first run's fill left, which the budget
has already paid for and which a real drive keeps, so the budget leaves it out: without that, a
sim resumed under the default 2 drive writes ran out of budget after the re-fill and fitted one
unsettled level (a newcomer's review of calibrate, 2026-11-29). Its rounds stay in the
measurement and in its ``drive_writes``, as every byte written does.
"""

from __future__ import annotations

from overprov.measurement_file import Measurement

#: The label of a resumed simulated drive's fill (``measure.SegmentRunner.fill``).
FILL_AGAIN = "fill-again"


def filled_again(m: Measurement) -> tuple[float, float]:
    """Drive writes and I/O seconds of ``m``'s re-fills (rounds labelled :data:`FILL_AGAIN`),
    which the budget leaves out (``measure.SegmentRunner.fits``)."""
    again = [r for r in m.rounds if r.label == FILL_AGAIN]
    return sum(r.bytes_written for r in again) / m.capacity_bytes, sum(r.duration_s for r in again)
