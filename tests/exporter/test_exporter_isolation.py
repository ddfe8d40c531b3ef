"""One bad source never blanks the others: poisoned files and a failing smartctl give their
drive ``read_ok 0`` with a reason while every real sample keeps its values; device reads are
cached, bounded in time and in processes, and no smartctl child outlives its deadline or the
exporter (checked in the process table)."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from exporter_helpers import real_sources, scrape, start_exporter, stop
from prometheus_client.parser import text_string_to_metric_families
from test_exporter_scrape import expected_values

SMARTCTL = shutil.which("smartctl") or shutil.which("smartctl", path="/usr/sbin:/sbin")
DATA = Path(__file__).resolve().parents[1] / "data"
# Character devices that exist on every Linux system; their labels (null, zero, full) differ.
CHAR_DEVICES = ("/dev/null", "/dev/zero", "/dev/full")


def read_ok(text: str) -> dict[str, tuple[float, str]]:
    """source → (read_ok value, reason label)."""
    return {
        s.labels["source"]: (s.value, s.labels.get("reason", ""))
        for f in text_string_to_metric_families(text)
        for s in f.samples
        if s.name == "overprov_device_read_ok"
    }


def values(text: str) -> dict[tuple[str, str], float]:
    return {
        (s.name, s.labels["device"]): s.value
        for f in text_string_to_metric_families(text)
        for s in f.samples
        if s.name not in ("overprov_device_info", "overprov_device_read_ok")
    }


def poisoned_files(tmp: Path) -> dict[str, str]:
    """file → the reason the exporter must give for it."""
    nested = tmp / "nested.json"
    nested.write_text('{"smartctl": ' + "[" * 100_000 + "]" * 100_000 + "}")
    deep = tmp / "deep.json"  # under Python's recursion limit, over the reader's depth bound
    deep.write_text('{"device": ' + '{"a": ' * 200 + "1" + "}" * 200 + "}")
    nan = tmp / "nan.json"
    nan.write_text('{"smartctl": {"exit_status": 0}, "power_on_time": {"hours": NaN}}')
    binary = tmp / "binary.json"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    unknown = tmp / "unknown.txt"
    unknown.write_text("nothing a drive prints\n")
    return {
        str(nested): "bad_input",
        str(deep): "bad_input",
        str(nan): "bad_input",
        str(binary): "unreadable",
        str(unknown): "not_recognised",
    }


def test_poisoned_sources_leave_the_others_intact(tmp_path):
    sources, _pair = real_sources(tmp_path)
    poisoned = poisoned_files(tmp_path)
    gone = tmp_path / "deleted-after-start.json"
    gone.write_text((DATA / "smart" / os.listdir(DATA / "smart")[0]).read_text())
    devices = ["--device", "/dev/null"] if SMARTCTL else []
    proc, url = start_exporter("--from-files", *poisoned, *sources, str(gone), *devices)
    try:
        gone.unlink()
        text = scrape(url)  # HTTP 200, or scrape() fails
    finally:
        stop(proc)
    ok = read_ok(text)
    for source, reason in poisoned.items():
        assert ok[source] == (0.0, reason), (source, ok[source])
    assert ok[str(gone)] == (0.0, "unreadable")
    if SMARTCTL:  # real smartctl on a device that is no drive: it fails
        assert ok["/dev/null"] == (0.0, "tool_failed")
    got = values(text)
    checked = 0
    for spec in sources:
        assert ok[spec] == (1.0, ""), spec
        device, expected = expected_values(spec)
        for name, value in expected.items():
            assert got.get((name, device)) == (None if value is None else float(value))
            checked += value is not None
    assert checked >= len(sources)
    # no series of a poisoned drive but read_ok
    bad = {Path(p).name.removesuffix(".json").removesuffix(".txt") for p in poisoned}
    assert not {d for _n, d in got} & bad


def fake_smartctl(tmp: Path, body: str) -> Path:
    """An executable standing in for smartctl (no drive here to make a real one hang or
    answer): ``body`` is its shell script; it records its pid and its child's in ``pids``."""
    script = tmp / "smartctl-standin"
    script.write_text(f"#!/bin/sh\necho $$ >> {tmp}/pids\n{body}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


HANG = "sleep 600 &\necho $! >> {tmp}/pids\nwait"


def pids(tmp: Path) -> list[int]:
    path = tmp / "pids"
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    """In the process table and not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(cond, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def test_hung_smartctl_killed_at_the_read_timeout(tmp_path):
    script = fake_smartctl(tmp_path, HANG.format(tmp=tmp_path))
    files, _ = real_sources(tmp_path)
    proc, url = start_exporter(
        "--device", "/dev/null", "--from-files", files[0],
        "--smartctl", str(script), "--read-timeout", "1s",
    )  # fmt: skip
    try:
        t0 = time.monotonic()
        text = scrape(url)
        took = time.monotonic() - t0
        ok = read_ok(text)
        assert ok["/dev/null"] == (0.0, "timeout")
        assert ok[files[0]] == (1.0, "")
        assert took < 6.0, took  # the read started with the exporter; 1 s at most
        started = pids(tmp_path)
        assert len(started) == 2  # the script and its sleep
        assert wait_until(lambda: not any(alive(p) for p in started), 5.0), started
    finally:
        stop(proc)


def test_no_child_outlives_the_exporter(tmp_path):
    script = fake_smartctl(tmp_path, HANG.format(tmp=tmp_path))
    proc, url = start_exporter(
        "--device", "/dev/null", "--smartctl", str(script), "--read-timeout", "10min"
    )
    pending = threading.Thread(target=lambda: _scrape_quietly(url), daemon=True)
    pending.start()
    try:
        assert wait_until(lambda: len(pids(tmp_path)) == 2, 20.0), pids(tmp_path)
        started = pids(tmp_path)
        assert all(alive(p) for p in started)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    assert proc.returncode == 0
    assert wait_until(lambda: not any(alive(p) for p in started), 5.0), started


def _scrape_quietly(url: str) -> None:
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            resp.read()
    except OSError:
        pass  # the exporter was stopped mid-scrape


def test_concurrent_device_reads_are_bounded(tmp_path):
    # each run sleeps 1 s and fails; three devices, at most two runs at once
    log = tmp_path / "running"
    script = fake_smartctl(tmp_path, f"echo + >> {log}\nsleep 1\necho - >> {log}\nexit 1")
    proc, url = start_exporter(
        *[a for d in CHAR_DEVICES for a in ("--device", d)],
        "--smartctl", str(script), "--max-reads", "2", "--cache", "0",
    )  # fmt: skip
    try:
        text = scrape(url)
    finally:
        stop(proc)
    assert all(ok == (0.0, "tool_failed") for ok in read_ok(text).values()), read_ok(text)
    running = peak = 0
    for mark in log.read_text().split():
        running += 1 if mark == "+" else -1
        peak = max(peak, running)
    assert len(pids(tmp_path)) >= 3 and peak == 2


def test_device_readings_are_cached(tmp_path):
    sample = sorted((DATA / "smart").glob("*.json"))[0]
    script = fake_smartctl(tmp_path, f"cat {sample}")
    proc, url = start_exporter(
        "--device", "/dev/null", "--smartctl", str(script), "--cache", "1min"
    )
    try:
        texts = [scrape(url) for _ in range(5)]
    finally:
        stop(proc)
    assert len(pids(tmp_path)) <= 2  # one read: smartctl -a (and -l devstat on ATA)
    assert all(read_ok(t)["/dev/null"] == (1.0, "") for t in texts)
    waf = {values(t).get(("overprov_device_write_amplification_ratio", "null")) for t in texts}
    assert len(waf) == 1


def test_idle_connection_closed_and_backlog_raised(tmp_path):
    import socket
    import subprocess

    files, _ = real_sources(tmp_path)
    proc, url = start_exporter("--from-files", files[0], "--idle-timeout", "1s")
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            t0 = time.monotonic()
            assert sock.recv(1) == b""  # closed by the exporter, not by our timeout
            assert time.monotonic() - t0 < 5.0
        ss = shutil.which("ss") or shutil.which("ss", path="/usr/sbin:/sbin:/bin")
        if ss is not None:  # a listening socket's Send-Q is its backlog
            out = subprocess.run(
                [ss, "-ltnH", f"sport = :{port}"], capture_output=True, text=True, check=True
            ).stdout.split()
            assert int(out[2]) >= 128, out
    finally:
        stop(proc)


@pytest.mark.parametrize("flag", ["--cache", "--read-timeout", "--idle-timeout"])
def test_bad_durations_refused(flag, capsys):
    from overprov import cli

    code = cli.main(["exporter", "--listen", "127.0.0.1:0", "--device", "/dev/null", flag, "x"])
    assert code == 2
    assert flag in capsys.readouterr().err
