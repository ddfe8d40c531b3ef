"""The exporter's sources, each read on its own: one bad source never blanks the others.

A source is a saved file (``smartctl -j`` JSON, an nvme-cli NAND-write log output, or an
``NVME_LOG,SMART_LOG`` pair) or a device read now through smartctl (and nvme-cli for an NVMe
controller). :class:`Sources` keeps the last reading of each:

- a **file** is read again when it changes (its size, modification time or inode), so a scrape
  of unchanged files parses nothing;
- a **device** is read again once its reading is older than ``cache_s``; meanwhile scrapes get
  the last reading (and start one read in the background when it is stale), so a slow or hung
  drive delays only the very first scrape, by at most ``timeout_s``;
- each read has ``timeout_s`` in all, every smartctl/nvme child it starts included; at most
  ``max_reads`` children run at once (:class:`ToolRunner`); a child still running at its
  deadline is killed with its process group, and :meth:`Sources.close` kills every child left.

A source that cannot be read gives a :class:`Reading` with no metrics and a ``reason`` from the
fixed set :data:`REASONS` (the exporter's ``read_ok{reason}`` label); the full message goes to
the exporter's log once, when it changes.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from overprov import inputs
from overprov.errors import InputError, OverprovError, ToolError
from overprov.smart import lifetime_report, parse_snapshot, read_device, report_to_dict
from overprov.smart.device import is_device_path
from overprov.smart.nvme_logs import parse_nvme_log
from overprov.smart.nvme_smart_log import parse_smart_log
from overprov.smart.nvme_waf import nvme_report, read_device_logs, read_log_text

SECONDS_PER_DAY = 86_400

#: Why a source gave no metrics (the ``reason`` label of ``overprov_device_read_ok``).
REASONS = {
    "unreadable": "the file is missing, not a regular file, too large, binary or not UTF-8",
    "bad_input": "the file's JSON is nested too deeply, holds NaN/Infinity or is malformed",
    "not_recognised": "no smartctl -j document nor known NVMe log (no NAND or host counter)",
    "tool_failed": "smartctl or nvme-cli is missing, failed or printed no JSON",
    "timeout": "the device's read did not finish in --read-timeout (its children killed)",
    "internal_error": "an error overprov did not anticipate (a bug; the log has its message)",
}


class ReadTimeout(ToolError):
    """A device read ran out of its time; its children were killed."""


@dataclass(frozen=True)
class DriveMetrics:
    """One drive's exported values (None: not reported by this drive)."""

    device: str
    source: str
    model_name: str
    serial_number: str
    protocol: str
    host_written_bytes: float | None
    nand_written_bytes: float | None
    write_amplification: float | None
    percentage_used: float | None
    available_spare_percent: float | None
    projected_remaining_seconds: float | None
    power_on_seconds: float | None
    capacity_bytes: float | None = None
    media_erased_bytes: float | None = None
    erase_count_average: float | None = None
    erase_count_max: float | None = None
    erase_count_min: float | None = None
    free_blocks_percent: float | None = None


def _log_counters(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The NVMe log's counters of a report by kind (the first of each kind)."""
    found: dict[str, dict[str, Any]] = {}
    for c in (report.get("nvme_log") or {}).get("counters", []):
        found.setdefault(c["which"], c)
    return found


def _available_spare_smartctl(data: Any) -> float | None:
    log = data.get("nvme_smart_health_information_log") if isinstance(data, dict) else None
    spare = log.get("available_spare") if isinstance(log, dict) else None
    return None if spare is None else float(spare)


def metrics_from_report(
    report: dict[str, Any], device: str, available_spare: float | None
) -> DriveMetrics:
    """The exported values, taken from a lifetime report as ``smart --json`` prints it."""
    snap = report["snapshot"]
    counters = snap.get("waf_counters")
    nand = counters["nand"] if counters and counters.get("unit") == "bytes" else None
    if nand is None and report.get("nvme_log"):
        # An NVMe log without host writes still counts NAND bytes (when its unit is known).
        nand = next(
            (c["bytes"] for c in report["nvme_log"]["counters"] if c["which"] == "nand"), None
        )
    days = report["endurance"]["days_left"]
    hours = snap.get("power_on_hours")
    log = _log_counters(report)

    def count(which: str) -> float | None:
        return float(log[which]["count"]) if which in log else None

    return DriveMetrics(
        device=device,
        source=snap["source"],
        model_name=snap.get("model") or "",
        serial_number=snap.get("serial") or "",
        protocol=snap.get("protocol") or "",
        host_written_bytes=report.get("host_bytes"),
        nand_written_bytes=nand,
        write_amplification=report.get("waf"),
        percentage_used=snap.get("percentage_used"),
        available_spare_percent=available_spare,
        projected_remaining_seconds=None if days is None else days * SECONDS_PER_DAY,
        power_on_seconds=None if hours is None else hours * 3600.0,
        capacity_bytes=snap.get("capacity_bytes") or None,
        media_erased_bytes=log["erased"]["bytes"] if "erased" in log else None,
        erase_count_average=count("erase_avg"),
        erase_count_max=count("erase_max"),
        erase_count_min=count("erase_min"),
        free_blocks_percent=count("spare_percent"),
    )


def device_label(spec: str) -> str:
    """A saved file's drive is named by its file name (a pair: both, joined by "+"); a device
    by its kernel name."""
    if spec.startswith("/dev/"):
        return spec[len("/dev/") :]
    return "+".join(re.sub(r"\.(json|txt)$", "", Path(p).name) for p in spec.split(",", 1))


def is_device_source(spec: str) -> bool:
    return "," not in spec and is_device_path(spec)


class _Unreadable(Exception):
    """Reading a file failed before any parsing (wraps the InputError)."""


def _file_text(path: str) -> str:
    try:
        return read_log_text(path)
    except InputError as exc:
        raise _Unreadable(str(exc)) from None


def read_file_source(spec: str) -> DriveMetrics:
    """One drive from saved files: ``FILE`` (smartctl -j JSON or nvme-cli log) or
    ``NVME_LOG,SMART_LOG``."""
    device = device_label(spec)
    if "," in spec:
        nvme_log, smart_log = spec.split(",", 1)
        reading = parse_nvme_log(_file_text(nvme_log), nvme_log)
        smart = parse_smart_log(_file_text(smart_log), smart_log)
        return metrics_from_report(
            nvme_report(reading, smart), device, smart.available_spare_percent
        )
    text = _file_text(spec)
    data = None
    if text.lstrip().startswith("{"):
        try:
            data = inputs.decode_json(text, spec, "smartctl -j JSON file or nvme-cli JSON log")
        except json.JSONDecodeError:
            data = None  # the NVMe log reader says what is wrong with it
    if isinstance(data, dict) and ("smartctl" in data or "device" in data):
        report = report_to_dict(lifetime_report(parse_snapshot(data, spec)))
        return metrics_from_report(report, device, _available_spare_smartctl(data))
    reading = parse_nvme_log(text, spec)
    return metrics_from_report(nvme_report(reading, None), device, None)


def read_device_source(
    spec: str, smartctl: str, nvme: str, run: Any, nvme_logs: bool = True
) -> DriveMetrics:
    """A device read now: an NVMe controller through nvme-cli's NAND-write logs first, then
    smartctl's view. ``run`` runs each child (:meth:`ToolRunner.bound`)."""
    device = device_label(spec)
    if nvme_logs and re.fullmatch(r"/dev/nvme\d+", spec):
        try:
            reading, smart = read_device_logs(spec, nvme, run)
        except ReadTimeout:
            raise
        except OverprovError:
            pass  # no NAND-write log: smartctl's view below
        else:
            return metrics_from_report(
                nvme_report(reading, smart), device, smart.available_spare_percent
            )
    data = read_device(spec, smartctl, run=run)
    report = report_to_dict(lifetime_report(parse_snapshot(data, spec)))
    return metrics_from_report(report, device, _available_spare_smartctl(data))


def reason_of(exc: BaseException) -> str:
    """The :data:`REASONS` key of a failed read (the first class that matches)."""
    kinds = (
        (_Unreadable, "unreadable"),
        (ReadTimeout, "timeout"),
        (ToolError, "tool_failed"),
        (InputError, "bad_input"),
        (OverprovError, "not_recognised"),
    )
    return next((reason for kind, reason in kinds if isinstance(exc, kind)), "internal_error")


class ToolRunner:
    """Runs smartctl/nvme children: at most ``max_running`` at once, each in its own process
    group, killed (the whole group) at its read's deadline or at :meth:`close`."""

    def __init__(self, max_running: int) -> None:
        self._slots = threading.BoundedSemaphore(max_running)
        self._lock = threading.Lock()
        self._running: set[subprocess.Popen[str]] = set()
        self._closed = False

    def bound(self, deadline: float, budget_s: float) -> Any:
        """A ``run(argv)`` for one read: every child it starts ends by ``deadline``
        (``time.monotonic()``); ``budget_s`` is named in the timeout message."""

        def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
            return self.run(argv, deadline, budget_s)

        return run

    def run(self, argv: list[str], deadline: float, budget_s: float) -> subprocess.CompletedProcess:
        late = ReadTimeout(f"{Path(argv[0]).name}: the read did not finish in {budget_s:g} s")
        if not self._slots.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise late
        try:
            with self._lock:
                if self._closed:
                    raise ToolError("the exporter is stopping")
                try:
                    proc = subprocess.Popen(
                        argv,
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE,
                        text=True,
                        errors="replace",
                        start_new_session=True,
                    )
                except OSError as exc:
                    raise ToolError(f"cannot run {argv[0]}: {exc.strerror or exc}") from None
                self._running.add(proc)
            try:
                out, err = proc.communicate(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self._kill(proc)
                # A child in uninterruptible sleep on the device dies when the device answers.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.communicate(timeout=5)
                raise late from None
            finally:
                with self._lock:
                    self._running.discard(proc)
            return subprocess.CompletedProcess(argv, proc.returncode, out, err)
        finally:
            self._slots.release()

    @staticmethod
    def _kill(proc: subprocess.Popen[str]) -> None:
        """Kill the child's process group; the thread that started it reaps it."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)

    def running(self) -> list[int]:
        with self._lock:
            return sorted(p.pid for p in self._running)

    def close(self) -> None:
        """Start no more children and kill those running."""
        with self._lock:
            self._closed = True
            procs = list(self._running)
        for proc in procs:
            self._kill(proc)


@dataclass(frozen=True)
class Reading:
    """The last reading of one source: its metrics, or why there are none."""

    spec: str
    metrics: DriveMetrics | None
    reason: str  # "" when read
    message: str
    at: float  # time.monotonic() when the read finished
    signature: tuple[Any, ...] | None = None  # a file's (size, mtime, inode) when read


def _signature(spec: str) -> tuple[Any, ...] | None:
    out: list[Any] = []
    for part in spec.split(","):
        try:
            st = os.stat(part)
        except OSError:
            return None
        out.append((st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev))
    return tuple(out)


class Sources:
    """Every source of one exporter, read as the module says."""

    def __init__(
        self,
        specs: list[str],
        *,
        smartctl: str = "smartctl",
        nvme: str = "nvme",
        cache_s: float = 60.0,
        timeout_s: float = 10.0,
        max_reads: int = 4,
        log: TextIO | None = None,
    ) -> None:
        self.specs = list(specs)
        self.smartctl, self.nvme = smartctl, nvme
        self.cache_s, self.timeout_s = cache_s, timeout_s
        self.runner = ToolRunner(max_reads)
        self._log = log if log is not None else sys.stderr
        self._lock = threading.Lock()
        self._last: dict[str, Reading] = {}
        self._pending: dict[str, Future[Reading]] = {}
        self._said: dict[str, str] = {}

    def _read(self, spec: str) -> Reading:
        signature = None
        try:
            if is_device_source(spec):
                deadline = time.monotonic() + self.timeout_s
                run = self.runner.bound(deadline, self.timeout_s)
                metrics = read_device_source(spec, self.smartctl, self.nvme, run)
            else:
                signature = _signature(spec)
                metrics = read_file_source(spec)
        except Exception as exc:  # noqa: BLE001 - every failure stays this source's own
            reading = Reading(
                spec,
                None,
                reason_of(exc),
                str(exc) or type(exc).__name__,
                time.monotonic(),
                signature,
            )
        else:
            reading = Reading(spec, metrics, "", "", time.monotonic(), signature)
        self._say(reading)
        return reading

    def _say(self, reading: Reading) -> None:
        """Log a source's failure (and its recovery) once, when it changes."""
        with self._lock:
            said = self._said.get(reading.spec, "")
            self._said[reading.spec] = reading.message
        if reading.message != said:
            text = (
                f"cannot read {reading.spec} ({reading.reason}): {reading.message}"
                if reading.reason
                else f"{reading.spec} read again"
            )
            print(f"overprov exporter: {text}", file=self._log, flush=True)

    def _read_into(self, spec: str, future: Future[Reading]) -> None:
        reading = self._read(spec)
        with self._lock:
            self._last[spec] = reading
            del self._pending[spec]
        future.set_result(reading)

    def _file(self, spec: str) -> Reading:
        last = self._last.get(spec)
        if last is not None and last.signature is not None and last.signature == _signature(spec):
            return last
        reading = self._read(spec)
        with self._lock:
            self._last[spec] = reading
        return reading

    def _device(self, spec: str) -> Reading | Future[Reading]:
        with self._lock:
            last = self._last.get(spec)
            if last is not None and time.monotonic() - last.at < self.cache_s:
                return last
            future = self._pending.get(spec)
            if future is None:
                future = self._pending[spec] = Future()
                # A daemon thread: a read stuck on a device never holds up the exporter's exit.
                threading.Thread(
                    target=self._read_into, args=(spec, future), daemon=True, name="exporter-read"
                ).start()
        return last if last is not None else future

    def start(self) -> None:
        """Read every file now and start every device's first read (not waiting for it)."""
        for spec in self.specs:
            if is_device_source(spec):
                self._device(spec)
            else:
                self._file(spec)

    def read_all(self) -> list[Reading]:
        """The current reading of every source, in the order given."""
        got: list[Reading | Future[Reading]] = [
            self._device(s) if is_device_source(s) else self._file(s) for s in self.specs
        ]
        return [g.result() if isinstance(g, Future) else g for g in got]

    def close(self) -> None:
        """Kill every child still running; no read starts after this."""
        self.runner.close()
