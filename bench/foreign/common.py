"""Shared parts of the foreign-FTL drivers: the settling rule, provenance and the results file.

A driver runs an already-built simulator binary given by path; nothing here builds one.
"""

from __future__ import annotations

import json
import platform
import statistics
import subprocess
from datetime import UTC, datetime
from pathlib import Path

WINDOW_ROUNDS = 8  # calibrate's settling rule: the last 8 rounds agree within +-3%
WINDOW_TOLERANCE = 0.03


def settle(series: list[dict], keys: tuple[str, ...] = ("iops", "waf")) -> dict:
    """The steady window of a per-interval series: the last WINDOW_ROUNDS intervals.

    Returns the window's bounds, the mean of each key over it, and whether every key's values
    stay within +-WINDOW_TOLERANCE of their mean (range) and their first-half/second-half
    means differ by less than that (trend) -- calibrate's rule (docs/calibrate.md).
    """
    if len(series) < WINDOW_ROUNDS:
        raise ValueError(f"series has {len(series)} intervals, the window needs {WINDOW_ROUNDS}")
    window = series[-WINDOW_ROUNDS:]
    out: dict = {"first_index": len(series) - WINDOW_ROUNDS, "rounds": WINDOW_ROUNDS}
    settled = True
    for key in keys:
        vals = [r[key] for r in window if r.get(key) is not None]
        if len(vals) < 2:
            continue
        mean = statistics.fmean(vals)
        half = len(vals) // 2
        spread = (max(vals) - min(vals)) / 2 / mean
        trend = abs(statistics.fmean(vals[half:]) - statistics.fmean(vals[:half])) / mean
        out[f"{key}_mean"] = mean
        out[f"{key}_half_range"] = spread
        out[f"{key}_trend"] = trend
        settled = settled and spread <= WINDOW_TOLERANCE and trend <= WINDOW_TOLERANCE
    out["settled"] = settled
    return out


def git_commit(binary: Path) -> str | None:
    """The commit of the checkout the binary was built in, when it sits in one."""
    try:
        res = subprocess.run(
            ["git", "-C", str(binary.resolve().parent), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return res.stdout.strip()


def hardware() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {platform.machine()}, simulated time (host speed does not change the figures)"


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_results(path: Path, doc: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")
