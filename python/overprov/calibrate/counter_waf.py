"""Each round's WAF from the write counters: the NAND bytes over the host bytes the drive
counted during the round, the counters after it less those before it (after the round before,
or where the stretch starts).

One reading for every place that needs the WAF round by round: the settling test of a level's
window (``measure.py``), the drift of a level's rounds (``waf_drift.py``) and the first level's
burst cycle (``burst_cycle.py``). A counter missing on either side (a target without counters,
a segment that starts without them) leaves the rounds unread (None); a round that wrote no
host bytes has no WAF, and each caller says what that means for it (:func:`stretch_wafs`: the
stretch is unread; ``waf_drift``: the round is passed over).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple, Protocol


class HasCounters(Protocol):
    """Host and NAND write counters (bytes) read at one moment: a ``Round``'s, after it."""

    @property
    def host_bytes(self) -> int | None: ...
    @property
    def nand_bytes(self) -> int | None: ...


class Counters(NamedTuple):
    """Counters read where no round ended (a segment's start, ``Measurement`` counters)."""

    host_bytes: int | None
    nand_bytes: int | None


@dataclass(frozen=True)
class RoundWaf:
    """One round's counter deltas."""

    host_before_bytes: int
    host_after_bytes: int
    nand_written_bytes: int

    @property
    def host_written_bytes(self) -> int:
        return self.host_after_bytes - self.host_before_bytes

    @property
    def waf(self) -> float:
        """NAND ÷ host bytes written during the round (only where host bytes were)."""
        return self.nand_written_bytes / self.host_written_bytes


def round_wafs(pairs: Iterable[tuple[HasCounters, HasCounters]]) -> list[RoundWaf] | None:
    """The deltas of each (counters before, counters after) pair, in order; None when any
    counter of any pair is missing."""
    out: list[RoundWaf] = []
    for before, after in pairs:
        h0, n0, h1, n1 = before.host_bytes, before.nand_bytes, after.host_bytes, after.nand_bytes
        if h0 is None or n0 is None or h1 is None or n1 is None:
            return None
        out.append(RoundWaf(h0, h1, n1 - n0))
    return out


def stretch_wafs(before: HasCounters, rounds: Sequence[HasCounters]) -> list[RoundWaf] | None:
    """The deltas of consecutive ``rounds``, the first against ``before``; None when a counter
    is missing or a round wrote no host bytes (the stretch cannot be read round by round)."""
    got = round_wafs(pairwise([before, *rounds]))
    if got is None or any(w.host_written_bytes <= 0 for w in got):
        return None
    return got


def segment_waf(start: dict[str, int] | None, last: HasCounters) -> float | None:
    """NAND ÷ host bytes from the counters ``start`` (a reading's ``write_counters``) to those
    after ``last``: a whole segment's WAF (the FOB segment's, ``metadata_factor.py``); None
    where a counter is missing, no host byte was written, or the NAND counter did not move
    forward (a drive that updates it late or in coarse units: no figure, rather than a WAF of 0
    that measurement.json's reader refuses)."""
    if start is None:
        return None
    got = round_wafs([(Counters(start["host_bytes"], start["nand_bytes"]), last)])
    if not got or got[0].host_written_bytes <= 0 or got[0].nand_written_bytes <= 0:
        return None
    return got[0].waf
