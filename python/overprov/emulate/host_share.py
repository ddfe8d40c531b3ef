"""How much of a benchmark's request time the host, not the emulated drive, held.

A host that keeps ``n`` requests in flight (fio's ``iodepth``) and completes ``iops`` of them
per second holds each one for ``n / iops`` seconds (Little's law). Of that, the drive held it
from its issue to its completion: the server of ``overprov emulate`` sums those simulated
times (``in_drive_sim_ns_total`` and ``requests`` in its status file). The rest of the cycle
is the host's: the kernel's queue, the loop device, FUSE, the server's thread waiting to run,
fio reaping the completion. On an idle host that is a fraction of a millisecond a request; on
a loaded one it can be as long as the drive's own latency, and the IOPS measured are then the
host's, not the drive's. ``late_requests`` does not see it (a request that reaches the server
late is issued late, and answered on time from there).

So a figure measured at a queue depth the host cannot keep full reads low. Comparing two such
figures (IOPS at QD4 against QD32: calibrate's probe of a write buffer and blocking GC) reads
the host's share as the drive's behaviour (docs/emulate.md, "When the host cannot keep up")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from overprov.emulate import counters

#: Above this share of its requests' time held by the host, a figure is more the host's than the
#: drive's: calibrate says so as it measures, and the emulated-drive test compares predictions
#: only below it. Runs on a 2-core VM (2026-11-28, load average 12-24 from other jobs;
#: docs/emulate.md, "When the host cannot keep up"): at shares 0.32 and 0.55 calibrate's QD4
#: probe read 1,259 and 1,158 IOPS (``calibrate sim:`` 1,175) and the predictions agreed within
#: 4.4% and 6.7%; at 0.67 and 0.72 it read 1,011 and 926, and at 0.67 calibrate predicted
#: 1,677 IOPS at 40% OP against 1,274. In the core alone a steady host delay costs that drive
#: nothing at QD4 up to a share of about 0.65 (its buffer needs one request in flight); a
#: loaded host's delays come in bursts, which cost more at the same share.
HOST_BOUND_SHARE = 0.5


def drive_latency_s(before: dict[str, Any], after: dict[str, Any]) -> float | None:
    """Mean real seconds a request of the interval ``before`` → ``after`` (two
    ``counters.StatusReading.drive_time`` or two status files) spent in the drive; None without
    requests."""
    requests = after["requests"] - before["requests"]
    if requests <= 0:
        return None
    in_drive_ns = after["in_drive_sim_ns_total"] - before["in_drive_sim_ns_total"]
    return in_drive_ns / requests * after["slowdown"] / 1e9


def host_share(before: dict[str, Any], after: dict[str, Any], iops: float,
               queue_depth: int) -> float | None:  # fmt: skip
    """The share of a closed-loop host's request time it held itself, between two readings
    that bracket a run at ``queue_depth`` requests in flight which measured ``iops`` (per real
    second): ``1 − iops × drive latency ÷ queue_depth``, at least 0. 0: every request slot was
    in the drive (the figure is the drive's); 0.4: the host held 40% of it (the figure is that
    much below what the drive would give a host that keeps up). None without requests."""
    latency_s = drive_latency_s(before, after)
    if latency_s is None or iops <= 0 or queue_depth < 1:
        return None
    return max(0.0, 1.0 - iops * latency_s / queue_depth)


def round_share(
    before: counters.StatusReading | None,
    after: counters.StatusReading | None,
    iops: float,
    in_flight: int,
) -> float | None:
    """:func:`host_share` of a round between two readings of its drive (``counters.read``
    before and after it) at ``in_flight`` requests (queue depth × jobs), to 4 decimals; None
    when either reading or its drive time is missing, or the round had no requests."""
    if before is None or after is None or before.drive_time is None or after.drive_time is None:
        return None
    share = host_share(before.drive_time, after.drive_time, iops, in_flight)
    return None if share is None else round(share, 4)


def emulated_device(target: Any) -> str | None:
    """The device of a target (a profile or calibrate ``Target``) that is one drive
    ``overprov emulate`` serves, or None for any other target (a simulated drive, a file, a
    real device, several members: their time in the drive is not known). Reads no status."""
    if getattr(target, "kind", None) != "block" or len(target.member_names) != 1:
        return None
    device = target.member_names[0]
    return device if counters.status_path(device) is not None else None


def host_bound(share: float | None) -> bool:
    """Whether a figure measured while the host held ``share`` of its requests' time is more
    the host's than the drive's (above :data:`HOST_BOUND_SHARE`)."""
    return share is not None and share > HOST_BOUND_SHARE


class HostBoundNotice:
    """Says, once per key (calibrate: a level at a queue depth; profile: a phase), that a round
    was host-bound (:func:`host_bound`), through ``say``."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.said: set[str] = set()

    def check(self, key: str, label: str, share: float | None) -> None:
        """Say it for round ``label`` of ``key`` when ``share`` is host-bound and nothing was
        said of ``key`` yet."""
        if share is None or not host_bound(share) or key in self.said:
            return
        self.said.add(key)
        self.say(
            f"{label}: the host held {share:.0%} of its requests' time, the emulated drive "
            f"{1 - share:.0%}: its IOPS are the busy host's, not the drive's "
            '(docs/emulate.md, "When the host cannot keep up")'
        )
