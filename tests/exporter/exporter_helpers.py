"""Helpers of the exporter tests: the real smartctl -j files (tests/data/smart) and NVMe log
samples (tests/data/nvme-vendor), ``overprov exporter`` started in its own process on
127.0.0.1 with a port the OS picks, scraped and stopped. A module of its own (not conftest.py)
so that ``from exporter_helpers import ...`` names this file whichever other conftest.py a run
imported first."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overprov import cli

DATA = Path(__file__).resolve().parent.parent / "data"
SMART_FILES = sorted((DATA / "smart").glob("*.json"))
NVME_FILES = sorted(
    p
    for p in (DATA / "nvme-vendor").iterdir()
    if p.suffix in (".txt", ".json") and ".source" not in p.name
)
# A SMART log constructed for the test (not a drive), in nvme-cli's smart-log -o json layout,
# paired with a real OCP C0h sample to exercise the NVME_LOG,SMART_LOG form.
CONSTRUCTED_SMART_LOG = {
    "data_units_written": 50_000_000,
    "percent_used": 2,
    "avail_spare": 97,
    "power_on_hours": 8760,
}


@dataclass
class Exporter:
    url: str
    sources: list[str]
    pair: tuple[Path, Path]


def overprov_json(*argv: str) -> dict:
    """What ``overprov ARGV`` prints as JSON (run in-process through the real CLI)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(list(argv)) == 0
    return json.loads(out.getvalue())


def stop(proc: subprocess.Popen, timeout_s: float = 20.0) -> None:
    """End a process this test started (SIGTERM, then SIGKILL if it does not exit)."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def scrape(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as resp:
        assert resp.status == 200
        return resp.read().decode()


def start_exporter(*args: str, stderr: Any = subprocess.PIPE) -> tuple[subprocess.Popen, str]:
    """``overprov exporter --listen 127.0.0.1:0 ARGS`` in its own process; (process, URL).
    The caller stops it with :func:`stop`."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "overprov.cli", "exporter", "--listen", "127.0.0.1:0", *args],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    line = proc.stdout.readline()
    if "serving http://127.0.0.1:" not in line:
        stop(proc)
        raise AssertionError(line + (proc.stderr.read() if proc.stderr else ""))
    return proc, line.split("serving ", 1)[1].strip()


def real_sources(tmp: Path) -> tuple[list[str], tuple[Path, Path]]:
    """Every real smartctl and NVMe log sample, and one NVME_LOG,SMART_LOG pair."""
    smart_log = tmp / "constructed-smart-log.json"
    smart_log.write_text(json.dumps(CONSTRUCTED_SMART_LOG))
    pair = (DATA / "nvme-vendor" / "autoval-ssd-ocp-smart-add-log.json", smart_log)
    sources = [str(p) for p in (*SMART_FILES, *NVME_FILES)] + [f"{pair[0]},{pair[1]}"]
    return sources, pair
