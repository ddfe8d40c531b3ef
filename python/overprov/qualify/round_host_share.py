"""The host's share of the request time of each fio round qualify runs on a drive
``overprov emulate`` serves (``overprov.emulate.host_share``), as calibrate and profile read it:
the drive's status once after each round (the reading after one round is the next one's start),
each test's rounds' shares kept in its figures (``host_share``: round label → share, null where
not read) and said once per test when a round was host-bound (docs/qualify.md, "On an emulated
drive").

A share is read only where each of the host's I/Os is one request to the drive, which the
formula assumes (``1 − IOPS × mean time in the drive per request ÷ requests in flight``): random
writes, and random mixed reads and writes (their IOPS are the writes' and the reads' from fio's
output, ``bench.mixed_figures``). Not where one I/O is several requests: a write-through round
(each write brings a flush: two requests, one after the other, for one I/O, so the mean per
request halves the drive's time per I/O) nor a sequential one (the block layer may merge
neighbouring writes into one request, or not)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from overprov.emulate import counters, host_share
from overprov.profile.targets import RoundResult, RoundSpec, Target
from overprov.qualify import bench


def readable(spec: RoundSpec) -> bool:
    """Whether each host I/O of a round is one drive request (module doc)."""
    return spec.rw == "randwrite" and not spec.write_through


class RoundHostShare:
    """Wraps an opened target: its rounds run through :meth:`run`, which records each round's
    host share in :attr:`shares` on a drive ``overprov emulate`` serves; anything else is the
    target's own (a purge or a discard: the next round reads its start afresh)."""

    def __init__(self, target: Target, say: Callable[[str], None]) -> None:
        self.target = target
        self.device = host_share.emulated_device(target)
        self.notice = host_share.HostBoundNotice(say)
        self.test = ""
        self.shares: dict[str, float | None] = {}
        self._last: counters.StatusReading | None = None

    def begin(self, test: str) -> None:
        """The rounds from now on are test ``test``'s (its own ``shares``)."""
        self.test = test
        self.shares = {}

    def run(self, spec: RoundSpec) -> RoundResult:
        if self.device is None:
            return self.target.run(spec)
        before = self._last or counters.read(self.device)
        result = self.target.run(spec)
        self._last = counters.read(self.device)
        share = None
        if readable(spec):
            iops = result.combined.iops
            if spec.read_percent:
                iops = bench.mixed_figures(self.target, result)["iops"]
            share = host_share.round_share(before, self._last, iops, spec.qd * spec.jobs)
        self.shares[spec.label] = share
        self.notice.check(self.test, f"{self.test}: {spec.label}", share)
        return result

    def purge(self) -> str:
        self._last = None
        return self.target.purge()

    def discard_tail(self, start_bytes: int) -> str:
        self._last = None
        return self.target.discard_tail(start_bytes)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.target, name)
