"""Before a simulate run: how long it will take and how much memory it will hold, so a run
that would take an hour says so first and one that cannot fit in memory is refused.

Planned host pages follow the core (crates/overprov-sim/src/sim.rs, ``Simulator::new``): the
precondition fills the user space once, then warm-up and measurement write their drive writes.
The rate and the bytes of state per physical page are *measured* on this machine by a short
calibration run of the same configuration shrunk to at most 2²² user pages; the estimate
scales them.

A trace replay (``config.trace``) is planned in the core's own progress units: the fill's pages
plus, per pass, the trace file's bytes in pages (the file is read once per pass, whatever the
drive size). Its rate is measured by stepping the shrunk configuration for a fraction of a
second, never by replaying the whole trace.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from typing import Any

from overprov import engine
from overprov.units import human_bytes

#: Runs estimated longer than this print their estimate before they start.
LONG_RUN_S = 30.0
#: Runs estimated longer than this are refused unless the user says --yes (2 hours).
HUGE_RUN_S = 7200.0
#: The interpreter, the core and the report format, measured as the peak RSS of a tiny run.
BASELINE_BYTES = 64 * 2**20
#: Large enough that the simulator's state outgrows the CPU caches, as in the long runs this
#: estimates (a smaller calibration measures a rate several times too high).
CALIBRATION_USER_PAGES = 2**22
#: A trace's calibration steps the simulator for about this long (wall seconds).
TRACE_CALIBRATION_S = 0.3


@dataclass(frozen=True)
class RunEstimate:
    planned_host_pages: int
    physical_pages: int
    seconds: float
    peak_memory_bytes: float
    pages_per_second: float
    unit: str = "host page writes"


def is_trace(config: dict[str, Any]) -> bool:
    return bool(config.get("trace", {}).get("path"))


def fill_pages(config: dict[str, Any], geometry: dict[str, Any]) -> int:
    """Pages the precondition fill writes: the user space, or none."""
    none = config.get("precondition", {}).get("kind") == "none"
    return 0 if none else int(geometry["user_pages"])


def trace_file_pages(config: dict[str, Any], geometry: dict[str, Any]) -> int:
    """A trace file's bytes in pages (rounded up): the core's progress units for one pass."""
    return -(-os.path.getsize(config["trace"]["path"]) // int(geometry["page_size_bytes"]))


def planned_host_pages(config: dict[str, Any], geometry: dict[str, Any]) -> int:
    """Host page writes the run plans; for a trace, the core's progress units (the fill's
    pages and the trace file's bytes, in pages, per pass)."""
    user = int(geometry["user_pages"])
    run = config.get("run", {})
    fill = fill_pages(config, geometry)
    if is_trace(config):
        trace = config["trace"]
        passes = int(trace.get("repeat", 1)) + int(trace.get("warmup_passes", 0))
        return fill + passes * trace_file_pages(config, geometry)
    return (
        fill
        + round(run.get("warmup_drive_writes", 2.0) * user)
        + max(1, round(run.get("drive_writes", 4.0) * user))
    )


def drives(config: dict[str, Any]) -> int:
    """Simulated drives in the run: the members of an array (``timing.host.array``), else 1."""
    array = config.get("timing", {}).get("host", {}).get("array", {})
    return 1 if array.get("raid", "none") == "none" else int(array.get("members", 2))


def physical_pages(config: dict[str, Any]) -> int:
    """Physical pages of all the run's drives."""
    g = engine.validate(config)["geometry"]
    return int(g["blocks"]) * int(g["pages_per_block"]) * drives(config)


def worth_estimating(config: dict[str, Any], geometry: dict[str, Any]) -> bool:
    """False for a run too short to need an estimate: under 2^24 host page writes; a trace,
    a fill under 2^24 pages, under 2^16 pages (256 MiB at 4 KiB) of trace file per pass and
    under 2^24 pages over all its passes."""
    if not is_trace(config):
        return planned_host_pages(config, geometry) >= 2**24
    return (
        int(geometry["user_pages"]) >= 2**24
        or trace_file_pages(config, geometry) >= 2**16
        or planned_host_pages(config, geometry) >= 2**24  # a small file replayed many times
    )


def _calibration_config(config: dict[str, Any], geometry: dict[str, Any]) -> dict[str, Any]:
    geo = {
        "page_size_bytes": geometry["page_size_bytes"],
        "pages_per_block": geometry["pages_per_block"],
        "user_pages": min(CALIBRATION_USER_PAGES, int(geometry["user_pages"])),
        "op_ratio": geometry["blocks"] * geometry["pages_per_block"] / geometry["user_pages"] - 1,
    }
    cfg = {k: v for k, v in config.items() if k != "geometry"}
    cfg["geometry"] = geo
    cfg["run"] = {**config.get("run", {}), "warmup_drive_writes": 0.25, "drive_writes": 0.25}
    if cfg.get("timing", {}).get("enabled"):
        cfg["timing"] = {**cfg["timing"], "duration_s": None}
    return cfg


def estimate(config: dict[str, Any]) -> RunEstimate:
    """Time and peak memory of one run of ``config`` (already validated), from a calibration
    run of a fraction of a second on this machine."""
    resolved = engine.validate(config)
    geometry = resolved["geometry"]
    # an array's members each write their own pages: count pages of all drives, as the rate is
    n = drives(config)
    physical = int(geometry["blocks"]) * int(geometry["pages_per_block"]) * n
    planned = planned_host_pages(config, geometry) * n
    try:
        if is_trace(config):
            fill = fill_pages(config, geometry)
            seconds, per_page = _trace_seconds(
                _calibration_config(config, geometry), fill * n, planned - fill * n
            )
            rate = planned / seconds if seconds > 0 else 1e6
        else:
            started = time.perf_counter()
            report = engine.run(_calibration_config(config, geometry))
            wall = time.perf_counter() - started
            rate = report["totals"]["host_pages"] / wall if wall > 0 else 1e6
            per_page = float(report.get("state_bytes_per_physical_page") or 8.0)
    except Exception:  # noqa: BLE001 - a calibration that cannot run: assume typical figures
        rate, per_page = 1e6, 8.0
    return RunEstimate(
        planned_host_pages=planned,
        physical_pages=physical,
        seconds=planned / max(rate, 1.0),
        peak_memory_bytes=BASELINE_BYTES + per_page * physical,
        pages_per_second=rate,
        unit="pages of fill and trace file" if is_trace(config) else "host page writes",
    )


def _stepped_rate(sim: Any, seconds: float, while_phase: str | None = None) -> float:
    """Progress units per wall second of ``sim`` stepped for about ``seconds`` (or until its
    phase leaves ``while_phase``, or it ends)."""
    start, _ = sim.progress()
    started = time.perf_counter()
    done = False
    while not done and time.perf_counter() - started < seconds:
        if while_phase is not None and sim.phase != while_phase:
            break
        done = sim.step(1 << 14)
    wall = time.perf_counter() - started
    units, _ = sim.progress()
    return (units - start) / wall if wall > 0 and units > start else 1e6


def _trace_seconds(cfg: dict[str, Any], fill_pages: int, trace_units: int) -> tuple[float, float]:
    """(seconds, state bytes per physical page) of a trace replay: the fill at the fill's rate
    and the passes at the replay's (file pages per second), each from stepping the shrunk
    configuration for a fraction of a second, never replaying the whole trace."""
    one_pass = {**cfg["trace"], "repeat": 1, "warmup_passes": 0}
    seconds = 0.0
    if fill_pages:
        sim = engine.simulator({**cfg, "trace": one_pass})
        seconds += fill_pages / _stepped_rate(sim, TRACE_CALIBRATION_S / 2, "precondition")
    sim = engine.simulator({**cfg, "trace": one_pass, "precondition": {"kind": "none"}})
    seconds += trace_units / _stepped_rate(sim, TRACE_CALIBRATION_S)
    report = json.loads(sim.report_json())
    return seconds, float(report.get("state_bytes_per_physical_page") or 8.0)


def available_memory_bytes() -> int | None:
    """MemAvailable from /proc/meminfo (None where there is none)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def duration_text(seconds: float) -> str:
    """A planned duration in the unit that reads best: s, min, h or days."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 4 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:,.0f} days"


def describe(est: RunEstimate) -> str:
    minutes = est.seconds / 60
    when = f"{est.seconds:.2g} s" if est.seconds < 10 else f"{est.seconds:.0f} s"
    when = when if est.seconds < 120 else f"{minutes:.0f} min"
    return (
        f"about {when} and {human_bytes(est.peak_memory_bytes)} of memory "
        f"({est.planned_host_pages:,} {est.unit} at {est.pages_per_second / 1e6:.1f} M/s "
        f"measured here, {est.physical_pages:,} physical pages)"
    )
