"""The emulated drive's server says how much of a benchmark's request time the host held
(``overprov.emulate.host_share``): a delay forced on the host shows up as the host's share,
never as the drive's, and the drive's timeline does not speed up for it.

The server's request path (``EmulatedDrive.write``) is driven here by threads in this
process, as libfuse's threads drive it, without FUSE or a loop device: no root needed. The
drive is tests/emulate/small-drive.toml without a write buffer (every write waits for its
program, about 1 ms simulated) at a slow-down of 4, so a write holds the drive for
milliseconds of real time and the test's own overhead per request is small beside it."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from .conftest import small_drive_with_buffer

QUEUE_DEPTH = 4
PHASE_S = 0.6
SLOWDOWN = 4.0
FORCED_DELAY_S = 0.004


def closed_loop(drive: Any, delay_s: float) -> dict[str, Any]:
    """QUEUE_DEPTH threads, each: wait ``delay_s`` (the host's share), write one random 4 KiB
    page through the server, again, for PHASE_S; the status before and after, the writes
    done, the real seconds and the seconds spent inside the server's write."""
    pages = drive.size_bytes // drive.page_bytes
    lock = threading.Lock()
    totals = {"writes": 0, "inside_s": 0.0, "delay_s": 0.0}
    before = drive.status_document()
    started = time.monotonic()
    end = started + PHASE_S

    def host(seed: int) -> None:
        rng, data = random.Random(seed), b"\xa5" * drive.page_bytes
        while time.monotonic() < end:
            waited = time.monotonic()
            if delay_s:
                time.sleep(delay_s)
            t0 = time.monotonic()
            drive.write("/disk", data, rng.randrange(pages) * drive.page_bytes, 0)
            t1 = time.monotonic()
            with lock:
                totals["writes"] += 1
                totals["inside_s"] += t1 - t0
                totals["delay_s"] += t0 - waited

    threads = [threading.Thread(target=host, args=(i,)) for i in range(QUEUE_DEPTH)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall_s = time.monotonic() - started
    return {"before": before, "after": drive.status_document(), "wall_s": wall_s, **totals}


def test_a_forced_host_delay_is_the_hosts_share_not_the_drives(tmp_path):
    pytest.importorskip("mfusepy", reason="mfusepy (and libfuse) not installed")
    from overprov.emulate import host_share
    from overprov.emulate.cli import drive_config
    from overprov.emulate.fuse_device import EmulatedDrive

    config = drive_config(str(small_drive_with_buffer(tmp_path, 0)), "16MiB", 0.0)
    drive = EmulatedDrive(config, tmp_path / "data.img", tmp_path / "status.json", SLOWDOWN)
    runs = {"keeps up": closed_loop(drive, 0.0), "delayed": closed_loop(drive, FORCED_DELAY_S)}
    seen = {}
    for name, r in runs.items():
        iops = r["writes"] / r["wall_s"]
        slots_s = QUEUE_DEPTH * r["wall_s"]  # request-slot seconds the host had
        share = host_share.host_share(r["before"], r["after"], iops, QUEUE_DEPTH)
        latency_s = host_share.drive_latency_s(r["before"], r["after"])
        assert share is not None and latency_s is not None, r
        seen[name] = {
            "iops": round(iops),
            "drive latency ms": round(latency_s * 1e3, 2),
            "host share": round(share, 3),
            # what this host knows it spent outside the server's write, and in forced delay
            "outside the write": round(1 - r["inside_s"] / slots_s, 3),
            "forced": round(r["delay_s"] / slots_s, 3),
        }
    print(f"closed loop at QD{QUEUE_DEPTH}, slow-down {SLOWDOWN:g}: {seen}")
    for name, s in seen.items():
        # the drive is never credited with time the request spent outside the server's write
        assert s["host share"] >= s["outside the write"] - 0.01, (name, seen)
        # the forced delay is all the host's: none of it appears as time in the drive
        assert s["host share"] >= s["forced"] - 0.01, (name, seen)
    assert seen["delayed"]["forced"] > 0.2, seen  # the delay was a real share of the cycle
    # a host that cannot keep up makes the drive slower, never faster (the margin: the two
    # runs' own noise on a loaded host, 0.6 s each)
    assert seen["delayed"]["iops"] <= 1.15 * seen["keeps up"]["iops"], seen
    after = runs["delayed"]["after"]
    assert after["requests"] == after["counters"]["writes"], after


def test_the_live_line_and_the_summary_say_the_drives_queue_depth_and_latency():
    """Two status files 1 s apart (simulated and real) in which the drive served 500 requests
    for 2 s of their time in all: a mean QD of 2 in the drive and 4 ms each, which at QD4 and
    500 IOPS is half the host's request time (1 − 500 × 4 ms ÷ 4)."""
    from overprov.emulate import host_share
    from overprov.emulate.cli import live_line, run_summary

    counters = {"writes": 0, "reads": 0, "waf": None, "free_blocks": 7, "slc_max_bytes": None}
    before = {"real_s": 1.0, "simulated_s": 1.0, "slowdown": 1.0, "requests": 100,
              "in_drive_sim_ns_total": 10**9, "late_requests": 0, "late_ms_total": 0.0,
              "counters": counters}  # fmt: skip
    after = {**before, "real_s": 2.0, "simulated_s": 2.0, "requests": 600,
             "in_drive_sim_ns_total": 3 * 10**9, "late_requests": 3, "late_ms_total": 1.5,
             "counters": {**counters, "writes": 500}}  # fmt: skip
    assert host_share.drive_latency_s(before, after) == pytest.approx(0.004)
    assert host_share.host_share(before, after, 500.0, 4) == pytest.approx(0.5)
    assert host_share.host_share(before, after, 1000.0, 4) == 0.0  # never below 0
    assert host_share.host_share(before, before, 500.0, 4) is None  # no requests
    line = live_line(before, after)
    assert "IOPS 500 real, 500 simulated" in line, line
    assert "in drive: QD 2.0 latency 4.00 ms" in line, line
    assert "late 3" in line, line
    assert run_summary(after) == (
        "served 600 requests, mean latency in the drive 5.00 ms; 3 answered late (1.5 ms in all)"
    )


def test_a_host_bound_round_is_said_once_per_level_and_only_above_the_bound():
    """``round_share`` of two status documents (their ``drive_time``: 500 requests, 2 s in the
    drive, 4 ms each) at QD4: 250 IOPS leave the host 75% of the request time, 500 IOPS 50%
    (the bound, not above it); ``HostBoundNotice`` says a level once, whatever its later rounds
    hold, and never a share at or below the bound or unknown."""
    from overprov.emulate import counters, host_share

    before = {"requests": 100, "in_drive_sim_ns_total": 10**9, "slowdown": 1.0,
              "late_requests": 0}  # fmt: skip
    after = {**before, "requests": 600, "in_drive_sim_ns_total": 3 * 10**9}
    start, end = (counters.StatusReading(None, counters.drive_time_in(d)) for d in (before, after))
    assert host_share.round_share(start, end, 250.0, 4) == 0.75
    assert host_share.round_share(start, end, 500.0, 4) == host_share.HOST_BOUND_SHARE
    assert host_share.round_share(None, end, 250.0, 4) is None  # not an emulated drive
    assert host_share.round_share(start, counters.StatusReading(None, None), 250.0, 4) is None
    said: list[str] = []
    notice = host_share.HostBoundNotice(said.append)
    notice.check("op0", "op0-r001", 0.75)
    notice.check("op0", "op0-r002", 0.9)
    notice.check("op10", "op10-r001", host_share.HOST_BOUND_SHARE)
    notice.check("op10", "op10-r002", None)
    assert said == [
        "op0-r001: the host held 75% of its requests' time, the emulated drive 25%: its IOPS "
        "are the busy host's, not the drive's (docs/emulate.md, \"When the host cannot keep up\")"
    ]
