"""What a profile run records in results.json (``overprov.results``: the format, its schema
and checks): the document of a run that has not started, each round, each phase's summary."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from overprov.profile.settings import ProfileSettings, op_label
from overprov.profile.targets import RoundResult, now_iso
from overprov.results import FORMAT, SCHEMA, SCHEMA_VERSION


def round_record(index: int, r: RoundResult) -> dict[str, Any]:
    """One round as results.json keeps it: the combined figures and each member's."""
    c = r.combined
    return {
        "index": index,
        "label": r.label,
        "started": r.started,
        "finished": r.finished,
        "duration_seconds": c.duration_s,
        "iops": c.iops,
        "bytes_written": c.bytes_written,
        "latency_us": c.latency_us,
        "iops_series": c.iops_series,
        "fio_steadystate": c.fio_steadystate,
        "members": [
            {
                "name": m.name,
                "iops": m.iops,
                "bytes_written": m.bytes_written,
                "duration_seconds": m.duration_s,
                "latency_us": m.latency_us,
                "iops_series": m.iops_series,
                "fio_steadystate": m.fio_steadystate,
            }
            for m in r.members
        ],
        "files": r.files,
    }


def update_phase(phase: dict[str, Any], verdict: Any, member_names: Sequence[str]) -> None:
    """The phase's summary fields from its rounds and the verdict on them."""
    rounds = phase["rounds"]
    phase["verdict"] = verdict.to_dict()
    phase["steady"] = bool(verdict.steady)
    first = verdict.window_first_round
    before = sum(r["bytes_written"] for r in rounds[: first - 1]) if first else 0
    span = phase.get("span_bytes") or 0
    phase["written_before_window_bytes"] = before
    phase["written_before_window_drive_writes"] = before / span if span else None
    phase["window_iops_mean"] = verdict.mean
    phase["steady_iops"] = verdict.mean if verdict.steady else None
    phase["bytes_written"] = sum(r["bytes_written"] for r in rounds)
    phase["duration_seconds"] = math.fsum(r["duration_seconds"] for r in rounds)
    last = rounds[-1] if rounds else None
    phase["latency_us"] = dict(last["latency_us"]) if last else None
    phase["latency_round"] = last["index"] if last else None
    phase["fio_steadystate"] = last["fio_steadystate"] if last else None
    w = len(verdict.window)
    if any("host_share" in r for r in rounds):  # a drive ``overprov emulate`` serves
        phase["host_share"] = window_host_share(rounds[-w:] if w else rounds)
    members = []
    for i, name in enumerate(member_names):
        window = [r["members"][i]["iops"] for r in rounds[-w:]] if w else []
        members.append(
            {
                "name": name,
                "window_iops_mean": math.fsum(window) / len(window) if window else None,
                "bytes_written": sum(r["members"][i]["bytes_written"] for r in rounds),
                "latency_us": last["members"][i]["latency_us"] if last else None,
                "fio_steadystate": last["members"][i]["fio_steadystate"] if last else None,
            }
        )
    phase["members"] = members


def window_host_share(rounds: Sequence[dict[str, Any]]) -> float | None:
    """The host's share of the request time of ``rounds`` (each round's ``host_share``,
    weighted by its duration: the share of all their request-slot seconds), to 4 decimals;
    None when a round has none."""
    shares = [r.get("host_share") for r in rounds]
    seconds = math.fsum(r["duration_seconds"] for r in rounds)
    if not rounds or any(x is None for x in shares) or seconds <= 0:
        return None
    held = math.fsum(x * r["duration_seconds"] for x, r in zip(shares, rounds, strict=True))
    return round(held / seconds, 4)


def new_document(target_spec: str, settings: ProfileSettings) -> dict[str, Any]:
    """The results document of a profile that has not started: every step and phase pending."""
    from overprov import __version__

    now = now_iso()
    return {
        "schema": SCHEMA,
        "overprov_version": __version__,
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "status": "running",
        "created": now,
        "updated": now,
        "target": {"spec": target_spec, "kind": None, "capacity_bytes": None, "members": []},
        "settings": settings.to_dict(),
        "software": {},
        "steady_state_criteria": settings.criteria().to_dict(),
        "fio_steadystate_per_round": (
            f"iops_slope:{settings.fio_ss_slope_percent:g}%"
            if settings.fio_ss_slope_percent is not None
            else None
        ),
        "estimate": None,
        "steps": {
            name: {"status": "pending", "started": None, "finished": None, "detail": None}
            for name in ("identify", "fob", "purge", "precondition")
        },
        "phases": [
            {
                "extra_op_percent": float(op),
                "label": op_label(op),
                "status": "pending",
                "started": None,
                "finished": None,
                "span_bytes": None,
                "discard": None,
                "rounds": [],
                "verdict": None,
                "steady": False,
                "steady_iops": None,
                "window_iops_mean": None,
                "skipped": False,
                "skip_reason": None,
                "latency_us": None,
                "bytes_written": 0,
                "duration_seconds": 0.0,
                "fio_steadystate": None,
                "members": [],
                "csv": f"phase-{op_label(op)}.csv",
            }
            for op in settings.extra_op_percents
        ],
        "recommendation": None,
        "totals": {"bytes_written": 0, "io_seconds": 0.0},
        "runs": [],
        "error": None,
        "log": "profile.log",
    }
