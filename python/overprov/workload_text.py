"""What a simulated run's workload was, in words: one description for the CLI, the report, plan
and calibrate.

The core reports the workload it ran as one field, ``workload`` (``kind`` "synthetic": the
pattern and its mix; ``kind`` "trace": the trace's format, mix, footprint, passes and fold).
Files written before that field existed are read from ``config.workload`` and ``trace``. A trace
run's ``config.workload`` still holds the synthetic defaults (uniform, 4 KiB): nothing here reads
it for a trace.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from overprov.units import human_bytes

__all__ = [
    "describe_run_length",
    "describe_synthetic",
    "describe_workload",
    "fold_note",
    "is_trace",
    "is_uniform",
    "workload_of",
    "zones_text",
]


def workload_of(run: Mapping[str, Any]) -> dict[str, Any]:
    """The run's workload field (``kind`` synthetic or trace)."""
    w = run.get("workload")
    if isinstance(w, Mapping) and w.get("kind") in ("synthetic", "trace"):
        return dict(w)
    cfg = run.get("config") or {}
    trace = run.get("trace")
    if isinstance(trace, Mapping):
        section = cfg.get("trace") or {}
        user = int((run.get("geometry") or {}).get("user_bytes") or 0)
        return {
            "kind": "trace",
            **trace,
            "fold": section.get("fold", "modulo"),
            "time_scale": section.get("time_scale", 1.0),
            "user_bytes": user,
            "folded": int(trace.get("max_end_bytes") or 0) > user,
        }
    return {"kind": "synthetic", **(cfg.get("workload") or {})}


def is_trace(run: Mapping[str, Any]) -> bool:
    return workload_of(run)["kind"] == "trace"


def is_uniform(run: Mapping[str, Any]) -> bool:
    """Uniform random single-page writes over the whole user space: what the analytic WAF
    models assume. Never true of a trace."""
    w = workload_of(run)
    page = (run.get("geometry") or {}).get("page_size_bytes")
    return (
        w["kind"] == "synthetic"
        and w.get("pattern") == "uniform"
        and w.get("span_percent", 100) == 100
        and not w.get("read_percent")
        and not w.get("trim_percent")
        and not w.get("bssplit")
        and w.get("request_bytes", page) == page
    )


def zones_text(zones: list[dict[str, float]]) -> str:
    """Zones back in fio's syntax: "50/5:30/15:20/80" (a sequential zone ends ``/seq``)."""
    return ":".join(
        f"{z['access_percent']:g}/{z['space_percent']:g}{'/seq' if z.get('sequential') else ''}"
        for z in zones
    )


def _size_text(request_bytes: int) -> str:
    if request_bytes % 1024 == 0:
        return f"{request_bytes // 1024} KiB requests"
    return f"{request_bytes} B requests"


def describe_synthetic(w: Mapping[str, Any]) -> str:
    """A synthetic workload (``config.workload`` or its overrides) in words."""
    pattern = w.get("pattern", "uniform")
    if pattern == "jesd219":
        text = (
            "the JEDEC JESD219 endurance workload (its request-size mix and its 50/30/20 "
            "address skew over 5/15/80% of the span)"
        )
    elif pattern == "hot-cold":
        a, s = w.get("hot_access_percent", 80), w.get("hot_space_percent", 20)
        text = f"hot/cold random writes ({a:g}% of writes to {s:g}% of the span)"
    elif pattern == "zipf":
        text = f"Zipf-distributed random writes (θ = {w.get('zipf_theta', 0.99):g})"
    elif pattern == "zoned":
        text = f"zoned random writes ({zones_text(w.get('zones') or [])})"
    elif pattern == "sequential":
        text = "sequential writes"
    else:
        text = f"{pattern} random writes"
    if w.get("zones_scattered"):
        text += ", the zones' pages scattered over the span"
    if pattern != "sequential" and w.get("random_map"):
        text += " (random map)"
    if pattern != "jesd219":
        if w.get("bssplit"):
            text += f", request sizes {w['bssplit']}"
        elif w.get("request_bytes"):
            text += ", " + _size_text(int(w["request_bytes"]))
    if w.get("span_percent") not in (None, 100, 100.0):
        text += f", first {w['span_percent']:g}% of the LBAs"
    for key, what in (("read_percent", "reads"), ("trim_percent", "trims")):
        if w.get(key):
            text += f", {w[key]:g}% {what}"
    return text


def _share(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole else "0%"


def describe_trace(w: Mapping[str, Any]) -> str:
    """A trace workload field in words: file, format, mix, footprint."""
    read, write, trim = (w.get(k) or {} for k in ("read", "write", "trim"))
    requests = sum(int(x.get("requests") or 0) for x in (read, write, trim))
    mix = ", ".join(
        f"{what} {_share(int(x.get('requests') or 0), requests)}"
        for what, x in (("reads", read), ("writes", write), ("trims", trim))
        if x.get("requests")
    )
    text = (
        f"trace {w.get('path')} ({w.get('format')}): {int(w.get('records') or 0):,} records "
        f"replayed ({mix or 'none'} of requests; {human_bytes(write.get('bytes') or 0)} "
        f"written, {human_bytes(read.get('bytes') or 0)} read)"
    )
    if w.get("max_end_bytes"):
        text += f", reaching {human_bytes(w['max_end_bytes'])}"
        if w.get("user_bytes"):
            text += f" of {human_bytes(w['user_bytes'])} user space"
    return text


def describe_workload(run: Mapping[str, Any]) -> str:
    """The run's workload in one line, synthetic or trace."""
    w = workload_of(run)
    return describe_trace(w) if w["kind"] == "trace" else describe_synthetic(w)


def describe_run_length(run: Mapping[str, Any]) -> str:
    """How long the workload ran: drive writes for a synthetic workload, passes for a trace."""
    w = workload_of(run)
    cfg = run.get("config") or {}
    pre = (cfg.get("precondition") or {}).get("kind", "?")
    if w["kind"] == "trace":
        passes = int(w.get("passes") or 0)
        warm = int(w.get("warmup_passes") or 0)
        return (
            f"precondition {pre}, {warm} warm-up + {passes - warm} measured pass(es) of the "
            f"trace, {w.get('fold', 'modulo')} fold"
        )
    r = cfg.get("run") or {}
    return (
        f"precondition {pre}, warm-up {r.get('warmup_drive_writes', '?'):g} + measured "
        f"{r.get('drive_writes', '?'):g} drive writes"
        if isinstance(r.get("drive_writes"), int | float)
        and isinstance(r.get("warmup_drive_writes"), int | float)
        else f"precondition {pre}"
    )


def fold_note(max_end_bytes: float, user_bytes: float, fold: str) -> str | None:
    """What folding does to a trace that reaches past the simulated user space (None when it
    fits)."""
    if not max_end_bytes or max_end_bytes <= user_bytes:
        return None
    return (
        f"the trace reaches {human_bytes(max_end_bytes)}, the drive has "
        f"{human_bytes(user_bytes)} of user space: its addresses are folded ({fold}), which "
        "packs its footprint closer than on a drive that holds it; simulate a larger drive "
        "(--scale) to keep it"
    )
