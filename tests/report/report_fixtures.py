"""Hand-built inputs for the report tests.

``add_timed`` gives each run of a real ``overprov simulate --json`` file a ``timed`` section in
the shape the timed simulator writes: per-second intervals with IOPS, MiB/s, WAF, a
state (fob → transition → steady), latency percentiles and host bytes, a latency histogram,
``fob_iops``, ``steady_window`` (first and last interval index) and ``steady_iops`` (the
window's mean). The numbers are a fixture, not a simulation: the steady level is
``scale / WAF`` of the run (so more OP is faster, as on a drive) and the latency follows
Little's law for QD 32 with a log-normal spread. The lowest OP level never reaches steady
state, to exercise that path (the real simulator's runs at these sizes all do).
"""

from __future__ import annotations

import copy
import math
from statistics import NormalDist
from typing import Any

QD = 32
BS = 4096


def bucket_uppers_us() -> list[float]:
    """Latency bucket upper bounds, 8 per decade from 1 µs to 1 s."""
    return [round(10 ** (k / 8), 3) for k in range(0, 49)]


def lognormal_counts(median_us: float, sigma: float, total: int) -> list[int]:
    uppers = bucket_uppers_us()
    dist = NormalDist(math.log(median_us), sigma)
    cdf = [dist.cdf(math.log(u)) for u in uppers]
    cdf[-1] = 1.0
    counts = []
    prev = 0.0
    for c in cdf:
        counts.append(int(round((c - prev) * total)))
        prev = c
    return counts


def timed_section(
    steady_iops: float, *, seconds: int = 90, reach_steady: bool = True, fob_iops: float = 160_000
) -> dict[str, Any]:
    intervals = []
    host = 0.0
    total_ios = 0
    final = steady_iops if reach_steady else steady_iops * 0.8
    for t in range(1, seconds + 1):
        if t <= 12:
            state, level = "fob", fob_iops
        elif t <= 40 or not reach_steady:
            state = "transition"
            level = final + (fob_iops - final) * math.exp(-(t - 12) / 6.0)
        else:
            state, level = "steady", steady_iops
        wobble = 0.04 if state != "transition" else 0.12
        iops = level * (1.0 + wobble * math.sin(1.7 * t))
        host += iops * BS
        total_ios += int(iops)
        mean_us = QD / iops * 1e6
        intervals.append(
            {
                "time_s": float(t),
                "iops": iops,
                "mib_s": iops * BS / 2**20,
                "waf": 1.0 if state == "fob" else 2.0,
                "state": state,
                "latency_us": {
                    "p50": mean_us * 0.9,
                    "p90": mean_us * 1.6,
                    "p99": mean_us * 3.0,
                    "p99_9": mean_us * 6.0,
                    "p99_99": mean_us * 11.0,
                    "max": mean_us * 20.0,
                },
                "host_bytes_total": host,
            }
        )
    window = [seconds - 25, seconds - 1] if reach_steady else None
    return {
        "interval_s": 1.0,
        "intervals": intervals,
        "fob_iops": fob_iops,
        "steady_window": window,
        "latency_histogram": {
            "bucket_upper_us": bucket_uppers_us(),
            "counts": lognormal_counts(QD / final * 1e6, 0.6, total_ios),
        },
        "steady_iops": (
            sum(iv["iops"] for iv in intervals[window[0] : window[1] + 1]) / 25 if window else None
        ),
    }


def add_timed(doc: dict[str, Any], scale: float = 100_000.0) -> dict[str, Any]:
    """A copy of a simulate JSON document with a ``timed`` section in every run."""
    out = copy.deepcopy(doc)
    runs = out["runs"]
    for k, run in enumerate(runs):
        waf = run["measured"]["waf"]
        run["timed"] = timed_section(scale / waf, reach_steady=k > 0)
    return out
