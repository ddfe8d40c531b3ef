"""Whether the drive completes writes from a write buffer: read from its IOPS at two queue depths.

A volatile write buffer (a write-back cache) completes a host write once its data is in DRAM and
programs it later, so how many programs run at once does not depend on how many writes the host
keeps queued: where the NAND binds, IOPS at QD4 are those at QD32. Without one a write waits for
its own program and a queue of 4 keeps at most 4 dies busy: the README's twin (8 dies) at 40%
extra OP gives 59,558 IOPS at QD32 and 19,124 at QD4 without a buffer, 59,767 and 60,184 with
64 MiB (``sim:consumer-tlc-sata@4GiB``'s fitted twin, 2026-11-27). calibrate's plan measures
such a pair (its queue-depth probe, ``plan.with_probe``); :func:`read` simulates the twin with
and without a buffer at that level and queue depth and keeps the one whose IOPS ratio is nearer
the measured one.

What it does not identify is the buffer's size: a buffer of 4 to 256 MiB changes neither the
ratio nor, beyond the p99's own wandering, the p99 (bench/README.md, "The twin's write
buffer"), so an identified buffer is :data:`BUFFER_BYTES`. Without a pair of figures to read
(a budget that left out the probe, figures under a skewed workload), or when the twin's ratio
is the same either way (a controller that binds at both depths), the twin keeps the
:data:`BUFFER_BYTES` it always had, assumed and said so. Typed figures (``--points``) are not
read, even with a ``@qd4`` figure: the buffer also moves their twin's IOPS (the 850 Pro's 40%
held out, 39,400 predicted with it, 44,900 without), so reading it there waits for its own
check on the corpus and the foreign FTLs.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any

from overprov.calibrate import fit as fitmod
from overprov.calibrate import twin as twinmod

#: The twin's write buffer when the figures show one (its size is not identified), and when
#: they cannot tell (assumed).
BUFFER_BYTES = 64 * 2**20
#: The twins with and without a buffer must give QD ratios at least this far apart (in log)
#: for the measured ratio to choose between them.
MIN_LOG_SEPARATION = 0.1


@dataclass(frozen=True)
class BufferReading:
    """What the figures say about the write buffer, and the twin's buffer that follows."""

    buffer_bytes: int
    identified: bool
    reason: str
    extra_op_percent: float | None = None
    queue_depth: int | None = None
    measured_qd_ratio: float | None = None
    """IOPS at ``queue_depth`` ÷ IOPS at the workload's, measured."""
    twin_qd_ratio_buffered: float | None = None
    twin_qd_ratio_unbuffered: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        """One clause for prediction_source."""
        if not self.identified:
            return f"a {self.buffer_bytes // 2**20} MiB write buffer, assumed ({self.reason})"
        if self.buffer_bytes:
            return f"a {self.buffer_bytes // 2**20} MiB write buffer ({self.reason})"
        return f"no write buffer ({self.reason}): its writes wait for NAND"


def _pair(
    points: list[fitmod.Point], other: list[fitmod.Point]
) -> tuple[fitmod.Point, fitmod.Point] | None:
    """The workload's IOPS figure and one at another queue depth at the same level (the
    highest such level)."""
    main = {p.extra_op_percent: p for p in points if p.iops and not p.fresh}
    pairs = [(main[o.extra_op_percent], o) for o in other if o.iops and o.extra_op_percent in main]
    return max(pairs, key=lambda mo: mo[0].extra_op_percent, default=None)


def twin_qd_ratio(p: twinmod.TwinParameters, extra_op_percent: float, queue_depth: int) -> float:
    """The twin's IOPS at ``queue_depth`` ÷ at the plan's, at one level, measured as calibrate
    measures a target (the level, then its queue-depth probe)."""
    m = twinmod.simulate_levels(p, [extra_op_percent], probe_queue_depth=queue_depth)
    main = next(lv for lv in m.levels if lv.queue_depth is None)
    probe = next(lv for lv in m.levels if lv.queue_depth == queue_depth)
    return probe.steady_iops / main.steady_iops


def read(
    p: twinmod.TwinParameters,
    points: list[fitmod.Point],
    other_qd_points: list[fitmod.Point],
    *,
    skewed: bool = False,
    typed: bool = False,
) -> BufferReading:
    """The write buffer the figures show (:data:`BUFFER_BYTES`) or none, for twin ``p``;
    ``skewed``: the figures are not under uniform random writes (not read: the twin's ratio
    is simulated under uniform ones); ``typed``: figures the user typed (not read: their
    twin's IOPS move with the buffer, which the corpus bench has not checked)."""
    if typed:
        return BufferReading(
            BUFFER_BYTES, False, "not read for typed figures: their twin's IOPS move with it"
        )
    if skewed:
        return BufferReading(BUFFER_BYTES, False, "not identified: figures under a skewed workload")
    pair = _pair(points, other_qd_points)
    if pair is None:
        return BufferReading(
            BUFFER_BYTES, False, "not identified: no IOPS figures at two queue depths at one level"
        )
    main, other = pair
    x, qd = main.extra_op_percent, int(other.queue_depth or 0)
    measured = other.iops / main.iops  # type: ignore[operator]
    buffered = twin_qd_ratio(replace(p, buffer_bytes=BUFFER_BYTES), x, qd)
    unbuffered = twin_qd_ratio(replace(p, buffer_bytes=0), x, qd)
    figures = dict(
        extra_op_percent=x, queue_depth=qd, measured_qd_ratio=measured,
        twin_qd_ratio_buffered=buffered, twin_qd_ratio_unbuffered=unbuffered,
    )  # fmt: skip
    said = (
        f"IOPS at QD{qd} ÷ at the workload's, {x:g}% extra OP: measured {measured:.2f}, "
        f"the twin {buffered:.2f} with a buffer, {unbuffered:.2f} without"
    )
    if abs(math.log(buffered / unbuffered)) < MIN_LOG_SEPARATION:
        return BufferReading(BUFFER_BYTES, False, f"not identified: {said}", **figures)
    has = abs(math.log(measured / buffered)) < abs(math.log(measured / unbuffered))
    return BufferReading(BUFFER_BYTES if has else 0, True, said, **figures)
