"""The published measurements the drive files in docs/drives/ are fitted to, each as the
simulator runs it: the same workload, run length and statistic as the measurement."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from overprov import engine, presets

DRIVES = Path(__file__).resolve().parents[2] / "docs" / "drives"


def _run(drive: str, scale: str | None, override: dict[str, Any]) -> tuple[dict, float]:
    cfg, factor = presets.preset_config(str(DRIVES / drive), scale)
    return engine.run(engine.merge(cfg, override)), factor


def filled_randwrite_iops(
    drive: str, extra_op_percent: float, scale: str = "32GiB", minutes: float = 30.0
) -> float:
    """fio 4k randwrite QD32 on a drive filled sequentially at this OP, for `minutes`: the mean
    IOPS over the last 5 minutes. Simulated time runs `factor` times faster on a drive scaled by
    `factor` (a drive write takes that much less time), so minutes are scaled with it. A seeded
    simulation: the figure of the same arguments, however given, is simulated once per process."""
    return _filled_randwrite_iops(drive, float(extra_op_percent), scale, float(minutes))


@functools.cache
def _filled_randwrite_iops(
    drive: str, extra_op_percent: float, scale: str, minutes: float
) -> float:
    _, factor = presets.preset_config(str(DRIVES / drive), scale)
    minute_s = 60.0 * factor
    rep, _ = _run(
        drive,
        scale,
        {
            "geometry": {"extra_op_percent": extra_op_percent},
            "precondition": {"kind": "sequential"},
            "workload": {"pattern": "uniform", "request_bytes": 4096, "read_percent": 0.0},
            "run": {"warmup_drive_writes": 0.0, "drive_writes": 50.0},
            "timing": {
                "host": {"queue_depth": 32, "mode": "closed"},
                "interval_s": minute_s,
                "duration_s": minutes * minute_s,
            },
        },
    )
    rows = rep["timed"]["intervals"][-5:]
    return sum(r["iops"] for r in rows) / len(rows)


def jesd219_waf(drive: str, user_bytes: int, drive_writes: float, scale: str = "8GiB") -> float:
    """JESD219A's enterprise workload (its transfer-size mix and address skew) from secure erase
    (nothing written, everything trimmed) for `drive_writes` of the user capacity written; the
    WAF over the whole run (NAND bytes / host bytes), as SMART counters give it."""
    cfg, factor = presets.preset_config(str(DRIVES / drive), scale)
    geometry = {k: v for k, v in cfg["geometry"].items() if k != "extra_op_percent"}
    geometry["user_bytes"] = int(user_bytes * factor)
    cfg["geometry"] = geometry
    rep = engine.run(
        engine.merge(
            cfg,
            {
                "workload": {"pattern": "jesd219"},
                "precondition": {"kind": "none"},
                "run": {"warmup_drive_writes": 0.0, "drive_writes": drive_writes},
                "timing": {"enabled": False},
            },
        )
    )
    return rep["measured"]["waf"]


def write_cache_off_iops(
    drive: str, scale: str = "4GiB", plp: bool | None = None, seconds: float = 20.0
) -> float:
    """fio 4k randrw 70% reads, QD8, on a filled drive with its write cache off (every write
    write-through, as `hdparm -W0` makes it): completed requests per simulated second over
    `seconds`. `plp` overrides the drive's power-loss protection."""
    cfg, _ = presets.preset_config(str(DRIVES / drive) if drive.endswith(".toml") else drive, scale)
    override: dict[str, Any] = {
        "geometry": {"extra_op_percent": 0.0},
        "precondition": {"kind": "sequential"},
        "workload": {"pattern": "uniform", "request_bytes": 4096, "read_percent": 70.0},
        "run": {"warmup_drive_writes": 0.0, "drive_writes": 50.0},
        "timing": {
            "host": {"queue_depth": 8, "mode": "closed", "write_through": True},
            "duration_s": seconds,
        },
    }
    if plp is not None:
        override["timing"]["buffer"] = {"power_loss_protected": plp}
    rep = engine.run(engine.merge(cfg, override))
    return rep["timed"]["ios"] / rep["timed"]["simulated_s"]
