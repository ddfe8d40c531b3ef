"""Write cliff and IO consistency, from one run of random writes from fresh.

* Write cliff: bytes written from fresh until the fresh-out-of-box (FOB) level ends, the FOB
  level and the level after. On a real target the end is the first lasting drop of IOPS
  (:func:`find_cliff`); on a simulated drive it is the simulator's FOB → transition boundary,
  the first interval in which garbage collection ran (:func:`sim_cliff`; the IOPS rule is shown
  beside it: at a small scale the unscaled write buffer makes an early drop of its own). It
  locates; it does not judge (verdict ``info``).
* IO consistency over the last drive write of the run (named by :func:`window_name`: a
  "steady window" only when the simulator marked all of it steady): p99, p99.99 and the
  largest completion latency. Passes when p99.99 stays within ``--tail-ratio`` (default
  ``OUTLIER_MAX_RATIO``) × p99, and, when ``--qos-us`` gives a data sheet's 99.99% QoS figure,
  within it. No standard sets a ratio: SNIA's PTS reports response-time percentiles (average,
  99.999%, maximum) without limits, and data sheets state absolute QoS limits per product and
  queue depth; the default ratio is our choice (docs/qualify.md).

Real targets: timed fio rounds (per-second IOPS logs) until ``cliff_drive_writes`` are written;
the window is the last round. Simulated drives: one run of the core with short intervals
(``SIM_INTERVAL_S`` of simulated time); the window's p99 is the median of its intervals'
p99, its p99.99 and maximum the largest of theirs.
"""

from __future__ import annotations

import statistics
from typing import Any

from overprov.profile.targets import Target
from overprov.qualify import bench
from overprov.qualify.verdict import FAIL, INCONCLUSIVE, INFO, PASS, Verdict
from overprov.steady_window import window_name
from overprov.units import plural

CLIFF_MARGIN = 0.25
"""A drop counts when IOPS stay more than 25% below the fresh level for the rest of the run."""
OUTLIER_MAX_RATIO = 10.0
"""Default ``--tail-ratio``: p99.99 within one decade of p99, a project choice (a drive whose
tail past p99 stays within a factor of ten; GC stalls of a drive with no spare area reach
tens of times p99). No public standard sets a ratio."""
SIM_INTERVAL_S = 0.05


def find_cliff(points: list[tuple[float, int]]) -> dict[str, Any]:
    """``points``: (IOPS, host bytes written by the end of the interval) in time order.

    The cliff is the first interval (from the fourth on) from which the median of each
    interval and its two neighbours stays more than ``CLIFF_MARGIN`` below the fresh level,
    the median of the intervals before it; the level after is the median of the last fifth of
    the run."""
    if len(points) < 6:
        return {"found": False, "intervals": len(points)}
    iops = [p[0] for p in points]
    after = statistics.median(iops[-max(1, len(iops) // 5) :])
    centred = [statistics.median(iops[max(0, i - 1) : i + 2]) for i in range(len(iops))]
    for i in range(3, len(centred) - 1):
        fob = statistics.median(iops[:i])
        if max(centred[i:]) < fob * (1 - CLIFF_MARGIN):
            return {
                "found": True,
                "fob_iops": fob,
                "cliff_bytes": points[i - 1][1],
                "after_iops": after,
                "drop_fraction": 1.0 - after / fob,
                "intervals": len(points),
            }
    return {"found": False, "after_iops": after, "intervals": len(points)}


def sim_cliff(intervals: list[dict[str, Any]]) -> dict[str, Any]:
    """The simulator's own FOB → transition boundary (the first interval in which garbage
    collection ran): bytes written before it, the median FOB IOPS, the median of the last
    fifth after it."""
    gc = next((i for i, x in enumerate(intervals) if x["state"] != "fob"), None)
    if not gc:
        return {"found": False, "intervals": len(intervals)}
    fob = statistics.median(x["iops"] for x in intervals[:gc])
    after = statistics.median(x["iops"] for x in intervals[-max(1, len(intervals) // 5) :])
    return {
        "found": True,
        "fob_iops": fob,
        "cliff_bytes": int(intervals[gc - 1]["host_bytes_total"]),
        "after_iops": after,
        "drop_fraction": 1.0 - after / fob if fob > 0 else None,
        "intervals": len(intervals),
    }


def measure_sim(spec: str, s: bench.QualifySettings) -> tuple[dict[str, Any], str]:
    t = bench.sim_run(
        spec,
        {
            "precondition": {"kind": "none"},
            "timing": {
                "host": {"mode": "closed", "queue_depth": s.qd},
                "interval_s": SIM_INTERVAL_S,
            },
            "run": {"warmup_drive_writes": 0.0, "drive_writes": s.cliff_drive_writes},
        },
    )
    intervals = t["intervals"]
    span = intervals[-1]["host_bytes_total"] / s.cliff_drive_writes if intervals else 0
    cliff = sim_cliff(intervals)
    cliff["iops_rule"] = find_cliff([(i["iops"], int(i["host_bytes_total"])) for i in intervals])
    window = [
        i for i in intervals if i["host_bytes_total"] > intervals[-1]["host_bytes_total"] - span
    ]
    # an interval in which no write completed (a long GC stall) has no latency figures
    lat = [i.get("latency_us") or {} for i in window]
    p99 = [x["p99"] for x in lat if x.get("p99") is not None]
    p9999 = [x["p99_99"] for x in lat if x.get("p99_99") is not None]
    mx = [x["max"] for x in lat if x.get("max") is not None]
    figures = {
        "cliff": cliff,
        "capacity_bytes": int(span),
        "steady_iops": t.get("steady_iops"),
        "window_states": sorted({i["state"] for i in window}),
        "latency_p99_us": statistics.median(p99) if p99 else None,
        "latency_p99_99_us": max(p9999) if p9999 else None,
        "latency_max_us": max(mx) if mx else None,
    }
    method = (
        f"simulated: random writes (bs={s.bs_bytes}, QD{s.qd}) from fresh for "
        f"{s.cliff_drive_writes:g} drive writes, intervals of {SIM_INTERVAL_S} simulated s; "
        f"latency over the last drive write ({window_name(figures)})"
    )
    return figures, method


def measure_fio(target: Target, s: bench.QualifySettings) -> tuple[dict[str, Any], str]:
    span = target.capacity_bytes
    target.purge()
    rounds = []
    written = 0
    while written < s.cliff_drive_writes * span and len(rounds) < s.max_rounds:
        r = target.run(bench.round_spec(f"cliff-r{len(rounds) + 1:02d}", span, s))
        rounds.append(r)
        written += r.combined.bytes_written
    points: list[tuple[float, int]] = []
    total = 0
    for r in rounds:
        for iops in r.combined.iops_series:
            total += int(iops * s.bs_bytes)
            points.append((iops, total))
    if len(points) < len(rounds):  # rounds too short for full seconds: one point per round
        points, total = [], 0
        for r in rounds:
            total += r.combined.bytes_written
            points.append((r.combined.iops, total))
    last = rounds[-1].combined.latency_us
    figures = {
        "cliff": find_cliff(points),
        "capacity_bytes": span,
        "steady_iops": rounds[-1].combined.iops,
        "window_states": [],
        "latency_p99_us": last.get("p99"),
        "latency_p99_99_us": last.get("p99_99"),
        "latency_max_us": last.get("max"),
    }
    method = (
        f"fio on the target: purge; {plural(len(rounds), 'round')} of {s.round_seconds} s random "
        f"writes (bs={s.bs_bytes}, QD{s.qd}) from fresh, {written / span:.2f} drive writes; "
        f"{'per-second IOPS logs' if len(points) > len(rounds) else 'IOPS per round'}; "
        "latency over the last round (not judged steady)"
    )
    return figures, method


def judge(
    figures: dict[str, Any],
    method: str,
    max_ratio: float = OUTLIER_MAX_RATIO,
    qos_us: float | None = None,
) -> list[Verdict]:
    """The write-cliff verdict (``info``) and the consistency verdict: p99.99 ≤ ``max_ratio``
    × p99 and, when given, p99.99 ≤ ``qos_us`` (a data sheet's 99.99% QoS figure)."""
    cliff = figures["cliff"]
    cap = figures["capacity_bytes"]
    if cliff["found"]:
        where = (
            f"write cliff after {cliff['cliff_bytes']:,} bytes written from fresh "
            f"({cliff['cliff_bytes'] / cap:.2f} drive writes): fresh-out-of-box "
            f"{cliff['fob_iops']:,.0f} IOPS, {cliff['after_iops']:,.0f} after "
            f"({cliff['drop_fraction']:.0%} lower)"
        )
    else:
        where = (
            f"no write cliff: IOPS never stayed more than {CLIFF_MARGIN:.0%} below the "
            f"fresh level over {cliff['intervals']} intervals"
        )
    out = [Verdict("write_cliff", INFO, where, figures, method)]
    p99, p9999 = figures["latency_p99_us"], figures["latency_p99_99_us"]
    if not p99 or p9999 is None:
        out.append(
            Verdict("consistency", INCONCLUSIVE, "no latency percentiles measured", figures, method)
        )
        return out
    ratio = p9999 / p99
    fig = {**figures, "outlier_ratio": ratio, "outlier_max_ratio": max_ratio,
           "qos_p99_99_us": qos_us}  # fmt: skip
    mx = figures["latency_max_us"]
    said = (
        f"{window_name(figures)}: p99 {p99:,.0f} µs, p99.99 {p9999:,.0f} µs ({ratio:.1f}× p99), "
        f"max {mx:,.0f} µs"
        if mx is not None
        else f"p99 {p99:,.0f} µs, p99.99 {p9999:,.0f} µs"
    )
    broken = []
    if ratio > max_ratio:
        broken.append(f"p99.99 above {max_ratio:g}× p99")
    if qos_us is not None and p9999 > qos_us:
        broken.append(f"p99.99 above the {qos_us:,.0f} µs QoS limit")
    if not broken:
        limits = f"within {max_ratio:g}× p99" + (
            f" and {qos_us:,.0f} µs" if qos_us is not None else ""
        )
        out.append(
            Verdict("consistency", PASS, f"latency outliers bounded ({limits}): {said}", fig,
                    method)
        )  # fmt: skip
    else:
        out.append(
            Verdict("consistency", FAIL, f"latency outliers ({'; '.join(broken)}): {said}", fig,
                    method)
        )  # fmt: skip
    return out
