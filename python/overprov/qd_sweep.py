"""A queue-depth sweep of timed simulations, as the SNIA PTS and the tools built on it (TKperf,
CloudHarmony, fio-plot, ezFIO) show a drive: latency against IOPS as the queue depth rises, one
line per OP level, with the knee where latency takes off.

``overprov simulate --qd 1,2,4,8,16,32 --extra-op 0,20`` runs one timed simulation per (OP
level, queue depth) through the ordinary sweep (:func:`expand` makes the configs). Each point's
figures come from the run's steady window (``overprov.steady_window``: the SNIA rule, or the last
fifth labelled NOT steady): IOPS is the window's mean, p99 and p99.9 the median over the window
of each interval's percentile, and the mean latency is Little's law for a closed loop,
outstanding I/Os ÷ IOPS (jobs × QD ÷ IOPS).

The knee (:func:`find_knee`): the last queue depth before the first step that adds less than 10%
IOPS while p99 grows by more than 50% — past it, more queued I/O only waits.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from overprov.errors import ConfigError
from overprov.steady_window import steady_window, window_percentile
from overprov.units import human_bytes
from overprov.workload_text import describe_workload

__all__ = [
    "IOPS_GAIN_BELOW",
    "P99_GROWTH_ABOVE",
    "QdPoint",
    "expand",
    "find_knee",
    "format_qd_table",
    "knee_rule_text",
    "sweep_levels",
    "pts_header",
]

#: The knee rule: a step up in QD that adds less than this share of IOPS ...
IOPS_GAIN_BELOW = 0.10
#: ... while p99 grows by more than this share.
P99_GROWTH_ABOVE = 0.50


def knee_rule_text() -> str:
    return (
        f"the last QD before a step that adds < {IOPS_GAIN_BELOW:.0%} IOPS while p99 "
        f"grows > {P99_GROWTH_ABOVE:.0%}"
    )


def expand(configs: Sequence[dict[str, Any]], qds: Sequence[int] | None) -> list[dict[str, Any]]:
    """One config per (config, queue depth) when ``qds`` holds more than one value: OP level
    first, then QD, in the order given. One value (or none) leaves the configs as they are."""
    if not qds or len(qds) < 2:
        return list(configs)
    if len(set(qds)) != len(qds):
        raise ConfigError(f"--qd: {','.join(map(str, qds))} repeats a queue depth")
    out = []
    for cfg in configs:
        host = ((cfg.get("timing") or {}).get("host")) or {}
        if host.get("mode") == "open":
            raise ConfigError("--qd: a list sweeps the closed loop's depth; leave out --open-iops")
        for qd in qds:
            c = copy.deepcopy(cfg)
            timing = c.setdefault("timing", {})
            timing["enabled"] = True
            timing.setdefault("host", {})["queue_depth"] = qd
            out.append(c)
    return out


@dataclass(frozen=True)
class QdPoint:
    """One queue depth of one OP level: its steady-window figures."""

    qd: int
    iops: float
    mean_us: float | None  # Little's law: jobs × QD ÷ IOPS
    p99_us: float | None
    p99_9_us: float | None
    steady: bool  # False: no window met the SNIA rule; the last fifth stands in

    def to_dict(self) -> dict[str, Any]:
        return {
            "qd": self.qd,
            "iops": self.iops,
            "mean_latency_us": self.mean_us,
            "p99_us": self.p99_us,
            "p99_9_us": self.p99_9_us,
            "steady": self.steady,
        }


def _qd(run: Mapping[str, Any]) -> int | None:
    host = (((run.get("config") or {}).get("timing") or {}).get("host")) or {}
    if host.get("mode", "closed") != "closed":
        return None
    qd = host.get("queue_depth")
    return int(qd) if isinstance(qd, int) and not isinstance(qd, bool) else None


def _op_level(run: Mapping[str, Any]) -> float:
    geo = (run.get("config") or {}).get("geometry") or {}
    extra = geo.get("extra_op_percent")
    if isinstance(extra, int | float):
        return float(extra)
    return round(float((run.get("geometry") or {}).get("rho", 0.0)) * 100, 2)


def point(run: Mapping[str, Any]) -> QdPoint | None:
    """The figures of one timed closed-loop run, or None (untimed, open loop, no intervals)."""
    timed = run.get("timed")
    qd = _qd(run)
    if not isinstance(timed, Mapping) or qd is None:
        return None
    sw = steady_window(timed)
    if sw is None or sw.iops <= 0:
        return None
    host = run["config"]["timing"]["host"]
    jobs = host.get("numjobs", 1) if isinstance(host.get("numjobs"), int) else 1
    return QdPoint(
        qd=qd,
        iops=sw.iops,
        mean_us=jobs * qd / sw.iops * 1e6,
        p99_us=window_percentile(timed, sw, "p99"),
        p99_9_us=window_percentile(timed, sw, "p99_9"),
        steady=sw.steady,
    )


def sweep_levels(runs: Sequence[Mapping[str, Any]]) -> dict[float, list[QdPoint]]:
    """Points per OP level (percent: extra OP, or ρ when no extra OP was given), by rising QD;
    empty unless the runs hold more than one queue depth."""
    levels: dict[float, list[QdPoint]] = {}
    for run in runs:
        p = point(run)
        if p is not None:
            levels.setdefault(_op_level(run), []).append(p)
    if len({p.qd for pts in levels.values() for p in pts}) < 2:
        return {}
    return {op: sorted(pts, key=lambda p: p.qd) for op, pts in sorted(levels.items())}


def find_knee(points: Sequence[QdPoint]) -> QdPoint | None:
    """The knee (module docstring): None when no step meets the rule."""
    for a, b in zip(points, points[1:], strict=False):
        if a.p99_us is None or b.p99_us is None or a.iops <= 0 or a.p99_us <= 0:
            continue
        if b.iops / a.iops - 1 < IOPS_GAIN_BELOW and b.p99_us / a.p99_us - 1 > P99_GROWTH_ABOVE:
            return a
    return None


def pts_header(runs: Sequence[Mapping[str, Any]], preset: str | None) -> list[tuple[str, str]]:
    """A PTS-style test header: device, capacity, OP levels, workload, QD list, steady rule."""
    first = runs[0]
    geo = first.get("geometry") or {}
    cfg_geo = (first.get("config") or {}).get("geometry") or {}
    levels = sweep_levels(runs)
    qds = sorted({p.qd for pts in levels.values() for p in pts})
    host = ((first.get("config") or {}).get("timing") or {}).get("host") or {}
    page = geo.get("page_size_bytes") or 4096
    user = [float((r.get("geometry") or {}).get("user_pages", 0)) * page for r in runs]
    advertised = cfg_geo.get("advertised_bytes")
    return [
        ("device", f"simulated: {preset}" if preset else "simulated: hand-configured drive"),
        (
            "capacity",
            (f"advertised {human_bytes(float(advertised))}; " if advertised else "")
            + f"user {human_bytes(min(user))}–{human_bytes(max(user))}",
        ),
        (
            "OP levels",
            ", ".join(
                f"{op:g}%" + (" extra OP" if cfg_geo.get("extra_op_percent") is not None else " ρ")
                for op in levels
            ),
        ),
        ("workload", describe_workload(first)),
        (
            "queue depth",
            ", ".join(map(str, qds))
            + f" (closed loop, {host.get('numjobs', 1)} job"
            + ("s" if host.get("numjobs", 1) != 1 else "")
            + ")",
        ),
        (
            "steady state",
            "SNIA PTS rule over five rounds (range within 20%, fitted excursion within 10% of "
            "the mean); a point that never met it uses its last fifth, marked NOT steady",
        ),
        (
            "figures",
            "IOPS: window mean; p99, p99.9: median of the window's intervals; "
            "mean: Little's law (jobs × QD ÷ IOPS)",
        ),
        ("knee", knee_rule_text()),
    ]


def format_qd_table(runs: Sequence[Mapping[str, Any]]) -> str | None:
    """simulate's text table of a QD sweep (None when the runs are not one)."""
    levels = sweep_levels(runs)
    if not levels:
        return None
    lines = [
        "",
        "queue-depth sweep — latency vs IOPS per OP level (steady window of each run)",
        f"{'OP':>7} {'QD':>4} {'IOPS':>10} {'mean µs':>9} {'p99 µs':>9} {'p99.9 µs':>9}  note",
    ]
    for op, pts in levels.items():
        knee = find_knee(pts)
        for p in pts:
            note = ("knee " if p is knee else "") + ("" if p.steady else "NOT steady")
            lines.append(
                f"{op:>6g}% {p.qd:>4} {p.iops:>10,.0f} "
                + " ".join(
                    f"{v:>9,.0f}" if v is not None else f"{'-':>9}"
                    for v in (p.mean_us, p.p99_us, p.p99_9_us)
                )
                + f"  {note.strip()}"
            )
        if knee is None:
            lines.append(f"{op:>6g}%  no knee: every step up in QD still adds IOPS or keeps p99")
    lines.append("knee: " + knee_rule_text())
    return "\n".join(lines)
