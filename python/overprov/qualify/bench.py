"""What the qualify tests run on: their settings, and the two ways of measuring.

* A real target (device, file, RAID members): rounds of fio through the profiler's
  :class:`~overprov.profile.targets.FioTarget`, which applies every safety rule of
  docs/safety.md (confirmation naming the device, fingerprint re-identification before each
  write step, the run marker).
* A simulated drive (``sim:NAME|FILE.toml[@SCALE]``): whole runs of the simulator core
  (``engine.run``) with the workload each test needs (read share, write-through, open-loop
  arrivals), and the profiler's :class:`~overprov.profile.sim_target.SimTarget` rounds where
  a test needs the drive's state kept across steps (TRIM recovery). A core round is closed-loop
  writes only, so mixed, write-through and idle workloads run as whole simulations.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from overprov import engine, presets
from overprov import fio as fiomod
from overprov.errors import ConfigError
from overprov.profile.sim_target import parse_spec
from overprov.profile.targets import RoundResult, RoundSpec, Target


@dataclass
class QualifySettings:
    bs_bytes: int = 4096
    qd: int = 8
    """Queue depth of the cache test (QD8) and of the TRIM and idle tests."""
    read_percent: int = 70
    """The cache test's mix: 70% reads, 30% writes."""
    round_seconds: int = 30
    """Length of one fio round (seconds; simulated seconds for a simulated TRIM round)."""
    steady_drive_writes: float = 2.0
    """Random writes, in drive writes of the tested span, before a state counts as steady."""
    max_rounds: int = 20
    """At most this many rounds to reach steady_drive_writes on a real target."""
    discard_percent: float = 25.0
    """TRIM recovery: the share of the span discarded."""
    idle_waits_s: tuple[float, ...] = (5.0, 10.0, 15.0, 25.0, 50.0)
    """Idle recovery: the host idle times tested (SNIA PTS HIR's wait states), seconds."""
    idle_burst_seconds: int = 5
    """Idle recovery: random writes after each idle time (SNIA: 5 s)."""
    idle_repeats: int = 3
    """Idle recovery: bursts per wait state (SNIA: 360)."""
    cliff_drive_writes: float = 3.0
    """Write cliff: random writes from fresh, in drive writes."""
    tail_ratio: float = 10.0
    """IO consistency: p99.99 may be at most this many times p99 (a project choice)."""
    qos_p99_99_us: float | None = None
    """IO consistency: a data sheet's 99.99% QoS latency limit, µs (none: not checked)."""

    def validate(self) -> None:
        if self.bs_bytes <= 0 or self.bs_bytes % 512:
            raise ConfigError(f"--bs: a positive multiple of 512, got {self.bs_bytes}")
        for name in ("qd", "round_seconds", "max_rounds"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"--{name.replace('_', '-')}: must be positive")
        if not 0 < self.read_percent < 100:
            raise ConfigError(f"--read-percent: 1..99, got {self.read_percent}")
        if not 0 < self.discard_percent < 100:
            raise ConfigError(f"--discard-percent: 0..100 exclusive, got {self.discard_percent}")
        if not self.idle_waits_s or not all(0 < w < math.inf for w in self.idle_waits_s):
            raise ConfigError(f"--idle-waits: positive seconds, got {list(self.idle_waits_s)}")
        for name in ("idle_burst_seconds", "idle_repeats"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"--{name.replace('_', '-')}: must be positive")
        if not 1 <= self.tail_ratio < math.inf:
            raise ConfigError(f"--tail-ratio: 1 or more, got {self.tail_ratio}")
        if self.qos_p99_99_us is not None and not 0 < self.qos_p99_99_us < math.inf:
            raise ConfigError(f"--qos-us: positive microseconds, got {self.qos_p99_99_us}")
        for name in ("steady_drive_writes", "cliff_drive_writes"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"--{name.replace('_', '-')}: must be positive")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------------------- simulated runs


def sim_run(spec: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """One whole simulation of the drive ``spec`` names, with ``overrides`` merged into its
    config (0% extra OP: the drive as sold); returns the report's ``timed`` part."""
    name, scale = parse_spec(spec)
    cfg, _ = presets.preset_config(name, scale)
    cfg = engine.merge(cfg, {"geometry": {"extra_op_percent": 0.0}})
    cfg = engine.merge(cfg, overrides)
    report = engine.run(cfg)
    timed = report.get("timed")
    if not timed:
        raise ConfigError(f"target {spec!r}: the drive has no timing model ([timing])")
    return dict(timed)


def sim_iops(timed: dict[str, Any]) -> float:
    return timed["ios"] / timed["simulated_s"] if timed.get("simulated_s") else 0.0


# ------------------------------------------------------------------------------- fio rounds


def mixed_figures(target: Any, result: RoundResult) -> dict[str, Any]:
    """Read and write figures of a mixed fio round, from fio's JSON output the target kept
    (``<label>.json`` in its job folder; the round's own figures are its writes)."""
    path = Path(target.job_dir) / f"{result.label}.json"
    output = fiomod.parse_json_output(path.read_text(errors="replace"))
    read_iops = 0.0
    read_lat: list[dict[str, float | None]] = []
    for job in output.get("jobs", []):
        read = job.get("read") or {}
        read_iops += float(read.get("iops") or 0.0)
        read_lat.append(fiomod.latency_us(read))
    write_iops = result.combined.iops
    return {
        "iops": read_iops + write_iops,
        "read_iops": read_iops,
        "write_iops": write_iops,
        "write_latency_us": dict(result.combined.latency_us),
        "read_latency_us": read_lat[0] if len(read_lat) == 1 else None,
    }


def round_spec(
    label: str, span_bytes: int, s: QualifySettings, *, rw: str = "randwrite", **extra: Any
) -> RoundSpec:
    seconds = extra.pop("seconds", s.round_seconds)
    return RoundSpec(
        label=label,
        rw=rw,
        bs_bytes=s.bs_bytes,
        qd=s.qd,
        jobs=1,
        span_bytes=span_bytes,
        seconds=seconds,
        **extra,
    )


def write_to_steady(
    target: Target, s: QualifySettings, prefix: str, *, span_bytes: int | None = None
) -> list[RoundResult]:
    """Timed random-write rounds until ``steady_drive_writes`` of the span are written (at
    most ``max_rounds`` rounds); the last round's IOPS is the steady figure."""
    span = span_bytes or target.capacity_bytes
    rounds: list[RoundResult] = []
    written = 0
    while written < s.steady_drive_writes * span and len(rounds) < s.max_rounds:
        r = target.run(round_spec(f"{prefix}-r{len(rounds) + 1:02d}", span, s))
        rounds.append(r)
        written += r.combined.bytes_written
    return rounds


def drive_writes(rounds: list[RoundResult], span_bytes: int) -> float:
    return math.fsum(r.combined.bytes_written for r in rounds) / span_bytes
