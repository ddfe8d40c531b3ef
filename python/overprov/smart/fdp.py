"""NVMe Flexible Data Placement: the FDP events log read from nvme-cli's output, and the write
amplification of an endurance group split across its reclaim-unit handles.

The FDP statistics log (22h) counts, per endurance group, host bytes with metadata written
(HBMW), media bytes with metadata written (MBMW) and media bytes erased (MBE): its WAF is
MBMW / HBMW (``data/nvme_log_sources.toml`` row ``fdp-stats``, read by ``nvme_logs``). The FDP
events log (23h) holds the controller's latest events; a Media Reallocated event (type 80h)
says how many logical blocks the controller moved (NLBAM) out of a reclaim unit of one
placement handle. Those moves are the garbage-collection writes the handle caused, so their
split across handles apportions the group's extra media writes (MBMW - HBMW). The log holds
only the latest events, and only while Media Reallocated events are enabled (``nvme fdp
set-events``), so the split is an estimate; its error is stated as bounds: the moves the events
show are certain, the extra writes they do not explain could belong to any handle.

nvme-cli prints the events (``nvme fdp events DEV --endgrp-id=N``) in src/nvme-print-stdout.c
``stdout_fdp_events`` ("Event[i]", "  Event Type: 0x80 (Media Reallocated)", "  Placement
Identifier (PID): 0x1", "  Number of LBAs Moved (NLBAM): N", "  Reclaim Group Identifier: N",
"  Reclaim Unit Handle Identifier N") and src/nvme-print-json.c ``json_nvme_fdp_events``
({"n", "events": [{"type", "fdpef", "pid", "timestamp", "nsid", "nlbam", "lba"}]}: no reclaim
group or handle, so JSON events are grouped by placement identifier).

Library code: raises ``NvmeLogError`` naming the file and the line or event.
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.smart.nvme_logs import LogReading, NvmeLogError

MEDIA_REALLOCATED = 0x80
# FDP event flags (NVM Express Base Specification, FDP Event: FDPEF)
FLAG_PID_VALID = 1 << 0
FLAG_LOCATION_VALID = 1 << 2

_EVENT = re.compile(r"(?m)^Event\[(\d+)\]\s*$")
_FIELDS = {
    "type": re.compile(r"(?m)^[ \t]*Event Type:\s*(0x[0-9a-fA-F]+|\d+)"),
    "pid": re.compile(r"(?m)^[ \t]*Placement Identifier \(PID\):\s*(0x[0-9a-fA-F]+|\d+)\s*$"),
    "nlbam": re.compile(r"(?m)^[ \t]*Number of LBAs Moved \(NLBAM\):\s*(\d+)\s*$"),
    "rgid": re.compile(r"(?m)^[ \t]*Reclaim Group Identifier:\s*(\d+)\s*$"),
    "ruhid": re.compile(r"(?m)^[ \t]*Reclaim Unit Handle Identifier\s*:?\s*(\d+)\s*$"),
}


@dataclass(frozen=True)
class FdpEvent:
    """One event of the FDP events log; None where the event does not carry the field."""

    index: int
    type: int
    pid: int | None
    nlbam: int | None  # logical blocks moved (Media Reallocated only)
    rgid: int | None
    ruhid: int | None
    where: str

    @property
    def handle(self) -> str:
        """The handle the event names: its reclaim group and handle when printed, else its
        placement identifier."""
        if self.ruhid is not None:
            return f"RG {self.rgid if self.rgid is not None else '?'} / RUH {self.ruhid}"
        if self.pid is not None:
            return f"PID {self.pid:#x}"
        return "unknown"


def _int(text: str) -> int:
    return int(text, 16) if text.lower().startswith("0x") else int(text)


def _text_events(text: str, file: str) -> list[FdpEvent]:
    starts = list(_EVENT.finditer(text))
    events = []
    for k, m in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
        block = text[m.start() : end]
        line = text.count("\n", 0, m.start()) + 1
        found = {key: rx.search(block) for key, rx in _FIELDS.items()}
        if found["type"] is None:
            raise NvmeLogError(f"{file}: line {line}: Event[{m.group(1)}] has no Event Type")
        value = {k: (None if v is None else _int(v.group(1))) for k, v in found.items()}
        events.append(
            FdpEvent(
                int(m.group(1)),
                value["type"] or 0,
                value["pid"],
                value["nlbam"],
                value["rgid"],
                value["ruhid"],
                f"line {line}",
            )
        )
    return events


def _json_events(data: Any, file: str) -> list[FdpEvent]:
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise NvmeLogError(f"{file}: not nvme-cli's FDP events JSON (no 'events' list)")
    events = []
    for i, e in enumerate(data["events"]):
        where = f"events[{i}]"
        if not isinstance(e, dict) or not isinstance(e.get("type"), int):
            raise NvmeLogError(f"{file}: {where}: an event needs an integer 'type'")
        flags = e.get("fdpef", 0)
        pid = e.get("pid") if isinstance(flags, int) and flags & FLAG_PID_VALID else None
        nlbam = e.get("nlbam")
        if nlbam is not None and (not isinstance(nlbam, int) or nlbam < 0):
            raise NvmeLogError(f"{file}: {where}.nlbam: expected a count, got {nlbam!r}")
        events.append(FdpEvent(i, e["type"], pid, nlbam, None, None, where))
    return events


def parse_fdp_events(text: str, file: str = "<text>") -> list[FdpEvent]:
    """The events of a saved ``nvme fdp events`` output (text or ``-o json``)."""
    if text.lstrip().startswith("{"):
        try:
            data = inputs.decode_json(text, file, "saved nvme-cli FDP events JSON")
        except json.JSONDecodeError as exc:
            raise NvmeLogError(f"{file}: line {exc.lineno}: not valid JSON: {exc.msg}") from None
        return _json_events(data, file)
    events = _text_events(text, file)
    if not events and text.strip():
        raise NvmeLogError(f"{file}: no 'Event[N]' of nvme-cli's FDP events output in this text")
    return events


@dataclass(frozen=True)
class HandleEstimate:
    """The garbage-collection writes one handle caused, as far as the events tell."""

    handle: str
    events: int
    lbas_moved: int
    share_of_moves: float  # of all the blocks the events say were moved
    moved_bytes: int | None  # lbas_moved x the LBA size, when given
    # the handle's part of the group's extra media writes (MBMW - HBMW): the share of the
    # moves applied to it, with bounds (low: the moves the events show; high: those plus every
    # extra byte the events do not explain)
    gc_bytes_estimate: float | None
    gc_bytes_low: float | None
    gc_bytes_high: float | None
    # the same over host bytes: the handle's term of the group's WAF (WAF = 1 + sum of terms)
    waf_term: float | None
    waf_term_low: float | None
    waf_term_high: float | None


def handle_estimates(
    events: list[FdpEvent], stats: LogReading | None, lba_bytes: int | None
) -> dict[str, Any]:
    """Per handle: the blocks moved (Media Reallocated events), their share, and, with the FDP
    statistics of the same endurance group and the LBA size, the group's extra media writes
    split by that share, with the bounds that state its error."""
    moves: dict[str, list[FdpEvent]] = {}
    for e in events:
        if e.type == MEDIA_REALLOCATED and e.nlbam is not None:
            moves.setdefault(e.handle, []).append(e)
    total_lbas = sum(e.nlbam or 0 for evs in moves.values() for e in evs)
    host = media = None
    if stats is not None and stats.source.id == "fdp-stats":
        h, m = stats.counter("host"), stats.counter("nand")
        host = h.bytes if h is not None else None
        media = m.bytes if m is not None else None
    extra = None if host is None or media is None else media - host
    notes: list[str] = []
    explained = None if lba_bytes is None else total_lbas * lba_bytes
    if not moves:
        notes.append(
            "no Media Reallocated event with a count of moved blocks: nothing to split by "
            "handle (the events are logged only while enabled: nvme fdp set-events)"
        )
    if stats is not None and stats.source.id != "fdp-stats":
        notes.append(
            f"{stats.file} is {stats.source.id}, not the FDP statistics of the endurance group "
            "('nvme fdp stats'): no extra media writes to split; shares only"
        )
    if lba_bytes is None and moves:
        notes.append(
            "the LBA size is not in the events output: give --lba-size (the namespace's "
            "formatted LBA size) for bytes; shares only"
        )
    if extra is not None and extra <= 0:
        notes.append(
            f"media bytes written ({media:,}) are not above host bytes written ({host:,}): no "
            "extra media writes to split"
        )
    elif extra is not None and explained is not None and explained > extra:
        notes.append(
            f"the events show {explained:,} B moved, more than the group's extra media writes "
            f"({extra:,} B): the events and the statistics cover different windows (statistics "
            "since the group was made, events only the latest); the split is not bounded"
        )
    rows = []
    for handle, evs in sorted(moves.items()):
        lbas = sum(e.nlbam or 0 for e in evs)
        share = lbas / total_lbas if total_lbas else 0.0
        moved = None if lba_bytes is None else lbas * lba_bytes
        est = low = high = None
        if extra is not None and extra > 0 and explained is not None and explained <= extra:
            low = float(moved or 0)
            est, high = share * extra, low + extra - explained
        rows.append(
            HandleEstimate(
                handle,
                len(evs),
                lbas,
                share,
                moved,
                est,
                low,
                high,
                *(None if v is None or not host else v / host for v in (est, low, high)),
            )
        )
    error = None
    if extra is not None and extra > 0 and explained is not None and explained <= extra:
        error = (
            f"the events explain {explained:,} B of the {extra:,} B of extra media writes "
            f"({100 * explained / extra:.3g}%); the rest ({extra - explained:,} B) is split in "
            "the same shares, and could belong to any handle: each handle's bounds say so"
        )
    return {
        "events": len(events),
        "media_reallocated_events": sum(len(v) for v in moves.values()),
        "lbas_moved": total_lbas,
        "lba_bytes": lba_bytes,
        "host_bytes": host,
        "media_bytes": media,
        "extra_media_bytes": extra,
        "explained_bytes": explained,
        "error": error,
        "handles": [asdict(r) for r in rows],
        "notes": notes,
    }


def format_handle_estimates(est: dict[str, Any]) -> str:
    """The per-handle split as text lines."""
    lines = [
        f"FDP events: {est['events']} events, {est['media_reallocated_events']} Media "
        f"Reallocated, {est['lbas_moved']:,} logical blocks moved"
    ]
    for h in est["handles"]:
        line = (
            f"  {h['handle']}: {h['events']} events, {h['lbas_moved']:,} blocks moved "
            f"({100 * h['share_of_moves']:.1f}% of the moves)"
        )
        if h["gc_bytes_estimate"] is not None:
            line += (
                f"; GC writes ≈ {h['gc_bytes_estimate']:,.0f} B (between "
                f"{h['gc_bytes_low']:,.0f} and {h['gc_bytes_high']:,.0f}), WAF term ≈ "
                f"{h['waf_term']:.3f} ({h['waf_term_low']:.3f}-{h['waf_term_high']:.3f})"
            )
        lines.append(line)
    if est["error"]:
        lines.append("  error: " + est["error"])
    lines += ["  note: " + n for n in est["notes"]]
    return "\n".join(lines)


def add_fdp_events_options(p: argparse.ArgumentParser) -> None:
    """``--fdp-events FILE`` and ``--lba-size SIZE``: the FDP events log beside the FDP
    statistics of the same endurance group (--nvme-log), split by reclaim-unit handle."""
    p.add_argument(
        "--fdp-events",
        type=Path,
        metavar="FILE",
        help="with --nvme-log FILE of 'nvme fdp stats': the saved 'nvme fdp events' output of "
        "the same endurance group; its Media Reallocated events split the group's extra media "
        "writes by reclaim-unit handle, with bounds (docs/smart-nvme.md)",
    )
    p.add_argument(
        "--lba-size",
        metavar="SIZE",
        help="with --fdp-events: the namespace's formatted LBA size (e.g. 4096 or 4KiB; "
        "'nvme id-ns' lbaf in use), to turn moved blocks into bytes",
    )
