"""A read's queue slot: the host's closed loop run over the core's request-level drive, a read
of a page already written holding its slot for a measured time instead of being simulated.

Why: by default (``timing.host.link_booking = "in-order"``) the core books its host link in
request order, one timeline for both directions (crates/overprov-sim/src/timing/link.rs; its
``"gaps"`` booking, one timeline per direction with gaps filled, is the fix in the core itself,
not adopted: docs/calibrate-cliff.md, "The host link booked in gaps" and the section after it),
and a read of a written page has its data only after the programs queued on its die, so every
command issued after it transfers after it; a drive's writes do not wait for an earlier read
(PCIe moves the two directions at once). Under a mix before the SLC cache's cliff the twin's
writes then fall far below a drive's (py_ssd_sim: 32,110 against 101,950 IOPS at QD8 with 30%
reads of written pages, each read holding about the same slot in both: docs/calibrate-cliff.md,
"What a read costs the queue"). Holding the slot for the drive's measured read time (a mixed
window before the cliff) and booking nothing carried py_ssd_sim's QD8 70:30 and 50:50 cliffs
within 25% (bench/results/cliff-foreign5/RULE.md). The reads' die time is left out (past the
cliff a drive's reads wait behind TLC programs: the level after comes out high).

- :func:`request_loop`: the closed loop at a queue depth, reads of any page, of written pages
  or of never-written ones, each command's queue time logged.
- :func:`binned`: its completions as an IOPS series (``cliff_series.Series``).
"""

from __future__ import annotations

import heapq
import json
import math
import random
from collections.abc import Sequence
from typing import Any

from overprov import engine
from overprov.calibrate.cliff_series import Series

#: the host's request: one 4 KiB page
PAGE_BYTES = 4096


def request_loop(
    cfg: dict[str, Any], *, qd: int, read_percent: float, end_ns: int,
    read_slot_ns: int | None = None, read_pages: str = "any", seed: int = 1,
    unwritten_apart: bool = False, read_slot_until_bytes: float | None = None,
    reads_after_bytes: int = 0, requests: int | None = None,
    unwritten_slot_ns: int | None = None, command_gap_ns: int | None = None,
    kinds: list[str] | None = None, read_slot_after_ns: int | None = None,
    reads_in_order: bool = False,
) -> tuple[list[tuple[int, int, int | None]], dict[str, Any]]:  # fmt: skip
    """``cfg`` (a timed configuration, from purged) driven until ``end_ns`` by a host keeping
    ``qd`` commands outstanding, each issued when the earliest completes: 4 KiB random writes
    and, with probability ``read_percent`` %, reads of any page (``read_pages="any"``), of a
    page already written (``"written"``) or of one never written (``"unwritten"``). With
    ``read_slot_ns``, a read of a written page is not sent to the drive but holds its slot that
    long. Returns the completions before ``end_ns`` ((time ns, 1 if a write, queue time ns)) and
    the drive's timed report. Unlike the core's own closed loop, the request-level drive may
    fold its SLC cache before a request while every die is idle (the report's
    ``slc_folded_bytes``). ``unwritten_apart``: a read of a page never written is logged with
    queue time None, as bench/foreign/py_ssd_sim_cliff.py logs the reads its host answers, so
    that the reads of written pages can be told apart (it still holds its slot as simulated).
    ``read_slot_until_bytes``: the slot held only while the host has written fewer bytes (a
    read issued after is sent to the drive); ``reads_after_bytes``: writes only until the host
    has written that many bytes (a probe past the cliff: ``read_probes``); ``requests``: no
    command issued after that many. ``unwritten_slot_ns``: a read of a page never written is
    not sent to the drive but holds its slot that long (a drive's measured read of trimmed
    space: the share of such reads follows the pages written so far). ``command_gap_ns``: every
    command, a read holding its slot too, issued at least that long after the one before (a
    command ceiling of 1e9 ÷ ``command_gap_ns`` a second ahead of the drive: ``cliff_mix``);
    its wait counts in its queue time. ``kinds`` (a list, filled): each returned completion's
    kind, in order: ``"write"``, ``"read_written"`` or ``"read_unwritten"`` (the page read
    written or not when issued), with ``"_slot"`` added where the read held its slot instead of
    going to the drive (bench/results/cliffpast/). ``read_slot_after_ns``: with
    ``read_slot_until_bytes``, a read of a written page issued after holds its slot that long
    instead (a drive's read measured past the cliff: ``cliff_past``). ``reads_in_order``: no
    command issued after a read of a written page completes before it, nor does a write reach
    the drive before it (a link booked in request order: ``cliff_past``)."""
    if read_pages not in ("any", "written", "unwritten"):
        raise ValueError(f"read_slot: read_pages {read_pages!r} is not any, written or unwritten")
    dev = engine.device(cfg)
    pages = json.loads(dev.counters_json())["user_pages"]
    rng = random.Random(seed)
    written: list[int] = []
    written_set: set[int] = set()
    slots = [0] * qd
    events: list[tuple[int, int, int | None]] = []
    until = math.inf if read_slot_until_bytes is None else read_slot_until_bytes
    written_bytes = issued = gate = floor = 0
    kind_of: list[str] = []
    while (t := heapq.heappop(slots)) < end_ns and (requests is None or issued < requests):
        arrived = t
        lpn = rng.randrange(pages)
        read = rng.random() * 100 < read_percent and written_bytes >= reads_after_bytes
        if read:
            if read_pages == "written":
                if not written:
                    heapq.heappush(slots, t)
                    continue
                lpn = written[rng.randrange(len(written))]
            elif read_pages == "unwritten":
                while lpn in written_set:
                    lpn = rng.randrange(pages)
            t, gate = _gated(t, gate, command_gap_ns)
            kind = "read_written" if lpn in written_set else "read_unwritten"
            if read_slot_ns is not None and lpn in written_set and written_bytes < until:
                done, kind = t + read_slot_ns, kind + "_slot"
            elif read_slot_after_ns is not None and read_slot_ns is not None and lpn in written_set:
                done, kind = t + read_slot_after_ns, kind + "_slot"
            elif unwritten_slot_ns is not None and lpn not in written_set:
                done, kind = t + unwritten_slot_ns, kind + "_slot"
            else:  # in order, sent no earlier than the floor: the drive's clock never goes back
                done = dev.submit("read", lpn, 1, max(t, floor) if reads_in_order else t)
            kind_of.append(kind)
            if reads_in_order:
                done = max(done, floor)
                floor = done if lpn in written_set else floor
            apart = unwritten_apart and lpn not in written_set
            events.append((done, 0, None if apart else done - arrived))
        else:
            t, gate = _gated(t, gate, command_gap_ns)
            done = dev.submit("write", lpn, 1, max(t, floor) if reads_in_order else t)
            written_bytes += PAGE_BYTES
            if lpn not in written_set:
                written_set.add(lpn)
                written.append(lpn)
            events.append((done, 1, done - arrived))
            kind_of.append("write")
        issued += 1
        heapq.heappush(slots, done)
    if kinds is not None:
        kinds.extend(k for e, k in zip(events, kind_of, strict=True) if e[0] < end_ns)
    return [e for e in events if e[0] < end_ns], json.loads(dev.timed_report_json())


def _gated(t: int, gate: int, gap_ns: int | None) -> tuple[int, int]:
    """A command arriving at ``t`` issued at ``t`` or when the gate opens (``gate``), and the
    gate's next opening ``gap_ns`` after it; without ``gap_ns`` at ``t``, no gate."""
    if not gap_ns:
        return t, gate
    issued = max(t, gate)
    return issued, issued + gap_ns


def binned(
    events: Sequence[Sequence[Any]], report: dict[str, Any], *, interval_ns: float,
    scale: float = 1.0,
) -> Series:  # fmt: skip
    """Completions ((time ns, 1 if a write, ...): :func:`request_loop`'s) per interval of
    ``interval_ns`` (at ``scale``) as full-size IOPS (time ÷ ``scale``); the last, partial
    interval left out; garbage collection flagged from the report's interval states."""
    n = int(max((e[0] for e in events), default=0) // interval_ns)
    done, writes = [0] * n, [0] * n
    for t, is_write, *_ in events:
        if (i := int(t // interval_ns)) < n:
            done[i] += 1
            writes[i] += is_write
    seconds = interval_ns / 1e9 / scale
    states = [iv["state"] for iv in report.get("intervals", [])]
    return Series(
        times_s=[(i + 1) * seconds for i in range(n)],
        iops=[c / (seconds * scale) for c in done],
        write_iops=[w / (seconds * scale) for w in writes],
        gc_started=[i < len(states) and states[i] != "fob" for i in range(n)],
    )
