"""``overprov exporter``: WAF, wear and days left of every drive, as Prometheus metrics.

Each scrape reads every source again: saved ``smartctl -j`` files (read by ``overprov.smart``),
saved nvme-cli log outputs (``overprov.smart.nvme_waf``, optionally paired with the SMART log of the
same drive as ``NVME_LOG,SMART_LOG``), or live devices. The values are the ones
``overprov smart --json`` and ``overprov smart-nvme --json`` print for the same input.

Names and labels follow smartctl_exporter (``device`` label, ``*_percentage_used``,
``*_available_spare`` in percent, an info metric carrying ``model_name`` and ``serial_number``)
and node_exporter / Prometheus conventions (base units, ``_bytes_total`` counters, ``_seconds``).
A value the drive does not report is left out rather than exported as 0.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overprov.errors import ConfigError, OverprovError, ToolError
from overprov.smart import lifetime_report, parse_snapshot, read_device, report_to_dict
from overprov.smart.device import is_device_path
from overprov.smart.nvme_logs import parse_nvme_log
from overprov.smart.nvme_waf import nvme_report, nvme_waf_from_files, read_device_logs

SECONDS_PER_DAY = 86_400


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
    )


def _device_label(spec: str) -> str:
    """A saved file's drive is named by its file name (a pair: both, joined by "+"); a device
    by its kernel name."""
    if spec.startswith("/dev/"):
        return spec[len("/dev/") :]
    return "+".join(re.sub(r"\.(json|txt)$", "", Path(p).name) for p in spec.split(",", 1))


def read_source(spec: str, smartctl: str = "smartctl", nvme: str = "nvme") -> DriveMetrics:
    """One drive: ``FILE`` (smartctl -j JSON or nvme-cli log), ``NVME_LOG,SMART_LOG``, or a
    device path (smartctl; NVMe controllers also through nvme-cli's NAND-write logs)."""
    device = _device_label(spec)
    if "," in spec:
        nvme_log, smart_log = spec.split(",", 1)
        report = nvme_waf_from_files(Path(nvme_log), Path(smart_log))
        return metrics_from_report(report, device, report["smart_log"]["available_spare_percent"])
    if is_device_path(spec):
        if re.fullmatch(r"/dev/nvme\d+", spec):
            try:
                reading, smart = read_device_logs(spec, nvme)
            except OverprovError:
                pass  # no NAND-write log: smartctl's view below
            else:
                report = nvme_report(reading, smart)
                return metrics_from_report(report, device, smart.available_spare_percent)
        data = read_device(spec, smartctl)
        report = report_to_dict(lifetime_report(parse_snapshot(data, spec)))
        return metrics_from_report(report, device, _available_spare_smartctl(data))
    try:
        text = Path(spec).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ConfigError(f"{spec}: cannot read: {exc.strerror or exc}") from None
    data = None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = None
    if isinstance(data, dict) and ("smartctl" in data or "device" in data):
        report = report_to_dict(lifetime_report(parse_snapshot(data, spec)))
        return metrics_from_report(report, device, _available_spare_smartctl(data))
    reading = parse_nvme_log(text, spec)
    return metrics_from_report(nvme_report(reading, None), device, None)


# ---------------------------------------------------------------------------------------------
# Prometheus collector


# (metric name, help, type, DriveMetrics attribute)
METRICS: tuple[tuple[str, str, str, str], ...] = (
    (
        "overprov_device_host_written_bytes",
        "Bytes the host wrote to the drive (SMART data units x 512,000 B on NVMe).",
        "counter",
        "host_written_bytes",
    ),
    (
        "overprov_device_nand_written_bytes",
        "Bytes the drive programmed into NAND (vendor counter, unit per the sources table).",
        "counter",
        "nand_written_bytes",
    ),
    (
        "overprov_device_write_amplification_ratio",
        "Lifetime write amplification: NAND bytes written / host bytes written.",
        "gauge",
        "write_amplification",
    ),
    (
        "overprov_device_percentage_used",
        "Percentage of the rated endurance used, as the drive reports it.",
        "gauge",
        "percentage_used",
    ),
    (
        "overprov_device_available_spare",
        "Normalised available spare capacity in percent (NVMe).",
        "gauge",
        "available_spare_percent",
    ),
    (
        "overprov_device_projected_remaining_seconds",
        "Projected time until 100 % used at the lifetime wear rate (days x 86400).",
        "gauge",
        "projected_remaining_seconds",
    ),
    (
        "overprov_device_power_on_seconds",
        "Power-on time (power-on hours x 3600).",
        "counter",
        "power_on_seconds",
    ),
)


class OverprovCollector:
    """A prometheus_client collector that reads every source on each scrape."""

    def __init__(self, sources: list[str], smartctl: str = "smartctl", nvme: str = "nvme"):
        self.sources = list(sources)
        self.smartctl = smartctl
        self.nvme = nvme

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        drives: list[DriveMetrics] = []
        ok = GaugeMetricFamily(
            "overprov_device_read_ok",
            "1 if the source was read on this scrape, 0 if reading it failed.",
            labels=["device", "source"],
        )
        for spec in self.sources:
            try:
                drives.append(read_source(spec, self.smartctl, self.nvme))
            except OverprovError:
                ok.add_metric([_device_label(spec), spec], 0.0)
            else:
                ok.add_metric([_device_label(spec), spec], 1.0)
        info = GaugeMetricFamily(
            "overprov_device_info",
            "Drive identity (value 1), as smartctl_exporter's smartctl_device.",
            labels=["device", "model_name", "serial_number", "protocol", "source"],
        )
        for d in drives:
            info.add_metric([d.device, d.model_name, d.serial_number, d.protocol, d.source], 1.0)
        yield info
        yield ok
        for name, help_text, kind, attr in METRICS:
            family_type = CounterMetricFamily if kind == "counter" else GaugeMetricFamily
            fam = family_type(name, help_text, labels=["device"])
            for d in drives:
                value = getattr(d, attr)
                if value is not None:
                    fam.add_metric([d.device], float(value))
            yield fam


def parse_listen(text: str) -> tuple[str, int]:
    m = re.fullmatch(r"(\[[0-9a-fA-F:]+\]|[^:]+):(\d{1,5})", text)
    if m is None or int(m.group(2)) > 65535:
        raise ConfigError(f"--listen: expected HOST:PORT (e.g. 127.0.0.1:9633), got {text!r}")
    return m.group(1).strip("[]"), int(m.group(2))


def serve(sources: list[str], host: str, port: int, smartctl: str = "smartctl", nvme: str = "nvme"):
    """Start the HTTP server on a thread; returns (server, thread). Port 0 picks a free one."""
    try:
        from prometheus_client import CollectorRegistry, start_http_server
    except ImportError:
        raise ToolError(
            "the exporter needs prometheus_client: pip install 'overprov[exporter]'"
        ) from None

    registry = CollectorRegistry()
    registry.register(OverprovCollector(sources, smartctl, nvme))
    return start_http_server(port, addr=host, registry=registry)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "exporter",
        help="Prometheus exporter: host/NAND bytes, WAF, wear and days left per drive",
        description=(
            "Serve Prometheus metrics for drives: host and NAND bytes written, lifetime WAF, "
            "percentage used, available spare and projected remaining life, read again on each "
            "scrape. Sources are saved files (--from-files) or devices (--device). See "
            "docs/exporter.md for the metric names and example alert rules."
        ),
    )
    p.add_argument(
        "--listen",
        required=True,
        metavar="HOST:PORT",
        help="address to serve /metrics on, e.g. 127.0.0.1:9633 (port 0: any free port)",
    )
    p.add_argument(
        "--from-files",
        nargs="+",
        default=[],
        metavar="FILE",
        help="smartctl -j JSON files, nvme-cli NAND-write log outputs, or NVME_LOG,SMART_LOG "
        "pairs of one drive",
    )
    p.add_argument(
        "--device", action="append", default=[], metavar="DEV", help="a device (repeatable)"
    )
    p.add_argument("--smartctl", default="smartctl", metavar="PATH")
    p.add_argument("--nvme", default="nvme", metavar="PATH")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    sources = [*args.from_files, *args.device]
    if not sources:
        raise ConfigError("give --from-files FILE... or --device DEV")
    for spec in args.from_files:
        for part in spec.split(","):
            if not Path(part).is_file():
                raise ConfigError(f"--from-files: {part}: no such file")
    labels = [_device_label(s) for s in sources]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise ConfigError(
            "two sources would export the same device label (named after the file or "
            f"device): {', '.join(repeated)}; rename a file"
        )
    host, port = parse_listen(args.listen)
    server, _thread = serve(sources, host, port, args.smartctl, args.nvme)
    print(f"overprov exporter: serving http://{host}:{server.server_port}/metrics", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    finally:
        server.shutdown()
    return 0
