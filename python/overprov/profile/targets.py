"""What a profile runs on: the :class:`Target` protocol, the round it runs and its figures.

The kinds of target are registered by prefix in ``target_kinds.py`` (``sim:`` a simulated
drive, ``sim_target.py``; anything else devices or files through fio, ``fio_target.py``).

A target runs one workload *round* and returns the round's figures; the profiler
(``runner.py``) decides everything else: spans, OP levels, steady state, skips, resume. The
same protocol serves a real drive (fio) and, later, a simulated one (``sim:PRESET``), so
results and reports do not depend on which target produced them.

Sizes: every member of a target is tested over the same *capacity* C (bytes, a multiple of
the block size): the first C bytes of each device or file. An OP level X% restricts the
workload to the first ``(1 − X/100)·C`` bytes and discards (TRIMs, punches holes in) the rest.

Safety (docs/safety.md): a block device is written only when confirmed by name; each member's
fingerprint (``overprov.fingerprint``) is recorded on open, its first 4 KiB carry the run's
identifier (the workload starts after them), and both are checked again before every round,
purge and discard, and when a stored run is resumed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

from overprov.errors import ConfigError


def now_iso() -> str:
    """UTC timestamp with milliseconds, e.g. 2026-05-01T12:00:00.123Z."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# ------------------------------------------------------------------------------- the protocol


@dataclass(frozen=True)
class RoundSpec:
    """One workload round, the same on every member of the target.

    ``seconds`` set: a timed round (``time_based``). ``seconds`` None: write the span once
    (a precondition part); with ``rw="randwrite"`` every block of the span is written exactly
    once, in random order.
    """

    label: str
    """Unique within a run, file-name safe: "fob", "pre-p01", "op10-r003"."""
    rw: str
    """"randwrite" or "write" (sequential)."""
    bs_bytes: int
    qd: int
    jobs: int
    span_bytes: int
    """The workload covers [offset_bytes, offset_bytes + span_bytes) of each member."""
    offset_bytes: int = 0
    seconds: int | None = None
    fio_ss_slope_percent: float | None = None
    """Ask fio for its own ``iops_slope`` verdict over the round (fio targets only)."""
    read_percent: int = 0
    """Share of random reads mixed in (fio ``randrw``, ``rwmixread``); 0: writes only."""
    write_through: bool = False
    """Every write waits until the drive says it is durable (fio ``sync=1``: O_SYNC)."""
    rate_iops: int | None = None
    """Cap each job at this many IOPS (fio ``rate_iops``): the drive idles between I/Os."""
    idle_seconds: float = 0.0
    """The host leaves the drive idle this long before the round (after the previous one has
    finished): a real target sleeps, a simulated drive spends the time on background work."""

    def __post_init__(self) -> None:
        if self.rw not in ("randwrite", "write"):
            raise ConfigError(f"round.rw: must be randwrite or write, got {self.rw!r}")
        if not 0 <= self.read_percent < 100 or (self.read_percent and self.rw != "randwrite"):
            raise ConfigError(
                f"round.read_percent: 0..99 with randwrite, got {self.read_percent} with {self.rw}"
            )
        if not 0 <= self.idle_seconds < float("inf"):
            raise ConfigError(f"round.idle_seconds: 0 or more, got {self.idle_seconds}")
        if self.rate_iops is not None and self.rate_iops <= 0:
            raise ConfigError(f"round.rate_iops: must be positive, got {self.rate_iops}")
        for name in ("bs_bytes", "qd", "jobs", "span_bytes"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"round.{name}: must be positive, got {getattr(self, name)}")
        if self.seconds is not None and self.seconds <= 0:
            raise ConfigError(f"round.seconds: must be positive, got {self.seconds}")


@dataclass
class Figures:
    """What one round did, for one member or for the whole target (``name`` "combined")."""

    name: str
    iops: float
    bytes_written: int
    duration_s: float
    latency_us: dict[str, float | None]
    """mean, max, p50, p90, p99, p99_9, p99_99 (completion latency, µs); None when unknown."""
    iops_series: list[float] = field(default_factory=list)
    """Per-second IOPS during the round (full seconds only)."""
    fio_steadystate: dict[str, Any] | None = None
    """fio's own verdict (``ss``, ``attained``, ``criterion_percent``, ...) or None."""
    read_latency_us_mean: float | None = None
    """A mixed round's reads' mean completion latency (µs); None: no reads, or not reported (a fio
    target of several members does not combine it). Not written when None."""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if d["read_latency_us_mean"] is None:  # a round without reads: as before the field
            del d["read_latency_us_mean"]
        return d


@dataclass
class RoundResult:
    label: str
    started: str
    finished: str
    combined: Figures
    members: list[Figures]
    files: list[str] = field(default_factory=list)
    """Files the round left (job file, output, logs), relative to the output folder."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "started": self.started,
            "finished": self.finished,
            "combined": self.combined.to_dict(),
            "members": [m.to_dict() for m in self.members],
            "files": list(self.files),
        }


@runtime_checkable
class Target(Protocol):
    """What the profiler needs of a drive, real or simulated.

    Lifecycle: ``open()`` (safety checks, exclusive access) → ``identity()`` → ``purge()`` →
    ``run()`` rounds and ``discard_tail()`` between phases → ``close()``. Methods raise
    ``overprov.errors`` exceptions; a KeyboardInterrupt inside ``run()`` must leave the target
    stopped (no I/O still going on) before it propagates.
    """

    spec: str
    """The TARGET string as the user gave it ("/dev/sdb", "a.img,b.img", "sim:PRESET")."""
    kind: str
    """"file", "block" or "sim" (all members are of one kind)."""
    capacity_bytes: int
    """C: bytes tested on each member; OP levels are shares of it."""
    member_names: list[str]

    def open(self, *, resuming: bool = False) -> None:
        """Check it is safe to write, take exclusive access. Raise UnsafeDeviceError if not.
        ``resuming``: continuing a stored run that already overwrote this target."""
        ...

    def close(self) -> None: ...

    def identity(self) -> dict[str, Any]:
        """JSON-able facts: {"kind", "capacity_bytes", "members": [{"name", "size_bytes", ...}]}.
        A resumed run compares it with the stored one (see :meth:`same_as`)."""
        ...

    def same_as(self, stored_identity: dict[str, Any]) -> str | None:
        """None if ``stored_identity`` describes this very target, else why not."""
        ...

    def software(self) -> dict[str, str]:
        """Versions of what produces the figures, e.g. {"fio": "fio-3.33"}."""
        ...

    def purge(self) -> str:
        """Return every tested byte to the fresh state (discard/TRIM); say what was done."""
        ...

    def discard_tail(self, start_bytes: int) -> str:
        """Discard [start_bytes, capacity_bytes) on every member; say what was done."""
        ...

    def run(self, spec: RoundSpec) -> RoundResult:
        """Run one round on all members at once and return its figures."""
        ...
