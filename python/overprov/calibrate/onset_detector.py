"""The onset of garbage collection dated from rounds' write counters: after a sequential fill
every random write goes to a free block until the free pool reaches the collector's threshold;
from then on the drive writes more to NAND than the host sends. ``graded_run.py``'s sweeps run
until :class:`OnsetDetector` confirms it (the host bytes before it are the drive's free space
beyond the span), ``gc_onset.py`` reads it from an empty drive.
"""

from __future__ import annotations

from overprov.measurement_file import Round

#: NAND writes beyond the host's (drive writes of the capacity) that confirm the onset of
#: garbage collection (``OnsetDetector``): at a WAF of 1.5 after the onset, 0.004 drive writes
#: of host writes.
ONSET_EXCESS_DRIVE_WRITES = 0.002
#: ... within this much host writes of the first excess (else it was a stray move).
ONSET_WITHIN_DRIVE_WRITES = 0.02


def counter_deltas(before: Round | None, r: Round) -> tuple[int, int] | None:
    """(host, NAND) bytes written during round ``r``, from the counters after it and after
    ``before`` (the round before); None when either has no host counter."""
    if before is None or before.host_bytes is None or r.host_bytes is None:
        return None
    return r.host_bytes - before.host_bytes, (r.nand_bytes or 0) - (before.nand_bytes or 0)


class OnsetDetector:
    """The onset of garbage collection from rounds' write counters.

    Garbage collection runs in bursts (a block's valid pages at a time), so a single round can
    show none after it has started, or a wear-levelling move before it has. The onset is the
    host writes (drive writes of the capacity) before the first round whose NAND writes exceed
    its host writes, confirmed once the excess since then reaches :data:`ONSET_EXCESS_DRIVE_WRITES`
    within :data:`ONSET_WITHIN_DRIVE_WRITES` of host writes (else that excess was a stray move
    and the next one is the candidate)."""

    def __init__(self, capacity_bytes: int) -> None:
        self.capacity_bytes = capacity_bytes
        self.written = 0.0
        """Host writes counted so far (drive writes)."""
        self.onset_drive_writes: float | None = None
        """The confirmed onset, or None."""
        self._candidate: float | None = None
        self._excess = 0.0

    def add(self, before: Round | None, r: Round) -> None:
        """Count round ``r`` (counters after it and after ``before``, the round before)."""
        d = counter_deltas(before, r)
        if d is None:
            self.written += r.bytes_written / self.capacity_bytes
            return
        dh, dn = d[0] / self.capacity_bytes, d[1] / self.capacity_bytes
        if self._candidate is not None and self.written - self._candidate > (
            ONSET_WITHIN_DRIVE_WRITES
        ):
            self._candidate = None  # a stray move, not garbage collection
        if dn > dh and self._candidate is None:
            self._candidate, self._excess = self.written, 0.0
        if self._candidate is not None:
            self._excess += max(0.0, dn - dh)
            if self._excess >= ONSET_EXCESS_DRIVE_WRITES and self.onset_drive_writes is None:
                self.onset_drive_writes = self._candidate
        self.written += dh
