"""Cache-device test: does a flush wait for NAND?

A write cache that loses its contents on power loss must be flushed before a write-through
write (FUA, O_SYNC, fio ``sync=1``) completes; without power-loss protection that flush waits
for the data and the mapping table to be programmed, and the drive falls to hard-disk IOPS (a
consumer SATA drive: about 220 IOPS at QD8 70:30 with its write cache off, docs/drives/README.md).
With power-loss protection the buffer counts as durable and write-through costs little.

The test runs the same mixed workload (``read_percent`` reads, 4 KiB, QD8) with write-back and
then with write-through and judges from the measured ratio of their IOPS and the write-through
latency, never from what the drive is called.
"""

from __future__ import annotations

from typing import Any

from overprov.profile.targets import Target
from overprov.qualify import bench
from overprov.qualify.verdict import FAIL, PASS, Verdict

PROTECTED_MIN_RATIO = 0.5
"""Write-through keeps at least half the write-back IOPS: flushes complete from a protected
buffer. A flush that waits for NAND costs a program time or more per write (hundreds of µs to
milliseconds) against microseconds into DRAM, a ratio of 1/10 or less."""

SIM_MEASURE_DRIVE_WRITES = 0.05
"""Simulated: host writes measured after the random fill, in drive writes."""


def _sim_side(spec: str, s: bench.QualifySettings, write_through: bool) -> dict[str, Any]:
    t = bench.sim_run(
        spec,
        {
            "precondition": {"kind": "random"},
            "workload": {"read_percent": float(s.read_percent), "request_bytes": s.bs_bytes},
            "timing": {
                "host": {"mode": "closed", "queue_depth": s.qd, "write_through": write_through}
            },
            "run": {"warmup_drive_writes": 0.0, "drive_writes": SIM_MEASURE_DRIVE_WRITES},
        },
    )
    lat = t["latency_us"]
    return {
        "iops": bench.sim_iops(t),
        "latency_p50_us": lat.get("p50"),
        "latency_p99_us": lat.get("p99"),
        "read_latency_p99_us": (t.get("read_latency_us") or {}).get("p99"),
        "seconds": t["simulated_s"],
    }


def measure_sim(spec: str, s: bench.QualifySettings) -> tuple[dict[str, Any], str]:
    wb = _sim_side(spec, s, False)
    wt = _sim_side(spec, s, True)
    method = (
        f"simulated: the drive filled once in random order, then {s.read_percent}% reads / "
        f"{100 - s.read_percent}% writes of {s.bs_bytes} bytes at QD{s.qd} for "
        f"{SIM_MEASURE_DRIVE_WRITES} drive writes, write-back and then write-through "
        "(timing.host.write_through: a flush per write unless the buffer is power-loss "
        "protected); latency over all I/O"
    )
    return {"write_back": wb, "write_through": wt}, method


def _fio_side(target: Target, s: bench.QualifySettings, label: str, wt: bool) -> dict[str, Any]:
    spec = bench.round_spec(
        label, target.capacity_bytes, s, read_percent=s.read_percent, write_through=wt
    )
    r = target.run(spec)
    f = bench.mixed_figures(target, r)
    lat = f["write_latency_us"]
    rlat = f["read_latency_us"] or {}
    return {
        "iops": f["iops"],
        "read_iops": f["read_iops"],
        "write_iops": f["write_iops"],
        "latency_p50_us": lat.get("p50"),
        "latency_p99_us": lat.get("p99"),
        "read_latency_p99_us": rlat.get("p99"),
        "seconds": r.combined.duration_s,
    }


def measure_fio(target: Target, s: bench.QualifySettings) -> tuple[dict[str, Any], str]:
    """Fill the span once (random order) so reads read data, then the two mixed rounds."""
    target.run(bench.round_spec("cache-fill", target.capacity_bytes, s, seconds=None))
    wb = _fio_side(target, s, "cache-wb", False)
    wt = _fio_side(target, s, "cache-wt", True)
    method = (
        f"fio on the target: one random-order pass over the span, then {s.round_seconds} s of "
        f"randrw rwmixread={s.read_percent}, bs={s.bs_bytes}, iodepth={s.qd}, direct=1, "
        "without and then with sync=1 (O_SYNC: write-through); latency = write completion"
    )
    return {"write_back": wb, "write_through": wt}, method


def judge(figures: dict[str, Any], method: str, no_ftl: str = "") -> Verdict:
    """PASS when write-through keeps ``PROTECTED_MIN_RATIO`` of write-back's IOPS. The finding
    says what was measured; ``no_ftl``: the members with no FTL of their own
    (``profile.no_ftl.described``), whose flushes reach a file system, not NAND."""
    wb, wt = figures["write_back"], figures["write_through"]
    ratio = wt["iops"] / wb["iops"] if wb["iops"] > 0 else 0.0
    figures = {**figures, "write_through_ratio": ratio, "protected_min_ratio": PROTECTED_MIN_RATIO}
    said = (
        f"write-through {wt['iops']:,.0f} IOPS against write-back {wb['iops']:,.0f} "
        f"({ratio:.1%}); write-through p50 latency {_us(wt['latency_p50_us'])}, write-back "
        f"{_us(wb['latency_p50_us'])}"
    )
    not_an_ssd = (
        f"the target is {no_ftl}, with no flash translation layer of its own: the figures are "
        "those of the file system and the drive under it, not of an SSD"
    )
    if ratio >= PROTECTED_MIN_RATIO:
        found = "flushes complete from a protected buffer"
        if no_ftl:
            found = f"flush/write-through keeps {ratio:.0%} of write-back's IOPS; {not_an_ssd}"
        return Verdict("cache", PASS, f"{found}: {said}", figures, method)
    slow = (
        f"flush/write-through is slow: {ratio:.0%} of write-back's IOPS (under "
        f"{PROTECTED_MIN_RATIO:.0%})"
    )
    if no_ftl:
        why = f"; {not_an_ssd}"
    else:
        why = ": on an SSD, flushes wait for NAND; unfit as a write-through/cache device"
    return Verdict("cache", FAIL, f"{slow}{why}: {said}", figures, method)


def _us(value: float | None) -> str:
    return "unknown" if value is None else f"{value:,.0f} µs"
