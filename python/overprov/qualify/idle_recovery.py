"""Host idle recovery (after SNIA PTS "Host Idle Recovery"): does idle time help?

In steady state, writes arrive at ``idle_load_percent`` of the steady IOPS, so the drive is
idle between them; a drive whose garbage collection works in that idle time serves these
writes as a fresh drive does. The reference is the same write rate on the fresh (purged)
drive. The figure is the ratio of the p99 write latency in steady state to the fresh one.

Real targets: fio ``rate_iops`` rounds. Simulated drives: whole runs in the core's open-loop
mode (arrivals evenly spaced; background garbage collection and SLC folding in idle time) from
a random fill and from fresh. (SNIA's own form, bursts of full-speed writes between idle
periods, needs idle time between the core's profiler rounds, which it does not simulate.)
"""

from __future__ import annotations

from typing import Any

from overprov.profile.targets import Target
from overprov.qualify import bench
from overprov.qualify.verdict import FAIL, PASS, Verdict

RECOVERED_MAX_RATIO = 2.0
"""Pass: the steady drive's p99 write latency at the reduced rate is within 2× the fresh one."""
SIM_MEASURE_DRIVE_WRITES = 0.2


def _p99(lat: dict[str, Any] | None) -> float | None:
    return (lat or {}).get("p99")


def measure_sim(spec: str, s: bench.QualifySettings) -> tuple[dict[str, Any], str]:
    closed = bench.sim_run(
        spec,
        {
            "precondition": {"kind": "random"},
            "timing": {"host": {"mode": "closed", "queue_depth": s.qd}},
            "run": {"warmup_drive_writes": s.steady_drive_writes, "drive_writes": 0.2},
        },
    )
    steady = closed.get("steady_iops") or bench.sim_iops(closed)
    rate = steady * s.idle_load_percent / 100.0

    def open_loop(precondition: str, warmup: float) -> dict[str, Any]:
        return bench.sim_run(
            spec,
            {
                "precondition": {"kind": precondition},
                "timing": {"host": {"mode": "open", "arrival_iops": rate}},
                "run": {"warmup_drive_writes": warmup, "drive_writes": SIM_MEASURE_DRIVE_WRITES},
            },
        )

    idle = open_loop("random", s.steady_drive_writes)
    fresh = open_loop("none", 0.0)
    figures = {
        "steady_iops": steady,
        "arrival_iops": rate,
        "idle_latency_p50_us": idle["latency_us"].get("p50"),
        "idle_latency_p99_us": _p99(idle["latency_us"]),
        "fresh_latency_p99_us": _p99(fresh["latency_us"]),
        "idle_iops": bench.sim_iops(idle),
    }
    method = (
        f"simulated: steady IOPS at QD{s.qd} after a random fill and {s.steady_drive_writes:g} "
        f"drive writes; then writes arriving evenly at {s.idle_load_percent:g}% of it (open "
        f"loop) in that state and on the fresh drive, {SIM_MEASURE_DRIVE_WRITES} drive writes "
        "each"
    )
    return figures, method


def measure_fio(target: Target, s: bench.QualifySettings) -> tuple[dict[str, Any], str]:
    span = target.capacity_bytes
    target.purge()
    rounds = bench.write_to_steady(target, s, "idle-steady")
    steady = rounds[-1].combined.iops
    rate = max(1, int(steady * s.idle_load_percent / 100.0))
    idle = target.run(bench.round_spec("idle-rated", span, s, rate_iops=rate))
    target.purge()
    fresh = target.run(bench.round_spec("idle-fresh", span, s, rate_iops=rate))
    figures = {
        "steady_iops": steady,
        "arrival_iops": float(rate),
        "idle_latency_p50_us": idle.combined.latency_us.get("p50"),
        "idle_latency_p99_us": _p99(idle.combined.latency_us),
        "fresh_latency_p99_us": _p99(fresh.combined.latency_us),
        "idle_iops": idle.combined.iops,
    }
    method = (
        f"fio on the target: purge; {len(rounds)} round(s) of {s.round_seconds} s random "
        f"writes at QD{s.qd} to steady state; one round with rate_iops={rate} "
        f"({s.idle_load_percent:g}% of the steady IOPS); purge; the same round on the fresh "
        "span"
    )
    return figures, method


def judge(figures: dict[str, Any], method: str) -> Verdict:
    idle, fresh = figures["idle_latency_p99_us"], figures["fresh_latency_p99_us"]
    if not idle or not fresh:
        raise ValueError("idle_recovery: p99 write latency missing from the measurement")
    ratio = idle / fresh
    figures = {**figures, "latency_ratio": ratio, "recovered_max_ratio": RECOVERED_MAX_RATIO}
    said = (
        f"writes at {figures['arrival_iops']:,.0f} IOPS ({figures['steady_iops']:,.0f} steady): "
        f"p99 latency {idle:,.0f} µs in steady state against {fresh:,.0f} µs fresh "
        f"({ratio:.2f}×)"
    )
    if ratio <= RECOVERED_MAX_RATIO:
        return Verdict(
            "idle_recovery", PASS, f"idle time restores fresh performance: {said}", figures, method
        )
    return Verdict(
        "idle_recovery",
        FAIL,
        f"idle time does not restore fresh performance: {said}",
        figures,
        method,
    )
